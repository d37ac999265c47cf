//! The rule-set record: an opaque blob (up to [`RULESET_BYTES`]) that a host stores on the
//! card after loading the L7 rules, so any host can show what is loaded (docs/flowmgr.md,
//! "Rule-set record").
//!
//! Protocol: RULESET_PUT with offset 0 starts a new record and invalidates the committed
//! one; further PUTs must continue exactly where the previous one ended; RULESET_COMMIT
//! gives the length in bytes and the FNV-1a hash of the bytes, which the firmware checks
//! before it marks the record valid and bumps the generation. The hash is computed while
//! the words arrive, so every command takes bounded time.

/// Capacity of the record in bytes.
pub const RULESET_BYTES: usize = 16 * 1024;
/// Capacity of the record in words.
pub const RULESET_WORDS: usize = RULESET_BYTES / 4;
/// The record's memory (the firmware places it in `.uninit`).
pub type RulesetBuf = [u32; RULESET_WORDS];
/// FNV-1a 32-bit offset basis (the hash of no bytes).
pub const FNV_BASIS: u32 = 0x811c_9dc5;
/// FNV-1a 32-bit prime.
pub const FNV_PRIME: u32 = 0x0100_0193;

/// FNV-1a over `bytes`, continuing from `h`.
pub fn fnv1a(h: u32, bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u32::from(b)).wrapping_mul(FNV_PRIME))
}

/// State of the record (RULESET_INFO word 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordState {
    /// Nothing stored since boot, or the last write failed its check.
    Empty = 0,
    /// A committed record.
    Valid = 1,
    /// A record is being written (the previous one is gone).
    Writing = 2,
}

/// Why a record command was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A PUT that does not continue the record (or a COMMIT without a record being
    /// written), a length that does not match the words written, or a wrong hash.
    BadArgument,
    /// The record would exceed [`RULESET_BYTES`].
    NoSpace,
    /// No committed record.
    NotFound,
    /// A record is being written.
    Busy,
}

/// What RULESET_INFO reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordInfo {
    /// Length of the committed record in bytes (0 unless `state` is valid).
    pub len: u32,
    /// Records committed since boot.
    pub generation: u32,
    /// FNV-1a hash of the committed record (0 unless valid).
    pub hash: u32,
    /// Record state.
    pub state: RecordState,
    /// The tag the committing host gave (who loaded the rules).
    pub loaded_by: u32,
}

/// The rule-set record store.
pub struct RulesetStore<'a> {
    buf: &'a mut RulesetBuf,
    state: RecordState,
    /// Words written (or committed).
    words: usize,
    /// Hash of the bytes of words `0..hashed` (the last word written waits for the length).
    running: u32,
    hashed: usize,
    len: u32,
    hash: u32,
    generation: u32,
    loaded_by: u32,
}

impl<'a> RulesetStore<'a> {
    /// An empty store over `buf`.
    pub fn new(buf: &'a mut RulesetBuf) -> Self {
        Self {
            buf,
            state: RecordState::Empty,
            words: 0,
            running: FNV_BASIS,
            hashed: 0,
            len: 0,
            hash: 0,
            generation: 0,
            loaded_by: 0,
        }
    }

    /// RULESET_PUT: `data` at word `offset`. Offset 0 starts a new record.
    pub fn put(&mut self, offset: u32, data: &[u32]) -> Result<(), RecordError> {
        let offset = offset as usize;
        if offset == 0 {
            self.state = RecordState::Writing;
            self.words = 0;
            self.running = FNV_BASIS;
            self.hashed = 0;
            self.len = 0;
            self.hash = 0;
        } else if self.state != RecordState::Writing || offset != self.words {
            return Err(RecordError::BadArgument);
        }
        if offset + data.len() > RULESET_WORDS {
            return Err(RecordError::NoSpace);
        }
        self.buf[offset..offset + data.len()].copy_from_slice(data);
        self.words = offset + data.len();
        // Every word but the last is whole record bytes.
        while self.hashed + 1 < self.words {
            self.running = fnv1a(self.running, &self.buf[self.hashed].to_le_bytes());
            self.hashed += 1;
        }
        Ok(())
    }

    /// RULESET_COMMIT: the record is `len` bytes with FNV-1a hash `hash`. A wrong length or
    /// hash leaves the store empty.
    pub fn commit(&mut self, len: u32, hash: u32, loaded_by: u32) -> Result<(), RecordError> {
        if self.state != RecordState::Writing {
            return Err(RecordError::BadArgument);
        }
        let ok_len = (len as usize).div_ceil(4) == self.words;
        let h = if ok_len && self.words > self.hashed {
            let rest = len as usize - 4 * self.hashed;
            fnv1a(self.running, &self.buf[self.hashed].to_le_bytes()[..rest])
        } else {
            self.running
        };
        if !ok_len || h != hash {
            self.state = RecordState::Empty;
            self.words = 0;
            return Err(RecordError::BadArgument);
        }
        self.state = RecordState::Valid;
        self.len = len;
        self.hash = hash;
        self.generation = self.generation.wrapping_add(1);
        self.loaded_by = loaded_by;
        Ok(())
    }

