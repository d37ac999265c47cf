//! Firmware image seals: SHA-256 digests of everything the loader writes, carried in the ELF.
//!
//! The build (`cargo xtask build`, or `nicctl firmware seal FILE`) adds a section
//! [`SEAL_SECTION`] to the firmware ELF. It is not loadable (no `SHF_ALLOC`, in no segment),
//! so adding or rewriting it changes nothing the card runs. Its contents
//! (docs/interfaces.md, "Firmware image format"), all little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `SNICSEAL` |
//! | 8 | 2 | format version, 1 |
//! | 10 | 2 | digest algorithm, 1 = SHA-256 |
//! | 12 | 2 | number of segments `n` (at most [`MAX_SEALED_SEGMENTS`]) |
//! | 14 | 2 | zero |
//! | 16 | 32 | SHA-256 of the layout: entry point, `n`, then per segment `p_paddr`, `p_vaddr`, `p_filesz`, `p_memsz` (u32 each) |
//! | 48 | 32 × n | SHA-256 of each segment's contents, in program-header order |
//!
//! The loader ([`crate::firmware::Firmware::load`]) and `nicctl program` recompute the digests
//! from the parsed image; a difference names the segment.

use sha2::{Digest, Sha256};

use object::elf;
use object::read::elf::{FileHeader, SectionHeader};
use object::LittleEndian;

use super::FirmwareImage;
use crate::error::FirmwareError;

/// Name of the seal section.
pub use crate::error::SEAL_SECTION;
/// First bytes of a seal.
pub const SEAL_MAGIC: [u8; 8] = *b"SNICSEAL";
/// The seal format this driver writes and reads.
pub const SEAL_VERSION: u16 = 1;
/// Digest algorithm code: SHA-256.
pub const ALG_SHA256: u16 = 1;
/// Most loadable segments a seal covers (the firmware has three).
pub const MAX_SEALED_SEGMENTS: usize = 16;

const HEADER_BYTES: usize = 48;
const DIGEST_BYTES: usize = 32;
/// Size of an ELF32 section header.
const SHDR_BYTES: usize = 40;

/// The digests of an image: its layout and each segment's contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seal {
    pub layout: [u8; 32],
    pub segments: Vec<[u8; 32]>,
}

fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The layout record: entry point, segment count, then each segment's addresses and sizes.
fn layout_record(img: &FirmwareImage) -> Vec<u8> {
    let mut r = Vec::with_capacity(8 + 16 * img.segments.len());
    r.extend_from_slice(&img.entry.to_le_bytes());
    r.extend_from_slice(&(img.segments.len() as u32).to_le_bytes());
    for s in &img.segments {
        for v in [s.paddr, s.vaddr, s.data.len() as u32, s.memsz] {
            r.extend_from_slice(&v.to_le_bytes());
        }
    }
    r
}

impl Seal {
    /// The seal of `img` as it is now.
    pub fn of(img: &FirmwareImage) -> Result<Seal, FirmwareError> {
        if img.segments.len() > MAX_SEALED_SEGMENTS {
            return Err(FirmwareError::BadSeal(format!(
                "the image has {} loadable segments; a seal covers at most {MAX_SEALED_SEGMENTS}",
                img.segments.len()
            )));
        }
        Ok(Seal {
            layout: sha256(&layout_record(img)),
            segments: img.segments.iter().map(|s| sha256(&s.data)).collect(),
        })
    }

