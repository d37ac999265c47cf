//! Reading the firmware's defmt log ring (docs/interfaces.md, "Log ring").
//!
//! [`RingReader`] walks `LOGBUF` behind `LOG.WPTR` (wrap, overrun, resync at the next `0x00`)
//! and yields complete frames; [`LogReader`] decodes them with the firmware ELF's defmt table.

use std::fmt;

use defmt_decoder::{DecodeError, Encoding, Table};
use splicenic_fw_logic::logring;

use crate::bar::Bar;
use crate::card::Card;
use crate::error::DriverError;
pub use crate::error::LogError;
use crate::regs;

/// One item of log output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogLine {
    /// A decoded message.
    Message {
        /// "TRACE", "DEBUG", "INFO", "WARN", "ERROR" (none for `println!`-style frames).
        level: Option<String>,
        /// Formatted timestamp, if the firmware defines one.
        timestamp: Option<String>,
        text: String,
    },
    /// Bytes overwritten before they were read.
    Lost(u64),
    /// A frame that did not decode (corrupt, or from a different firmware build).
    Malformed { bytes: usize },
    /// `LOG.WPTR` went backwards: the core was reset and the log starts over.
    Restarted,
}

impl fmt::Display for LogLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogLine::Message {
                level,
                timestamp,
                text,
            } => {
                if let Some(t) = timestamp {
                    write!(f, "{t} ")?;
                }
                match level {
                    Some(l) => write!(f, "{l:<5} {text}"),
                    None => f.write_str(text),
                }
            }
            LogLine::Lost(n) => write!(f, "{n} bytes of log lost (ring overrun)"),
            LogLine::Malformed { bytes } => {
                write!(f, "undecodable log frame of {bytes} bytes (does the ELF match the running firmware?)")
            }
            LogLine::Restarted => f.write_str("--- log restarted (core reset) ---"),
        }
    }
}

/// What one poll of the ring produced before decoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RingItem {
    /// A complete rzcobs frame (without its `0x00` delimiter).
    Frame(Vec<u8>),
    Lost(u64),
    Restarted,
}

/// Host read pointer into the log ring, with frame reassembly.
#[derive(Debug, Clone, Default)]
pub struct RingReader {
    rptr: u32,
    /// Bytes of a frame whose delimiter has not arrived yet.
    partial: Vec<u8>,
    /// False after a loss until the next `0x00` is seen.
    synced: bool,
    started: bool,
}

impl RingReader {
    /// A reader starting at the beginning of the log (pointer 0).
    pub fn new() -> RingReader {
        RingReader {
            synced: true,
            ..Default::default()
        }
    }

    /// The host's read pointer.
    pub fn rptr(&self) -> u32 {
        self.rptr
    }

    /// Read what the firmware wrote since the last poll and return the complete frames,
    /// losses and restarts, in order. `size` is `LOG.SIZE`.
    pub fn poll(&mut self, bar: &mut dyn Bar, size: u32) -> Result<Vec<RingItem>, DriverError> {
        let mut items = Vec::new();
        let wptr = bar.read32(regs::log::WPTR)?;
        let pending = wptr.wrapping_sub(self.rptr);
        // The pointer only grows; a huge distance means it went back to 0 (core reset). A
        // reset followed by exactly as many bytes as were read before is not detectable.
        if self.started && pending > u32::MAX / 2 {
            items.push(RingItem::Restarted);
            self.rptr = 0;
            self.partial.clear();
            self.synced = true;
        }
        self.started = true;
        let ring = |e: logring::RingError| DriverError::Log(LogError::Ring(e.to_string()));
        let back = logring::backlog(wptr, self.rptr, size).map_err(ring)?;
        if back.lost > 0 {
            self.lose(back.lost, &mut items);
        }
        if back.len == 0 {
            self.rptr = wptr;
            return Ok(items);
        }
        let mut bytes = Vec::with_capacity(back.len as usize);
        for span in logring::spans(back.start, size, back.len)
            .map_err(ring)?
            .iter()
        {
            read_bytes(bar, span.offset, span.len, &mut bytes)?;
        }
        // The writer may have lapped us while we read: the oldest bytes are then garbage.
        let after = bar.read32(regs::log::WPTR)?;
        let overwritten = after.wrapping_sub(back.start).saturating_sub(size);
        let mut data = &bytes[..];
        if overwritten > 0 {
            let n = overwritten.min(back.len);
            self.lose(n, &mut items);
            data = &bytes[n as usize..];
        }
        self.feed(data, &mut items);
        self.rptr = wptr;
        Ok(items)
    }

