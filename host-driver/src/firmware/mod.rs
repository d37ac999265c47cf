//! Firmware images: parsing and checking an RV32 ELF executable, and loading it into a card.
//!
//! Segments are loaded by physical address (`p_paddr`, the load address): the linker places
//! `.data`'s initial values in IMEM (LMA) although it runs from DMEM (VMA), and the runtime
//! copies it at start-up.

use std::fmt;
use std::time::{Duration, Instant};

use object::elf;
use object::read::elf::{FileHeader, ProgramHeader};
use object::LittleEndian;

use crate::bar::field;
pub use crate::card::Firmware;
use crate::card::{CardInfo, CoreState, FwState};
use crate::error::DriverError;
pub use crate::error::FirmwareError;
use crate::regs;
pub mod seal;

use seal::Seal;

/// Core address of IMEM (docs/interfaces.md, "Address maps").
pub const IMEM_BASE: u32 = splicenic_layout::IMEM_BASE;
/// Core address of DMEM (docs/interfaces.md, "Address maps").
pub const DMEM_BASE: u32 = splicenic_layout::DMEM_BASE;

/// Offsets of the class and data-encoding bytes in `e_ident`.
const EI_CLASS: usize = 4;
const EI_DATA: usize = 5;

/// Words written per block during a load (progress granularity).
const BLOCK_WORDS: usize = 1024;
/// How long the firmware may take from reset release to READY.
pub const BOOT_TIMEOUT: Duration = Duration::from_secs(20);

/// Where the core's memories are and how large (from the card's ID block).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryMap {
    pub imem_base: u32,
    pub imem_size: u32,
    pub dmem_base: u32,
    pub dmem_size: u32,
}

impl MemoryMap {
    /// The memory map of a card as reported by its ID block.
    pub fn of(info: &CardInfo) -> MemoryMap {
        MemoryMap {
            imem_base: IMEM_BASE,
            imem_size: info.imem_size,
            dmem_base: DMEM_BASE,
            dmem_size: info.dmem_size,
        }
    }

    /// The memory map of the register map's reset values (the default gateware build).
    pub fn default_build() -> MemoryMap {
        MemoryMap {
            imem_base: IMEM_BASE,
            imem_size: regs::id::imem_size::RESET,
            dmem_base: DMEM_BASE,
            dmem_size: regs::id::dmem_size::RESET,
        }
    }

    fn imem(&self) -> (u64, u64) {
        let b = u64::from(self.imem_base);
        (b, b + u64::from(self.imem_size))
    }

    fn dmem(&self) -> (u64, u64) {
        let b = u64::from(self.dmem_base);
        (b, b + u64::from(self.dmem_size))
    }
}

/// One loadable segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// Load (physical) address.
    pub paddr: u32,
    /// Run (virtual) address.
    pub vaddr: u32,
    /// Size in memory at `vaddr` (>= `data.len()`; the rest is zero-filled).
    pub memsz: u32,
    /// File contents, loaded at `paddr`.
    pub data: Vec<u8>,
}

/// A parsed firmware executable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirmwareImage {
    pub entry: u32,
    pub segments: Vec<Segment>,
    /// The image's seal ([`crate::seal`]), checked by [`FirmwareImage::parse`] and again by
    /// every load; `None` for an image without one.
    pub seal: Option<Seal>,
    /// Whether a load may go ahead without a seal ([`FirmwareImage::accept_unverified`]).
    unverified_ok: bool,
}

fn u16_at(b: &[u8], off: usize, big: bool) -> u16 {
    let v = [b[off], b[off + 1]];
    if big {
        u16::from_be_bytes(v)
    } else {
        u16::from_le_bytes(v)
    }
}

fn machine_name(code: u16) -> String {
    match code {
        elf::EM_386 => "x86 (i386)".into(),
        elf::EM_X86_64 => "x86-64".into(),
        elf::EM_ARM => "32-bit ARM".into(),
        elf::EM_AARCH64 => "AArch64".into(),
        elf::EM_MIPS => "MIPS".into(),
        elf::EM_PPC => "PowerPC".into(),
        elf::EM_PPC64 => "PowerPC64".into(),
        elf::EM_XTENSA => "Xtensa".into(),
        elf::EM_AVR => "AVR".into(),
        elf::EM_NONE => "no machine".into(),
        n => format!("machine {n}"),
    }
}

