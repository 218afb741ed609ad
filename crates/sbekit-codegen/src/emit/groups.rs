//! Group iterators (decoding) and group writers (encoding).

use super::*;

impl Gen<'_> {
    /// Group iterators for every group under `b`.
    /// `nested`: the groups are inside group entries (not directly in a message).
    pub(super) fn iters(&mut self, b: &Body, nested: bool) {
        for s in &b.sections {
            if let Section::Group {
                name,
                body,
                dim_size,
                block_len,
                count,
                ..
            } = s
            {
                self.iter(name, body, *dim_size, block_len, count, nested);
                self.iters(body, true);
            }
        }
    }

    #[allow(clippy::too_many_arguments)] // One call site; the group's parts.
    pub(super) fn iter(
        &mut self,
        name: &str,
        body: &Body,
        dim: usize,
        bl: &DimField,
        count: &DimField,
        nested: bool,
    ) {
        let p = &body.path;
        let out = &mut self.out;
        let max = count.max.min(u64::from(u32::MAX));
        w!(out, "/// Iterates over the entries of a `{name}` group (checked when the message was decoded).");
        let fixed = body.is_fixed();
        let rb = read("dims", bl.offset, bl.ty, bl.order);
        let rc = read("dims", count.offset, count.ty, count.order);
        w!(out, "#[derive(Clone, Copy)]");
        w!(out, "pub struct {p}Iter<'a> {{");
        if fixed {
            w!(out, "rest: &'a [u8],");
        } else {
            w!(out, "buf: &'a [u8],");
            w!(out, "pos: usize,");
        }
        w!(out, "block_len: usize,");
        w!(out, "remaining: usize,");
        w!(out, "acting_version: u64,");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a> {p}Iter<'a> {{");
        // Checks the group header (the walk in `decode`).
        w!(out, "#[inline]");
        w!(
            out,
            "fn check_dims(buf: &'a [u8], pos: usize) -> {R}<(usize, usize), rt::DecodeError> {{"
        );
        w!(out, "let dims = match rt::chunk::<{dim}>(buf, pos) {{ {SOME}(d) => d, {NONE} => return {ERR}(rt::DecodeError::too_short(pos, {dim}, buf.len())) }};");
        w!(out, "let block_len = rt::Int::to_usize({rb});");
        w!(out, "let remaining = rt::Int::to_usize({rc});");
        // 8- and 16-bit unsigned counts are small by construction; wider or signed ones are
        // bounded so a hostile count cannot make iteration run (nearly) forever.
        if !(count.ty.is_unsigned_int() && count.ty.size() <= 2) {
            w!(out, "if remaining > {max} {{ return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::InvalidDimension {{ found: remaining as u64 }}, pos)); }}");
        }
        if body.min_block > 0 {
            w!(out, "if block_len < {p}Decoder::MIN_BLOCK_LENGTH {{ return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::BlockLengthTooShort {{ minimum: {p}Decoder::MIN_BLOCK_LENGTH, found: block_len }}, pos)); }}");
        }
        w!(out, "{OK}((block_len, remaining))");
        w!(out, "}}");
        w!(out, "");
        w!(out, "/// Checks the group at `pos`; returns where it ends.");
        w!(out, "#[inline]");
        w!(out, "fn skip(buf: &'a [u8], pos: usize, acting_version: u64) -> {R}<usize, rt::DecodeError> {{");
        w!(
            out,
            "let (block_len, remaining) = Self::check_dims(buf, pos)?;"
        );
        // `check_dims` read {dim} bytes at `pos`, so this cannot wrap.
        w!(out, "let start = pos.wrapping_add({dim});");
        // Entries that take no bytes cost iterations but no input: a count above the input's
        // size is refused, so a hostile count cannot make a reader loop for (nearly) ever.
        if fixed {
            w!(out, "let _ = acting_version;");
            if body.min_block == 0 {
                w!(out, "if block_len == 0 && remaining > buf.len() {{ return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::InvalidDimension {{ found: remaining as u64 }}, pos)); }}");
            }
            w!(
                out,
                "match block_len.checked_mul(remaining).and_then(|n| start.checked_add(n)) {{"
            );
            w!(out, "{SOME}(end) if end <= buf.len() => {OK}(end),");
            w!(out, "_ => {ERR}(rt::DecodeError::too_short(start, block_len.saturating_mul(remaining), buf.len())),");
            w!(out, "}}");
        } else {
            w!(out, "let mut p = start;");
            w!(out, "for _ in 0..remaining {{");
            w!(
                out,
                "let end = {p}Decoder::parse(buf, p, block_len, acting_version)?.end;"
            );
            // Entries that take no bytes are all alike (their sections are absent at this
            // acting version); no need to walk them all, but their count is bounded as above.
            w!(out, "if end == p {{ if remaining > buf.len() {{ return {ERR}(rt::DecodeError::new(rt::DecodeErrorKind::InvalidDimension {{ found: remaining as u64 }}, pos)); }} break; }}");
            w!(out, "p = end;");
            w!(out, "}}");
            w!(out, "{OK}(p)");
        }
        w!(out, "}}");
        w!(out, "");
        if nested {
            w!(out, "/// Where the (already checked) group at `pos` ends.");
            w!(out, "#[inline]");
            w!(
                out,
                "fn end_trusted(buf: &'a [u8], pos: usize, acting_version: u64) -> {O}<usize> {{"
            );
            w!(out, "let dims = rt::chunk::<{dim}>(buf, pos)?;");
            w!(out, "let block_len = rt::Int::to_usize({rb});");
            w!(out, "let remaining = rt::Int::to_usize({rc});");
            w!(out, "let start = pos.saturating_add({dim});");
            if fixed {
                w!(out, "let _ = acting_version;");
                w!(
                    out,
                    "{SOME}(start.saturating_add(block_len.saturating_mul(remaining)))"
                );
            } else {
                w!(out, "let mut p = start;");
                w!(out, "for _ in 0..remaining {{");
                w!(
                    out,
                    "let end = {p}Decoder::parse_trusted(buf, p, block_len, acting_version)?.end;"
                );
                w!(out, "if end == p {{ break; }}");
                w!(out, "p = end;");
                w!(out, "}}");
                w!(out, "{SOME}(p)");
            }
            w!(out, "}}");
            w!(out, "");
        }
        // The group was checked by `decode`; this only re-reads its header (still bounds-checked,
        // so a decoder can never be made to panic).
        w!(out, "#[inline]");
        w!(
            out,
            "fn resume(buf: &'a [u8], pos: usize, acting_version: u64) -> Self {{"
        );
        w!(
            out,
            "let (block_len, remaining) = match rt::chunk::<{dim}>(buf, pos) {{"
        );
        w!(
            out,
            "{SOME}(dims) => (rt::Int::to_usize({rb}), rt::Int::to_usize({rc})),"
        );
        w!(out, "{NONE} => (0, 0),");
        w!(out, "}};");
        w!(out, "let start = pos.saturating_add({dim});");
        if fixed {
            w!(out, "match block_len.checked_mul(remaining).and_then(|n| buf.get(start..start.checked_add(n)?)) {{");
            w!(
                out,
                "{SOME}(rest) => Self {{ rest, block_len, remaining, acting_version }},"
            );
            w!(
                out,
                "{NONE} => Self {{ rest: &[], block_len, remaining: 0, acting_version }},"
            );
            w!(out, "}}");
        } else {
            w!(
                out,
                "Self {{ buf, pos: start, block_len, remaining, acting_version }}"
            );
        }
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a> ::core::iter::Iterator for {p}Iter<'a> {{");
        w!(out, "type Item = {p}Decoder<'a>;");
        w!(out, "#[inline]");
        w!(out, "fn next(&mut self) -> {O}<{p}Decoder<'a>> {{");
        w!(out, "if self.remaining == 0 {{ return {NONE}; }}");
        if fixed {
            w!(
                out,
                "let (e, rest) = self.rest.split_at_checked(self.block_len)?;"
            );
            w!(out, "self.rest = rest;");
            w!(out, "self.remaining = self.remaining.wrapping_sub(1);"); // non-zero, checked above
            w!(out, "{p}Decoder::from_block(e, self.acting_version)");
        } else {
            w!(out, "match {p}Decoder::parse_trusted(self.buf, self.pos, self.block_len, self.acting_version) {{");
            w!(
                out,
                "{SOME}(e) => {{ self.pos = e.end; self.remaining = self.remaining.wrapping_sub(1); {SOME}(e) }}"
            );
            w!(out, "{NONE} => {{ self.remaining = 0; {NONE} }}");
            w!(out, "}}");
        }
        w!(out, "}}");
        w!(out, "#[inline]");
        w!(out, "fn size_hint(&self) -> (usize, {O}<usize>) {{ (self.remaining, {SOME}(self.remaining)) }}");
        w!(out, "}}");
        w!(out, "");
        w!(
            out,
            "impl ::core::iter::ExactSizeIterator for {p}Iter<'_> {{}}"
        );
        w!(out, "");
        w!(out, "impl ::core::fmt::Debug for {p}Iter<'_> {{");
        w!(out, "fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{ f.debug_list().entries(*self).finish() }}");
        w!(out, "}}");
        w!(out, "");
    }

    pub(super) fn writer(
        &mut self,
        name: &str,
        body: &Body,
        dim: usize,
        bl: &DimField,
        count: &DimField,
    ) {
        let p = &body.path;
        let out = &mut self.out;
        let max = count.max.min(u64::from(u32::MAX));
        let has_tail = !body.sections.is_empty();
        w!(
            out,
            "/// Writes the entries of a `{name}` group; the entry count in the group header is"
        );
        w!(out, "/// updated with every entry.");
        w!(out, "pub struct {p}Writer<'a, 't> {{");
        w!(out, "tail: &'t mut rt::Tail<'a>,");
        w!(out, "dims: &'a mut [u8; {dim}],");
        w!(out, "count: usize,");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl<'a, 't> {p}Writer<'a, 't> {{");
        w!(out, "/// The most entries the group's count field allows.");
        w!(out, "pub const MAX_ENTRIES: usize = {max};");
        w!(out, "#[inline]");
        w!(
            out,
            "fn begin(tail: &'t mut rt::Tail<'a>) -> {R}<Self, rt::EncodeError> {{"
        );
        w!(out, "let dims = tail.take_array::<{dim}>()?;");
        let covered = bl.ty.size() + count.ty.size();
        if covered < dim {
            w!(out, "*dims = [0; {dim}];");
        }
        w!(
            out,
            "rt::put(dims, {}, {}.to_{}_bytes());",
            bl.offset,
            lit(&PrimitiveValue::UInt(body.block_length as u64), bl.ty),
            endian(bl.order)
        );
        w!(
            out,
            "rt::put(dims, {}, {}.to_{}_bytes());",
            count.offset,
            lit(&PrimitiveValue::UInt(0), count.ty),
            endian(count.order)
        );
        w!(out, "{OK}(Self {{ tail, dims, count: 0 }})");
        w!(out, "}}");
        w!(out, "");
        w!(out, "/// Number of entries written so far.");
        w!(out, "#[inline]");
        w!(out, "pub fn count(&self) -> usize {{ self.count }}");
        w!(out, "");
        w!(out, "/// Appends an entry, which `f` fills in.");
        w!(out, "#[inline]");
        w!(
            out,
            "pub fn entry<F>(&mut self, f: F) -> {R}<&mut Self, rt::EncodeError>"
        );
        let elt = if has_tail { "<'a, '_>" } else { "<'a>" };
        w!(
            out,
            "where F: ::core::ops::FnOnce(&mut {p}Encoder{elt}) -> {R}<(), rt::EncodeError> {{"
        );
        w!(out, "if self.count >= Self::MAX_ENTRIES {{ return {ERR}(rt::EncodeError::new(rt::EncodeErrorKind::GroupCountTooLarge {{ maximum: {max} }}, self.tail.position())); }}");
        w!(
            out,
            "let block = self.tail.take_array::<{}>()?;",
            body.block_length
        );
        // Below MAX_ENTRIES, checked above: no wrap.
        w!(out, "self.count = self.count.wrapping_add(1);");
        w!(
            out,
            "rt::put(self.dims, {}, (self.count as {}).to_{}_bytes());",
            count.offset,
            rty(count.ty),
            endian(count.order)
        );
        if has_tail {
            w!(
                out,
                "let mut e = {p}Encoder {{ block, tail: &mut *self.tail, next: 0 }};"
            );
            w!(out, "f(&mut e)?;");
            w!(out, "e.complete()?;");
        } else {
            w!(out, "let mut e = {p}Encoder {{ block }};");
            w!(out, "f(&mut e)?;");
        }
        w!(out, "{OK}(self)");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }
}
