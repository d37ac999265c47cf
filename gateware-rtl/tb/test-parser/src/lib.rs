//! Test bench of the `eth_tcp_parser` gateware module: a safe wrapper around the Verilated
//! models (DATA_WIDTH 64 and 512) driven by the C++ shim in `csrc/shim.cpp`.
//!
//! One [`Parser::run`] call pushes a batch of frames in as AXI-Stream beats, clocks the model
//! until every header and every output frame has come out (or a cycle limit is hit), and
//! returns the header results, the output frames and cycle statistics.
//!
//! [`testkit`] holds the frame generators and the software reference model of the parser
//! verdict that the tests and the benchmark check the gateware against.

use std::fmt;

/// Reason codes of `m_hdr_reason`: enum ParserReason (`OK`, `OTHER_L3`, ..., `TCP_DOFF`).
pub use splicenic_layout::parser_reason as reason;

mod ffi {
    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct SnicHdr {
        pub reason: u32,
        pub ok: u32,
        pub other: u32,
        pub malformed: u32,
        pub vlan: u32,
        pub vlan_tci: u32,
        pub eth_type: u32,
        pub ip_version: u32,
        pub ip_ihl: u32,
        pub ip_tos: u32,
        pub ip_length: u32,
        pub ip_id: u32,
        pub ip_flags: u32,
        pub ip_frag_offset: u32,
        pub ip_ttl: u32,
        pub ip_protocol: u32,
        pub ip_checksum: u32,
        pub ip_src: u32,
        pub ip_dst: u32,
        pub tcp_src_port: u32,
        pub tcp_dst_port: u32,
        pub tcp_seq: u32,
        pub tcp_ack: u32,
        pub tcp_data_offset: u32,
        pub tcp_flags: u32,
        pub tcp_window: u32,
        pub tcp_checksum: u32,
        pub tcp_urgent: u32,
        pub tcp_opt_len: u32,
        pub l3_offset: u32,
        pub l4_offset: u32,
        pub payload_offset: u32,
        pub payload_len: u32,
        pub frame_len: u32,
        pub frame_tuser: u32,
        pub latency: u32,
        pub eth_dst: [u8; 8],
        pub eth_src: [u8; 8],
        /// 40 option bytes (as 5 x 8 so the struct derives `Default`).
        pub tcp_options: [[u8; 8]; 5],
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy)]
    pub struct SnicRunCfg {
        pub max_cycles: u64,
        pub in_valid_pct: u32,
        pub out_ready_pct: u32,
        pub hdr_ready_pct: u32,
        pub seed: u32,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct SnicRunStats {
        pub cycles: u64,
        pub in_beats: u64,
        pub first_in_cycle: u64,
        pub last_in_cycle: u64,
        pub out_beats: u64,
        pub hdrs: u64,
        pub out_frames: u64,
        pub max_latency: u64,
        pub first_out_cycle: u64,
        pub events: [u64; 16],
    }

    extern "C" {
        pub fn snic_parser_new(width: u32) -> *mut core::ffi::c_void;
        pub fn snic_parser_free(p: *mut core::ffi::c_void);
        pub fn snic_parser_reset(p: *mut core::ffi::c_void);
        #[allow(clippy::too_many_arguments)]
        pub fn snic_parser_run(
            p: *mut core::ffi::c_void,
            data: *const u8,
            lens: *const u32,
            mac_err: *const u8,
            n: u32,
            cfg: *const SnicRunCfg,
            hdrs: *mut SnicHdr,
            out_data: *mut u8,
            out_cap: usize,
            out_lens: *mut u32,
            stats: *mut SnicRunStats,
        ) -> i32;
    }
}

/// Data path width of the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    W64,
    W512,
}

impl Width {
    /// Bits per beat.
    pub fn bits(self) -> u32 {
        match self {
            Width::W64 => 64,
            Width::W512 => 512,
        }
    }

    /// Bytes per beat.
    pub fn bytes(self) -> usize {
        self.bits() as usize / 8
    }
}