impl FirmwareImage {
    /// Parse an ELF file and check that it is a 32-bit little-endian RISC-V executable
    /// with loadable contents, and, if it carries a seal, that its contents match it (a
    /// malformed or mismatching seal is an error). Whether it fits a card is
    /// [`FirmwareImage::check_fits`]; an image without a seal loads only after
    /// [`FirmwareImage::accept_unverified`].
    pub fn parse(bytes: &[u8]) -> Result<FirmwareImage, FirmwareError> {
        let mut img = FirmwareImage::parse_unsealed(bytes)?;
        if let Some((off, size)) = seal::find_seal_section(bytes)? {
            let s = Seal::decode(&bytes[off..off + size])?;
            s.check(&img)?;
            img.seal = Some(s);
        }
        Ok(img)
    }

    /// Whether the image carries a seal (already checked by [`FirmwareImage::parse`]).
    pub fn is_sealed(&self) -> bool {
        self.seal.is_some()
    }

    /// Lets an image without a seal be loaded (`nicctl program --allow-unverified`). A seal
    /// that is present is still checked.
    pub fn accept_unverified(&mut self) {
        self.unverified_ok = true;
    }

    /// What a load checks before writing anything: the seal against the contents, or, for an
    /// image without one, that it was accepted unverified. Returns the seal's fingerprint.
    pub fn verify(&self) -> Result<Option<String>, FirmwareError> {
        match (&self.seal, self.unverified_ok) {
            (Some(s), _) => s.check(self).map(|()| Some(s.fingerprint())),
            (None, true) => Ok(None),
            (None, false) => Err(FirmwareError::Unsealed),
        }
    }

    /// [`FirmwareImage::parse`] without reading the seal (what the sealer reads).
    pub(crate) fn parse_unsealed(bytes: &[u8]) -> Result<FirmwareImage, FirmwareError> {
        if bytes.len() < 4 || bytes[..4] != elf::ELFMAG {
            return Err(FirmwareError::NotElf);
        }
        if bytes.len() < 20 {
            return Err(FirmwareError::Truncated(format!(
                "{} bytes, shorter than an ELF header",
                bytes.len()
            )));
        }
        let big = match bytes[EI_DATA] {
            elf::ELFDATA2LSB => false,
            elf::ELFDATA2MSB => true,
            _ => return Err(FirmwareError::NotElf),
        };
        let machine = u16_at(bytes, 18, big);
        if machine != elf::EM_RISCV {
            return Err(FirmwareError::WrongArch {
                machine: machine_name(machine),
                code: machine,
            });
        }
        match bytes[EI_CLASS] {
            elf::ELFCLASS32 => {}
            elf::ELFCLASS64 => return Err(FirmwareError::WrongClass { bits: 64 }),
            _ => return Err(FirmwareError::NotElf),
        }
        if big {
            return Err(FirmwareError::WrongEndian);
        }
        let e_type = u16_at(bytes, 16, big);
        if e_type != elf::ET_EXEC {
            let kind = match e_type {
                elf::ET_REL => "relocatable object file".to_string(),
                elf::ET_DYN => "shared object / position-independent executable".to_string(),
                elf::ET_CORE => "core dump".to_string(),
                n => format!("file of ELF type {n}"),
            };
            return Err(FirmwareError::NotExecutable { kind });
        }

        let endian = LittleEndian;
        let hdr = elf::FileHeader32::<LittleEndian>::parse(bytes)
            .map_err(|e| FirmwareError::Truncated(format!("ELF header: {e}")))?;
        let phdrs = hdr
            .program_headers(endian, bytes)
            .map_err(|e| FirmwareError::Truncated(format!("program headers: {e}")))?;
        // The section headers sit at the end of the file: a file cut short loses them first,
        // even when every loadable segment is still complete.
        hdr.section_headers(endian, bytes).map_err(|_| {
            FirmwareError::Truncated(format!(
                "section header table ({} entries at file offset {:#x}) runs past the end of the {}-byte file",
                hdr.e_shnum(endian),
                hdr.e_shoff(endian),
                bytes.len()
            ))
        })?;
        let mut segments = Vec::new();
        for (i, ph) in phdrs.iter().enumerate() {
            if ph.p_type(endian) != elf::PT_LOAD || ph.p_memsz(endian) == 0 {
                continue;
            }
            let data = ph.data(endian, bytes).map_err(|_| {
                FirmwareError::Truncated(format!(
                    "segment {i} data ({} bytes at file offset {:#x}) runs past the end of the {}-byte file",
                    ph.p_filesz(endian),
                    ph.p_offset(endian),
                    bytes.len()
                ))
            })?;
            segments.push(Segment {
                paddr: ph.p_paddr(endian),
                vaddr: ph.p_vaddr(endian),
                memsz: ph.p_memsz(endian).max(data.len() as u32),
                data: data.to_vec(),
            });
        }
        if segments.iter().all(|s| s.data.is_empty()) {
            return Err(FirmwareError::NoLoadableSegments);
        }
        Ok(FirmwareImage {
            entry: hdr.e_entry(endian),
            segments,
            seal: None,
            unverified_ok: false,
        })
    }

