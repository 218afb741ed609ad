//! Thrift's compact protocol, write side only: what Parquet's page headers and footer need.
//!
//! Field headers carry the id as a delta from the previous field of the same struct when it
//! fits in four bits; integers are zigzag varints; booleans live in the field header.

/// Compact protocol type codes.
#[derive(Clone, Copy)]
#[repr(u8)]
pub(crate) enum T {
    Byte = 3,
    I32 = 5,
    I64 = 6,
    Binary = 8,
    List = 9,
    Struct = 12,
}

const TRUE: u8 = 1;
const FALSE: u8 = 2;

/// A compact protocol encoder into a byte vector.
pub(crate) struct Writer<'a> {
    out: &'a mut Vec<u8>,
    /// The last field id written in each open struct (the innermost last).
    last: Vec<i16>,
}

impl<'a> Writer<'a> {
    pub(crate) fn new(out: &'a mut Vec<u8>) -> Self {
        Writer { out, last: vec![0] }
    }

    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    fn zigzag(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    fn header(&mut self, id: i16, ty: u8) {
        let last = self.last.last_mut().expect("a struct is open");
        let delta = id - *last;
        *last = id;
        if (1..=15).contains(&delta) {
            self.out.push(((delta as u8) << 4) | ty);
        } else {
            self.out.push(ty);
            self.zigzag(i64::from(id));
        }
    }

    pub(crate) fn i32(&mut self, id: i16, v: i32) -> &mut Self {
        self.header(id, T::I32 as u8);
        self.zigzag(i64::from(v));
        self
    }

    pub(crate) fn i64(&mut self, id: i16, v: i64) -> &mut Self {
        self.header(id, T::I64 as u8);
        self.zigzag(v);
        self
    }

    pub(crate) fn byte(&mut self, id: i16, v: i8) -> &mut Self {
        self.header(id, T::Byte as u8);
        self.out.push(v as u8);
        self
    }

    pub(crate) fn bool(&mut self, id: i16, v: bool) -> &mut Self {
        self.header(id, if v { TRUE } else { FALSE });
        self
    }

    pub(crate) fn binary(&mut self, id: i16, v: &[u8]) -> &mut Self {
        self.header(id, T::Binary as u8);
        self.varint(v.len() as u64);
        self.out.extend_from_slice(v);
        self
    }

    /// Opens a struct-valued field; close it with [`Writer::end`].
    pub(crate) fn begin(&mut self, id: i16) -> &mut Self {
        self.header(id, T::Struct as u8);
        self.last.push(0);
        self
    }

    /// Closes the innermost struct (a field's, or a list element's).
    pub(crate) fn end(&mut self) -> &mut Self {
        self.out.push(0);
        self.last.pop();
        self
    }

    /// A list-valued field's header: `n` elements of type `elem` follow.
    pub(crate) fn list(&mut self, id: i16, elem: T, n: usize) -> &mut Self {
        self.header(id, T::List as u8);
        if n < 15 {
            self.out.push(((n as u8) << 4) | elem as u8);
        } else {
            self.out.push(0xf0 | elem as u8);
            self.varint(n as u64);
        }
        self
    }

    /// A struct element of a list; close it with [`Writer::end`].
    pub(crate) fn elem_begin(&mut self) -> &mut Self {
        self.last.push(0);
        self
    }

    /// An i32 element of a list.
    pub(crate) fn elem_i32(&mut self, v: i32) -> &mut Self {
        self.zigzag(i64::from(v));
        self
    }

    /// A binary (string) element of a list.
    pub(crate) fn elem_binary(&mut self, v: &[u8]) -> &mut Self {
        self.varint(v.len() as u64);
        self.out.extend_from_slice(v);
        self
    }

    /// Ends the top-level struct.
    pub(crate) fn finish(&mut self) {
        self.out.push(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_headers_use_short_deltas_and_long_ids() {
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out);
        w.i32(1, -1).i64(20, 300).bool(21, true).binary(22, b"ab");
        w.finish();
        assert_eq!(
            out,
            [0x15, 0x01, 0x06, 0x28, 0xd8, 0x04, 0x11, 0x18, 0x02, b'a', b'b', 0x00]
        );
    }
}
