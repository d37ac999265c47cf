//! Writing captured Ethernet frames as a classic libpcap file (what `tcpdump -w` writes),
//! for `nicctl capture -w FILE`.
//!
//! The format is written here rather than with the `pcap-file` crate: its `PcapWriter` owns
//! the output and gives no access to it until `into_writer()`, so it cannot flush after
//! each frame (which lets Ctrl-C leave a complete file), and it refuses frames longer than
//! the snapshot length instead of truncating them as a capture must. The format itself is
//! a 24-byte file header and a 16-byte header per frame, all little-endian here:
//!
//! - file: magic `0xa1b2c3d4` (microsecond timestamps) or `0xa1b23c4d` (nanosecond),
//!   version 2.4, thiszone 0, sigfigs 0, snaplen, linktype 1 (LINKTYPE_ETHERNET);
//! - frame: seconds, micro- or nanoseconds, captured length, original length, then the
//!   captured bytes.
//!
//! The tests read the files back with `pcap-file`'s reader and, where installed, tshark.

use std::io::{self, Write};
use std::time::Duration;

/// LINKTYPE_ETHERNET.
pub const LINKTYPE_ETHERNET: u32 = 1;
#[cfg(test)]
/// Snapshot length used by [`PcapWriter::new`] (tcpdump's default).
pub const DEFAULT_SNAPLEN: u32 = 262_144;

/// Resolution of the timestamps in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TsResolution {
    #[cfg(test)]
    /// Microseconds (magic 0xa1b2c3d4), readable by every tool.
    Micro,
    /// Nanoseconds (magic 0xa1b23c4d).
    Nano,
}

impl TsResolution {
    fn magic(self) -> u32 {
        match self {
            #[cfg(test)]
            TsResolution::Micro => 0xa1b2_c3d4,
            TsResolution::Nano => 0xa1b2_3c4d,
        }
    }
}

/// Why a frame or the file header could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PcapError {
    /// The output failed.
    #[error("writing the capture file: {0}")]
    Io(#[from] io::Error),
    /// The timestamp does not fit the format's 32-bit seconds (after 2106).
    #[error("timestamp {0:?} is past what a pcap file can hold (2106-02-07)")]
    Timestamp(Duration),
    /// A frame longer than 4 GiB.
    #[error("frame of {0} bytes is too long for a pcap record")]
    FrameTooLong(usize),
    /// A snapshot length of 0.
    #[error("the snapshot length must be at least 1 byte")]
    ZeroSnaplen,
}

/// Writes a pcap file frame by frame, flushing after each.
#[derive(Debug)]
pub struct PcapWriter<W: Write> {
    out: W,
    resolution: TsResolution,
    snaplen: u32,
    frames: u64,
}

impl<W: Write> PcapWriter<W> {
    #[cfg(test)]
    /// Write the file header (snapshot length [`DEFAULT_SNAPLEN`]) and return the writer.
    pub fn new(out: W, resolution: TsResolution) -> Result<Self, PcapError> {
        Self::with_snaplen(out, resolution, DEFAULT_SNAPLEN)
    }

    /// Like [`PcapWriter::new`], keeping at most `snaplen` bytes of each frame.
    pub fn with_snaplen(
        mut out: W,
        resolution: TsResolution,
        snaplen: u32,
    ) -> Result<Self, PcapError> {
        if snaplen == 0 {
            return Err(PcapError::ZeroSnaplen);
        }
        let mut h = [0u8; 24];
        h[0..4].copy_from_slice(&resolution.magic().to_le_bytes());
        h[4..6].copy_from_slice(&2u16.to_le_bytes());
        h[6..8].copy_from_slice(&4u16.to_le_bytes());
        // thiszone (8..12) and sigfigs (12..16) stay 0.
        h[16..20].copy_from_slice(&snaplen.to_le_bytes());
        h[20..24].copy_from_slice(&LINKTYPE_ETHERNET.to_le_bytes());
        out.write_all(&h)?;
        out.flush()?;
        Ok(PcapWriter {
            out,
            resolution,
            snaplen,
            frames: 0,
        })
    }