    fn lose(&mut self, n: u32, items: &mut Vec<RingItem>) {
        items.push(RingItem::Lost(u64::from(n)));
        self.partial.clear();
        self.synced = false;
    }

    fn feed(&mut self, mut data: &[u8], items: &mut Vec<RingItem>) {
        if !self.synced {
            match data.iter().position(|&b| b == 0) {
                Some(i) => {
                    data = &data[i + 1..];
                    self.synced = true;
                }
                None => return,
            }
        }
        for &b in data {
            if b == 0 {
                if !self.partial.is_empty() {
                    items.push(RingItem::Frame(std::mem::take(&mut self.partial)));
                }
            } else {
                self.partial.push(b);
            }
        }
    }
}

/// Append `len` ring bytes starting at ring offset `offset` (word-aligned reads).
fn read_bytes(
    bar: &mut dyn Bar,
    offset: u32,
    len: u32,
    out: &mut Vec<u8>,
) -> Result<(), DriverError> {
    if len == 0 {
        return Ok(());
    }
    let first = offset / 4;
    let last = (offset + len - 1) / 4;
    let mut words = vec![0u32; (last - first + 1) as usize];
    bar.read_block(regs::logbuf::DATA + u64::from(first) * 4, &mut words)?;
    let skip = (offset % 4) as usize;
    out.extend(
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .skip(skip)
            .take(len as usize),
    );
    Ok(())
}

/// Decodes the firmware log with the defmt table of its ELF.
pub struct LogReader {
    table: Table,
    ring: RingReader,
}

impl fmt::Debug for LogReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LogReader")
            .field("ring", &self.ring)
            .finish_non_exhaustive()
    }
}

impl LogReader {
    /// Read the defmt table from the firmware ELF.
    pub fn new(elf: &[u8]) -> Result<LogReader, LogError> {
        let table = Table::parse(elf)
            .map_err(|e| LogError::Table(format!("{e:#}")))?
            .ok_or(LogError::NoTable)?;
        if !matches!(table.encoding(), Encoding::Rzcobs) {
            return Err(LogError::RawEncoding);
        }
        Ok(LogReader {
            table,
            ring: RingReader::new(),
        })
    }

    /// Read and decode what the firmware logged since the last poll.
    pub fn poll(&mut self, card: &mut Card) -> Result<Vec<LogLine>, DriverError> {
        let size = card.info().log_size;
        let items = self.ring.poll(card.bar_mut(), size)?;
        Ok(items
            .into_iter()
            .map(|item| match item {
                RingItem::Frame(f) => self.decode(&f),
                RingItem::Lost(n) => LogLine::Lost(n),
                RingItem::Restarted => LogLine::Restarted,
            })
            .collect())
    }

    /// Decode one rzcobs frame (without its delimiter).
    pub fn decode(&self, frame: &[u8]) -> LogLine {
        let mut dec = self.table.new_stream_decoder();
        dec.received(frame);
        dec.received(&[0]);
        match dec.decode() {
            Ok(f) => LogLine::Message {
                level: f.level().map(|l| l.as_str().to_uppercase()),
                timestamp: f.display_timestamp().map(|t| t.to_string()),
                text: with_mailbox_names(f.display_message().to_string()),
            },
            Err(DecodeError::UnexpectedEof) | Err(DecodeError::Malformed) => {
                LogLine::Malformed { bytes: frame.len() }
            }
        }
    }
}