    /// RULESET_GET: up to `out.len()` words of the committed record from word `offset`;
    /// returns the number of words.
    pub fn get(&self, offset: u32, out: &mut [u32]) -> Result<usize, RecordError> {
        match self.state {
            RecordState::Empty => return Err(RecordError::NotFound),
            RecordState::Writing => return Err(RecordError::Busy),
            RecordState::Valid => {}
        }
        let offset = offset as usize;
        if offset > self.words {
            return Err(RecordError::BadArgument);
        }
        let n = (self.words - offset).min(out.len());
        out[..n].copy_from_slice(&self.buf[offset..offset + n]);
        Ok(n)
    }

    /// RULESET_INFO.
    pub fn info(&self) -> RecordInfo {
        RecordInfo {
            len: self.len,
            generation: self.generation,
            hash: self.hash,
            state: self.state,
            loaded_by: self.loaded_by,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::boxed::Box;
    use std::vec::Vec;

    fn words(bytes: &[u8]) -> Vec<u32> {
        bytes
            .chunks(4)
            .map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(w)
            })
            .collect()
    }

    fn store(s: &mut RulesetStore, bytes: &[u8], tag: u32) -> Result<(), RecordError> {
        let w = words(bytes);
        s.put(0, &[])?;
        for (i, chunk) in w.chunks(15).enumerate() {
            s.put((i * 15) as u32, chunk)?;
        }
        s.commit(bytes.len() as u32, fnv1a(FNV_BASIS, bytes), tag)
    }

    fn load(s: &RulesetStore) -> Result<Vec<u8>, RecordError> {
        let info = s.info();
        let mut out = Vec::new();
        let mut off = 0u32;
        loop {
            let mut buf = [0u32; 16];
            let n = s.get(off, &mut buf)?;
            if n == 0 {
                break;
            }
            out.extend(buf[..n].iter().flat_map(|w| w.to_le_bytes()));
            off += n as u32;
        }
        out.truncate(info.len as usize);
        Ok(out)
    }

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        assert_eq!(fnv1a(FNV_BASIS, b""), 0x811c_9dc5);
        assert_eq!(fnv1a(FNV_BASIS, b"a"), 0xe40c_292c);
        assert_eq!(fnv1a(FNV_BASIS, b"foobar"), 0xbf9c_f968);
    }

    #[test]
    fn records_of_every_tail_length_round_trip() {
        let mut buf = Box::new([0u32; RULESET_WORDS]);
        let mut s = RulesetStore::new(&mut buf);
        assert_eq!(s.get(0, &mut [0; 16]), Err(RecordError::NotFound));
        for (gen, n) in [0usize, 1, 2, 3, 4, 5, 59, 60, 61, 1000, RULESET_BYTES]
            .into_iter()
            .enumerate()
        {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 31 + n) as u8).collect();
            store(&mut s, &bytes, 7).unwrap();
            let info = s.info();
            assert_eq!(info.state, RecordState::Valid);
            assert_eq!(info.len as usize, n);
            assert_eq!(info.generation as usize, gen + 1);
            assert_eq!(info.hash, fnv1a(FNV_BASIS, &bytes));
            assert_eq!(info.loaded_by, 7);
            assert_eq!(load(&s).unwrap(), bytes, "{n} bytes");
        }
    }

    #[test]
    fn writes_must_be_sequential_and_fit() {
        let mut buf = Box::new([0u32; RULESET_WORDS]);
        let mut s = RulesetStore::new(&mut buf);
        assert_eq!(s.put(3, &[1]), Err(RecordError::BadArgument), "no record");
        assert_eq!(s.commit(0, FNV_BASIS, 0), Err(RecordError::BadArgument));
        s.put(0, &[1, 2, 3]).unwrap();
        assert_eq!(s.info().state, RecordState::Writing);
        assert_eq!(s.get(0, &mut [0; 16]), Err(RecordError::Busy));
        assert_eq!(s.put(2, &[9]), Err(RecordError::BadArgument), "overlap");
        assert_eq!(s.put(4, &[9]), Err(RecordError::BadArgument), "gap");
        s.put(3, &[4]).unwrap();
        let big = [0u32; 15];
        let mut off = 4;
        while off + 15 <= RULESET_WORDS as u32 {
            s.put(off, &big).unwrap();
            off += 15;
        }
        assert_eq!(s.put(off, &big), Err(RecordError::NoSpace));
        // A length that does not match the words written, then a wrong hash: refused, and
        // the store is empty afterwards.
        s.put(0, &[0x6463_6261]).unwrap();
        assert_eq!(s.commit(5, 0, 0), Err(RecordError::BadArgument));
        assert_eq!(s.info().state, RecordState::Empty);
        s.put(0, &[0x6463_6261]).unwrap();
        assert_eq!(s.commit(3, 0x1234, 0), Err(RecordError::BadArgument));
        assert_eq!(s.get(0, &mut [0; 16]), Err(RecordError::NotFound));
        s.put(0, &[0x6463_6261]).unwrap();
        s.commit(3, fnv1a(FNV_BASIS, b"abc"), 0).unwrap();
        assert_eq!(load(&s).unwrap(), b"abc");
        assert_eq!(s.get(2, &mut [0; 16]), Err(RecordError::BadArgument));
        assert_eq!(s.get(1, &mut [0; 16]), Ok(0));
    }
}
