//! Composites: a decoder over a fixed-size array and an encoder over a slice.

use super::*;

impl Gen<'_> {
    pub(super) fn composite(&mut self, name: &str, c: &CompositeDef) {
        let t = type_name(name);
        let size = c.size;
        let mut names = member_scope(DECODER_RESERVED);
        let members: Vec<(String, &Field)> =
            c.members.iter().map(|m| (names.take(&m.name), m)).collect();
        {
            let out = &mut self.out;
            doc(
                out,
                c.description.as_ref(),
                &format!("Reads the `{name}` composite ({size} bytes)."),
            );
            w!(out, "#[derive(Clone, Copy)]");
            w!(out, "pub struct {t}Decoder<'a> {{");
            w!(out, "buf: &'a [u8; {size}],");
            w!(out, "}}");
            w!(out, "");
            w!(out, "impl<'a> {t}Decoder<'a> {{");
            w!(out, "/// Encoded size in bytes.");
            w!(out, "pub const ENCODED_LENGTH: usize = {size};");
            w!(out, "/// A decoder over the composite's bytes.");
            w!(out, "#[inline]");
            w!(
                out,
                "pub const fn new(buf: &'a [u8; {size}]) -> Self {{ Self {{ buf }} }}"
            );
            w!(out, "/// The composite's bytes.");
            w!(out, "#[inline]");
            w!(
                out,
                "pub const fn as_bytes(&self) -> &'a [u8; {size}] {{ self.buf }}"
            );
        }
        for (m, f) in &members {
            self.getter(m, f, "self.buf", false);
        }
        w!(self.out, "}}");
        w!(self.out, "");
        self.debug_impl(&format!("{t}Decoder<'_>"), name, &members, &[], false);
        let mut enames = member_scope(ENCODER_RESERVED);
        let emembers: Vec<(String, &Field)> = c
            .members
            .iter()
            .map(|m| (enames.take(&m.name), m))
            .collect();
        let out = &mut self.out;
        w!(out, "/// Writes the `{name}` composite ({size} bytes).");
        w!(out, "pub struct {t}Encoder<'a> {{");
        w!(out, "buf: &'a mut [u8],");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a> {t}Encoder<'a> {{");
        w!(out, "/// Encoded size in bytes.");
        w!(out, "pub const ENCODED_LENGTH: usize = {size};");
        w!(
            out,
            "/// An encoder over the composite's bytes (writes beyond `buf` are dropped, so pass"
        );
        w!(out, "/// at least [`Self::ENCODED_LENGTH`] bytes).");
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn new(buf: &'a mut [u8]) -> Self {{ Self {{ buf }} }}"
        );
        for (m, f) in &emembers {
            self.setter(m, f, "self.buf", false);
        }
        w!(self.out, "}}");
        w!(self.out, "");
    }
}