/// Errors of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The cycle limit was reached before every frame came out: the pipeline stalled.
    Stall {
        cycles: u64,
        hdrs: u64,
        out_frames: u64,
    },
    /// The arguments were refused (empty frame, too many frames).
    BadArgument,
    /// The model produced more output than frames were sent in.
    Protocol,
    /// The model could not be created.
    Create,
    /// Any other shim code.
    Other(i32),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Stall {
                cycles,
                hdrs,
                out_frames,
            } => write!(
                f,
                "pipeline stalled: {hdrs} headers and {out_frames} frames out after {cycles} cycles"
            ),
            Error::BadArgument => write!(f, "bad argument"),
            Error::Protocol => write!(f, "model produced more output than input"),
            Error::Create => write!(f, "cannot create the model"),
            Error::Other(c) => write!(f, "shim error {c}"),
        }
    }
}

impl std::error::Error for Error {}

/// One input frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub bytes: Vec<u8>,
    /// Assert `s_axis_tuser` on the last beat (MAC error).
    pub mac_err: bool,
}

impl Frame {
    pub fn new(bytes: Vec<u8>) -> Self {
        Frame {
            bytes,
            mac_err: false,
        }
    }
}

/// The header result of one frame, as the RTL reported it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    pub reason: u8,
    pub ok: bool,
    pub other: bool,
    pub malformed: bool,
    pub eth_dst: [u8; 6],
    pub eth_src: [u8; 6],
    pub vlan: bool,
    pub vlan_tci: u16,
    pub eth_type: u16,
    pub ip_version: u8,
    pub ip_ihl: u8,
    pub ip_tos: u8,
    pub ip_length: u16,
    pub ip_id: u16,
    /// reserved, DF, MF (MF = bit 0)
    pub ip_flags: u8,
    pub ip_frag_offset: u16,
    pub ip_ttl: u8,
    pub ip_protocol: u8,
    pub ip_checksum: u16,
    pub ip_src: [u8; 4],
    pub ip_dst: [u8; 4],
    pub tcp_src_port: u16,
    pub tcp_dst_port: u16,
    pub tcp_seq: u32,
    pub tcp_ack: u32,
    pub tcp_data_offset: u8,
    /// NS CWR ECE URG ACK PSH RST SYN FIN (FIN = bit 0)
    pub tcp_flags: u16,
    pub tcp_window: u16,
    pub tcp_checksum: u16,
    pub tcp_urgent: u16,
    /// The option area, `tcp_opt_len` bytes long.
    pub tcp_options: Vec<u8>,
    pub l3_offset: u8,
    pub l4_offset: u8,
    pub payload_offset: u8,
    pub payload_len: u16,
    pub frame_len: u16,
}

/// What the model did with one frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub header: Header,
    /// The frame as it came out on `m_axis_*`.
    pub frame: Vec<u8>,
    /// `m_axis_tuser` on the frame's last beat.
    pub frame_tuser: bool,
    /// Cycles from the last input beat's acceptance to the header handshake.
    pub latency: u32,
}

/// Cycle statistics of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub cycles: u64,
    pub in_beats: u64,
    pub first_in_cycle: u64,
    pub last_in_cycle: u64,
    pub out_beats: u64,
    pub max_latency: u64,
    /// Cycle of the first output beat handshake.
    pub first_out_cycle: u64,
    /// `stat_event` pulses seen per reason code.
    pub events: [u64; 16],
}

impl Stats {
    /// Accepted input beats per cycle, from the first to the last accepted beat.
    pub fn beats_per_cycle(&self) -> f64 {
        if self.in_beats == 0 {
            return 0.0;
        }
        let span = self.last_in_cycle - self.first_in_cycle + 1;
        self.in_beats as f64 / span as f64
    }
}

/// Handshake pressure of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunConfig {
    pub max_cycles: u64,
    /// Probability (percent) that a pending input beat is offered in a cycle.
    pub in_valid_pct: u32,
    /// Probability (percent) of `m_axis_tready` in a cycle.
    pub out_ready_pct: u32,
    /// Probability (percent) of `m_hdr_ready` in a cycle.
    pub hdr_ready_pct: u32,
    pub seed: u32,
}

impl RunConfig {
    /// Everything always valid / ready: line rate.
    pub fn line_rate(max_cycles: u64) -> Self {
        RunConfig {
            max_cycles,
            in_valid_pct: 100,
            out_ready_pct: 100,
            hdr_ready_pct: 100,
            seed: 1,
        }
    }
}

/// A Verilated `eth_tcp_parser`.
pub struct Parser {
    raw: *mut core::ffi::c_void,
    width: Width,
}

