//! A client's data segment while the card buffers its request head (`docs/flowmgr.md`,
//! "Connection life cycle"): which of its bytes the head takes, and the ACK the card answers
//! with.
//!
//! [`request_step`] is pure: [`super::Splicer`] copies the bytes and sends the ACK it gives,
//! and it is the reference model of the gateware's `req_ack` (`gateware-rtl/rtl/req_ack.v`,
//! `docs/head-buf.md`, "The request path"; the test bench `test-open` runs both on random
//! segments).

use crate::flowmgr::splice::seq_after;
pub use splicenic_layout::ReqVerdict;

/// Bytes of a request head the card buffers (`HEAD_BUFFER_BYTES`, the L7 matcher's window).
pub const HEAD_BYTES: u16 = splicenic_layout::HEAD_BUFFER_BYTES as u16;
const _: () = assert!(HEAD_BYTES as u32 == splicenic_layout::L7_BUFFER_BYTES);

/// What one client segment does to a head being buffered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReqStep {
    /// What happens to the segment.
    pub verdict: ReqVerdict,
    /// Payload bytes before the first new one (already in the head); 0 unless STORE.
    pub skip: u16,
    /// Payload bytes the head takes from `skip` on (0 when it is full, or for a lone FIN).
    pub take: u16,
    /// The head's length after the segment.
    pub req_len: u16,
    /// The client's FIN is in (it came with the segment's last byte, all of it taken).
    pub client_fin: bool,
    /// The ACK's acknowledgement number: the head's end, and the FIN.
    pub ack: u32,
    /// The ACK's window field: the room left in the head in the client's scale, rounded up.
    pub window: u16,
}

/// The segment (`seq`, `plen` payload bytes, `fin`) of a connection whose client ISN is
/// `client_isn`, whose head holds `req_len` bytes (`client_fin`: its FIN is in), and whose
/// client scales windows by `shift`:
/// - after the FIN, or starting past the head's end: OUT_OF_ORDER, nothing taken (the client
///   sends it again);
/// - all of it already in the head (and no new FIN): DUPLICATE;
/// - else STORE: the bytes past the head's end that fit, and the FIN when it came with the
///   last of them; ABORT instead when nothing is taken into an empty head (a FIN before any
///   request byte).
///
/// Every verdict is answered with the ACK of the head's end after the segment.
#[inline(always)]
pub fn request_step(
    client_isn: u32,
    req_len: u16,
    client_fin: bool,
    shift: u8,
    seq: u32,
    plen: u16,
    fin: bool,
) -> ReqStep {
    let expect = client_isn.wrapping_add(1).wrapping_add(u32::from(req_len));
    let skip = expect.wrapping_sub(seq);
    let (verdict, skip, take, fin_in) = if client_fin || seq_after(seq, expect) {
        (ReqVerdict::OutOfOrder, 0, 0, false)
    } else if skip > u32::from(plen) || (skip == u32::from(plen) && !fin) {
        (ReqVerdict::Duplicate, 0, 0, false)
    } else {
        let skip = skip as u16;
        let take = (plen - skip).min(HEAD_BYTES - req_len);
        let v = if take == 0 && req_len == 0 {
            ReqVerdict::Abort
        } else {
            ReqVerdict::Store
        };
        (v, skip, take, fin && skip + take == plen)
    };
    let req_len = req_len + take;
    let client_fin = client_fin || fin_in;
    ReqStep {
        verdict,
        skip,
        take,
        req_len,
        client_fin,
        ack: client_isn
            .wrapping_add(1)
            .wrapping_add(u32::from(req_len))
            .wrapping_add(u32::from(client_fin)),
        window: ack_window(req_len, shift),
    }
}

/// The window of an ACK for a head of `req_len` bytes to a client scaling by `shift`: the
/// room left, rounded up (rounded down, any room under one unit, 1 KiB at Linux's usual
/// shift of 10, would be a zero window the client waits on for ever; a client that sends
/// more than the room gets the part that fits acknowledged).
#[inline(always)]
pub fn ack_window(req_len: u16, shift: u8) -> u16 {
    let space = u32::from(HEAD_BYTES - req_len);
    space.div_ceil(1 << shift).min(0xffff) as u16
}
