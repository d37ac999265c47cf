//! Host/firmware mailbox protocol (docs/interfaces.md, "Mailbox protocol") and the firmware's
//! command dispatcher.
//!
//! The constants are shared with the host driver. [`handle`] and [`handle_request`] are pure:
//! the firmware supplies the clock and the build identity through [`Env`] and moves the words
//! between the registers and the buffers itself.

use crate::flowhash::{bench_flow_setup, FlowTable};

/// Mailbox API version reported by VERSION (`registers/records.toml`): 2 adds the
/// control-plane commands (`SVC_GET` 0x29 .. `CAPTURE_INFO` 0x36) to version 1; 3 adds
/// `FLOW_PROFILE` 0x37; 4 adds `HEAD_STATS` 0x38.
pub use splicenic_layout::MAILBOX_API_VERSION as API_VERSION;
/// First response word of PING ("PONG" in ASCII; `registers/records.toml`).
pub use splicenic_layout::MAILBOX_PONG as PONG;
/// Number of `REQ_DATA` / `RSP_DATA` words.
pub const MAX_WORDS: usize = 16;
/// Length of the VERSION build string in bytes (ASCII, NUL padded).
pub const BUILD_STRING_LEN: usize = 32;
/// Largest BENCH iteration count the firmware accepts.
pub const BENCH_MAX_ITERATIONS: u32 = 1_000_000;

/// Command codes (`REQ_CMD`: `PING` .. `DEBUG_HANG`, and `name`), declared in
/// `registers/records.toml` (enumeration `MailboxCmd`).
pub use splicenic_layout::mailbox_cmd as cmd;

/// Status codes (`RSP_STATUS`: `OK` .. `NO_DATAPATH`, and `name`), declared in
/// `registers/records.toml` (enumeration `MailboxStatus`).
pub use splicenic_layout::mailbox_status as status;

/// BENCH routines (request word 0).
pub mod bench {
    /// "Flow setup": hash and insert one flow per iteration (see `flowhash`).
    pub const FLOW_SETUP: u32 = 1;
}

/// Firmware version as reported by VERSION word 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    pub major: u8,
    pub minor: u8,
    pub patch: u8,
}

impl Version {
    /// `major << 16 | minor << 8 | patch`.
    pub const fn packed(self) -> u32 {
        (self.major as u32) << 16 | (self.minor as u32) << 8 | self.patch as u32
    }

    /// Inverse of [`Version::packed`] (bits 31:24 are ignored).
    pub const fn from_packed(w: u32) -> Self {
        Self {
            major: (w >> 16) as u8,
            minor: (w >> 8) as u8,
            patch: w as u8,
        }
    }
}

/// Parses a decimal `u32` at compile time (for build-script values such as the build id);
/// `None` if it is empty, not decimal or does not fit.
pub const fn parse_decimal_u32(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    if b.is_empty() {
        return None;
    }
    let mut v: u32 = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if !c.is_ascii_digit() {
            return None;
        }
        v = match v.checked_mul(10) {
            Some(x) => match x.checked_add((c - b'0') as u32) {
                Some(y) => y,
                None => return None,
            },
            None => return None,
        };
        i += 1;
    }
    Some(v)
}

/// Parses a decimal version component such as `env!("CARGO_PKG_VERSION_MINOR")`;
/// `None` if it is empty, not decimal or above 255.
pub const fn parse_version_component(s: &str) -> Option<u8> {
    match parse_decimal_u32(s) {
        Some(v) if v <= 255 => Some(v as u8),
        _ => None,
    }
}

/// Identity of the running firmware build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildInfo {
    pub version: Version,
    pub build_id: u32,
    /// ASCII, NUL padded.
    pub build_string: [u8; BUILD_STRING_LEN],
}

impl BuildInfo {
    /// Build info with `build_string` truncated to [`BUILD_STRING_LEN`] bytes and NUL padded.
    pub const fn new(version: Version, build_id: u32, build_string: &str) -> Self {
        let src = build_string.as_bytes();
        let mut s = [0u8; BUILD_STRING_LEN];
        let mut i = 0;
        while i < src.len() && i < BUILD_STRING_LEN {
            s[i] = src[i];
            i += 1;
        }
        Self {
            version,
            build_id,
            build_string: s,
        }
    }