impl Parser {
    /// Creates and resets a model.
    pub fn new(width: Width) -> Result<Self, Error> {
        // SAFETY: plain constructor; returns null for an unsupported width.
        let raw = unsafe { ffi::snic_parser_new(width.bits()) };
        if raw.is_null() {
            return Err(Error::Create);
        }
        Ok(Parser { raw, width })
    }

    pub fn width(&self) -> Width {
        self.width
    }

    /// Synchronous reset (needed after a [`Error::Stall`] or [`Error::Protocol`]).
    pub fn reset(&mut self) {
        // SAFETY: `raw` is a live model owned by `self`.
        unsafe { ffi::snic_parser_reset(self.raw) }
    }

    /// Sends `frames` back to back under `cfg` and collects every result.
    pub fn run(
        &mut self,
        frames: &[Frame],
        cfg: &RunConfig,
    ) -> Result<(Vec<Output>, Stats), Error> {
        let n = u32::try_from(frames.len()).map_err(|_| Error::BadArgument)?;
        if frames
            .iter()
            .any(|f| f.bytes.is_empty() || f.bytes.len() > u32::MAX as usize)
        {
            return Err(Error::BadArgument);
        }
        let data: Vec<u8> = frames
            .iter()
            .flat_map(|f| f.bytes.iter().copied())
            .collect();
        let lens: Vec<u32> = frames.iter().map(|f| f.bytes.len() as u32).collect();
        let mac_err: Vec<u8> = frames.iter().map(|f| u8::from(f.mac_err)).collect();
        let mut hdrs = vec![ffi::SnicHdr::default(); frames.len()];
        let mut out_data = vec![0u8; data.len()];
        let mut out_lens = vec![0u32; frames.len()];
        let mut st = ffi::SnicRunStats::default();
        let c = ffi::SnicRunCfg {
            max_cycles: cfg.max_cycles,
            in_valid_pct: cfg.in_valid_pct,
            out_ready_pct: cfg.out_ready_pct,
            hdr_ready_pct: cfg.hdr_ready_pct,
            seed: cfg.seed,
        };
        // SAFETY: every pointer refers to a live buffer of the length the shim expects:
        // `lens`, `mac_err`, `hdrs` and `out_lens` hold `n` elements, `data` holds the sum of
        // `lens`, `out_data` holds `out_data.len()` bytes (passed as the capacity).
        let rc = unsafe {
            ffi::snic_parser_run(
                self.raw,
                data.as_ptr(),
                lens.as_ptr(),
                mac_err.as_ptr(),
                n,
                &c,
                hdrs.as_mut_ptr(),
                out_data.as_mut_ptr(),
                out_data.len(),
                out_lens.as_mut_ptr(),
                &mut st,
            )
        };
        match rc {
            0 => {}
            -1 => {
                return Err(Error::Stall {
                    cycles: st.cycles,
                    hdrs: st.hdrs,
                    out_frames: st.out_frames,
                })
            }
            -3 => return Err(Error::BadArgument),
            -4 => return Err(Error::Protocol),
            c => return Err(Error::Other(c)),
        }
        let mut outs = Vec::with_capacity(frames.len());
        let mut pos = 0usize;
        for (h, &len) in hdrs.iter().zip(&out_lens) {
            let len = len as usize;
            let frame = out_data
                .get(pos..pos + len)
                .ok_or(Error::Protocol)?
                .to_vec();
            pos += len;
            outs.push(Output {
                header: convert(h),
                frame,
                frame_tuser: h.frame_tuser != 0,
                latency: h.latency,
            });
        }
        let stats = Stats {
            cycles: st.cycles,
            in_beats: st.in_beats,
            first_in_cycle: st.first_in_cycle,
            last_in_cycle: st.last_in_cycle,
            out_beats: st.out_beats,
            max_latency: st.max_latency,
            first_out_cycle: st.first_out_cycle,
            events: st.events,
        };
        Ok((outs, stats))
    }
}

impl Drop for Parser {
    fn drop(&mut self) {
        // SAFETY: `raw` came from `snic_parser_new` and is freed exactly once here.
        unsafe { ffi::snic_parser_free(self.raw) }
    }
}