    /// The section contents (see the module documentation).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + DIGEST_BYTES * self.segments.len());
        out.extend_from_slice(&SEAL_MAGIC);
        out.extend_from_slice(&SEAL_VERSION.to_le_bytes());
        out.extend_from_slice(&ALG_SHA256.to_le_bytes());
        out.extend_from_slice(&(self.segments.len() as u16).to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&self.layout);
        for d in &self.segments {
            out.extend_from_slice(d);
        }
        out
    }

    /// Reads section contents; anything but a well-formed version-1 SHA-256 seal is an error
    /// naming what is wrong.
    pub fn decode(b: &[u8]) -> Result<Seal, FirmwareError> {
        let bad = |what: String| Err(FirmwareError::BadSeal(what));
        if b.len() < HEADER_BYTES {
            return bad(format!(
                "{} bytes, shorter than the {HEADER_BYTES}-byte header",
                b.len()
            ));
        }
        if b[..8] != SEAL_MAGIC {
            return bad(format!("magic {:?}, expected \"SNICSEAL\"", hex(&b[..8])));
        }
        let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        let (version, alg, n) = (u16_at(8), u16_at(10), usize::from(u16_at(12)));
        if version != SEAL_VERSION {
            return bad(format!(
                "format version {version}; this driver reads version {SEAL_VERSION}"
            ));
        }
        if alg != ALG_SHA256 {
            return bad(format!("digest algorithm {alg}; only 1 (SHA-256) is known"));
        }
        if n > MAX_SEALED_SEGMENTS {
            return bad(format!(
                "{n} segments; a seal covers at most {MAX_SEALED_SEGMENTS}"
            ));
        }
        let want = HEADER_BYTES + DIGEST_BYTES * n;
        if b.len() != want {
            return bad(format!(
                "{} bytes; a seal of {n} segments has {want}",
                b.len()
            ));
        }
        let digest = |o: usize| -> [u8; 32] {
            let mut d = [0u8; 32];
            d.copy_from_slice(&b[o..o + DIGEST_BYTES]);
            d
        };
        Ok(Seal {
            layout: digest(16),
            segments: (0..n)
                .map(|i| digest(HEADER_BYTES + DIGEST_BYTES * i))
                .collect(),
        })
    }

    /// Checks `img` against this seal: the layout first, then each segment.
    pub fn check(&self, img: &FirmwareImage) -> Result<(), FirmwareError> {
        if self.segments.len() != img.segments.len() || sha256(&layout_record(img)) != self.layout {
            return Err(FirmwareError::LayoutAltered {
                sealed: self.segments.len(),
                found: img.segments.len(),
            });
        }
        for (index, (s, d)) in img.segments.iter().zip(&self.segments).enumerate() {
            if sha256(&s.data) != *d {
                return Err(FirmwareError::SegmentAltered {
                    index,
                    paddr: s.paddr,
                    len: s.data.len(),
                });
            }
        }
        Ok(())
    }

    /// A short name for the sealed contents: the first 8 bytes of the SHA-256 of the
    /// encoded seal, in hex (what `nicctl program` and `nicctl firmware show` print).
    pub fn fingerprint(&self) -> String {
        hex(&sha256(&self.encode())[..8])
    }
}

type Sections<'a> = object::read::elf::SectionTable<'a, elf::FileHeader32<LittleEndian>>;

/// The ELF32 header and section table of `bytes`.
fn header_and_sections(
    bytes: &[u8],
) -> Result<(&elf::FileHeader32<LittleEndian>, Sections<'_>), FirmwareError> {
    let hdr = elf::FileHeader32::<LittleEndian>::parse(bytes)
        .map_err(|e| FirmwareError::Truncated(format!("ELF header: {e}")))?;
    let sections = hdr
        .sections(LittleEndian, bytes)
        .map_err(|e| FirmwareError::Truncated(format!("section headers: {e}")))?;
    Ok((hdr, sections))
}

/// Where the seal section of an ELF is (file offset and size), if it has one.
pub(crate) fn find_seal_section(bytes: &[u8]) -> Result<Option<(usize, usize)>, FirmwareError> {
    let endian = LittleEndian;
    let (_, sections) = header_and_sections(bytes)?;
    let Some((_, sh)) = sections.section_by_name(endian, SEAL_SECTION.as_bytes()) else {
        return Ok(None);
    };
    let (off, size) = (sh.sh_offset(endian) as usize, sh.sh_size(endian) as usize);
    if sh.sh_type(endian) == elf::SHT_NOBITS
        || off.checked_add(size).is_none_or(|e| e > bytes.len())
    {
        return Err(FirmwareError::BadSeal(format!(
            "section {SEAL_SECTION} ({size} bytes at file offset {off:#x}) has no contents in the {}-byte file",
            bytes.len()
        )));
    }
    if u64::from(sh.sh_flags(endian)) & u64::from(elf::SHF_ALLOC) != 0 {
        return Err(FirmwareError::BadSeal(format!(
            "section {SEAL_SECTION} is allocated (SHF_ALLOC); a seal must not be loaded"
        )));
    }
    Ok(Some((off, size)))
}

fn put16(b: &mut [u8], off: usize, v: u16) {
    b[off..off + 2].copy_from_slice(&v.to_le_bytes());
}

fn put32(b: &mut [u8], off: usize, v: u32) {
    b[off..off + 4].copy_from_slice(&v.to_le_bytes());
}

fn pad4(b: &mut Vec<u8>) {
    b.resize(b.len().next_multiple_of(4), 0);
}

