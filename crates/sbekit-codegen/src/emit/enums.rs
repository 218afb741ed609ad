//! Enums: a Rust enum per schema enum, with an `Unknown` variant for raw values the schema
//! does not list, so decoding never fails on a new value.

use super::*;

impl Gen<'_> {
    pub(super) fn enum_def(&mut self, name: &str, e: &EnumDef) {
        let t = type_name(name);
        let raw = rty(e.ty);
        let out = &mut self.out;
        let mut used = BTreeSet::new();
        let mut variants: Vec<(String, &str, String, Option<&String>)> = Vec::new();
        let mut raws = BTreeSet::new();
        for (vn, v, d) in &e.values {
            let mut id = escape_with(self.keywords, &camel(vn));
            while used.contains(&id) {
                id.push('_');
            }
            used.insert(id.clone());
            let l = lit(v, e.ty);
            variants.push((id, vn.as_str(), l, d.as_ref()));
        }
        let unknown = if used.contains("Unknown") {
            "UnknownRaw"
        } else {
            "Unknown"
        };
        doc(out, e.description.as_ref(), &format!("The `{name}` enum."));
        w!(out, "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]");
        w!(out, "pub enum {t} {{");
        for (id, vn, l, d) in &variants {
            doc(
                out,
                *d,
                &format!("`{vn}` (raw value {}).", l.split('_').next().unwrap_or(l)),
            );
            w!(out, "{id},");
        }
        w!(
            out,
            "/// A raw value that is none of the above (including the null value)."
        );
        w!(out, "{unknown}({raw}),");
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl {t} {{");
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
        w!(out, "/// The value for a raw wire value.");
        w!(out, "#[inline]");
        w!(out, "pub const fn from_raw(raw: {raw}) -> Self {{");
        w!(out, "match raw {{");
        for (id, _, l, _) in &variants {
            if raws.insert(l.clone()) {
                w!(out, "{l} => Self::{id},");
            }
        }
        w!(out, "other => Self::{unknown}(other),");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "/// The raw wire value.");
        w!(out, "#[inline]");
        w!(out, "pub const fn to_raw(self) -> {raw} {{");
        w!(out, "match self {{");
        for (id, _, l, _) in &variants {
            w!(out, "Self::{id} => {l},");
        }
        w!(out, "Self::{unknown}(raw) => raw,");
        w!(out, "}}");
        w!(out, "}}");
        w!(
            out,
            "/// The value's name in the schema (`None` for unknown raw values)."
        );
        w!(out, "pub const fn name(self) -> {O}<&'static str> {{");
        w!(out, "match self {{");
        for (id, vn, _, _) in &variants {
            w!(out, "Self::{id} => {SOME}({vn:?}),");
        }
        w!(out, "Self::{unknown}(_) => {NONE},");
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