/// The firmware's mailbox line (`mbox tag T cmd 0xC len L -> status S len N`) with the
/// command's and the status's names, which the firmware leaves to the host to keep its image
/// small: `mbox tag T cmd NAME (0xC) len L -> status NAME len N`. Other lines, and codes
/// without a name, are left as they are.
fn with_mailbox_names(text: String) -> String {
    let t: Vec<&str> = text.split(' ').collect();
    let ["mbox", "tag", tag, "cmd", cmd, "len", len, "->", "status", st, "len", n] = t[..] else {
        return text;
    };
    let code = cmd
        .strip_prefix("0x")
        .and_then(|h| u32::from_str_radix(h, 16).ok());
    let (Some(code), Ok(st_code)) = (code, st.parse::<u32>()) else {
        return text;
    };
    let name = splicenic_layout::mailbox_cmd::name(code).unwrap_or("?");
    let status = splicenic_layout::mailbox_status::name(st_code).unwrap_or(st);
    format!("mbox tag {tag} cmd {name} ({cmd}) len {len} -> status {status} len {n}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fakebar::FakeBar;

    #[test]
    fn mailbox_lines_get_their_names_on_the_host() {
        assert_eq!(
            with_mailbox_names("mbox tag 1 cmd 0x1 len 0 -> status 0 len 3".into()),
            "mbox tag 1 cmd PING (0x1) len 0 -> status OK len 3"
        );
        assert_eq!(
            with_mailbox_names("mbox tag 9 cmd 0x7777 len 0 -> status 2 len 0".into()),
            format!(
                "mbox tag 9 cmd ? (0x7777) len 0 -> status {} len 0",
                splicenic_layout::mailbox_status::name(2).unwrap_or("2")
            )
        );
        for other in [
            "ready, serving the mailbox",
            "mbox tag x cmd 0xzz len 0 -> status 0 len 0",
        ] {
            assert_eq!(with_mailbox_names(other.into()), other);
        }
    }

    /// Plays the firmware's writer against a fake BAR: appends `frame` + 0x00 at WPTR mod
    /// SIZE, wrapping, then advances WPTR.
    fn write_frame(bar: &mut FakeBar, frame: &[u8]) {
        let size = regs::log::size::RESET;
        let wptr = bar.mem[(regs::log::WPTR / 4) as usize];
        for (i, &b) in frame.iter().chain(std::iter::once(&0)).enumerate() {
            let off = wptr.wrapping_add(i as u32) % size;
            let w = &mut bar.mem[((regs::logbuf::DATA + u64::from(off & !3)) / 4) as usize];
            let sh = (off % 4) * 8;
            *w = (*w & !(0xff << sh)) | u32::from(b) << sh;
        }
        bar.set(regs::log::WPTR, wptr.wrapping_add(frame.len() as u32 + 1));
    }

    fn frames(items: &[RingItem]) -> Vec<Vec<u8>> {
        items
            .iter()
            .filter_map(|i| match i {
                RingItem::Frame(f) => Some(f.clone()),
                _ => None,
            })
            .collect()
    }

    const SIZE: u32 = regs::log::size::RESET;

    #[test]
    fn frames_come_out_in_order_and_partial_frames_wait() {
        let mut bar = FakeBar::with_reset_values();
        let mut r = RingReader::new();
        assert!(r.poll(&mut bar, SIZE).unwrap().is_empty());
        write_frame(&mut bar, b"abc");
        write_frame(&mut bar, b"defgh");
        let items = r.poll(&mut bar, SIZE).unwrap();
        assert_eq!(frames(&items), vec![b"abc".to_vec(), b"defgh".to_vec()]);
        // A frame whose delimiter is not written yet is held back.
        let w = bar.mem[(regs::log::WPTR / 4) as usize];
        write_frame(&mut bar, b"xyz");
        bar.set(regs::log::WPTR, w + 2);
        assert!(r.poll(&mut bar, SIZE).unwrap().is_empty());
        bar.set(regs::log::WPTR, w + 4);
        assert_eq!(
            frames(&r.poll(&mut bar, SIZE).unwrap()),
            vec![b"xyz".to_vec()]
        );
    }

    #[test]
    fn frames_across_the_ring_end_are_reassembled() {
        let mut bar = FakeBar::with_reset_values();
        let mut r = RingReader::new();
        let filler = vec![7u8; 99];
        let mut expected = Vec::new();
        for _ in 0..(SIZE as usize / 100 - 1) {
            write_frame(&mut bar, &filler);
            expected.push(filler.clone());
        }
        assert_eq!(frames(&r.poll(&mut bar, SIZE).unwrap()), expected);
        let long: Vec<u8> = (1..=250u8).collect();
        write_frame(&mut bar, &long);
        let w = bar.mem[(regs::log::WPTR / 4) as usize];
        assert!(w > SIZE, "the frame wraps the ring");
        assert_eq!(frames(&r.poll(&mut bar, SIZE).unwrap()), vec![long]);
        assert_eq!(r.rptr(), w);
    }

    #[test]
    fn overrun_reports_lost_bytes_and_resyncs_at_the_next_delimiter() {
        let mut bar = FakeBar::with_reset_values();
        let mut r = RingReader::new();
        write_frame(&mut bar, b"first");
        assert_eq!(
            frames(&r.poll(&mut bar, SIZE).unwrap()),
            vec![b"first".to_vec()]
        );
        let start = r.rptr();
        // 60 frames of 99 + 1 bytes overrun a 4 KiB ring.
        for i in 0..60u8 {
            write_frame(&mut bar, &[i + 1; 99]);
        }
        let w = bar.mem[(regs::log::WPTR / 4) as usize];
        let items = r.poll(&mut bar, SIZE).unwrap();
        let lost = u64::from(w - start - SIZE);
        assert_eq!(items[0], RingItem::Lost(lost));
        let got = frames(&items);
        // The partial frame at the cut is dropped; every later frame is whole.
        assert!(
            got.iter().all(|f| f.len() == 99),
            "{:?}",
            got.iter().map(Vec::len).collect::<Vec<_>>()
        );
        assert_eq!(got.last().unwrap(), &vec![60u8; 99]);
        let whole = (SIZE as usize - (lost as usize % 100).min(1)) / 100;
        assert!(
            got.len() >= whole - 1 && got.len() <= whole,
            "{} frames",
            got.len()
        );
        assert_eq!(
            LogLine::Lost(lost).to_string(),
            format!("{lost} bytes of log lost (ring overrun)")
        );
    }

    #[test]
    fn pointer_wrap_at_2_pow_32_is_seamless() {
        let mut bar = FakeBar::with_reset_values();
        let mut r = RingReader::new();
        let start = u32::MAX - 5;
        bar.set(regs::log::WPTR, start);
        r.rptr = start;
        r.started = true;
        write_frame(&mut bar, b"wrapping");
        assert_eq!(
            frames(&r.poll(&mut bar, SIZE).unwrap()),
            vec![b"wrapping".to_vec()]
        );
    }

    #[test]
    fn core_reset_restarts_the_log() {
        let mut bar = FakeBar::with_reset_values();
        let mut r = RingReader::new();
        write_frame(&mut bar, b"old frame");
        r.poll(&mut bar, SIZE).unwrap();
        // After a reset WPTR starts over; it is seen once it is behind the host's pointer.
        bar.set(regs::log::WPTR, 0);
        write_frame(&mut bar, b"new");
        let items = r.poll(&mut bar, SIZE).unwrap();
        assert_eq!(
            items,
            vec![RingItem::Restarted, RingItem::Frame(b"new".to_vec())]
        );
    }

    #[test]
    fn elf_without_defmt_table_is_explained() {
        let elf = crate::firmware::tests::good_elf();
        let e = LogReader::new(&elf).unwrap_err();
        assert!(e.to_string().contains("no defmt table"), "{e}");
    }

    #[test]
    fn log_lines_display_like_defmt() {
        let l = LogLine::Message {
            level: Some("INFO".into()),
            timestamp: None,
            text: "splicenic-fw 0.1.0 booted".into(),
        };
        assert_eq!(l.to_string(), "INFO  splicenic-fw 0.1.0 booted");
    }
}
