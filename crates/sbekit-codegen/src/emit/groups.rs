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
        let p = &self.ty(body);
        let out = &mut self.out;
        let max = count.max.min(u64::from(u32::MAX));
        w!(out, "/// Iterates over the entries of a `{name}` group (checked when the message was decoded).");
        let fixed = body.is_fixed();
        let rb = read("dims", bl.offset, bl.ty, bl.order);
        let rc = read("dims", count.offset, count.ty, count.order);
        // The iterator is the runtime's, generic over the entry decoder; what differs between
        // groups (the header's layout, the entry's checks) stays here, on the entry decoder.
        let kind = if fixed { "FixedGroupIter" } else { "GroupIter" };
        w!(
            out,
            "pub type {p}Iter<'a> = rt::{kind}<'a, {p}Decoder<'a>>;"
        );
        w!(out, "");
        w!(out, "impl<'a> {p}Decoder<'a> {{");
        // What differs between groups: the dimension's layout, read here; the bounds
        // arithmetic on it is the runtime's (`rt::bounds`).
        w!(out, "#[inline(always)]");
        w!(
            out,
            "fn group_dims(dims: &[u8; {dim}]) -> (usize, usize) {{ (rt::Int::to_usize({rb}), rt::Int::to_usize({rc})) }}"
        );
        w!(out, "");
        // 8- and 16-bit unsigned counts are small by construction; wider or signed ones are
        // bounded so a hostile count cannot make iteration run (nearly) forever.
        let max_count = if count.ty.is_unsigned_int() && count.ty.size() <= 2 {
            "usize::MAX".to_string()
        } else {
            max.to_string()
        };
        let ret = format!("({p}Iter<'a>, usize)");
        w!(
            out,
            "/// Checks the group at `pos`; returns its iterator and where it ends."
        );
        w!(out, "#[inline]");
        // Only entries whose fields can all be absent (no bytes at version 0) can come as
        // empty blocks: for others a block length of 0 with entries is refused by `group_dims`
        // before any budget matters, so they do not touch it (a hot path).
        let charges = body.entries_may_be_empty();
        let budget = self.budget_param(charges || !fixed);
        let arg = self.budget_arg();
        let out = &mut self.out;
        w!(out, "fn group_skip(buf: &'a [u8], pos: usize, acting_version: u64{budget}) -> {R}<{ret}, rt::DecodeError> {{");
        // An entry's block covers the fields of its acting version.
        let min_block = required_expr(&body.required, body.min_block)
            .unwrap_or_else(|| format!("{p}Decoder::MIN_BLOCK_LENGTH"));
        w!(
            out,
            "let (block_len, remaining) = rt::bounds::group_dims(buf, pos, {min_block}, {max_count}, Self::group_dims)?;"
        );
        if charges {
            w!(
                out,
                "rt::bounds::charge_empty(budget, block_len, remaining, pos)?;"
            );
        }
        // `group_dims` read {dim} bytes at `pos`, so `pos + {dim}` cannot wrap.
        if fixed {
            w!(
                out,
                "let end = rt::bounds::fixed_group_end(buf, pos, {dim}, block_len, remaining)?;"
            );
            w!(out, "{OK}((rt::FixedGroupIter::checked(buf, pos.wrapping_add({dim}), block_len, remaining, acting_version), end))");
        } else {
            w!(out, "let mut p = pos.wrapping_add({dim});");
            w!(out, "for _ in 0..remaining {{");
            w!(
                out,
                "let end = {p}Decoder::parse(buf, p, block_len, acting_version{arg})?.end;"
            );
            // Entries that take no bytes are all alike (their sections are absent at this
            // acting version): no need to walk them all (the budget bounded their count).
            w!(out, "if end == p {{ break; }}");
            w!(out, "p = end;");
            w!(out, "}}");
            w!(out, "{OK}((rt::GroupIter::new(buf, pos.wrapping_add({dim}), block_len, remaining, acting_version), p))");
        }
        w!(out, "}}");
        w!(out, "");
        if nested {
            // Entries of an enclosing group are located again when iterated; the group was
            // checked by `decode`, so this only re-reads its header (still bounds-checked, so
            // a decoder can never be made to panic).
            w!(
                out,
                "/// The iterator of the (already checked) group at `pos`, and where it ends."
            );
            w!(out, "#[inline]");
            w!(
                out,
                "fn group_trusted(buf: &'a [u8], pos: usize, acting_version: u64) -> {O}<{ret}> {{"
            );
            w!(
                out,
                "let (block_len, remaining) = rt::bounds::group_dims_trusted(buf, pos, Self::group_dims)?;"
            );
            if fixed {
                w!(out, "{SOME}((rt::FixedGroupIter::checked(buf, pos.saturating_add({dim}), block_len, remaining, acting_version), rt::bounds::fixed_group_end_trusted(pos, {dim}, block_len, remaining)))");
            } else {
                w!(out, "let mut p = pos.saturating_add({dim});");
                w!(out, "for _ in 0..remaining {{");
                w!(
                    out,
                    "let end = {p}Decoder::parse_trusted(buf, p, block_len, acting_version)?.end;"
                );
                w!(out, "if end == p {{ break; }}");
                w!(out, "p = end;");
                w!(out, "}}");
                w!(out, "{SOME}((rt::GroupIter::new(buf, pos.saturating_add({dim}), block_len, remaining, acting_version), p))");
            }
            w!(out, "}}");
            w!(out, "");
        }
        w!(out, "}}");
        w!(out, "");
        if fixed {
            w!(out, "impl<'a> rt::FixedEntry<'a> for {p}Decoder<'a> {{");
            w!(
                out,
                "const MIN_BLOCK_LENGTH: usize = {p}Decoder::MIN_BLOCK_LENGTH;"
            );
            w!(out, "#[inline(always)]");
            w!(out, "fn from_block(block: &'a [u8], acting_version: u64) -> {O}<Self> {{ Self::from_block(block, acting_version) }}");
        } else {
            w!(out, "impl<'a> rt::Entry<'a> for {p}Decoder<'a> {{");
            w!(out, "#[inline(always)]");
            w!(out, "fn parse_trusted(buf: &'a [u8], pos: usize, block_len: usize, acting_version: u64) -> {O}<Self> {{ Self::parse_trusted(buf, pos, block_len, acting_version) }}");
            w!(out, "#[inline(always)]");
            w!(out, "fn end(&self) -> usize {{ self.end }}");
        }
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
        let p = &self.ty(body);
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