fn convert(h: &ffi::SnicHdr) -> Header {
    let mut dst = [0u8; 6];
    let mut src = [0u8; 6];
    dst.copy_from_slice(&h.eth_dst[..6]);
    src.copy_from_slice(&h.eth_src[..6]);
    let opt_len = (h.tcp_opt_len as usize).min(40);
    Header {
        reason: h.reason as u8,
        ok: h.ok != 0,
        other: h.other != 0,
        malformed: h.malformed != 0,
        eth_dst: dst,
        eth_src: src,
        vlan: h.vlan != 0,
        vlan_tci: h.vlan_tci as u16,
        eth_type: h.eth_type as u16,
        ip_version: h.ip_version as u8,
        ip_ihl: h.ip_ihl as u8,
        ip_tos: h.ip_tos as u8,
        ip_length: h.ip_length as u16,
        ip_id: h.ip_id as u16,
        ip_flags: h.ip_flags as u8,
        ip_frag_offset: h.ip_frag_offset as u16,
        ip_ttl: h.ip_ttl as u8,
        ip_protocol: h.ip_protocol as u8,
        ip_checksum: h.ip_checksum as u16,
        ip_src: h.ip_src.to_be_bytes(),
        ip_dst: h.ip_dst.to_be_bytes(),
        tcp_src_port: h.tcp_src_port as u16,
        tcp_dst_port: h.tcp_dst_port as u16,
        tcp_seq: h.tcp_seq,
        tcp_ack: h.tcp_ack,
        tcp_data_offset: h.tcp_data_offset as u8,
        tcp_flags: h.tcp_flags as u16,
        tcp_window: h.tcp_window as u16,
        tcp_checksum: h.tcp_checksum as u16,
        tcp_urgent: h.tcp_urgent as u16,
        tcp_options: h
            .tcp_options
            .iter()
            .flatten()
            .copied()
            .take(opt_len)
            .collect(),
        l3_offset: h.l3_offset as u8,
        l4_offset: h.l4_offset as u8,
        payload_offset: h.payload_offset as u8,
        payload_len: h.payload_len as u16,
        frame_len: h.frame_len as u16,
    }
}

/// The `tcp_classifier` model (VIP_ENTRIES 8, LOCAL_ENTRIES 4).
pub mod classifier {
    use super::Error;

    pub const VIP_ENTRIES: usize = 8;
    pub const LOCAL_ENTRIES: usize = 4;

    use splicenic_layout::{frame_class, punt_why, tcp_kind};

    /// Classes (`m_cls_class`): enum FrameClass.
    pub const VIP: u8 = frame_class::VIP;
    pub const SERVER: u8 = frame_class::SERVER;
    pub const PUNT: u8 = frame_class::PUNT;
    pub const DROP: u8 = frame_class::DROP;
    /// Why codes (`m_cls_why`): enum PuntWhy.
    pub const WHY_NONE: u8 = punt_why::NONE;
    pub const WHY_ARP: u8 = punt_why::ARP;
    pub const WHY_ICMP: u8 = punt_why::ICMP;
    pub const WHY_OTHER: u8 = punt_why::OTHER;
    pub const WHY_MALFORMED: u8 = punt_why::MALFORMED;
    pub const WHY_NOMATCH: u8 = punt_why::NOMATCH;
    /// TCP kinds (`m_cls_kind`): enum TcpKind.
    pub const K_NONE: u8 = tcp_kind::NONE;
    pub const K_RST: u8 = tcp_kind::RST;
    pub const K_SYN: u8 = tcp_kind::SYN;
    pub const K_SYN_ACK: u8 = tcp_kind::SYNACK;
    pub const K_FIN: u8 = tcp_kind::FIN;
    pub const K_DATA: u8 = tcp_kind::DATA;
    pub const K_ACK: u8 = tcp_kind::ACK;
    pub const K_OTHER: u8 = tcp_kind::OTHER;

    mod ffi {
        #[repr(C)]
        #[derive(Debug, Clone, Copy, Default)]
        pub struct SnicClsIn {
            pub reason: u32,
            pub eth_type: u32,
            pub ip_protocol: u32,
            pub ip_dst: u32,
            pub tcp_dst_port: u32,
            pub tcp_flags: u32,
            pub payload_len: u32,
        }

        #[repr(C)]
        #[derive(Debug, Clone, Copy, Default)]
        pub struct SnicClsOut {
            pub cls: u32,
            pub why: u32,
            pub kind: u32,
            pub index: u32,
        }

        #[repr(C)]
        #[derive(Debug, Clone, Copy, Default)]
        pub struct SnicClsCfg {
            pub vip_enable: u32,
            pub vip_addr: [u32; 8],
            pub vip_port: [u32; 8],
            pub local_enable: u32,
            pub local_addr: [u32; 4],
            pub punt: u32,
        }