    /// Append one frame captured at `ts` (time since the Unix epoch) and flush. A frame
    /// longer than the snapshot length is cut to it; its record keeps the original length.
    pub fn write_frame(&mut self, ts: Duration, frame: &[u8]) -> Result<(), PcapError> {
        let secs = u32::try_from(ts.as_secs()).map_err(|_| PcapError::Timestamp(ts))?;
        let frac = match self.resolution {
            #[cfg(test)]
            TsResolution::Micro => ts.subsec_micros(),
            TsResolution::Nano => ts.subsec_nanos(),
        };
        let orig = u32::try_from(frame.len()).map_err(|_| PcapError::FrameTooLong(frame.len()))?;
        let incl = orig.min(self.snaplen);
        let data = &frame[..incl as usize];
        let mut rec = Vec::with_capacity(16 + data.len());
        rec.extend_from_slice(&secs.to_le_bytes());
        rec.extend_from_slice(&frac.to_le_bytes());
        rec.extend_from_slice(&incl.to_le_bytes());
        rec.extend_from_slice(&orig.to_le_bytes());
        rec.extend_from_slice(data);
        self.out.write_all(&rec)?;
        self.out.flush()?;
        self.frames += 1;
        Ok(())
    }

    #[cfg(test)]
    /// Frames written so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    #[cfg(test)]
    /// The snapshot length.
    pub fn snaplen(&self) -> u32 {
        self.snaplen
    }

    #[cfg(test)]
    /// The output.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    #[cfg(test)]
    /// Give back the output.
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;
    use std::path::PathBuf;
    use std::process::Command;

    /// An Ethernet frame of `len` bytes (`len` >= 14) whose bytes identify it.
    fn frame(len: usize, tag: u8) -> Vec<u8> {
        let mut f = vec![0u8; len];
        f[0..6].copy_from_slice(&[0x02, 0, 0, 0, 0, 1]);
        f[6..12].copy_from_slice(&[0x02, 0, 0, 0, 0, 2]);
        f[12..14].copy_from_slice(&[0x08, 0x00]);
        for (i, b) in f[14..].iter_mut().enumerate() {
            *b = tag.wrapping_add(i as u8);
        }
        f
    }