/// Seals a firmware ELF: returns the file with the seal section written (rewritten in place
/// when the file has one of the right size, else appended with a new section header table).
/// Sealing a sealed file again gives the same bytes. Loadable contents are never touched.
pub fn seal_elf(bytes: &[u8]) -> Result<(Vec<u8>, Seal), FirmwareError> {
    let img = FirmwareImage::parse_unsealed(bytes)?;
    let seal = Seal::of(&img)?;
    let enc = seal.encode();
    let mut out = bytes.to_vec();
    // A malformed seal section (no contents, allocated) is an error: appending a second
    // section of the same name would leave the first one to be found.
    if let Some((off, size)) = find_seal_section(bytes)? {
        if size == enc.len() {
            out[off..off + size].copy_from_slice(&enc);
            return Ok((out, seal));
        }
        return Err(FirmwareError::BadSeal(format!(
            "the file has a {size}-byte {SEAL_SECTION} section; this image's seal has {} bytes \
             (link the firmware again and seal the new file)",
            enc.len()
        )));
    }

    // Append: seal contents, a section-name table with the new name, and a new section
    // header table (the old table and names stay in the file, unreferenced).
    let endian = LittleEndian;
    let (hdr, sections) = header_and_sections(bytes)?;
    let shstrndx = usize::from(hdr.e_shstrndx(endian));
    if hdr.e_shnum(endian) == 0 && hdr.e_shoff(endian) != 0 {
        return Err(FirmwareError::BadSeal(
            "the file uses extended section numbering, which the sealer does not write".into(),
        ));
    }
    let mut table: Vec<[u8; SHDR_BYTES]> = Vec::new();
    let shoff = hdr.e_shoff(endian) as usize;
    for i in 0..sections.len() {
        let at = shoff + i * SHDR_BYTES;
        let mut e = [0u8; SHDR_BYTES];
        e.copy_from_slice(&bytes[at..at + SHDR_BYTES]);
        table.push(e);
    }
    if table.is_empty() {
        table.push([0u8; SHDR_BYTES]); // SHN_UNDEF
    }
    let (mut names, names_index) = if shstrndx != 0 && shstrndx < table.len() {
        let e = &table[shstrndx];
        let off = u32::from_le_bytes([e[16], e[17], e[18], e[19]]) as usize;
        let size = u32::from_le_bytes([e[20], e[21], e[22], e[23]]) as usize;
        let data = off
            .checked_add(size)
            .and_then(|end| bytes.get(off..end))
            .ok_or_else(|| {
                FirmwareError::Truncated(format!(
                    "section names ({size} bytes at file offset {off:#x}) run past the end of the {}-byte file",
                    bytes.len()
                ))
            })?;
        (data.to_vec(), shstrndx)
    } else {
        (vec![0u8], usize::MAX)
    };
    if names.last() != Some(&0) {
        names.push(0);
    }
    let seal_name = names.len() as u32;
    names.extend_from_slice(SEAL_SECTION.as_bytes());
    names.push(0);
    let names_name = names.len() as u32;
    if names_index == usize::MAX {
        names.extend_from_slice(b".shstrtab\0");
    }

    pad4(&mut out);
    let seal_off = out.len() as u32;
    out.extend_from_slice(&enc);
    let names_off = out.len() as u32;
    out.extend_from_slice(&names);
    pad4(&mut out);
    let table_off = out.len() as u32;

    let entry = |name: u32, sh_type: u32, off: u32, size: u32, align: u32| {
        let mut e = [0u8; SHDR_BYTES];
        put32(&mut e, 0, name);
        put32(&mut e, 4, sh_type);
        put32(&mut e, 16, off);
        put32(&mut e, 20, size);
        put32(&mut e, 32, align);
        e
    };
    let names_index = if names_index == usize::MAX {
        table.push(entry(
            names_name,
            elf::SHT_STRTAB,
            names_off,
            names.len() as u32,
            1,
        ));
        table.len() - 1
    } else {
        let e = &mut table[names_index];
        put32(e, 16, names_off);
        put32(e, 20, names.len() as u32);
        names_index
    };
    table.push(entry(
        seal_name,
        elf::SHT_PROGBITS,
        seal_off,
        enc.len() as u32,
        4,
    ));
    if table.len() >= usize::from(elf::SHN_LORESERVE) {
        return Err(FirmwareError::BadSeal(format!(
            "{} sections: too many for a plain section header table",
            table.len()
        )));
    }
    for e in &table {
        out.extend_from_slice(e);
    }
    put32(&mut out, 32, table_off); // e_shoff
    put16(&mut out, 46, SHDR_BYTES as u16); // e_shentsize
    put16(&mut out, 48, table.len() as u16); // e_shnum
    put16(&mut out, 50, names_index as u16); // e_shstrndx
    Ok((out, seal))
}