    /// The build string as the 8 little-endian words of VERSION `[3..11]`.
    pub fn build_string_words(&self) -> [u32; BUILD_STRING_LEN / 4] {
        let mut w = [0u32; BUILD_STRING_LEN / 4];
        for (word, bytes) in w.iter_mut().zip(self.build_string.chunks_exact(4)) {
            *word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        }
        w
    }

    /// The build string without its NUL padding (empty if it is not UTF-8).
    pub fn build_str(&self) -> &str {
        let end = self
            .build_string
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(BUILD_STRING_LEN);
        core::str::from_utf8(&self.build_string[..end]).unwrap_or("")
    }
}

/// What the dispatcher needs from the firmware.
pub trait Env {
    /// The free-running 64-bit timer (TIMER.COUNT), in core clock cycles.
    fn now(&mut self) -> u64;
    /// Identity of this build.
    fn build_info(&self) -> &BuildInfo;
    /// Busy-wait at least `us` microseconds.
    fn delay_us(&mut self, us: u32);
    /// The data-path registers DP_INFO reports (DP.PARAMS, DP.FLOW_CAPACITY,
    /// DP.FLOW_SLOTS, DP.NOW), or `None` on a card without the splicer.
    fn datapath_info(&mut self) -> Option<[u32; 4]>;
    /// Serves a command this dispatcher does not know (the flow-manager commands,
    /// [`crate::splicer::Splicer::command`]); `None` = unknown command.
    fn other_command(
        &mut self,
        _cmd: u32,
        _req: &[u32],
        _rsp: &mut [u32; MAX_WORDS],
    ) -> Option<Response> {
        None
    }
}

/// Longest DELAY the firmware accepts, in microseconds.
pub const DELAY_MAX_US: u32 = 1_000_000;

/// Outcome of one command: the `RSP_STATUS` code and the number of valid `rsp` words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Response {
    pub status: u32,
    pub len: usize,
}

impl Response {
    /// Status OK with `len` response words.
    pub const fn ok(len: usize) -> Self {
        Self {
            status: status::OK,
            len,
        }
    }

    /// An error status without response words.
    pub const fn error(status: u32) -> Self {
        Self { status, len: 0 }
    }
}

/// Validates a raw `REQ_LEN` value: `Some(words)` for 0..=16, `None` otherwise.
pub fn request_len(req_len: u32) -> Option<usize> {
    usize::try_from(req_len).ok().filter(|&n| n <= MAX_WORDS)
}

/// Handles a request straight from the registers: validates the raw `req_len` (`REQ_LEN`)
/// first — anything above 16 is `BAD_LENGTH` whatever the command, and no request word is
/// read then — and otherwise reads words `0..req_len` with `read_word` and calls [`handle`].
pub fn handle_request(
    cmd: u32,
    req_len: u32,
    mut read_word: impl FnMut(usize) -> u32,
    rsp: &mut [u32; MAX_WORDS],
    env: &mut impl Env,
) -> Response {
    let Some(n) = request_len(req_len) else {
        return Response::error(status::BAD_LENGTH);
    };
    let mut req = [0u32; MAX_WORDS];
    for (i, w) in req.iter_mut().enumerate().take(n) {
        *w = read_word(i);
    }
    handle(cmd, &req[..n], rsp, env)
}