    fn temp_path(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("nicctl-pcap-{}-{name}.pcap", std::process::id()))
    }

    const LENS: [usize; 4] = [60, 64, 1514, 9014];

    fn write_file(name: &str, res: TsResolution) -> (PathBuf, Vec<(Duration, Vec<u8>)>) {
        let path = temp_path(name);
        let frames: Vec<(Duration, Vec<u8>)> = LENS
            .iter()
            .enumerate()
            .map(|(i, &len)| {
                (
                    Duration::new(
                        1_700_000_000 + i as u64,
                        123_456_789 * (i as u32 + 1) % 1_000_000_000,
                    ),
                    frame(len, i as u8),
                )
            })
            .collect();
        let mut w = PcapWriter::new(File::create(&path).unwrap(), res).unwrap();
        for (ts, f) in &frames {
            w.write_frame(*ts, f).unwrap();
            // Flushed after each frame: the file is complete at every point.
            let len = std::fs::metadata(&path).unwrap().len();
            let expect: u64 = 24
                + frames[..w.frames() as usize]
                    .iter()
                    .map(|(_, f)| 16 + f.len() as u64)
                    .sum::<u64>();
            assert_eq!(len, expect);
        }
        (path, frames)
    }

    fn read_back(path: &PathBuf) -> (pcap_file::pcap::PcapHeader, Vec<(Duration, u32, Vec<u8>)>) {
        let mut r = pcap_file::pcap::PcapReader::new(File::open(path).unwrap()).unwrap();
        let header = r.header();
        let mut out = Vec::new();
        while let Some(p) = r.next_packet() {
            let p = p.unwrap();
            out.push((p.timestamp, p.orig_len, p.data.into_owned()));
        }
        (header, out)
    }

    #[test]
    fn nanosecond_file_reads_back() {
        let (path, frames) = write_file("nano", TsResolution::Nano);
        let (h, pkts) = read_back(&path);
        assert_eq!(h.datalink, pcap_file::DataLink::ETHERNET);
        assert_eq!(h.ts_resolution, pcap_file::TsResolution::NanoSecond);
        assert_eq!(
            (h.version_major, h.version_minor, h.snaplen),
            (2, 4, DEFAULT_SNAPLEN)
        );
        assert_eq!(pkts.len(), frames.len());
        for ((ts, f), (rts, orig, data)) in frames.iter().zip(&pkts) {
            assert_eq!(rts, ts);
            assert_eq!(*orig as usize, f.len());
            assert_eq!(data, f);
        }
        tshark_lengths(&path, &LENS);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn microsecond_file_reads_back() {
        let (path, frames) = write_file("micro", TsResolution::Micro);
        let (h, pkts) = read_back(&path);
        assert_eq!(h.ts_resolution, pcap_file::TsResolution::MicroSecond);
        for ((ts, f), (rts, _, data)) in frames.iter().zip(&pkts) {
            assert_eq!(rts.as_secs(), ts.as_secs());
            assert_eq!(rts.subsec_nanos(), ts.subsec_micros() * 1000);
            assert_eq!(data, f);
        }
        tshark_lengths(&path, &LENS);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn exact_bytes_of_header_and_record() {
        let mut w = PcapWriter::with_snaplen(Vec::new(), TsResolution::Micro, 65_535).unwrap();
        w.write_frame(Duration::new(0x0102_0304, 5_000), &[0xaa; 14])
            .unwrap();
        let b = w.into_inner();
        assert_eq!(
            &b[..24],
            &[
                0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 1, 0,
                0, 0
            ]
        );
        assert_eq!(
            &b[24..40],
            &[4, 3, 2, 1, 5, 0, 0, 0, 14, 0, 0, 0, 14, 0, 0, 0]
        );
        assert_eq!(&b[40..], &[0xaa; 14]);
        let n = PcapWriter::new(Vec::new(), TsResolution::Nano)
            .unwrap()
            .into_inner();
        assert_eq!(&n[..4], &[0x4d, 0x3c, 0xb2, 0xa1]);
    }

    #[test]
    fn long_frames_are_truncated_to_the_snaplen() {
        let mut w = PcapWriter::with_snaplen(Vec::new(), TsResolution::Micro, 100).unwrap();
        assert_eq!(w.snaplen(), 100);
        let f = frame(1514, 7);
        w.write_frame(Duration::from_secs(1), &f).unwrap();
        let b = w.into_inner();
        // pcap-file's reader refuses orig_len > snaplen, which libpcap allows; check by hand.
        assert_eq!(u32::from_le_bytes(b[32..36].try_into().unwrap()), 100);
        assert_eq!(u32::from_le_bytes(b[36..40].try_into().unwrap()), 1514);
        assert_eq!(&b[40..], &f[..100]);
        let path = temp_path("snap");
        std::fs::write(&path, &b).unwrap();
        tshark_lengths(&path, &[1514]);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(matches!(
            PcapWriter::with_snaplen(Vec::new(), TsResolution::Micro, 0),
            Err(PcapError::ZeroSnaplen)
        ));
        let mut w = PcapWriter::new(Vec::new(), TsResolution::Micro).unwrap();
        assert!(matches!(
            w.write_frame(Duration::from_secs(u64::from(u32::MAX) + 1), &[0; 60]),
            Err(PcapError::Timestamp(_))
        ));
        w.write_frame(Duration::ZERO, &[]).unwrap();
        assert_eq!(w.frames(), 1);
        assert_eq!(w.get_ref().len(), 24 + 16);

        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let Err(e) = PcapWriter::new(Broken, TsResolution::Micro) else {
            panic!("writing to a broken output succeeded");
        };
        assert!(e.to_string().contains("disk full"), "{e}");
    }

    /// Compare tshark's frame lengths with `lens` (a skip when tshark is not installed).
    fn tshark_lengths(path: &PathBuf, lens: &[usize]) {
        let out = match Command::new("tshark")
            .args(["-r"])
            .arg(path)
            .args(["-T", "fields", "-e", "frame.len"])
            .output()
        {
            Ok(out) => out,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let what = format!("the tshark check of {}", path.display());
                let why = "tshark not installed (cargo xtask setup)";
                // A skip the test runs of `cargo xtask test` count (or fail on).
                #[cfg(feature = "sim")]
                splicenic_sim::prereq::skip(&what, why);
                #[cfg(not(feature = "sim"))]
                eprintln!("note: {why}, skipping {what}");
                return;
            }
            Err(e) => panic!("running tshark: {e}"),
        };
        assert!(
            out.status.success(),
            "tshark failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got: Vec<usize> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.trim().parse().unwrap())
            .collect();
        assert_eq!(got, lens);
    }
}