        extern "C" {
            #[allow(clippy::too_many_arguments)]
            pub fn snic_classifier_run(
                cfg: *const SnicClsCfg,
                input: *const SnicClsIn,
                n: u32,
                out: *mut SnicClsOut,
                valid_pct: u32,
                ready_pct: u32,
                seed: u32,
                max_cycles: u64,
                cycles_out: *mut u64,
            ) -> i32;
        }
    }

    /// Classifier configuration (what a CSR block would drive).
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct Config {
        /// (address, port) of each enabled virtual service entry.
        pub vips: [Option<([u8; 4], u16)>; VIP_ENTRIES],
        /// Card-owned server-side addresses.
        pub locals: [Option<[u8; 4]>; LOCAL_ENTRIES],
        /// Bit `why` set: punt, clear: drop.
        pub punt: u8,
    }

    /// The header fields the classifier reads.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct Input {
        pub reason: u8,
        pub eth_type: u16,
        pub ip_protocol: u8,
        pub ip_dst: [u8; 4],
        pub tcp_dst_port: u16,
        pub tcp_flags: u16,
        pub payload_len: u16,
    }

    impl From<&super::Header> for Input {
        fn from(h: &super::Header) -> Self {
            Input {
                reason: h.reason,
                eth_type: h.eth_type,
                ip_protocol: h.ip_protocol,
                ip_dst: h.ip_dst,
                tcp_dst_port: h.tcp_dst_port,
                tcp_flags: h.tcp_flags,
                payload_len: h.payload_len,
            }
        }
    }

    /// The decision for one header.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct Decision {
        pub class: u8,
        pub why: u8,
        pub kind: u8,
        pub index: u8,
    }

    /// Runs a fresh classifier model over `inputs` with random input gaps and output
    /// back-pressure (percentages; 100 = always); returns the decisions and the cycle count.
    pub fn run(
        cfg: &Config,
        inputs: &[Input],
        valid_pct: u32,
        ready_pct: u32,
        seed: u32,
    ) -> Result<(Vec<Decision>, u64), Error> {
        let n = u32::try_from(inputs.len()).map_err(|_| Error::BadArgument)?;
        let mut c = ffi::SnicClsCfg {
            punt: u32::from(cfg.punt),
            ..Default::default()
        };
        for (i, v) in cfg.vips.iter().enumerate() {
            if let Some((a, p)) = v {
                c.vip_enable |= 1 << i;
                c.vip_addr[i] = u32::from_be_bytes(*a);
                c.vip_port[i] = u32::from(*p);
            }
        }
        for (i, v) in cfg.locals.iter().enumerate() {
            if let Some(a) = v {
                c.local_enable |= 1 << i;
                c.local_addr[i] = u32::from_be_bytes(*a);
            }
        }
        let ins: Vec<ffi::SnicClsIn> = inputs
            .iter()
            .map(|h| ffi::SnicClsIn {
                reason: u32::from(h.reason),
                eth_type: u32::from(h.eth_type),
                ip_protocol: u32::from(h.ip_protocol),
                ip_dst: u32::from_be_bytes(h.ip_dst),
                tcp_dst_port: u32::from(h.tcp_dst_port),
                tcp_flags: u32::from(h.tcp_flags),
                payload_len: u32::from(h.payload_len),
            })
            .collect();
        let mut outs = vec![ffi::SnicClsOut::default(); inputs.len()];
        let mut cycles = 0u64;
        let max_cycles = 1000 + 200 * inputs.len() as u64;
        // SAFETY: `ins` and `outs` hold `n` elements each; `c` and `cycles` are live locals.
        let rc = unsafe {
            ffi::snic_classifier_run(
                &c,
                ins.as_ptr(),
                n,
                outs.as_mut_ptr(),
                valid_pct,
                ready_pct,
                seed,
                max_cycles,
                &mut cycles,
            )
        };
        match rc {
            0 => Ok((
                outs.iter()
                    .map(|o| Decision {
                        class: o.cls as u8,
                        why: o.why as u8,
                        kind: o.kind as u8,
                        index: o.index as u8,
                    })
                    .collect(),
                cycles,
            )),
            -1 => Err(Error::Stall {
                cycles,
                hdrs: 0,
                out_frames: 0,
            }),
            -3 => Err(Error::BadArgument),
            -4 => Err(Error::Protocol),
            c => Err(Error::Other(c)),
        }
    }
}

pub mod testkit;