/// Runs command `cmd` with request words `req`, writing the response words to `rsp`.
///
/// Checks, in order: `req.len() > 16` is `BAD_LENGTH`; an unknown command is
/// `UNKNOWN_COMMAND`; a request length the command does not take (PING and VERSION take 0
/// words, BENCH 2, DELAY 1, ECHO 0..=16) is `BAD_LENGTH`; a BENCH with an unknown routine or
/// more than [`BENCH_MAX_ITERATIONS`] iterations, or a DELAY of 0 or more than
/// [`DELAY_MAX_US`] microseconds, is `BAD_ARGUMENT`. Errors carry no response words.
/// Words of `rsp` beyond the response length are left as they were.
pub fn handle(cmd: u32, req: &[u32], rsp: &mut [u32; MAX_WORDS], env: &mut impl Env) -> Response {
    if req.len() > MAX_WORDS {
        return Response::error(status::BAD_LENGTH);
    }
    let expect_len = |ok: bool| {
        if ok {
            Ok(())
        } else {
            Err(Response::error(status::BAD_LENGTH))
        }
    };
    let r = match cmd {
        cmd::PING => expect_len(req.is_empty()).map(|()| {
            let t = env.now();
            rsp[0] = PONG;
            rsp[1] = t as u32;
            rsp[2] = (t >> 32) as u32;
            Response::ok(3)
        }),
        cmd::VERSION => expect_len(req.is_empty()).map(|()| {
            let info = env.build_info();
            rsp[0] = info.version.packed();
            rsp[1] = API_VERSION;
            rsp[2] = info.build_id;
            let words = info.build_string_words();
            rsp[3..3 + words.len()].copy_from_slice(&words);
            Response::ok(3 + words.len())
        }),
        cmd::ECHO => {
            rsp[..req.len()].copy_from_slice(req);
            Ok(Response::ok(req.len()))
        }
        cmd::BENCH => expect_len(req.len() == 2).and_then(|()| run_bench(req[0], req[1], rsp, env)),
        cmd::DELAY => expect_len(req.len() == 1).and_then(|()| {
            if req[0] == 0 || req[0] > DELAY_MAX_US {
                return Err(Response::error(status::BAD_ARGUMENT));
            }
            let start = env.now();
            env.delay_us(req[0]);
            let cycles = env.now().wrapping_sub(start);
            rsp[0] = cycles as u32;
            rsp[1] = (cycles >> 32) as u32;
            Ok(Response::ok(2))
        }),
        cmd::DP_INFO => expect_len(req.is_empty()).map(|()| match env.datapath_info() {
            Some(info) => {
                rsp[0] = 1;
                rsp[1..5].copy_from_slice(&info);
                Response::ok(5)
            }
            None => {
                rsp[0] = 0;
                Response::ok(1)
            }
        }),
        _ => Ok(env
            .other_command(cmd, req, rsp)
            .unwrap_or(Response::error(status::UNKNOWN_COMMAND))),
    };
    r.unwrap_or_else(|e| e)
}

