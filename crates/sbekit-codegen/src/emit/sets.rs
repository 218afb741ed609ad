//! Bit sets: a newtype over the encoding's integer with a constant and accessors per choice.

use super::*;

impl Gen<'_> {
    pub(super) fn set_def(&mut self, name: &str, d: &SetDef) {
        let t = type_name(name);
        let raw = rty(d.ty);
        let out = &mut self.out;
        let mut names = member_scope(&[
            "from_bits",
            "bits",
            "empty",
            "contains",
            "fmt",
            "bitor",
            "clone",
            "eq",
            "hash",
            "default",
        ]);
        let choices: Vec<(String, String, u32, Option<&String>, &str)> = d
            .choices
            .iter()
            .map(|(n, b, desc)| {
                let m = names.take(n);
                let mut c = screaming(n);
                if c == "ALL" {
                    c.push_str("_CHOICE");
                }
                (m, c, *b, desc.as_ref(), n.as_str())
            })
            .collect();
        doc(
            out,
            d.description.as_ref(),
            &format!("The `{name}` bit set."),
        );
        w!(out, "#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]");
        if self.serde {
            w!(out, "{SERDE_DERIVE_RAW}");
        }
        w!(out, "pub struct {t}({raw});");
        w!(out, "");
        w!(out, "impl {t} {{");
        for (m, c, b, desc, n) in &choices {
            doc(out, *desc, &format!("The `{n}` choice (bit {b})."));
            w!(out, "pub const {c}: Self = Self({});", mask(*b));
            let _ = m;
        }
        w!(
            out,
            "/// The set with the given raw bits (unknown bits are kept)."
        );
        w!(out, "#[inline]");
        w!(
            out,
            "pub const fn from_bits(bits: {raw}) -> Self {{ Self(bits) }}"
        );
        w!(out, "/// The raw bits.");
        w!(out, "#[inline]");
        w!(out, "pub const fn bits(self) -> {raw} {{ self.0 }}");
        w!(out, "/// The set with no choices.");
        w!(out, "#[inline]");
        w!(out, "pub const fn empty() -> Self {{ Self(0) }}");
        w!(out, "/// True if every choice in `other` is in `self`.");
        w!(out, "#[inline]");
        w!(
            out,
            "pub const fn contains(self, other: Self) -> bool {{ self.0 & other.0 == other.0 }}"
        );
        for (m, _, b, _, n) in &choices {
            w!(out, "/// True if `{n}` is set.");
            w!(out, "#[inline]");
            w!(
                out,
                "pub const fn {}(self) -> bool {{ self.0 & {} != 0 }}",
                escape_with(self.keywords, m),
                mask(*b)
            );
            w!(out, "/// This set with `{n}` switched on or off.");
            w!(out, "#[inline]");
            let k = mask(*b);
            w!(out, "pub const fn with_{m}(self, on: bool) -> Self {{ if on {{ Self(self.0 | {k}) }} else {{ Self(self.0 & !{k}) }} }}");
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl ::core::ops::BitOr for {t} {{");
        w!(out, "type Output = Self;");
        w!(out, "#[inline]");
        w!(
            out,
            "fn bitor(self, rhs: Self) -> Self {{ Self(self.0 | rhs.0) }}"
        );
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl ::core::fmt::Debug for {t} {{");
        w!(
            out,
            "fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{"
        );
        w!(out, "f.debug_struct({t:?})");
        for (m, _, _, _, n) in &choices {
            w!(
                out,
                ".field({n:?}, &self.{}())",
                escape_with(self.keywords, m)
            );
        }
        w!(out, ".finish()");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }
}