    /// Bytes that are loaded (sum of the segments' file contents).
    pub fn image_bytes(&self) -> u64 {
        self.segments.iter().map(|s| s.data.len() as u64).sum()
    }

    /// Check the image against the memories of the card described by `info`.
    pub fn check_fits(&self, info: &CardInfo) -> Result<(), FirmwareError> {
        self.check_fits_map(&MemoryMap::of(info))
    }

    /// Check the image against a memory map: size, segment placement, entry point.
    pub fn check_fits_map(&self, map: &MemoryMap) -> Result<(), FirmwareError> {
        let (ib, ie) = map.imem();
        let (db, de) = map.dmem();
        let within = |s: u64, e: u64, (b, end): (u64, u64)| s >= b && e <= end;
        let starts_in = |s: u64, (b, end): (u64, u64)| s >= b && s < end;
        // Everything loaded into IMEM must fit in it.
        let total = self.image_bytes();
        let imem_end = self
            .segments
            .iter()
            .filter(|s| !s.data.is_empty() && starts_in(u64::from(s.paddr), (ib, ie)))
            .map(|s| u64::from(s.paddr) + s.data.len() as u64)
            .max()
            .unwrap_or(ib);
        if total > u64::from(map.imem_size) || imem_end > ie {
            return Err(FirmwareError::Oversize {
                image: total.max(imem_end - ib),
                imem: map.imem_size,
            });
        }
        for (index, s) in self.segments.iter().enumerate() {
            if !s.data.is_empty() {
                let (start, end) = (u64::from(s.paddr), u64::from(s.paddr) + s.data.len() as u64);
                if !within(start, end, (ib, ie)) && !within(start, end, (db, de)) {
                    return Err(FirmwareError::SegmentOutside {
                        index,
                        what: "load address",
                        start: s.paddr,
                        end,
                    });
                }
            }
            let (start, end) = (u64::from(s.vaddr), u64::from(s.vaddr) + u64::from(s.memsz));
            if !within(start, end, (ib, ie)) && !within(start, end, (db, de)) {
                return Err(FirmwareError::SegmentOutside {
                    index,
                    what: "run address",
                    start: s.vaddr,
                    end,
                });
            }
        }
        if !starts_in(u64::from(self.entry), (ib, ie)) {
            return Err(FirmwareError::EntryOutsideImem {
                entry: self.entry,
                base: map.imem_base,
                end: ie,
            });
        }
        Ok(())
    }

    /// Zero-filled IMEM and DMEM contents with the segments placed at their load addresses.
    fn memory_words(&self, map: &MemoryMap) -> Result<(Vec<u32>, Vec<u32>), FirmwareError> {
        self.check_fits_map(map)?;
        let mut imem = vec![0u8; map.imem_size as usize];
        let mut dmem = vec![0u8; map.dmem_size as usize];
        for s in self.segments.iter().filter(|s| !s.data.is_empty()) {
            let (mem, base) = if s.paddr >= map.imem_base
                && u64::from(s.paddr) < u64::from(map.imem_base) + u64::from(map.imem_size)
            {
                (&mut imem, map.imem_base)
            } else {
                (&mut dmem, map.dmem_base)
            };
            let off = (s.paddr - base) as usize;
            mem[off..off + s.data.len()].copy_from_slice(&s.data);
        }
        let words = |b: Vec<u8>| {
            b.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect::<Vec<u32>>()
        };
        Ok((words(imem), words(dmem)))
    }
}