fn run_bench(
    routine: u32,
    iterations: u32,
    rsp: &mut [u32; MAX_WORDS],
    env: &mut impl Env,
) -> Result<Response, Response> {
    if routine != bench::FLOW_SETUP || iterations > BENCH_MAX_ITERATIONS {
        return Err(Response::error(status::BAD_ARGUMENT));
    }
    let mut table = FlowTable::new();
    let start = env.now();
    let checksum = bench_flow_setup(&mut table, iterations);
    let cycles = env.now().wrapping_sub(start);
    rsp[0] = cycles as u32;
    rsp[1] = (cycles >> 32) as u32;
    rsp[2] = checksum;
    Ok(Response::ok(3))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fake environment for unit tests of the pure dispatcher: a clock that advances by a
    /// fixed step per reading, and a fixed build identity.
    struct FakeEnv {
        t: u64,
        step: u64,
        info: BuildInfo,
        dp: Option<[u32; 4]>,
    }

    impl FakeEnv {
        fn new() -> Self {
            Self {
                t: 0x1_2345_6789,
                step: 1000,
                info: BuildInfo::new(
                    Version {
                        major: 1,
                        minor: 2,
                        patch: 3,
                    },
                    0xCAFE_F00D,
                    "splicenic-fw 1.2.3 g1234567-dirty",
                ),
                dp: Some([0x0022_0040, 65536, 65536, 77]),
            }
        }
    }

    impl Env for FakeEnv {
        fn now(&mut self) -> u64 {
            let t = self.t;
            self.t += self.step;
            t
        }
        fn build_info(&self) -> &BuildInfo {
            &self.info
        }
        fn delay_us(&mut self, us: u32) {
            // The fake clock jumps by the delay (one tick per microsecond).
            self.t += u64::from(us);
        }
        fn datapath_info(&mut self) -> Option<[u32; 4]> {
            self.dp
        }
    }

    #[test]
    fn delay_reports_elapsed_cycles_and_checks_its_argument() {
        let mut env = FakeEnv::new();
        env.step = 5;
        let mut rsp = [FILL; MAX_WORDS];
        let r = handle(cmd::DELAY, &[100], &mut rsp, &mut env);
        assert_eq!(
            r,
            Response {
                status: status::OK,
                len: 2
            }
        );
        // One clock step for the start reading, the delay, then the end reading.
        assert_eq!(u64::from(rsp[1]) << 32 | u64::from(rsp[0]), 105);
        for bad in [0, DELAY_MAX_US + 1] {
            let r = handle(cmd::DELAY, &[bad], &mut rsp, &mut env);
            assert_eq!(r.status, status::BAD_ARGUMENT);
        }
        assert_eq!(
            handle(cmd::DELAY, &[], &mut rsp, &mut env).status,
            status::BAD_LENGTH
        );
    }

    const FILL: u32 = 0xAAAA_AAAA;

    fn run(cmd: u32, req: &[u32]) -> (Response, [u32; MAX_WORDS]) {
        let mut rsp = [FILL; MAX_WORDS];
        let r = handle(cmd, req, &mut rsp, &mut FakeEnv::new());
        (r, rsp)
    }

    #[test]
    fn constants_match_the_interface_document() {
        assert_eq!(
            (cmd::PING, cmd::VERSION, cmd::ECHO, cmd::BENCH),
            (1, 2, 3, 0x10)
        );
        assert_eq!(
            (
                status::OK,
                status::UNKNOWN_COMMAND,
                status::BAD_LENGTH,
                status::BAD_ARGUMENT
            ),
            (0, 1, 2, 3)
        );
        assert_eq!(&PONG.to_be_bytes(), b"PONG");
        assert_eq!(API_VERSION, 9);
        assert_eq!(cmd::name(0x10), Some("BENCH"));
        assert_eq!(status::name(3), Some("BAD_ARGUMENT"));
        assert_eq!(cmd::name(0x99), None);
        // The control-plane commands follow SERVER_STATS without a gap.
        let control = [
            "SVC_GET",
            "POOL_GET",
            "SERVER_GET",
            "CONFIG_MAP",
            "TIMEOUT_GET",
            "ZERO",
            "FLOW_LIST",
            "FLOW_GET",
            "RULESET_PUT",
            "RULESET_COMMIT",
            "RULESET_GET",
            "RULESET_INFO",
            "CAPTURE_SET",
            "CAPTURE_INFO",
            "FLOW_PROFILE",
            "HEAD_STATS",
            "TCP_STATS",
        ];
        for (i, name) in control.iter().enumerate() {
            assert_eq!(cmd::name(cmd::SERVER_STATS + 1 + i as u32), Some(*name));
        }
        assert_eq!(cmd::CAPTURE_INFO, 0x36);
        assert_eq!(cmd::FLOW_PROFILE, 0x37);
        assert_eq!(cmd::HEAD_STATS, 0x38);
        assert_eq!(cmd::TCP_STATS, 0x39);
        assert_eq!(cmd::name(0x3a), None);
        assert_eq!(cmd::name(cmd::DEBUG_HANG), Some("DEBUG_HANG"));
    }

    #[test]
    fn ping_answers_pong_and_the_timer() {
        let (r, rsp) = run(cmd::PING, &[]);
        assert_eq!(r, Response { status: 0, len: 3 });
        assert_eq!(rsp[..3], [PONG, 0x2345_6789, 0x1]);
        assert_eq!(rsp[3], FILL);
    }

    #[test]
    fn version_reports_version_api_build_id_and_string() {
        let (r, rsp) = run(cmd::VERSION, &[]);
        assert_eq!(r, Response { status: 0, len: 11 });
        assert_eq!(rsp[0], 0x0001_0203);
        assert_eq!(rsp[1], API_VERSION);
        assert_eq!(rsp[2], 0xCAFE_F00D);
        let bytes: Vec<u8> = rsp[3..11].iter().flat_map(|w| w.to_le_bytes()).collect();
        // 33 characters: truncated to 32.
        assert_eq!(&bytes[..], b"splicenic-fw 1.2.3 g1234567-dirt");
        assert_eq!(rsp[11], FILL);
    }

    #[test]
    fn short_build_string_is_nul_padded() {
        let v = Version::from_packed(0x0000_0100);
        let info = BuildInfo::new(v, 0, "abc");
        assert_eq!(info.build_str(), "abc");
        assert_eq!(info.build_string_words()[0], u32::from_le_bytes(*b"abc\0"));
        assert!(info.build_string_words()[1..].iter().all(|&w| w == 0));
        assert_eq!(v.packed(), 0x100);
    }

    #[test]
    fn version_components_parse() {
        assert_eq!(parse_version_component("0"), Some(0));
        assert_eq!(parse_version_component("255"), Some(255));
        assert_eq!(parse_version_component("256"), None);
        assert_eq!(parse_version_component(""), None);
        assert_eq!(parse_version_component("1a"), None);
        assert_eq!(parse_decimal_u32("4294967295"), Some(u32::MAX));
        assert_eq!(parse_decimal_u32("4294967296"), None);
        assert_eq!(parse_decimal_u32("99999999999"), None);
        assert_eq!(parse_decimal_u32("-1"), None);
    }

    #[test]
    fn echo_round_trips_every_length() {
        for n in 0..=MAX_WORDS {
            let req: Vec<u32> = (0..n as u32)
                .map(|i| i.wrapping_mul(0x9E37_79B9) ^ 0x55)
                .collect();
            let (r, rsp) = run(cmd::ECHO, &req);
            assert_eq!(r, Response { status: 0, len: n });
            assert_eq!(&rsp[..n], &req[..]);
            assert!(rsp[n..].iter().all(|&w| w == FILL));
        }
    }

    #[test]
    fn request_longer_than_16_words_is_bad_length() {
        let (r, rsp) = run(cmd::ECHO, &[7; 17]);
        assert_eq!(
            r,
            Response {
                status: status::BAD_LENGTH,
                len: 0
            }
        );
        assert!(rsp.iter().all(|&w| w == FILL));
        // Checked before the command code.
        assert_eq!(run(0xDEAD, &[0; 17]).0.status, status::BAD_LENGTH);
    }

    #[test]
    fn raw_req_len_is_validated_before_reading_words() {
        let mut env = FakeEnv::new();
        let mut rsp = [FILL; MAX_WORDS];
        let mut reads = 0;
        for bad in [17u32, 100, u32::MAX] {
            let r = handle_request(
                cmd::ECHO,
                bad,
                |_| {
                    reads += 1;
                    0
                },
                &mut rsp,
                &mut env,
            );
            assert_eq!(r.status, status::BAD_LENGTH);
        }
        assert_eq!(reads, 0);
        let r = handle_request(cmd::ECHO, 4, |i| 10 + i as u32, &mut rsp, &mut env);
        assert_eq!(r, Response { status: 0, len: 4 });
        assert_eq!(rsp[..5], [10, 11, 12, 13, FILL]);
        assert_eq!(request_len(16), Some(16));
        assert_eq!(request_len(17), None);
    }

    #[test]
    fn wrong_length_for_fixed_commands_is_bad_length() {
        assert_eq!(run(cmd::PING, &[1]).0.status, status::BAD_LENGTH);
        assert_eq!(run(cmd::VERSION, &[1]).0.status, status::BAD_LENGTH);
        assert_eq!(run(cmd::BENCH, &[1]).0.status, status::BAD_LENGTH);
        assert_eq!(run(cmd::BENCH, &[1, 2, 3]).0.status, status::BAD_LENGTH);
    }

    #[test]
    fn unknown_command_is_reported() {
        for c in [0, 4, 0x13, 0xFFFF_FFFF] {
            let (r, rsp) = run(c, &[]);
            assert_eq!(
                r,
                Response {
                    status: status::UNKNOWN_COMMAND,
                    len: 0
                }
            );
            assert!(rsp.iter().all(|&w| w == FILL));
        }
    }

    #[test]
    fn bench_rejects_unknown_routine_and_too_many_iterations() {
        assert_eq!(run(cmd::BENCH, &[0, 10]).0.status, status::BAD_ARGUMENT);
        assert_eq!(run(cmd::BENCH, &[2, 10]).0.status, status::BAD_ARGUMENT);
        assert_eq!(
            run(cmd::BENCH, &[1, BENCH_MAX_ITERATIONS + 1]).0.status,
            status::BAD_ARGUMENT
        );
    }

    /// Independent, deliberately plain reimplementation of BENCH routine 1 from the text of
    /// docs/interfaces.md: MurmurHash3 over the 12 serialised tuple bytes, a `Vec<Option<_>>`
    /// table with linear probing, cleared every 512 inserts.
    fn reference_flow_setup(iterations: u32) -> u32 {
        fn murmur(data: &[u8]) -> u32 {
            let (c1, c2) = (0xcc9e2d51u32, 0x1b873593u32);
            let mut h = 0u32;
            for chunk in data.chunks(4) {
                let mut k = 0u32;
                for (i, b) in chunk.iter().enumerate() {
                    k |= (*b as u32) << (8 * i);
                }
                k = k.wrapping_mul(c1).rotate_left(15).wrapping_mul(c2);
                h ^= k;
                if chunk.len() == 4 {
                    h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe6546b64);
                }
            }
            h ^= data.len() as u32;
            h ^= h >> 16;
            h = h.wrapping_mul(0x85ebca6b);
            h ^= h >> 13;
            h = h.wrapping_mul(0xc2b2ae35);
            h ^ (h >> 16)
        }
        let mut table: Vec<Option<u32>> = vec![None; 1024];
        let mut sum = 0u32;
        for i in 0..iterations {
            if i % 512 == 0 {
                table = vec![None; 1024];
            }
            let mut bytes = Vec::new();
            bytes.extend_from_slice(&(0x0A000000u32 + i).to_le_bytes());
            bytes.extend_from_slice(&0xC0A80001u32.to_le_bytes());
            bytes.extend_from_slice(&((1024 + (i & 0x7FFF)) as u16).to_le_bytes());
            bytes.extend_from_slice(&80u16.to_le_bytes());
            let h = murmur(&bytes);
            let mut slot = (h % 1024) as usize;
            while table[slot].is_some() {
                slot = (slot + 1) % 1024;
            }
            table[slot] = Some(h);
            sum = sum.wrapping_add(slot as u32);
        }
        sum
    }

    #[test]
    fn bench_flow_setup_matches_the_reference() {
        for iterations in [0u32, 1, 2, 511, 512, 513, 1500, 40_000] {
            let (r, rsp) = run(cmd::BENCH, &[bench::FLOW_SETUP, iterations]);
            assert_eq!(r, Response { status: 0, len: 3 }, "iterations {iterations}");
            assert_eq!(
                rsp[2],
                reference_flow_setup(iterations),
                "iterations {iterations}"
            );
            // The fake clock advances by 1000 per reading: two readings.
            assert_eq!((rsp[0], rsp[1]), (1000, 0));
        }
        // Collisions do happen, so probing is exercised (sum differs from the home slots).
        let home_sum: u32 = (0..512u32)
            .map(|i| {
                crate::flowhash::home_slot(crate::flowhash::flow_hash(
                    &crate::flowhash::bench_tuple(i),
                )) as u32
            })
            .sum();
        assert_ne!(home_sum, reference_flow_setup(512));
    }

    #[test]
    fn bench_accepts_the_maximum_iteration_count() {
        let (r, rsp) = run(cmd::BENCH, &[bench::FLOW_SETUP, BENCH_MAX_ITERATIONS]);
        assert_eq!(r.status, status::OK);
        assert_eq!(rsp[2], reference_flow_setup(BENCH_MAX_ITERATIONS));
    }

    #[test]
    fn dp_info_reports_the_data_path_or_its_absence() {
        let (r, rsp) = run(cmd::DP_INFO, &[]);
        assert_eq!((r.status, r.len), (status::OK, 5));
        assert_eq!(&rsp[..5], &[1, 0x0022_0040, 65536, 65536, 77]);
        let mut env = FakeEnv::new();
        env.dp = None;
        let mut rsp = [0u32; MAX_WORDS];
        let r = handle(cmd::DP_INFO, &[], &mut rsp, &mut env);
        assert_eq!((r.status, r.len, rsp[0]), (status::OK, 1, 0));
        let (r, _) = run(cmd::DP_INFO, &[1]);
        assert_eq!(r.status, status::BAD_LENGTH);
    }
}
