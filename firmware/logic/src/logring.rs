//! Index math for the log ring (`LOG.WPTR`, `LOG.SIZE`, `LOGBUF`).
//!
//! `WPTR` counts every byte ever written and wraps at 2^32; byte `n` lives at ring offset
//! `n mod SIZE`. `SIZE` is a power of two (so `2^32` is a multiple of it and the wrap of
//! `WPTR` does not disturb the offsets). The same math serves the firmware writer and a host
//! reader (reading `[rptr, wptr)` is a frame of length `wptr - rptr` at `rptr`).

use core::fmt;

/// Ring geometry problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RingError {
    /// The ring size is zero or not a power of two.
    BadSize(u32),
    /// The span is longer than the ring.
    TooLong { len: u32, size: u32 },
}

impl fmt::Display for RingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RingError::BadSize(s) => write!(f, "log ring size {s} is not a non-zero power of two"),
            RingError::TooLong { len, size } => {
                write!(
                    f,
                    "span of {len} bytes does not fit a log ring of {size} bytes"
                )
            }
        }
    }
}

/// A contiguous piece of the ring: `len` bytes from byte `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub offset: u32,
    pub len: u32,
}

/// One span, or two when the bytes wrap past the end of the ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spans {
    pub first: Span,
    pub second: Option<Span>,
}

impl Spans {
    /// The spans in order (one or two).
    pub fn iter(&self) -> impl Iterator<Item = Span> {
        core::iter::once(self.first).chain(self.second)
    }
}

/// Checks that `size` is a usable ring size and returns the offset mask (`size - 1`).
pub fn mask(size: u32) -> Result<u32, RingError> {
    if size.is_power_of_two() {
        Ok(size - 1)
    } else {
        Err(RingError::BadSize(size))
    }
}

/// Ring offset of byte `pos` of a frame that starts at pointer `wptr`.
#[inline]
pub fn byte_offset(wptr: u32, pos: u32, mask: u32) -> u32 {
    wptr.wrapping_add(pos) & mask
}

/// The spans that `len` bytes starting at pointer `wptr` occupy in a ring of `size` bytes.
pub fn spans(wptr: u32, size: u32, len: u32) -> Result<Spans, RingError> {
    let mask = mask(size)?;
    if len > size {
        return Err(RingError::TooLong { len, size });
    }
    let offset = wptr & mask;
    let room = size - offset;
    if len <= room {
        Ok(Spans {
            first: Span { offset, len },
            second: None,
        })
    } else {
        Ok(Spans {
            first: Span { offset, len: room },
            second: Some(Span {
                offset: 0,
                len: len - room,
            }),
        })
    }
}

/// What a reader at `rptr` can still read when the writer is at `wptr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backlog {
    /// Bytes overwritten before they were read.
    pub lost: u32,
    /// Where reading resumes (`rptr`, or `wptr - size` after a loss).
    pub start: u32,
    /// Bytes readable from `start` up to `wptr`.
    pub len: u32,
}

/// The readable backlog of a ring of `size` bytes (pointers wrap at 2^32).
pub fn backlog(wptr: u32, rptr: u32, size: u32) -> Result<Backlog, RingError> {
    mask(size)?;
    let pending = wptr.wrapping_sub(rptr);
    if pending > size {
        Ok(Backlog {
            lost: pending - size,
            start: wptr.wrapping_sub(size),
            len: size,
        })
    } else {
        Ok(Backlog {
            lost: 0,
            start: rptr,
            len: pending,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_without_wrap() {
        let s = spans(100, 4096, 20).unwrap();
        assert_eq!(
            s,
            Spans {
                first: Span {
                    offset: 100,
                    len: 20
                },
                second: None
            }
        );
    }

    #[test]
    fn span_ending_exactly_at_the_end_does_not_split() {
        let s = spans(4096 + 4000, 4096, 96).unwrap();
        assert_eq!(
            s.first,
            Span {
                offset: 4000,
                len: 96
            }
        );
        assert_eq!(s.second, None);
    }

    #[test]
    fn span_wraps_around_the_ring() {
        let s = spans(3 * 4096 + 4090, 4096, 10).unwrap();
        assert_eq!(
            s.first,
            Span {
                offset: 4090,
                len: 6
            }
        );
        assert_eq!(s.second, Some(Span { offset: 0, len: 4 }));
        assert_eq!(s.iter().map(|s| s.len).sum::<u32>(), 10);
    }

    #[test]
    fn pointer_wrapping_at_2_pow_32_keeps_offsets_continuous() {
        let w = u32::MAX - 2; // offset 4093 in a 4 KiB ring
        let s = spans(w, 4096, 8).unwrap();
        assert_eq!(
            s.first,
            Span {
                offset: 4093,
                len: 3
            }
        );
        assert_eq!(s.second, Some(Span { offset: 0, len: 5 }));
        // Byte by byte the writer lands on the same offsets.
        let m = mask(4096).unwrap();
        let offs: Vec<u32> = (0..8).map(|p| byte_offset(w, p, m)).collect();
        assert_eq!(offs, [4093, 4094, 4095, 0, 1, 2, 3, 4]);
        assert_eq!(w.wrapping_add(8), 5);
    }

    #[test]
    fn whole_ring_and_empty_spans() {
        let s = spans(7, 16, 16).unwrap();
        assert_eq!(s.first, Span { offset: 7, len: 9 });
        assert_eq!(s.second, Some(Span { offset: 0, len: 7 }));
        let s = spans(7, 16, 0).unwrap();
        assert_eq!(s.first, Span { offset: 7, len: 0 });
        assert_eq!(s.second, None);
    }

    #[test]
    fn bad_geometry_is_reported() {
        assert_eq!(spans(0, 0, 1), Err(RingError::BadSize(0)));
        assert_eq!(spans(0, 3000, 1), Err(RingError::BadSize(3000)));
        assert_eq!(
            spans(0, 16, 17),
            Err(RingError::TooLong { len: 17, size: 16 })
        );
        assert!(RingError::BadSize(3000).to_string().contains("3000"));
    }

    #[test]
    fn backlog_without_and_with_loss() {
        assert_eq!(
            backlog(100, 40, 64).unwrap(),
            Backlog {
                lost: 0,
                start: 40,
                len: 60
            }
        );
        assert_eq!(
            backlog(200, 40, 64).unwrap(),
            Backlog {
                lost: 96,
                start: 136,
                len: 64
            }
        );
        // Across the 2^32 wrap.
        assert_eq!(
            backlog(10, u32::MAX - 9, 64).unwrap(),
            Backlog {
                lost: 0,
                start: u32::MAX - 9,
                len: 20
            }
        );
        assert_eq!(
            backlog(10, u32::MAX - 99, 64).unwrap(),
            Backlog {
                lost: 46,
                start: 10u32.wrapping_sub(64),
                len: 64
            }
        );
    }
}
