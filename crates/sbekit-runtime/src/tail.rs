//! The growing part of a message being encoded.

use crate::{EncodeError, EncodeErrorKind};

/// The unwritten rest of an encode buffer, from which encoders take space in order.
///
/// Each reservation splits the slice, so the reserved bytes are an independent `&'a mut`
/// borrow: a group entry's block stays writable while its nested groups and var data are
/// appended after it.
#[derive(Debug, Default)]
pub struct Tail<'a> {
    rest: &'a mut [u8],
    pos: usize,
}

impl<'a> Tail<'a> {
    /// A tail over `rest`, whose first byte is at offset `pos` of the whole message buffer.
    #[inline(always)]
    pub fn new(rest: &'a mut [u8], pos: usize) -> Self {
        Tail { rest, pos }
    }

    /// Offset of the next byte to write, from the start of the message buffer.
    #[inline(always)]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Takes the next `len` bytes.
    #[inline(always)]
    pub fn take(&mut self, len: usize) -> Result<&'a mut [u8], EncodeError> {
        if len > self.rest.len() {
            return Err(too_short(len, self.rest.len(), self.pos));
        }
        let rest = core::mem::take(&mut self.rest);
        let (head, rest) = rest.split_at_mut(len.min(rest.len()));
        self.rest = rest;
        // `pos + rest.len()` is the buffer's length and `len` came out of `rest`: no wrap.
        self.pos = self.pos.wrapping_add(len);
        Ok(head)
    }

    /// Takes the next `N` bytes as a fixed-size array.
    #[inline(always)]
    pub fn take_array<const N: usize>(&mut self) -> Result<&'a mut [u8; N], EncodeError> {
        if N > self.rest.len() {
            return Err(too_short(N, self.rest.len(), self.pos));
        }
        let rest = core::mem::take(&mut self.rest);
        match rest.split_first_chunk_mut::<N>() {
            Some((head, rest)) => {
                self.rest = rest;
                // As in `take`: `N` bytes came out of `rest`, so this cannot wrap.
                self.pos = self.pos.wrapping_add(N);
                Ok(head)
            }
            None => Err(EncodeError::new(
                EncodeErrorKind::BufferTooShort {
                    needed: N,
                    available: 0,
                },
                self.pos,
            )),
        }
    }

    /// Appends `data`.
    #[inline(always)]
    pub fn write(&mut self, data: &[u8]) -> Result<(), EncodeError> {
        let dst = self.take(data.len())?;
        dst.copy_from_slice(data);
        Ok(())
    }

    /// Appends a var-data field: its length prefix `len`, then `data`.
    #[inline(always)]
    pub fn write_var<const L: usize>(
        &mut self,
        len: [u8; L],
        data: &[u8],
    ) -> Result<(), EncodeError> {
        // A slice is at most isize::MAX bytes, but saturate anyway: too long fails in `take`.
        let dst = self.take(data.len().saturating_add(L))?;
        if let Some((head, rest)) = dst.split_first_chunk_mut::<L>() {
            *head = len;
            rest.copy_from_slice(data);
        }
        Ok(())
    }
}

/// The error for a reservation that does not fit. Takes plain values (not `&Tail`) so the
/// tail's address never escapes into an out-of-line call, which would keep it out of
/// registers in the hot path.
#[cold]
#[inline(never)]
fn too_short(needed: usize, available: usize, pos: usize) -> EncodeError {
    EncodeError::new(EncodeErrorKind::BufferTooShort { needed, available }, pos)
}
