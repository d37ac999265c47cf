//! Host side of the mailbox protocol (docs/interfaces.md, "Mailbox protocol").

use std::fmt;
use std::time::{Duration, Instant};

use splicenic_fw_logic::mailbox::{self as mb, cmd, status};

use crate::bar::field;
pub use crate::card::Mailbox;
use crate::error::DriverError;
use crate::regs;

/// Default time the firmware has to answer one request.
pub use crate::card::DEFAULT_MAILBOX_TIMEOUT as DEFAULT_TIMEOUT;

fn cmd_name(code: u32) -> String {
    match cmd::name(code) {
        Some(n) => n.to_string(),
        None => format!("{code:#06x}"),
    }
}

/// Answer to PING.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pong {
    /// The card's timer when the firmware answered.
    pub timer: u64,
}

/// Answer to VERSION.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirmwareVersion {
    pub major: u8,
    pub minor: u8,
    pub patch: u8,
    pub api_version: u32,
    pub build_id: u32,
    pub build: String,
}

impl fmt::Display for FirmwareVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{}.{} (build {:#010x} \"{}\", mailbox API {})",
            self.major, self.minor, self.patch, self.build_id, self.build, self.api_version
        )
    }
}

/// Answer to DP_INFO: the data path as the firmware sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FwDpInfo {
    pub data_width: u32,
    pub rewriter_latency: u32,
    pub flow_capacity: u32,
    pub flow_slots: u32,
    /// DP.NOW when the firmware read it.
    pub now: u32,
}

/// Answer to BENCH.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchResult {
    pub cycles: u64,
    pub checksum: u32,
}