/// Why [`seal_file`] failed.
#[derive(Debug, thiserror::Error)]
pub enum SealFileError {
    #[error("cannot {what} {}: {source}", .path.display())]
    Io {
        what: &'static str,
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot seal {}: {source}", .path.display())]
    Image {
        path: std::path::PathBuf,
        source: FirmwareError,
    },
}

/// Seals the ELF at `input` and writes the result to `output` (which may be `input`): written
/// beside it and renamed over it, so an interrupted seal never leaves half a file; the file
/// is not rewritten when it is sealed already. Returns the seal and whether the bytes changed.
pub fn seal_file(
    input: &std::path::Path,
    output: &std::path::Path,
) -> Result<(Seal, bool), SealFileError> {
    let io = |what, path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| SealFileError::Io { what, path, source }
    };
    let bytes = std::fs::read(input).map_err(io("read", input))?;
    let (sealed, seal) = seal_elf(&bytes).map_err(|source| SealFileError::Image {
        path: input.to_path_buf(),
        source,
    })?;
    let changed = sealed != bytes;
    if changed || input != output {
        let name = output
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = output.with_file_name(format!(".{name}.sealing"));
        std::fs::write(&tmp, &sealed).map_err(io("write", &tmp))?;
        if let Ok(m) = std::fs::metadata(input) {
            let _ = std::fs::set_permissions(&tmp, m.permissions());
        }
        std::fs::rename(&tmp, output).map_err(io("rename a file onto", output))?;
    }
    Ok((seal, changed))
}

#[cfg(test)]
mod tests {
    use super::super::tests::good_elf;
    use super::*;

    #[test]
    fn a_sealed_image_parses_verified_and_resealing_is_stable() {
        let raw = good_elf();
        let unsealed = FirmwareImage::parse(&raw).unwrap();
        assert!(unsealed.seal.is_none());
        let (sealed, seal) = seal_elf(&raw).unwrap();
        let img = FirmwareImage::parse(&sealed).unwrap();
        assert_eq!(img.seal.as_ref(), Some(&seal));
        assert_eq!(
            img.segments, unsealed.segments,
            "loadable contents unchanged"
        );
        img.verify().unwrap();
        let (again, _) = seal_elf(&sealed).unwrap();
        assert_eq!(again, sealed, "sealing a sealed file changes nothing");
        assert_eq!(seal.fingerprint().len(), 16);
    }

    #[test]
    fn every_flipped_loadable_byte_is_caught_and_names_its_segment() {
        let (sealed, _) = seal_elf(&good_elf()).unwrap();
        let img = FirmwareImage::parse(&sealed).unwrap();
        // File offsets of the segment contents: the hand-built ELF puts them after the
        // header and program headers, in order.
        let mut off = 52 + 32 * 3;
        for (index, s) in img.segments.iter().enumerate() {
            for i in 0..s.data.len() {
                let mut bad = sealed.clone();
                bad[off + i] ^= 0x01;
                let e = FirmwareImage::parse(&bad).unwrap_err();
                assert_eq!(
                    e,
                    FirmwareError::SegmentAltered {
                        index,
                        paddr: s.paddr,
                        len: s.data.len()
                    }
                );
                assert!(e.to_string().contains(&format!("segment {index}")), "{e}");
            }
            off += s.data.len();
        }
    }

    #[test]
    fn a_changed_layout_or_seal_is_refused() {
        let (sealed, _) = seal_elf(&good_elf()).unwrap();
        // The entry point (e_entry at 24).
        let mut bad = sealed.clone();
        bad[24] = 4;
        assert!(matches!(
            FirmwareImage::parse(&bad).unwrap_err(),
            FirmwareError::LayoutAltered { .. }
        ));
        // The seal itself: a flipped digest byte, a wrong version, a wrong magic.
        let (off, _) = find_seal_section(&sealed).unwrap().unwrap();
        let mut bad = sealed.clone();
        bad[off + 60] ^= 0x80;
        assert!(matches!(
            FirmwareImage::parse(&bad).unwrap_err(),
            FirmwareError::SegmentAltered { index: 0, .. }
        ));
        let mut bad = sealed.clone();
        bad[off + 8] = 9;
        let e = FirmwareImage::parse(&bad).unwrap_err();
        assert!(e.to_string().contains("format version 9"), "{e}");
        let mut bad = sealed.clone();
        bad[off] = b'X';
        let e = FirmwareImage::parse(&bad).unwrap_err();
        assert!(e.to_string().contains("magic"), "{e}");
    }

    #[test]
    fn decode_rejects_malformed_seals_by_name() {
        let seal = Seal::of(&FirmwareImage::parse(&good_elf()).unwrap()).unwrap();
        let enc = seal.encode();
        assert_eq!(Seal::decode(&enc).unwrap(), seal);
        for (cut, what) in [(10, "shorter"), (enc.len() - 1, "bytes; a seal of")] {
            let e = Seal::decode(&enc[..cut]).unwrap_err();
            assert!(e.to_string().contains(what), "{cut}: {e}");
        }
        let mut b = enc.clone();
        b[10] = 2;
        assert!(Seal::decode(&b)
            .unwrap_err()
            .to_string()
            .contains("algorithm 2"));
        let mut b = enc;
        b[12] = 200;
        assert!(Seal::decode(&b)
            .unwrap_err()
            .to_string()
            .contains("200 segments"));
    }
}
