//! The free list of flow slots.
//!
//! A fixed-capacity FIFO ring of slot numbers: [`FreeList::alloc`] takes the slot at the head,
//! [`FreeList::free`] appends to the tail, so a freed slot is reused only after every other
//! free slot (late segments of an old flow then meet a FREE entry for as long as possible).
//! A bitmap of the slots on the list catches double frees; a slot number at or above the
//! capacity is rejected.
//!
//! Memory: `2 * N` bytes of ring plus `N / 8` bytes of bitmap (8.5 KiB for 4096 slots).
//! The bitmap length `W` is a second const parameter because stable Rust cannot compute it
//! from `N` in a type; write it as `{ bitmap_words(N) }`:
//!
//! ```
//! use splicenic_fw_logic::flowmgr::freelist::{bitmap_words, FreeList};
//! const SLOTS: usize = 4096;
//! let mut list: FreeList<SLOTS, { bitmap_words(SLOTS) }> = FreeList::full();
//! let slot = list.alloc().unwrap();
//! list.free(slot).unwrap();
//! ```

use super::Slot;

/// Largest capacity: every slot number must fit a [`Slot`].
pub const MAX_CAPACITY: usize = Slot::MAX as usize + 1;

/// Number of 32-bit bitmap words for `capacity` slots (the `W` parameter of [`FreeList`]).
pub const fn bitmap_words(capacity: usize) -> usize {
    capacity.div_ceil(32)
}

/// Errors of [`FreeList`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreeListError {
    /// No slot is free: the flow table is full.
    Exhausted,
    /// The slot number is not below the capacity.
    OutOfRange(Slot),
    /// The slot is already on the free list.
    DoubleFree(Slot),
}

/// FIFO free list of `N` flow slots with a `W`-word bitmap (`W == bitmap_words(N)`).
#[derive(Clone, Debug)]
pub struct FreeList<const N: usize, const W: usize> {
    ring: [Slot; N],
    head: usize,
    len: usize,
    on_list: [u32; W],
}

impl<const N: usize, const W: usize> FreeList<N, W> {
    /// Compile-time check of the parameters, evaluated by every constructor.
    const PARAMS_OK: () = assert!(
        N > 0 && N <= MAX_CAPACITY && W == bitmap_words(N),
        "FreeList<N, W>: need 0 < N <= 65536 and W == bitmap_words(N)"
    );

    /// A list holding every slot, in ascending order (slot 0 is allocated first).
    pub const fn full() -> Self {
        let () = Self::PARAMS_OK;
        let mut ring = [0; N];
        let mut i = 0;
        while i < N {
            // N <= 65536, so i fits a Slot.
            ring[i] = i as Slot;
            i += 1;
        }
        let mut on_list = [u32::MAX; W];
        if N % 32 != 0 {
            on_list[W - 1] = (1u32 << (N % 32)) - 1;
        }
        Self {
            ring,
            head: 0,
            len: N,
            on_list,
        }
    }

    /// A list with no free slot (for rebuilding it with [`FreeList::free`], e.g. from the
    /// flow memory after a firmware restart).
    pub const fn empty() -> Self {
        let () = Self::PARAMS_OK;
        Self {
            ring: [0; N],
            head: 0,
            len: 0,
            on_list: [0; W],
        }
    }

    /// Puts every slot back on the list, in ascending order, without building a new list on
    /// the stack.
    pub fn reset_full(&mut self) {
        for (i, s) in self.ring.iter_mut().enumerate() {
            *s = i as Slot;
        }
        self.head = 0;
        self.len = N;
        self.on_list = [u32::MAX; W];
        if N % 32 != 0 {
            self.on_list[W - 1] = (1u32 << (N % 32)) - 1;
        }
    }

    /// Empties the list without building a new one on the stack.
    pub fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
        self.on_list = [0; W];
    }

    /// Number of slots the list manages (`N`).
    pub const fn capacity(&self) -> usize {
        N
    }

    /// Number of free slots.
    pub const fn free_count(&self) -> usize {
        self.len
    }

    /// Number of slots in use (`capacity - free_count`).
    pub const fn used_count(&self) -> usize {
        N - self.len
    }

    /// True when no slot is free.
    pub const fn is_exhausted(&self) -> bool {
        self.len == 0
    }

    /// True when `slot` is on the list (false for an out-of-range slot).
    pub fn is_free(&self, slot: Slot) -> bool {
        let s = usize::from(slot);
        s < N && self.on_list[s / 32] & (1 << (s % 32)) != 0
    }

    /// The slot the next [`FreeList::alloc`] returns, if any.
    pub fn peek(&self) -> Option<Slot> {
        (self.len > 0).then(|| self.ring[self.head])
    }

    /// Takes the slot at the head of the list.
    pub fn alloc(&mut self) -> Result<Slot, FreeListError> {
        if self.len == 0 {
            return Err(FreeListError::Exhausted);
        }
        let slot = self.ring[self.head];
        self.head = if self.head + 1 == N { 0 } else { self.head + 1 };
        self.len -= 1;
        let s = usize::from(slot);
        self.on_list[s / 32] &= !(1 << (s % 32));
        Ok(slot)
    }

    /// Appends `slot` to the tail of the list. The list is left unchanged on error.
    pub fn free(&mut self, slot: Slot) -> Result<(), FreeListError> {
        let s = usize::from(slot);
        if s >= N {
            return Err(FreeListError::OutOfRange(slot));
        }
        if self.on_list[s / 32] & (1 << (s % 32)) != 0 {
            return Err(FreeListError::DoubleFree(slot));
        }
        // Every slot is on the list at most once, so len < N here and the tail is free.
        let tail = self.head + self.len;
        let tail = if tail >= N { tail - N } else { tail };
        self.ring[tail] = slot;
        self.len += 1;
        self.on_list[s / 32] |= 1 << (s % 32);
        Ok(())
    }

    /// The free slots from head (next to be allocated) to tail.
    pub fn iter(&self) -> impl Iterator<Item = Slot> + '_ {
        (0..self.len).map(move |i| {
            let j = self.head + i;
            self.ring[if j >= N { j - N } else { j }]
        })
    }
}