impl Mailbox<'_> {
    /// One mailbox request: returns the response status code and data words.
    pub fn call(
        &mut self,
        command: u32,
        args: &[u32],
        timeout: Duration,
    ) -> Result<(u32, Vec<u32>), DriverError> {
        use regs::mbox;
        use regs::mbox::status as st;
        let name = cmd_name(command);
        if args.len() > mbox::REQ_DATA_COUNT {
            return Err(DriverError::MailboxTooLong {
                cmd: name,
                len: args.len(),
                max: mbox::REQ_DATA_COUNT,
            });
        }
        let start = Instant::now();
        let pending = |s: u32| field(s, st::REQ_PENDING_SHIFT, st::REQ_PENDING_MASK) != 0;
        let ready = |s: u32| field(s, st::RSP_READY_SHIFT, st::RSP_READY_MASK) != 0;

        // 1. No request in flight; acknowledge a stale response.
        let mut wait = Duration::from_micros(50);
        loop {
            let s = self.card.bar.read32(mbox::STATUS)?;
            if ready(s) {
                self.card.bar.write32(mbox::RSP_ACK, 1)?;
            } else if !pending(s) {
                break;
            }
            if start.elapsed() > timeout {
                let state = self.card.fw_state()?.to_string();
                return Err(DriverError::MailboxBusy(timeout, state));
            }
            self.card.bar.pause(wait)?;
            wait = (wait * 2).min(Duration::from_millis(5));
        }

        // 2. Request.
        self.card.bar.write32(mbox::REQ_CMD, command)?;
        self.card.bar.write32(mbox::REQ_LEN, args.len() as u32)?;
        if !args.is_empty() {
            self.card.bar.write_block(mbox::REQ_DATA, args)?;
        }
        // 3. Doorbell with a fresh tag (continuing from the card's last tag on first use).
        let last = match self.card.tag {
            Some(t) => t,
            None => self.card.bar.read32(mbox::REQ_TAG)?,
        };
        let tag = last.wrapping_add(1);
        self.card.tag = Some(tag);
        let heartbeat0 = self.card.bar.read32(regs::ctrl::HEARTBEAT)?;
        self.card.bar.write32(mbox::REQ_DOORBELL, tag)?;

        // 4. Response.
        let mut wait = Duration::from_micros(50);
        loop {
            let s = self.card.bar.read32(mbox::STATUS)?;
            if ready(s) {
                break;
            }
            if start.elapsed() > timeout {
                let state = self.card.fw_state()?;
                let heartbeat = self.card.bar.read32(regs::ctrl::HEARTBEAT)?;
                let progress = if heartbeat == heartbeat0 {
                    ", not moving: the firmware main loop is stuck or not running".to_string()
                } else {
                    format!(
                        ", moved by {} while waiting",
                        heartbeat.wrapping_sub(heartbeat0)
                    )
                };
                return Err(DriverError::MailboxTimeout {
                    cmd: name,
                    timeout,
                    state: state.to_string(),
                    heartbeat,
                    progress,
                });
            }
            self.card.bar.pause(wait)?;
            wait = (wait * 2).min(Duration::from_millis(5));
        }
        let rsp_tag = self.card.bar.read32(mbox::RSP_TAG)?;
        if rsp_tag != tag {
            self.card.bar.write32(mbox::RSP_ACK, 1)?;
            return Err(DriverError::MailboxTag {
                cmd: name,
                expected: tag,
                found: rsp_tag,
            });
        }
        let code = self.card.bar.read32(mbox::RSP_STATUS)?;
        let len = self.card.bar.read32(mbox::RSP_LEN)? as usize;
        if len > mbox::RSP_DATA_COUNT {
            self.card.bar.write32(mbox::RSP_ACK, 1)?;
            return Err(DriverError::MailboxResponse {
                cmd: name,
                reason: format!(
                    "RSP_LEN {len} exceeds the {} data registers",
                    mbox::RSP_DATA_COUNT
                ),
            });
        }
        let mut data = vec![0u32; len];
        if len > 0 {
            self.card.bar.read_block(mbox::RSP_DATA, &mut data)?;
        }
        self.card.bar.write32(mbox::RSP_ACK, 1)?;
        Ok((code, data))
    }

    /// [`Mailbox::call`] that requires status OK and at least `min_len` response words.
    pub(crate) fn call_ok(
        &mut self,
        command: u32,
        args: &[u32],
        min_len: usize,
    ) -> Result<Vec<u32>, DriverError> {
        let (code, data) = self.call(command, args, self.card.mailbox_timeout)?;
        if code != status::OK {
            return Err(DriverError::MailboxStatus {
                cmd: cmd_name(command),
                status: code,
                name: status::name(code).unwrap_or("unknown status"),
            });
        }
        if data.len() < min_len {
            return Err(DriverError::MailboxResponse {
                cmd: cmd_name(command),
                reason: format!("{} data words, expected at least {min_len}", data.len()),
            });
        }
        Ok(data)
    }

    /// PING: checks the "PONG" word and returns the firmware's timer reading.
    pub fn ping(&mut self) -> Result<Pong, DriverError> {
        let d = self.call_ok(cmd::PING, &[], 3)?;
        if d[0] != mb::PONG {
            return Err(DriverError::MailboxResponse {
                cmd: "PING".into(),
                reason: format!(
                    "word 0 is {:#010x}, expected {:#010x} (\"PONG\")",
                    d[0],
                    mb::PONG
                ),
            });
        }
        Ok(Pong {
            timer: u64::from(d[2]) << 32 | u64::from(d[1]),
        })
    }

    /// VERSION: firmware version, mailbox API version and build identity.
    pub fn firmware_version(&mut self) -> Result<FirmwareVersion, DriverError> {
        let d = self.call_ok(cmd::VERSION, &[], 3 + mb::BUILD_STRING_LEN / 4)?;
        let v = mb::Version::from_packed(d[0]);
        let bytes: Vec<u8> = d[3..3 + mb::BUILD_STRING_LEN / 4]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .take_while(|&b| b != 0)
            .collect();
        Ok(FirmwareVersion {
            major: v.major,
            minor: v.minor,
            patch: v.patch,
            api_version: d[1],
            build_id: d[2],
            build: String::from_utf8_lossy(&bytes).into_owned(),
        })
    }

    /// ECHO: returns the words the firmware sent back.
    pub fn echo(&mut self, words: &[u32]) -> Result<Vec<u32>, DriverError> {
        self.call_ok(cmd::ECHO, words, 0)
    }

    /// BENCH: run `routine` for `iterations` and return the cycles and checksum.
    /// Ask the firmware to busy-wait `us` microseconds with its `DelayNs` provider; returns
    /// the card timer cycles that passed meanwhile.
    pub fn delay(&mut self, us: u32) -> Result<u64, DriverError> {
        let d = self.call_ok(cmd::DELAY, &[us], 2)?;
        Ok(u64::from(d[1]) << 32 | u64::from(d[0]))
    }

    /// DP_INFO: the data-path registers as the firmware reads them through its PAC
    /// (`None` on a card without the splicer).
    pub fn dp_info(&mut self) -> Result<Option<FwDpInfo>, DriverError> {
        let d = self.call_ok(cmd::DP_INFO, &[], 1)?;
        if d[0] == 0 {
            return Ok(None);
        }
        if d.len() < 5 {
            return Err(DriverError::MailboxResponse {
                cmd: cmd_name(cmd::DP_INFO),
                reason: format!("{} data words, expected 5", d.len()),
            });
        }
        Ok(Some(FwDpInfo {
            data_width: d[1] & 0xffff,
            rewriter_latency: d[1] >> 16,
            flow_capacity: d[2],
            flow_slots: d[3],
            now: d[4],
        }))
    }

    pub fn bench(&mut self, routine: u32, iterations: u32) -> Result<BenchResult, DriverError> {
        let d = self.call_ok(cmd::BENCH, &[routine, iterations], 3)?;
        Ok(BenchResult {
            cycles: u64::from(d[1]) << 32 | u64::from(d[0]),
            checksum: d[2],
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::card::Card;
    use crate::fakebar::FakeBar;

    #[test]
    fn unanswered_request_names_command_state_and_heartbeat() {
        // Fake BAR: plain memory, nobody answers.
        let mut bar = FakeBar::with_reset_values();
        bar.set(regs::ctrl::HEARTBEAT, 42);
        bar.set(regs::mbox::REQ_TAG, 7);
        let mut card = Card::open(Box::new(bar)).unwrap();
        let e = card
            .mailbox()
            .call(cmd::PING, &[], Duration::from_millis(10))
            .unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("PING"), "{msg}");
        assert!(msg.contains("OFF"), "{msg}");
        assert!(msg.contains("heartbeat 42"), "{msg}");
        // The request was written with the next tag after the card's last one.
        assert_eq!(card.bar_mut().read32(regs::mbox::REQ_DOORBELL).unwrap(), 8);
        assert_eq!(
            card.bar_mut().read32(regs::mbox::REQ_CMD).unwrap(),
            cmd::PING
        );
    }

    /// Answers one request: (command, request words) -> (status, response words).
    pub(crate) type Responder = Box<dyn FnMut(u32, &[u32]) -> (u32, Vec<u32>) + Send>;

    /// Fake BAR whose "firmware" answers instantly through a [`Responder`]. The request
    /// registers keep the last request. Only for testing the host side of the protocol.
    pub(crate) struct AnsweringFake(FakeBar, Responder);

    impl AnsweringFake {
        /// ECHO returns the request words, any other command gets UNKNOWN_COMMAND.
        pub(crate) fn echo() -> Self {
            Self::new(|command, words| {
                if command == cmd::ECHO {
                    (status::OK, words.to_vec())
                } else {
                    (status::UNKNOWN_COMMAND, vec![])
                }
            })
        }

        /// Answers every request with `respond`.
        pub(crate) fn new(
            respond: impl FnMut(u32, &[u32]) -> (u32, Vec<u32>) + Send + 'static,
        ) -> Self {
            Self(FakeBar::with_reset_values(), Box::new(respond))
        }
    }

    impl crate::bar::Bar for AnsweringFake {
        fn size(&self) -> u64 {
            self.0.size()
        }
        fn read32(&mut self, offset: u64) -> Result<u32, crate::BarError> {
            self.0.read32(offset)
        }
        fn write32(&mut self, offset: u64, value: u32) -> Result<(), crate::BarError> {
            use regs::mbox;
            self.0.write32(offset, value)?;
            if offset == mbox::REQ_DOORBELL {
                self.0.set(mbox::REQ_TAG, value);
                let command = self.0.read32(mbox::REQ_CMD)?;
                let len = self.0.read32(mbox::REQ_LEN)? as usize;
                let mut words = vec![0; len];
                self.0.read_block(mbox::REQ_DATA, &mut words)?;
                let (code, data) = (self.1)(command, &words);
                self.0.set(mbox::RSP_STATUS, code);
                self.0.set(mbox::RSP_LEN, data.len() as u32);
                self.0.write_block(mbox::RSP_DATA, &data)?;
                self.0.set(mbox::RSP_TAG, value);
                self.0.set(mbox::STATUS, 1 << mbox::status::RSP_READY_SHIFT);
            } else if offset == mbox::RSP_ACK {
                self.0.set(mbox::STATUS, 0);
            }
            Ok(())
        }
        fn describe(&self) -> String {
            "answering fake BAR (unit test)".into()
        }
    }

    #[test]
    fn answered_requests_return_data_and_status() {
        let mut card = Card::open(Box::new(AnsweringFake::echo())).unwrap();
        assert_eq!(
            card.mailbox().echo(&[1, 2, 0xdead_beef]).unwrap(),
            vec![1, 2, 0xdead_beef]
        );
        assert_eq!(card.mailbox().echo(&[]).unwrap(), Vec::<u32>::new());
        // Tags increment per request.
        assert_eq!(card.bar_mut().read32(regs::mbox::REQ_TAG).unwrap(), 2);
        let e = card.mailbox().ping().unwrap_err();
        assert!(
            matches!(
                e,
                DriverError::MailboxStatus {
                    status: status::UNKNOWN_COMMAND,
                    ..
                }
            ),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("PING failed: status 1 (UNKNOWN_COMMAND)"),
            "{e}"
        );
        // The response was acknowledged.
        assert_eq!(card.bar_mut().read32(regs::mbox::STATUS).unwrap(), 0);
    }

    #[test]
    fn too_many_words_are_refused_before_touching_the_card() {
        let mut card = Card::open(Box::new(FakeBar::with_reset_values())).unwrap();
        let e = card.mailbox().echo(&[0; 17]).unwrap_err();
        assert!(
            matches!(e, DriverError::MailboxTooLong { len: 17, .. }),
            "{e}"
        );
    }
}
