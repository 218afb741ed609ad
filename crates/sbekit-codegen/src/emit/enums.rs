//! Enums: an open newtype per schema enum, over the raw value, with one associated constant per
//! schema value. Decoding never fails on a value the schema does not list, and `to_raw` is the
//! field read itself: a Rust `enum` with an `Unknown(raw)` variant cost a switch per read that
//! LLVM does not fold away (docs/BENCHMARKS.md, issue 19). `Debug` prints what a derived `Debug`
//! of that enum printed: the constant's name, or `Unknown(raw)`.

use super::*;

impl Gen<'_> {
    pub(super) fn enum_def(&mut self, name: &str, e: &EnumDef) {
        let t = type_name(name);
        let raw = rty(e.ty);
        let out = &mut self.out;
        // The inherent constants share the namespace of the value constants.
        let mut used = Scope::plain(&["ALL", "NULL_VALUE"]);
        let mut variants: Vec<(String, &str, String, Option<&String>)> = Vec::new();
        let mut raws = BTreeSet::new();
        for (vn, v, d) in &e.values {
            let id = used.take(&escape_with(self.keywords, &camel(vn)));
            let l = lit(v, e.ty);
            variants.push((id, vn.as_str(), l, d.as_ref()));
        }
        let unknown = if used.contains("Unknown") {
            "UnknownRaw"
        } else {
            "Unknown"
        };
        doc(out, e.description.as_ref(), &format!("The `{name}` enum."));
        w!(out, "///");
        w!(
            out,
            "/// Open: it holds any raw value, one associated constant per value of the schema, so"
        );
        w!(
            out,
            "/// decoding never fails on a value the schema does not list and reading the raw value"
        );
        w!(
            out,
            "/// back costs nothing. Match on the constants (`{t}::{first} => ...`) with a catch-all arm.",
            first = variants.first().map_or("from_raw(0)", |v| v.0.as_str())
        );
        w!(
            out,
            "#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]"
        );
        if self.serde {
            w!(out, "{SERDE_DERIVE_RAW}");
        }
        w!(out, "#[repr(transparent)]");
        w!(out, "pub struct {t}({raw});");
        w!(out, "");
        w!(out, "#[allow(non_upper_case_globals)]");
        w!(out, "impl {t} {{");
        for (id, vn, l, d) in &variants {
            doc(
                out,
                *d,
                &format!("`{vn}` (raw value {}).", l.split('_').next().unwrap_or(l)),
            );
            w!(out, "pub const {id}: Self = Self({l});");
        }
        w!(
            out,
            "/// The raw value that marks an optional field of this type as absent."
        );
        w!(out, "pub const NULL_VALUE: {raw} = {};", lit(&e.null, e.ty));
        w!(out, "/// All values of the schema, in schema order.");
        w!(
            out,
            "pub const ALL: [Self; {}] = [{}];",
            variants.len(),
            variants
                .iter()
                .map(|v| format!("Self::{}", v.0))
                .collect::<Vec<_>>()
                .join(", ")
        );
        w!(
            out,
            "/// The value for a raw wire value (any value: the type is open)."
        );
        w!(out, "#[inline]");
        w!(out, "pub const fn from_raw(raw: {raw}) -> Self {{");
        w!(out, "Self(raw)");
        w!(out, "}}");
        w!(out, "/// The raw wire value.");
        w!(out, "#[inline]");
        w!(out, "pub const fn to_raw(self) -> {raw} {{");
        w!(out, "self.0");
        w!(out, "}}");
        w!(
            out,
            "/// Whether the value is one the schema lists (the null value is not, unless listed)."
        );
        w!(out, "#[inline]");
        w!(out, "pub const fn is_known(self) -> bool {{");
        w!(out, "self.name().is_some()");
        w!(out, "}}");
        w!(
            out,
            "/// The value's name in the schema (`None` for unknown raw values)."
        );
        w!(out, "pub const fn name(self) -> {O}<&'static str> {{");
        w!(out, "match self.0 {{");
        for (_, vn, l, _) in &variants {
            if raws.insert(l.clone()) {
                w!(out, "{l} => {SOME}({vn:?}),");
            }
        }
        w!(out, "_ => {NONE},");
        w!(out, "}}");
        w!(out, "}}");
        // `Debug` prints the constant's identifier (what a derived `Debug` printed when the
        // values were enum variants); a second lookup only where one differs from its name.
        let same = variants
            .iter()
            .all(|(id, vn, _, _)| id.trim_start_matches("r#") == *vn);
        let debug_name = if same { "name" } else { "ident" };
        if !same {
            w!(out, "const fn ident(self) -> {O}<&'static str> {{");
            raws.clear();
            w!(out, "match self.0 {{");
            for (id, _, l, _) in &variants {
                if raws.insert(l.clone()) {
                    w!(out, "{l} => {SOME}({:?}),", id.trim_start_matches("r#"));
                }
            }
            w!(out, "_ => {NONE},");
            w!(out, "}}");
            w!(out, "}}");
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl ::core::fmt::Debug for {t} {{");
        w!(
            out,
            "fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{"
        );
        w!(out, "match self.{debug_name}() {{");
        w!(out, "{SOME}(n) => f.write_str(n),");
        w!(
            out,
            "{NONE} => f.debug_tuple(\"{unknown}\").field(&self.0).finish(),"
        );
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl ::core::str::FromStr for {t} {{");
        w!(out, "type Err = rt::UnknownName;");
        w!(out, "fn from_str(s: &str) -> {R}<Self, rt::UnknownName> {{");
        w!(out, "match s {{");
        for (id, vn, _, _) in &variants {
            w!(out, "{vn:?} => {OK}(Self::{id}),");
        }
        w!(out, "_ => {ERR}(rt::UnknownName),");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl ::core::fmt::Display for {t} {{");
        w!(
            out,
            "fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{"
        );
        w!(out, "match self.name() {{");
        w!(out, "{SOME}(n) => f.write_str(n),");
        w!(
            out,
            "{NONE} => ::core::write!(f, \"{unknown}({{}})\", self.to_raw()),"
        );
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }
}
