//! Message and group-entry decoders: the one checking walk (`parse`), the trusted walk used
//! by group iterators, and the section accessors.

use super::*;

impl Gen<'_> {
    pub(super) fn body_decoder(&mut self, b: &Body, template: Option<i32>) {
        let p = &self.ty(b);
        let min = b.min_block;
        let k = b.sections.len();
        let versioned = b.has_versioned_fields();
        // Entries of groups without nested sections are sliced by the iterator directly.
        let fixed_entry = template.is_none() && k == 0;
        let (fields, sections) = member_names(b, DECODER_RESERVED);
        // Nested groups first, so each type is defined once in a flat list.
        for (_, s) in &sections {
            if let Section::Group { body, .. } = s {
                self.body_decoder(body, None);
            }
        }
        let out = &mut self.out;
        if template.is_some() {
            doc(
                out,
                b.description.as_ref(),
                &format!("Reads a `{}` message.", b.name),
            );
            w!(out, "///");
            w!(out, "/// Created by [`Self::decode`], which checks the whole message; accessors cannot fail.");
        } else {
            doc(
                out,
                b.description.as_ref(),
                &format!("Reads one entry of the `{}` group.", b.name),
            );
        }
        w!(out, "#[derive(Clone, Copy)]");
        w!(out, "pub struct {p}Decoder<'a> {{");
        w!(out, "block: &'a [u8; {min}],");
        if versioned {
            w!(out, "blk: &'a [u8],");
        }
        if k > 0 {
            // What each section's accessor returns, found by the checking walk: a group's
            // iterator or a var-data slice. Accessors copy it out; nothing is located twice.
            let tys: Vec<String> = sections
                .iter()
                .map(|(_, s)| match s {
                    Section::Group { body, .. } => {
                        format!("{}Iter<'a>", self.s.type_name(Language::Rust, &body.path))
                    }
                    Section::Var { .. } => "&'a [u8]".to_string(),
                })
                .collect();
            // A private tuple read only by the accessors below: naming it would add nothing.
            w!(out, "#[allow(clippy::type_complexity)]");
            w!(out, "sec: ({},),", tys.join(", "));
        }
        w!(out, "acting_version: u64,");
        if !fixed_entry {
            w!(out, "end: usize,");
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a> {p}Decoder<'a> {{");
        w!(out, "/// The block length this schema version writes.");
        w!(out, "pub const BLOCK_LENGTH: usize = {};", b.block_length);
        w!(
            out,
            "/// The shortest block accepted: the extent of the fields every version has."
        );
        w!(out, "pub const MIN_BLOCK_LENGTH: usize = {min};");
        if let Some(id) = template {
            let h = &self.s.header;
            let tt = prim_ty(&h.template_id);
            let tp = prim_of(&h.template_id);
            w!(out, "/// The message's template id.");
            w!(
                out,
                "pub const TEMPLATE_ID: {tt} = {};",
                lit(&PrimitiveValue::Int(id.into()), tp.ty)
            );
            w!(out, "");
            w!(out, "/// Checks a whole message (header, block, groups, var data) at the start of `buf`.");
            w!(out, "///");
            w!(
                out,
                "/// Fails if the header is not this message's or any part is outside `buf`."
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
            w!(out, "if h.template_id != Self::TEMPLATE_ID {{");
            w!(out, "return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::WrongTemplateId {{ expected: rt::Int::to_u64(Self::TEMPLATE_ID), found: rt::Int::to_u64(h.template_id) }}, {}));", h.template_id.offset);
            w!(out, "}}");
            w!(out, "Self::decode_body(buf, &h)");
            w!(out, "}}");
            w!(out, "");
            w!(
                out,
                "/// Checks the message body after a header already read (and dispatched on)."
            );
            w!(out, "#[inline]");
            w!(out, "pub fn decode_body(buf: &'a [u8], h: &HeaderFields) -> {R}<Self, rt::DecodeError> {{");
            let arg = if self.budget {
                w!(out, "let mut budget = rt::bounds::MAX_EMPTY_ENTRIES;");
                ", &mut budget"
            } else {
                ""
            };
            w!(out, "Self::parse(buf, HEADER_LENGTH, rt::Int::to_usize(h.block_length), rt::Int::to_u64(h.version){arg})");
            w!(out, "}}");
            w!(out, "");
            w!(
                out,
                "/// Bytes from the start of the header to the end of the message."
            );
            w!(out, "#[inline]");
            w!(out, "pub fn encoded_length(&self) -> usize {{ self.end }}");
        }
        w!(
            out,
            "/// The schema version the writer used (from the message header)."
        );
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn acting_version(&self) -> u64 {{ self.acting_version }}"
        );
        w!(
            out,
            "/// The bytes of the fields every version has (the start of the block)."
        );
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn raw_block(&self) -> &'a [u8; {min}] {{ self.block }}"
        );
        w!(out, "");
        if fixed_entry {
            w!(out, "#[inline]");
            w!(
                out,
                "fn from_block(blk: &'a [u8], acting_version: u64) -> {O}<Self> {{"
            );
            w!(out, "let block = blk.first_chunk::<{min}>()?;");
            if versioned {
                w!(out, "{SOME}(Self {{ block, blk, acting_version }})");
            } else {
                w!(out, "{SOME}(Self {{ block, acting_version }})");
            }
            w!(out, "}}");
            w!(out, "");
        } else {
            // The one walk that checks a body: block, then each section in order.
            w!(out, "#[inline]");
            // The empty-entry budget is the message's: only bodies with groups draw on it.
            let budget = self.budget_param(b.groups().next().is_some());
            let out = &mut self.out;
            w!(out, "fn parse(buf: &'a [u8], pos: usize, block_len: usize, acting_version: u64{budget}) -> {R}<Self, rt::DecodeError> {{");
            // The first section's prefix, when it always follows, is checked with the block.
            let located = match b.leading_prefix() {
                Some(next) => format!("rt::bounds::block_then::<{min}, {next}>"),
                None => format!("rt::bounds::block::<{min}>"),
            };
            w!(
                out,
                "let (blk, block, blk_end) = {located}(buf, pos, block_len)?;"
            );
            if template.is_some() {
                // The root block covers the fields of its acting version (group entries are
                // held to theirs by `group_dims`).
                if let Some(req) = required_expr(&b.required, min) {
                    w!(out, "rt::bounds::block_covers(block_len, {req}, pos)?;");
                }
            }
            if k > 0 {
                w!(out, "let p = blk_end;");
                self.section_walk(&sections, true);
            }
            let out = &mut self.out;
            let mut fields_init = vec!["block".to_string()];
            if versioned {
                fields_init.push("blk".into());
            } else {
                w!(out, "let _ = blk;");
            }
            if k > 0 {
                fields_init.push(format!("sec: ({},)", section_vars(k)));
                fields_init.push("acting_version".into());
                fields_init.push("end: p".into());
            } else {
                fields_init.push("acting_version".into());
                fields_init.push("end: blk_end".into());
            }
            w!(out, "{OK}(Self {{ {} }})", fields_init.join(", "));
            w!(out, "}}");
            w!(out, "");
            if template.is_none() {
                // The same walk for entries of a message `decode` already checked: it only
                // locates the sections (every access stays bounds-checked, so it cannot panic).
                w!(out, "#[inline]");
                w!(out, "fn parse_trusted(buf: &'a [u8], pos: usize, block_len: usize, acting_version: u64) -> {O}<Self> {{");
                let blk = if versioned { "blk" } else { "_" };
                w!(
                    out,
                    "let ({blk}, block, blk_end) = rt::bounds::block_trusted::<{min}>(buf, pos, block_len)?;"
                );
                w!(out, "let p = blk_end;");
                self.section_walk(&sections, false);
                let out = &mut self.out;
                let blk = if versioned { "blk, " } else { "" };
                w!(
                    out,
                    "{SOME}(Self {{ block, {blk}sec: ({},), acting_version, end: p }})",
                    section_vars(k)
                );
                w!(out, "}}");
                w!(out, "");
            }
        }
        for (m, f) in &fields {
            self.getter(m, f, "self.block", true);
        }
        for (i, (m, s)) in sections.iter().enumerate() {
            let id = escape_with(self.keywords, m);
            let out = &mut self.out;
            match s {
                Section::Group {
                    name,
                    description,
                    since,
                    body,
                    ..
                } => {
                    let it = format!("{}Iter", self.s.type_name(Language::Rust, &body.path));
                    doc(
                        out,
                        description.as_ref(),
                        &format!("The entries of the `{name}` group."),
                    );
                    w!(out, "#[inline]");
                    let make = format!("self.sec.{i}");
                    if *since > 0 {
                        w!(out, "///");
                        w!(out, "/// Since schema version {since}: `None` when the message's acting version is older.");
                        w!(out, "pub fn {id}(&self) -> {O}<{it}<'a>> {{");
                        w!(out, "if self.acting_version < {since} {{ return {NONE}; }}");
                        w!(out, "{SOME}({make})");
                    } else {
                        w!(out, "pub fn {id}(&self) -> {it}<'a> {{");
                        w!(out, "{make}");
                    }
                    w!(out, "}}");
                }
                Section::Var {
                    name,
                    description,
                    since,
                    text,
                    ..
                } => {
                    doc(
                        out,
                        description.as_ref(),
                        &format!("The `{name}` variable-length data."),
                    );
                    w!(out, "#[inline]");
                    let data = format!("self.sec.{i}");
                    if *since > 0 {
                        w!(out, "///");
                        w!(out, "/// Since schema version {since}: `None` when the message's acting version is older.");
                        w!(out, "pub fn {id}(&self) -> {O}<&'a [u8]> {{");
                        w!(out, "if self.acting_version < {since} {{ return {NONE}; }}");
                        w!(out, "{SOME}({data})");
                        w!(out, "}}");
                        if *text {
                            w!(out, "/// The `{name}` data as text, checked to be UTF-8.");
                            w!(out, "#[inline]");
                            w!(out, "pub fn {m}_str(&self) -> {O}<{R}<&'a str, ::core::str::Utf8Error>> {{ self.{id}().map(rt::to_str) }}");
                        }
                    } else {
                        w!(out, "pub fn {id}(&self) -> &'a [u8] {{ {data} }}");
                        if *text {
                            w!(out, "/// The `{name}` data as text, checked to be UTF-8.");
                            w!(out, "#[inline]");
                            w!(out, "pub fn {m}_str(&self) -> {R}<&'a str, ::core::str::Utf8Error> {{ rt::to_str(self.{id}()) }}");
                        }
                    }
                }
            }
        }
        w!(self.out, "}}");
        w!(self.out, "");
        self.debug_impl(
            &format!("{p}Decoder<'_>"),
            &b.name,
            &fields,
            &sections,
            true,
        );
        if template.is_none() {
            return;
        }
        // Iterators for the groups of this message, outermost first is not required.
        self.iters(b, false);
    }
}

