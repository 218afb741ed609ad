//! The message header (`HeaderFields`) and the dispatcher over all messages (`AnyMessage`).

use super::*;

impl Gen<'_> {
    pub(super) fn header(&mut self) {
        let h = &self.s.header;
        let out = &mut self.out;
        let hl = h.size;
        w!(
            out,
            "/// The standard fields of the message header (`{}`).",
            h.type_name
        );
        w!(out, "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]");
        w!(out, "pub struct HeaderFields {{");
        for (n, f) in [
            ("block_length", &h.block_length),
            ("template_id", &h.template_id),
            ("schema_id", &h.schema_id),
            ("version", &h.version),
        ] {
            w!(out, "/// The `{}` field.", f.name);
            w!(out, "pub {n}: {},", prim_ty(f));
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl HeaderFields {{");
        w!(out, "/// Reads the header at the start of `buf`.");
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn read(buf: &[u8]) -> {R}<Self, rt::DecodeError> {{"
        );
        w!(out, "let h = match rt::chunk::<{hl}>(buf, 0) {{ {SOME}(h) => h, {NONE} => return {ERR}(rt::DecodeError::too_short(0, {hl}, buf.len())) }};");
        let mut uses_h = false;
        let mut parts = Vec::new();
        for (n, f) in [
            ("block_length", &h.block_length),
            ("template_id", &h.template_id),
            ("schema_id", &h.schema_id),
            ("version", &h.version),
        ] {
            let p = prim_of(f);
            let e = match &p.constant {
                Some(c) if p.presence == Presence::Constant => lit(c, p.ty),
                _ => {
                    uses_h = true;
                    read("h", f.offset, p.ty, p.order)
                }
            };
            parts.push(format!("{n}: {e}"));
        }
        if !uses_h {
            w!(out, "let _ = h;");
        }
        w!(out, "{OK}(Self {{ {} }})", parts.join(", "));
        w!(out, "}}");
        w!(
            out,
            "/// Writes the header at the start of `buf` (constant fields are not written)."
        );
        w!(out, "#[inline]");
        w!(out, "pub fn write(&self, buf: &mut [u8; {hl}]) {{");
        let covered: usize = [&h.block_length, &h.template_id, &h.schema_id, &h.version]
            .iter()
            .map(|f| f.size)
            .sum();
        if covered < hl {
            w!(out, "*buf = [0; {hl}];");
        }
        let mut wrote = false;
        for (n, f) in [
            ("block_length", &h.block_length),
            ("template_id", &h.template_id),
            ("schema_id", &h.schema_id),
            ("version", &h.version),
        ] {
            let p = prim_of(f);
            if p.presence != Presence::Constant {
                w!(
                    out,
                    "rt::put(buf, {}, self.{n}.to_{}_bytes());",
                    f.offset,
                    endian(p.order)
                );
                wrote = true;
            }
        }
        if !wrote && covered >= hl {
            w!(out, "let _ = buf;");
        }
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }

    pub(super) fn dispatch(&mut self) {
        let paths: Vec<String> = self.s.messages.iter().map(|m| self.ty(&m.body)).collect();
        let out = &mut self.out;
        let h = &self.s.header;
        w!(
            out,
            "/// Any message of the schema, chosen by the header's template id."
        );
        w!(out, "#[derive(Debug, Clone, Copy)]");
        w!(out, "pub enum AnyMessage<'a> {{");
        let mut seen = BTreeSet::new();
        let mut variants = Vec::new();
        for (m, path) in self.s.messages.iter().zip(paths) {
            let id = i32::try_from(m.id).unwrap_or(i32::MAX);
            if !seen.insert(id) {
                continue;
            }
            let v = escape_with(self.keywords, &path);
            w!(out, "/// A `{}` message (template id {id}).", m.body.name);
            w!(out, "{v}({path}Decoder<'a>),");
            variants.push((v, path, id));
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a> AnyMessage<'a> {{");
        w!(
            out,
            "/// Reads the header at the start of `buf` and checks the message it names."
        );
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn decode(buf: &'a [u8]) -> {R}<Self, rt::DecodeError> {{"
        );
        w!(out, "let h = HeaderFields::read(buf)?;");
        // A constant schemaId is not on the wire: there is nothing to check (as `sbekit decode`).
        if !h.schema_id.is_constant() {
            w!(out, "if h.schema_id != SCHEMA_ID {{");
            w!(out, "return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::WrongSchemaId {{ expected: rt::Int::to_u64(SCHEMA_ID), found: rt::Int::to_u64(h.schema_id) }}, {}));", h.schema_id.offset);
            w!(out, "}}");
        }
        w!(out, "match h.template_id {{");
        for (v, p, _) in &variants {
            w!(
                out,
                "{p}Decoder::TEMPLATE_ID => {p}Decoder::decode_body(buf, &h).map(Self::{v}),"
            );
        }
        w!(out, "other => {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::UnknownTemplateId {{ found: rt::Int::to_u64(other) }}, {})),", h.template_id.offset);
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "}}");
    }
}
