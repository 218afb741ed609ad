//! Message and group-entry encoders: header and block on creation, setters, then sections
//! in schema order with skipped ones written empty.

use super::*;

impl Gen<'_> {
    pub(super) fn body_encoder(&mut self, b: &Body, template: Option<i32>) {
        let p = &self.ty(b);
        let bl = b.block_length;
        let k = b.sections.len();
        let (fields, sections) = member_names(b, ENCODER_RESERVED);
        for (_, s) in &sections {
            if let Section::Group {
                name,
                body,
                dim_size,
                block_len,
                count,
                ..
            } = s
            {
                self.body_encoder(body, None);
                self.writer(name, body, *dim_size, block_len, count);
            }
        }
        let is_msg = template.is_some();
        let tail_place = if is_msg || k == 0 {
            "self.tail"
        } else {
            "*self.tail"
        };
        let (lt, tail_ty, tail_ref) = if is_msg || k == 0 {
            ("<'a>", "rt::Tail<'a>", "&mut self.tail")
        } else {
            ("<'a, 't>", "&'t mut rt::Tail<'a>", "&mut *self.tail")
        };
        let out = &mut self.out;
        if is_msg {
            w!(out, "/// Writes a `{}` message: header and block on creation, then fields in any order,", b.name);
            w!(out, "/// then groups and var data in schema order; [`Self::finish`] returns the length.");
            w!(out, "///");
            w!(out, "/// Fields not set keep the buffer's previous bytes. Sections skipped are written empty.");
        } else {
            w!(out, "/// Writes one entry of the `{}` group: fields in any order, then groups and var data in", b.name);
            w!(
                out,
                "/// schema order (sections not written are written empty when the entry ends)."
            );
        }
        w!(out, "pub struct {p}Encoder{lt} {{");
        w!(out, "block: &'a mut [u8; {bl}],");
        if k > 0 || is_msg {
            w!(out, "tail: {tail_ty},");
        }
        if k > 0 {
            w!(out, "next: usize,");
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl{lt} {p}Encoder{lt} {{");
        w!(out, "/// The block length written.");
        w!(out, "pub const BLOCK_LENGTH: usize = {bl};");
        w!(
            out,
            "/// The block's bytes, for writing what the typed setters do not cover (padding)."
        );
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn raw_block(&mut self) -> &mut [u8; {bl}] {{ self.block }}"
        );
        if let Some(id) = template {
            let h = &self.s.header;
            let bp = prim_of(&h.block_length);
            let tp = prim_of(&h.template_id);
            let sp = prim_of(&h.schema_id);
            let _ = sp;
            w!(out, "/// Starts a message at the start of `buf`: writes the header and reserves the block.");
            w!(out, "#[inline]");
            w!(
                out,
                "pub fn new(buf: &'a mut [u8]) -> {R}<Self, rt::EncodeError> {{"
            );
            w!(out, "let mut tail = rt::Tail::new(buf, 0);");
            w!(out, "let hdr = tail.take_array::<HEADER_LENGTH>()?;");
            w!(out, "HeaderFields {{ block_length: {}, template_id: {}, schema_id: SCHEMA_ID, version: SCHEMA_VERSION }}.write(hdr);", lit(&PrimitiveValue::UInt(bl as u64), bp.ty), lit(&PrimitiveValue::Int(id.into()), tp.ty));
            w!(out, "let block = tail.take_array::<{bl}>()?;");
            if k > 0 {
                w!(out, "{OK}(Self {{ block, tail, next: 0 }})");
            } else {
                w!(out, "{OK}(Self {{ block, tail }})");
            }
            w!(out, "}}");
            w!(out, "");
            w!(out, "/// Completes the message (writing skipped sections empty); returns its length in bytes.");
            w!(out, "#[inline]");
            if k > 0 {
                w!(
                    out,
                    "pub fn finish(mut self) -> {R}<usize, rt::EncodeError> {{"
                );
                w!(out, "self.complete()?;");
            } else {
                w!(out, "pub fn finish(self) -> {R}<usize, rt::EncodeError> {{");
            }
            w!(out, "{OK}(self.tail.position())");
            w!(out, "}}");
        }
        for (m, f) in &fields {
            self.setter(m, f, "self.block", true);
        }
        if k > 0 {
            let out = &mut self.out;
            w!(out, "");
            w!(out, "#[inline]");
            w!(
                out,
                "fn begin_section(&mut self, i: usize) -> {R}<(), rt::EncodeError> {{"
            );
            w!(out, "if self.next > i {{ return {ERR}(rt::EncodeError::new(rt::EncodeErrorKind::OutOfOrder {{ section: i, next_allowed: self.next }}, self.tail.position())); }}");
            // Skipped sections are filled out of line, with the tail moved in and out by
            // value, so the encoder's address never escapes and its state stays in registers.
            w!(out, "if self.next < i {{");
            w!(out, "let t = ::core::mem::take({tail_ref});");
            w!(out, "{tail_place} = Self::fill(t, self.next, i)?;");
            w!(out, "}}");
            // `i` is a section index below the section count: no wrap.
            w!(out, "self.next = i.wrapping_add(1);");
            w!(out, "{OK}(())");
            w!(out, "}}");
            w!(out, "");
            w!(out, "#[inline]");
            w!(out, "fn complete(&mut self) -> {R}<(), rt::EncodeError> {{");
            w!(out, "if self.next < {k} {{");
            w!(out, "let t = ::core::mem::take({tail_ref});");
            w!(out, "{tail_place} = Self::fill(t, self.next, {k})?;");
            w!(out, "self.next = {k};");
            w!(out, "}}");
            w!(out, "{OK}(())");
            w!(out, "}}");
            w!(out, "");
            w!(out, "/// Writes sections `from..to` empty.");
            w!(out, "#[cold]");
            w!(out, "fn fill(mut tail: rt::Tail<'a>, from: usize, to: usize) -> {R}<rt::Tail<'a>, rt::EncodeError> {{");
            w!(out, "for i in from..to {{");
            // One section: an `if` (clippy: single_match); several: a `match`.
            if k > 1 {
                w!(out, "match i {{");
            }
            for step in b.encode_order() {
                let i = step.index;
                let body = match step.empty {
                    Empty::Group { group, .. } => {
                        format!(
                            "{}Writer::begin(&mut tail)?;",
                            self.s.type_name(Language::Rust, &group.body.path)
                        )
                    }
                    Empty::Var { len, .. } => format!(
                        "tail.write_var({}::to_{}_bytes(0), &[])?;",
                        rty(len.ty),
                        endian(len.order)
                    ),
                };
                if k > 1 {
                    w!(out, "{i} => {{ {body} }}");
                } else {
                    w!(out, "if i == {i} {{ {body} }}");
                }
            }
            if k > 1 {
                w!(out, "_ => {{}}");
                w!(out, "}}");
            }
            w!(out, "}}");
            w!(out, "{OK}(tail)");
            w!(out, "}}");
            for (i, (m, s)) in sections.iter().enumerate() {
                let id = escape_with(self.keywords, m);
                match s {
                    Section::Group {
                        name,
                        description,
                        body,
                        ..
                    } => {
                        let gp = &self.s.type_name(Language::Rust, &body.path);
                        doc(
                            out,
                            description.as_ref(),
                            &format!("Writes the `{name}` group."),
                        );
                        w!(out, "///");
                        w!(out, "/// `f` adds the entries with [`{gp}Writer::entry`]; the count is kept by the writer.");
                        w!(out, "#[inline]");
                        w!(
                            out,
                            "pub fn {id}<F>(&mut self, f: F) -> {R}<&mut Self, rt::EncodeError>"
                        );
                        w!(out, "where F: ::core::ops::FnOnce(&mut {gp}Writer<'a, '_>) -> {R}<(), rt::EncodeError> {{");
                        w!(out, "self.begin_section({i})?;");
                        w!(out, "let mut g = {gp}Writer::begin({tail_ref})?;");
                        w!(out, "f(&mut g)?;");
                        w!(out, "{OK}(self)");
                        w!(out, "}}");
                    }
                    Section::Var {
                        name,
                        description,
                        len,
                        ..
                    } => {
                        doc(
                            out,
                            description.as_ref(),
                            &format!("Writes the `{name}` variable-length data."),
                        );
                        w!(out, "#[inline]");
                        w!(out, "pub fn {id}(&mut self, data: &[u8]) -> {R}<&mut Self, rt::EncodeError> {{");
                        w!(out, "self.begin_section({i})?;");
                        w!(out, "if data.len() as u64 > {} {{ return {ERR}(rt::EncodeError::new(rt::EncodeErrorKind::VarDataTooLong {{ length: data.len(), maximum: {} }}, self.tail.position())); }}", len.max.min(u64::MAX >> 1), len.max.min(u64::MAX >> 1));
                        w!(
                            out,
                            "self.tail.write_var({}::to_{}_bytes(data.len() as {}), data)?;",
                            rty(len.ty),
                            endian(len.order),
                            rty(len.ty)
                        );
                        w!(out, "{OK}(self)");
                        w!(out, "}}");
                    }
                }
            }
        }
        w!(self.out, "}}");
        w!(self.out, "");
    }
}