impl Gen<'_> {
    /// The walk over a body's sections after its block, from `p`: binds `s0`, `s1`, ... (what
    /// each section's accessor returns) and leaves `p` at the body's end. `checked`: the one
    /// walk that checks a message (errors out); otherwise the trusted walk of group iterators
    /// over a message already checked (gives up with `None`, which cannot happen).
    fn section_walk(&mut self, sections: &[(String, &Section)], checked: bool) {
        let var = if checked {
            "rt::var_data"
        } else {
            "rt::bounds::var_data_trusted"
        };
        for (i, (_, s)) in sections.iter().enumerate() {
            let (step, absent) = match s {
                Section::Group { body, .. } => {
                    let g = self.s.type_name(Language::Rust, &body.path);
                    let call = if checked {
                        format!(
                            "{g}Decoder::group_skip(buf, p, acting_version{})?",
                            self.budget_arg()
                        )
                    } else {
                        format!("{g}Decoder::group_trusted(buf, p, acting_version)?")
                    };
                    (call, format!("{g}Iter::empty()"))
                }
                Section::Var { len, .. } => (
                    format!(
                        "{var}(buf, p, |b: [u8; {}]| rt::Int::to_usize({}::from_{}_bytes(b)))?",
                        len.ty.size(),
                        rty(len.ty),
                        endian(len.order)
                    ),
                    "&[][..]".to_string(),
                ),
            };
            let out = &mut self.out;
            if s.since() > 0 {
                w!(
                    out,
                    "let (s{i}, p) = if acting_version >= {} {{ {step} }} else {{ ({absent}, p) }};",
                    s.since()
                );
            } else {
                w!(out, "let (s{i}, p) = {step};");
            }
        }
    }
}

/// `s0, s1, ...`: the names [`Gen::section_walk`] binds, for `k` sections.
fn section_vars(k: usize) -> String {
    (0..k)
        .map(|i| format!("s{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}