impl<const N: usize, const W: usize> Default for FreeList<N, W> {
    fn default() -> Self {
        Self::full()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Small = FreeList<5, { bitmap_words(5) }>;

    #[test]
    fn full_list_allocates_in_ascending_order_then_is_exhausted() {
        let mut l = Small::full();
        assert_eq!((l.capacity(), l.free_count(), l.used_count()), (5, 5, 0));
        for want in 0..5 {
            assert_eq!(l.peek(), Some(want));
            assert_eq!(l.alloc(), Ok(want));
        }
        assert!(l.is_exhausted());
        assert_eq!(l.peek(), None);
        assert_eq!(l.alloc(), Err(FreeListError::Exhausted));
        assert_eq!(l.used_count(), 5);
    }

    #[test]
    fn freed_slot_goes_to_the_tail_and_is_reused_last() {
        let mut l = Small::full();
        let a = l.alloc().unwrap();
        assert_eq!(a, 0);
        l.free(a).unwrap();
        // 1, 2, 3, 4 come before the freed 0.
        let order: Vec<Slot> = l.iter().collect();
        assert_eq!(order, [1, 2, 3, 4, 0]);
        for want in [1, 2, 3, 4, 0] {
            assert_eq!(l.alloc(), Ok(want));
        }
    }

    #[test]
    fn double_free_and_out_of_range_are_rejected_without_change() {
        let mut l = Small::full();
        assert_eq!(l.free(3), Err(FreeListError::DoubleFree(3)));
        assert_eq!(l.free(5), Err(FreeListError::OutOfRange(5)));
        assert_eq!(l.free(Slot::MAX), Err(FreeListError::OutOfRange(Slot::MAX)));
        assert_eq!(l.free_count(), 5);
        let s = l.alloc().unwrap();
        l.free(s).unwrap();
        assert_eq!(l.free(s), Err(FreeListError::DoubleFree(s)));
        assert_eq!(l.free_count(), 5);
        assert!(!l.is_free(5));
    }

    #[test]
    fn empty_list_is_rebuilt_by_freeing() {
        let mut l = Small::empty();
        assert_eq!(l.alloc(), Err(FreeListError::Exhausted));
        for s in [4, 2, 0] {
            l.free(s).unwrap();
        }
        assert!(l.is_free(2) && !l.is_free(1));
        assert_eq!(l.iter().collect::<Vec<_>>(), [4, 2, 0]);
        l.reset_full();
        assert_eq!(l.iter().collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
        l.clear();
        assert_eq!(l.free_count(), 0);
        assert!(!l.is_free(0));
    }

    #[test]
    fn ring_wraps_many_times_and_stays_consistent_with_a_model() {
        // Model: a VecDeque of free slots; random alloc/free mix over many wraps.
        let mut l: FreeList<37, { bitmap_words(37) }> = FreeList::full();
        let mut model: std::collections::VecDeque<Slot> = (0..37).collect();
        let mut used: Vec<Slot> = Vec::new();
        let mut x = 0x1234_5678u32;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if x % 3 != 0 && !model.is_empty() || used.is_empty() {
                let got = l.alloc();
                assert_eq!(got.ok(), model.pop_front());
                if let Ok(s) = got {
                    used.push(s);
                }
            } else {
                let s = used.swap_remove(x as usize % used.len());
                l.free(s).unwrap();
                model.push_back(s);
            }
            assert_eq!(l.free_count(), model.len());
            assert!(l.iter().eq(model.iter().copied()));
        }
        for s in 0..37 {
            assert_eq!(l.is_free(s), model.contains(&s));
        }
    }

    #[test]
    fn bitmap_words_and_full_bitmap_edges() {
        assert_eq!(bitmap_words(1), 1);
        assert_eq!(bitmap_words(32), 1);
        assert_eq!(bitmap_words(33), 2);
        assert_eq!(bitmap_words(4096), 128);
        let l: FreeList<32, 1> = FreeList::full();
        assert!((0..32).all(|s| l.is_free(s)));
        let l: FreeList<33, 2> = FreeList::full();
        assert!((0..33).all(|s| l.is_free(s)) && !l.is_free(33));
    }

    #[test]
    fn firmware_size_list_cycles_through_every_slot() {
        let mut l: FreeList<4096, { bitmap_words(4096) }> = FreeList::full();
        for want in 0..4096u16 {
            assert_eq!(l.alloc(), Ok(want));
        }
        for s in (0..4096u16).rev() {
            l.free(s).unwrap();
        }
        assert_eq!(l.alloc(), Ok(4095));
        let l: FreeList<MAX_CAPACITY, { bitmap_words(MAX_CAPACITY) }> = FreeList::full();
        assert!(l.is_free(Slot::MAX));
        assert_eq!(l.free_count(), MAX_CAPACITY);
    }
}
