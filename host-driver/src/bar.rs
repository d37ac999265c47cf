//! The narrow register-access trait every card backend implements.

use std::time::Duration;

/// Extract a field from a register value.
pub(crate) const fn field(value: u32, shift: u32, mask: u32) -> u32 {
    (value >> shift) & mask
}

/// Errors from a BAR backend. Every access is fallible: a socket can close, a VFIO
/// mapping can be shorter than expected, a simulated card can have been shut down.
#[derive(Debug, thiserror::Error)]
pub enum BarError {
    /// The offset (or the end of a block access) lies outside the BAR.
    #[error("BAR access at offset {offset:#x} (+{len} bytes) is outside the {size:#x}-byte BAR")]
    OutOfRange { offset: u64, len: u64, size: u64 },
    /// The offset is not 32-bit aligned.
    #[error("BAR access at offset {0:#x} is not 32-bit aligned")]
    Unaligned(u64),
    /// Transport failure (socket, file descriptor).
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    /// The backend answered with an error of its own.
    #[error("card backend error: {0}")]
    Backend(String),
}

/// 32-bit register access to BAR0 of a card.
pub trait Bar: Send {
    /// Size of the BAR in bytes.
    fn size(&self) -> u64;
    /// Read one 32-bit register at byte offset `offset`.
    fn read32(&mut self, offset: u64) -> Result<u32, BarError>;
    /// Write one 32-bit register at byte offset `offset`.
    fn write32(&mut self, offset: u64, value: u32) -> Result<(), BarError>;
    /// Read consecutive 32-bit registers starting at `offset` (one round trip where the
    /// backend can batch).
    fn read_block(&mut self, offset: u64, out: &mut [u32]) -> Result<(), BarError> {
        for (i, w) in out.iter_mut().enumerate() {
            *w = self.read32(offset + 4 * i as u64)?;
        }
        Ok(())
    }
    /// Write consecutive 32-bit registers starting at `offset`.
    fn write_block(&mut self, offset: u64, data: &[u32]) -> Result<(), BarError> {
        for (i, w) in data.iter().enumerate() {
            self.write32(offset + 4 * i as u64, *w)?;
        }
        Ok(())
    }
    /// Let the card run for about `d` of card time while the host waits (polling loops
    /// call this). A real card runs by itself, so the default sleeps; an in-process
    /// simulated card advances its clock instead.
    fn pause(&mut self, d: Duration) -> Result<(), BarError> {
        std::thread::sleep(d);
        Ok(())
    }
    /// Short description for messages, e.g. "simulated card (in-process)" or "VFIO 0000:03:00.0".
    fn describe(&self) -> String;
}

/// Check an access against the BAR size and alignment; backends call this first.
pub fn check_access(offset: u64, len_bytes: u64, size: u64) -> Result<(), BarError> {
    if offset % 4 != 0 {
        return Err(BarError::Unaligned(offset));
    }
    match offset.checked_add(len_bytes) {
        Some(end) if end <= size => Ok(()),
        _ => Err(BarError::OutOfRange {
            offset,
            len: len_bytes,
            size,
        }),
    }
}