/// What a load did and how long each phase took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadReport {
    /// The seal's fingerprint ([`Seal::fingerprint`]), or `None` for an image loaded
    /// unverified.
    pub seal: Option<String>,
    /// Bytes of the image (segment contents).
    pub image_bytes: u64,
    /// Bytes written to the card (both memories, zero fill included).
    pub written_bytes: u64,
    pub entry: u32,
    pub write: Duration,
    pub verify: Duration,
    pub boot: Duration,
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "loaded {} bytes ({} written with zero fill), entry {:#010x}: write {:.1} ms, verify {:.1} ms, boot {:.1} ms",
            self.image_bytes,
            self.written_bytes,
            self.entry,
            self.write.as_secs_f64() * 1e3,
            self.verify.as_secs_f64() * 1e3,
            self.boot.as_secs_f64() * 1e3
        )?;
        match &self.seal {
            Some(fp) => write!(f, "; seal {fp} verified"),
            None => write!(f, "; UNVERIFIED: the image has no seal"),
        }
    }
}

impl Firmware<'_> {
    /// Put the core in reset, write and verify the image, release the reset and wait for the
    /// firmware to report READY. `progress(done, total)` is called in bytes during the write.
    pub fn load(
        &mut self,
        img: &FirmwareImage,
        progress: impl FnMut(usize, usize),
    ) -> Result<LoadReport, DriverError> {
        self.load_with_timeout(img, BOOT_TIMEOUT, progress)
    }

    /// [`Firmware::load`] with an explicit boot timeout.
    pub fn load_with_timeout(
        &mut self,
        img: &FirmwareImage,
        boot_timeout: Duration,
        mut progress: impl FnMut(usize, usize),
    ) -> Result<LoadReport, DriverError> {
        let seal = img.verify()?;
        let map = MemoryMap::of(&self.card.info);
        let (imem, dmem) = img.memory_words(&map)?;
        use regs::ctrl::core_ctrl as cc;
        use regs::ctrl::core_status as cs;

        self.card.bar.write32(
            regs::ctrl::CORE_CTRL,
            (1 & cc::RESET_MASK) << cc::RESET_SHIFT,
        )?;
        let st = self.card.bar.read32(regs::ctrl::CORE_STATUS)?;
        if field(st, cs::IN_RESET_SHIFT, cs::IN_RESET_MASK) == 0 {
            return Err(DriverError::ResetNotAsserted { status: st });
        }

        let parts = [
            (self.card.info.imem_window, map.imem_base, &imem),
            (self.card.info.dmem_window, map.dmem_base, &dmem),
        ];
        let total = (imem.len() + dmem.len()) * 4;
        let t0 = Instant::now();
        let mut done = 0;
        progress(0, total);
        for (window, _, words) in parts {
            for (i, chunk) in words.chunks(BLOCK_WORDS).enumerate() {
                self.card
                    .bar
                    .write_block(window + (i * BLOCK_WORDS * 4) as u64, chunk)?;
                done += chunk.len() * 4;
                progress(done, total);
            }
        }
        let write = t0.elapsed();

        let t1 = Instant::now();
        let mut buf = vec![0u32; BLOCK_WORDS];
        for (window, base, words) in parts {
            for (i, chunk) in words.chunks(BLOCK_WORDS).enumerate() {
                let got = &mut buf[..chunk.len()];
                self.card
                    .bar
                    .read_block(window + (i * BLOCK_WORDS * 4) as u64, got)?;
                if let Some(j) = chunk.iter().zip(got.iter()).position(|(a, b)| a != b) {
                    let word = i * BLOCK_WORDS + j;
                    return Err(DriverError::VerifyMismatch {
                        addr: base.wrapping_add((word * 4) as u32),
                        expected: chunk[j],
                        found: got[j],
                    });
                }
            }
        }
        let verify = t1.elapsed();

        let t2 = Instant::now();
        self.card.bar.write32(regs::ctrl::CORE_CTRL, 0)?;
        self.card.tag = None;
        let mut wait = Duration::from_micros(100);
        loop {
            let status = self.card.status()?;
            // status() never reports a trapped core READY.
            match (status.core, status.fw_state) {
                (_, FwState::Ready) => break,
                (_, FwState::Panic) => return Err(DriverError::FirmwarePanicked),
                (CoreState::Trapped, _) => {
                    return Err(DriverError::CoreTrapped {
                        when: "during boot",
                    })
                }
                _ => {}
            }
            if t2.elapsed() > boot_timeout {
                return Err(DriverError::BootTimeout {
                    timeout: boot_timeout,
                    state: status.fw_state.to_string(),
                    heartbeat: status.heartbeat,
                });
            }
            self.card.bar.pause(wait)?;
            wait = (wait * 2).min(Duration::from_millis(10));
        }
        Ok(LoadReport {
            seal,
            image_bytes: img.image_bytes(),
            written_bytes: total as u64,
            entry: img.entry,
            write,
            verify,
            boot: t2.elapsed(),
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::card::Card;
    use crate::fakebar::FakeBar;

    /// A program segment for [`elf_bytes`]: (p_paddr, p_vaddr, contents, p_memsz).
    pub(crate) type Seg<'a> = (u32, u32, &'a [u8], u32);

    /// Build a minimal ELF32 executable (header + program headers + contents) by hand.
    pub(crate) fn elf32(
        machine: u16,
        data_enc: u8,
        e_type: u16,
        entry: u32,
        segs: &[Seg],
    ) -> Vec<u8> {
        let be = data_enc == elf::ELFDATA2MSB;
        let h16 = |v: u16| if be { v.to_be_bytes() } else { v.to_le_bytes() };
        let h32 = |v: u32| if be { v.to_be_bytes() } else { v.to_le_bytes() };
        let ph_off = 52u32;
        let mut data_off = ph_off + 32 * segs.len() as u32;
        let mut out = Vec::new();
        out.extend_from_slice(&elf::ELFMAG);
        out.extend_from_slice(&[elf::ELFCLASS32, data_enc, elf::EV_CURRENT, 0]);
        out.extend_from_slice(&[0; 8]);
        out.extend_from_slice(&h16(e_type));
        out.extend_from_slice(&h16(machine));
        out.extend_from_slice(&h32(1));
        out.extend_from_slice(&h32(entry));
        out.extend_from_slice(&h32(ph_off));
        out.extend_from_slice(&h32(0)); // e_shoff
        out.extend_from_slice(&h32(0)); // e_flags
        out.extend_from_slice(&h16(52));
        out.extend_from_slice(&h16(32));
        out.extend_from_slice(&h16(segs.len() as u16));
        out.extend_from_slice(&h16(40));
        out.extend_from_slice(&h16(0));
        out.extend_from_slice(&h16(0));
        assert_eq!(out.len(), 52);
        for &(paddr, vaddr, bytes, memsz) in segs {
            for v in [
                elf::PT_LOAD,
                data_off,
                vaddr,
                paddr,
                bytes.len() as u32,
                memsz,
                5,
                4,
            ] {
                out.extend_from_slice(&h32(v));
            }
            data_off += bytes.len() as u32;
        }
        for &(_, _, bytes, _) in segs {
            out.extend_from_slice(bytes);
        }
        out
    }

    /// A small RV32 image: code at 0, .data loaded in IMEM and run from DMEM, .bss.
    pub(crate) fn good_elf() -> Vec<u8> {
        let text: Vec<u8> = (0..64u8).collect();
        let data = [0xaa, 0xbb, 0xcc, 0xdd, 1, 2, 3, 4];
        elf32(
            elf::EM_RISCV,
            elf::ELFDATA2LSB,
            elf::ET_EXEC,
            0,
            &[
                (0, 0, &text, 64),
                (64, DMEM_BASE, &data, 8),
                (DMEM_BASE + 8, DMEM_BASE + 8, &[], 256),
            ],
        )
    }

    #[test]
    fn good_rv32_elf_parses_and_fits() {
        let img = FirmwareImage::parse(&good_elf()).unwrap();
        assert_eq!(img.entry, 0);
        assert_eq!(img.segments.len(), 3);
        assert_eq!(img.image_bytes(), 72);
        img.check_fits_map(&MemoryMap::default_build()).unwrap();
        let (imem, dmem) = img.memory_words(&MemoryMap::default_build()).unwrap();
        assert_eq!(imem[0], 0x0302_0100);
        assert_eq!(imem[16], 0xddcc_bbaa, ".data is loaded at its LMA in IMEM");
        assert!(dmem.iter().all(|&w| w == 0));
    }

    #[test]
    fn garbage_is_not_elf() {
        let e = FirmwareImage::parse(b"this is not a firmware image at all").unwrap_err();
        assert_eq!(e, FirmwareError::NotElf);
        assert_eq!(
            FirmwareImage::parse(&[]).unwrap_err(),
            FirmwareError::NotElf
        );
    }

    #[test]
    fn truncated_files_are_reported() {
        let full = good_elf();
        for cut in [10, 40, 60, full.len() - 3] {
            let e = FirmwareImage::parse(&full[..cut]).unwrap_err();
            assert!(
                matches!(e, FirmwareError::Truncated(_)),
                "cut at {cut}: {e}"
            );
        }
        let e = FirmwareImage::parse(&full[..full.len() - 3]).unwrap_err();
        assert!(e.to_string().contains("past the end"), "{e}");
    }

    #[test]
    fn wrong_architectures_are_named() {
        let arm = elf32(
            elf::EM_ARM,
            elf::ELFDATA2LSB,
            elf::ET_EXEC,
            0,
            &[(0, 0, &[0; 8], 8)],
        );
        let e = FirmwareImage::parse(&arm).unwrap_err();
        assert_eq!(
            e,
            FirmwareError::WrongArch {
                machine: "32-bit ARM".into(),
                code: elf::EM_ARM
            }
        );
        assert!(e.to_string().contains("not RISC-V"), "{e}");

        // A 64-bit x86-64 header: only the identification and e_machine matter.
        let mut x86 = vec![0u8; 64];
        x86[..4].copy_from_slice(&elf::ELFMAG);
        x86[4] = elf::ELFCLASS64;
        x86[5] = elf::ELFDATA2LSB;
        x86[16..18].copy_from_slice(&elf::ET_EXEC.to_le_bytes());
        x86[18..20].copy_from_slice(&elf::EM_X86_64.to_le_bytes());
        let e = FirmwareImage::parse(&x86).unwrap_err();
        assert!(e.to_string().contains("x86-64"), "{e}");
    }

    #[test]
    fn rv64_big_endian_and_objects_are_refused() {
        let mut rv64 = good_elf();
        rv64[EI_CLASS] = elf::ELFCLASS64;
        assert_eq!(
            FirmwareImage::parse(&rv64).unwrap_err(),
            FirmwareError::WrongClass { bits: 64 }
        );
        let be = elf32(
            elf::EM_RISCV,
            elf::ELFDATA2MSB,
            elf::ET_EXEC,
            0,
            &[(0, 0, &[0; 8], 8)],
        );
        assert_eq!(
            FirmwareImage::parse(&be).unwrap_err(),
            FirmwareError::WrongEndian
        );
        let obj = elf32(elf::EM_RISCV, elf::ELFDATA2LSB, elf::ET_REL, 0, &[]);
        assert!(matches!(
            FirmwareImage::parse(&obj).unwrap_err(),
            FirmwareError::NotExecutable { .. }
        ));
        let empty = elf32(elf::EM_RISCV, elf::ELFDATA2LSB, elf::ET_EXEC, 0, &[]);
        assert_eq!(
            FirmwareImage::parse(&empty).unwrap_err(),
            FirmwareError::NoLoadableSegments
        );
    }

    #[test]
    fn oversize_image_names_both_sizes() {
        let big = vec![0x13u8; 70 * 1024];
        let elf = elf32(
            elf::EM_RISCV,
            elf::ELFDATA2LSB,
            elf::ET_EXEC,
            0,
            &[(0, 0, &big, 70 * 1024)],
        );
        let img = FirmwareImage::parse(&elf).unwrap();
        let e = img.check_fits_map(&MemoryMap::default_build()).unwrap_err();
        assert_eq!(
            e,
            FirmwareError::Oversize {
                image: 70 * 1024,
                imem: 64 * 1024
            }
        );
        let msg = e.to_string();
        assert!(msg.contains("71680") && msg.contains("65536"), "{msg}");
    }

    #[test]
    fn misplaced_segments_and_entry_are_refused() {
        let map = MemoryMap::default_build();
        let code = [0u8; 16];
        let elf = elf32(
            elf::EM_RISCV,
            elf::ELFDATA2LSB,
            elf::ET_EXEC,
            0,
            &[(0x2000_0000, 0x2000_0000, &code, 16)],
        );
        let e = FirmwareImage::parse(&elf)
            .unwrap()
            .check_fits_map(&map)
            .unwrap_err();
        assert!(
            matches!(e, FirmwareError::SegmentOutside { index: 0, .. }),
            "{e}"
        );
        let elf = elf32(
            elf::EM_RISCV,
            elf::ELFDATA2LSB,
            elf::ET_EXEC,
            DMEM_BASE,
            &[(0, 0, &code, 16)],
        );
        let e = FirmwareImage::parse(&elf)
            .unwrap()
            .check_fits_map(&map)
            .unwrap_err();
        assert!(matches!(e, FirmwareError::EntryOutsideImem { .. }), "{e}");
    }

    #[test]
    fn load_writes_verifies_and_reports_a_boot_timeout_on_a_fake_bar() {
        // The fake BAR has no core: the image must land in the windows, the reset bit must be
        // written, and the wait for READY must end in a timeout naming the state.
        let mut bar = FakeBar::with_reset_values();
        bar.set(
            regs::ctrl::CORE_STATUS,
            1 << regs::ctrl::core_status::IN_RESET_SHIFT,
        );
        let mut card = Card::open(Box::new(bar)).unwrap();
        let (sealed, _) = seal::seal_elf(&good_elf()).unwrap();
        let img = FirmwareImage::parse(&sealed).unwrap();
        let mut calls = Vec::new();
        let e = card
            .firmware()
            .load_with_timeout(&img, Duration::from_millis(20), |d, t| calls.push((d, t)))
            .unwrap_err();
        assert!(matches!(e, DriverError::BootTimeout { .. }), "{e}");
        assert!(e.to_string().contains("FW_STATE = OFF"), "{e}");
        let total = (64 + 256) * 1024;
        assert_eq!(calls.first(), Some(&(0, total)));
        assert_eq!(calls.last(), Some(&(total, total)));
        let w = regs::id::imem_window::RESET as u64;
        assert_eq!(card.bar_mut().read32(w).unwrap(), 0x0302_0100);
        assert_eq!(card.bar_mut().read32(w + 64).unwrap(), 0xddcc_bbaa);
    }

    #[test]
    fn an_image_without_a_seal_is_refused_before_anything_is_written() {
        let mut card = Card::open(Box::new(FakeBar::with_reset_values())).unwrap();
        let mut img = FirmwareImage::parse(&good_elf()).unwrap();
        assert!(!img.is_sealed());
        let e = card
            .firmware()
            .load_with_timeout(&img, Duration::from_millis(20), |_, _| {})
            .unwrap_err();
        assert!(
            matches!(e, DriverError::Firmware(FirmwareError::Unsealed)),
            "{e}"
        );
        assert!(e.to_string().contains("--allow-unverified"), "{e}");
        let w = regs::id::imem_window::RESET as u64;
        assert_eq!(card.bar_mut().read32(regs::ctrl::CORE_CTRL).unwrap(), 0);
        assert_eq!(card.bar_mut().read32(w).unwrap(), 0, "nothing was written");
        // Accepted unverified, it is written (and the fake core never boots).
        img.accept_unverified();
        let e = card
            .firmware()
            .load_with_timeout(&img, Duration::from_millis(20), |_, _| {})
            .unwrap_err();
        assert!(
            matches!(
                e,
                DriverError::ResetNotAsserted { .. } | DriverError::BootTimeout { .. }
            ),
            "{e}"
        );
        assert_eq!(card.bar_mut().read32(w).unwrap(), 0x0302_0100);
    }
}
