//! Owned values, rendered from the plan: per message, group entry and composite a plain struct
//! (`CarOwned`) holding what the decoder's accessors return, with groups as `Vec`s of entries
//! and var data as `Vec<u8>`. `from_decoder` fills one from a decoder; `encode_into` writes it
//! through the generated encoders at its acting version, with the same copy functions
//! `reencode` uses (rendered by [`super::json`] with [`Src::Owned`]), so an owned value writes
//! the bytes the flyweights would. `AnyOwned` is the owned form of `AnyMessage`.
//!
//! Absent and null values are `Option`s exactly where the getters return them; constants are
//! not stored (the decoders' accessors give them).

use super::json::{is_byte_array, CopyNames, Src};
use super::*;

/// The vector type of the generated code (the runtime's, so that `no_std` crates name it too).
const VEC: &str = "rt::owned::Vec";

/// With [`Options::serde`](crate::Options::serde): serde's own impls stop at arrays of 32
/// elements, so array fields go through these, as a tuple (what serde's impls write for short
/// arrays) of any length. Only `core` and `serde` paths, no panics, no indexing.
const SERDE_ARRAYS: &str = r#"
/// serde for the owned values' array fields, of any length (serde's own impls stop at 32).
#[cfg(feature = "serde")]
#[doc(hidden)]
#[allow(dead_code)]
mod sbe_serde {
    use ::core::result::Result;
    use ::serde::de::Error as _;
    use ::serde::ser::SerializeTuple as _;

    struct Ref<'a, T, const N: usize>(&'a [T; N]);

    impl<T: ::serde::Serialize, const N: usize> ::serde::Serialize for Ref<'_, T, N> {
        fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut t = s.serialize_tuple(N)?;
            for x in self.0 {
                t.serialize_element(x)?;
            }
            t.end()
        }
    }

    struct Val<T, const N: usize>([T; N]);

    struct Visit<T, const N: usize>(::core::marker::PhantomData<T>);

    impl<'de, T, const N: usize> ::serde::de::Visitor<'de> for Visit<T, N>
    where
        T: ::serde::Deserialize<'de> + ::core::marker::Copy + ::core::default::Default,
    {
        type Value = Val<T, N>;
        fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            ::core::write!(f, "an array of {} elements", N)
        }
        fn visit_seq<A: ::serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = [T::default(); N];
            for (i, x) in out.iter_mut().enumerate() {
                match seq.next_element()? {
                    ::core::option::Option::Some(v) => *x = v,
                    ::core::option::Option::None => return ::core::result::Result::Err(A::Error::invalid_length(i, &self)),
                }
            }
            ::core::result::Result::Ok(Val(out))
        }
    }

    impl<'de, T, const N: usize> ::serde::Deserialize<'de> for Val<T, N>
    where
        T: ::serde::Deserialize<'de> + ::core::marker::Copy + ::core::default::Default,
    {
        fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_tuple(N, Visit(::core::marker::PhantomData))
        }
    }

    /// `[T; N]` as a tuple of `N` elements.
    pub mod array {
        use ::core::result::Result;

        pub fn serialize<S: ::serde::Serializer, T: ::serde::Serialize, const N: usize>(a: &[T; N], s: S) -> Result<S::Ok, S::Error> {
            ::serde::Serialize::serialize(&super::Ref(a), s)
        }

        pub fn deserialize<'de, D, T, const N: usize>(d: D) -> Result<[T; N], D::Error>
        where
            D: ::serde::Deserializer<'de>,
            T: ::serde::Deserialize<'de> + ::core::marker::Copy + ::core::default::Default,
        {
            <super::Val<T, N> as ::serde::Deserialize>::deserialize(d).map(|v| v.0)
        }
    }

    /// `Option<[T; N]>`: absent, or a tuple of `N` elements.
    pub mod option_array {
        use ::core::option::Option;
        use ::core::result::Result;

        pub fn serialize<S: ::serde::Serializer, T: ::serde::Serialize, const N: usize>(a: &Option<[T; N]>, s: S) -> Result<S::Ok, S::Error> {
            match a {
                Option::Some(a) => s.serialize_some(&super::Ref(a)),
                Option::None => s.serialize_none(),
            }
        }

        pub fn deserialize<'de, D, T, const N: usize>(d: D) -> Result<Option<[T; N]>, D::Error>
        where
            D: ::serde::Deserializer<'de>,
            T: ::serde::Deserialize<'de> + ::core::marker::Copy + ::core::default::Default,
        {
            <Option<super::Val<T, N>> as ::serde::Deserialize>::deserialize(d).map(|v| v.map(|v| v.0))
        }
    }
}
"#;

impl Gen<'_> {
    /// The owned type of a field: the getter's return type, with references and decoders
    /// replaced by owned values.
    fn owned_ty(&self, f: &Field, in_body: bool) -> String {
        let t = match &f.kind {
            Kind::Prim(p) if p.len == 1 => rty(p.ty).to_string(),
            Kind::Prim(_) if is_byte_array(f) => format!("[u8; {}]", f.size),
            Kind::Prim(p) => format!("[{}; {}]", rty(p.ty), p.len),
            Kind::Enum { ty, .. } | Kind::Set { ty } => type_name(ty),
            Kind::Composite { ty } => format!("{}Owned", type_name(ty)),
        };
        let optional = if in_body {
            f.may_be_absent()
        } else {
            f.is_nullable()
        };
        if optional {
            format!("{O}<{t}>")
        } else {
            t
        }
    }

    /// The expression filling owned field `g` from decoder `d`.
    fn owned_from(&self, g: &str, f: &Field, in_body: bool) -> String {
        let optional = if in_body {
            f.may_be_absent()
        } else {
            f.is_nullable()
        };
        match (&f.kind, optional) {
            (Kind::Composite { ty }, false) => {
                format!("{}Owned::from_decoder(&d.{g}())", type_name(ty))
            }
            (Kind::Composite { ty }, true) => {
                format!("d.{g}().map(|x| {}Owned::from_decoder(&x))", type_name(ty))
            }
            _ if is_byte_array(f) && optional => format!("d.{g}().copied()"),
            _ if is_byte_array(f) => format!("*d.{g}()"),
            _ => format!("d.{g}()"),
        }
    }

    /// The struct's fields and the `from_decoder` initialisers of a block or composite's
    /// fields (constants left out).
    fn owned_fields(
        &self,
        fields: &[(String, &Field)],
        in_body: bool,
    ) -> (Vec<String>, Vec<String>) {
        let (mut decls, mut inits) = (Vec::new(), Vec::new());
        for (m, f) in fields {
            if f.is_constant() {
                continue;
            }
            let g = escape_with(self.keywords, m);
            let mut d = String::new();
            doc(
                &mut d,
                f.description.as_ref(),
                &format!("The `{}` field.", f.name),
            );
            if in_body && f.since > 0 {
                w!(d, "///");
                w!(
                    d,
                    "/// Since schema version {}: `None` in a message of an older version.",
                    f.since
                );
            }
            if self.serde && matches!(&f.kind, Kind::Prim(p) if p.len != 1) {
                let with = if self.owned_ty(f, in_body).starts_with(O) {
                    "option_array"
                } else {
                    "array"
                };
                w!(
                    d,
                    "#[cfg_attr(feature = \"serde\", serde(with = \"sbe_serde::{with}\"))]"
                );
            }
            d.push_str(&format!("pub {g}: {},", self.owned_ty(f, in_body)));
            decls.push(d);
            inits.push(format!("{g}: {},", self.owned_from(&g, f, in_body)));
        }
        (decls, inits)
    }

    /// Every owned type, its conversions, and `AnyOwned`.
    pub(super) fn owned(&mut self) {
        let s = self.s;
        if self.serde {
            self.out.push_str(SERDE_ARRAYS);
        }
        for (i, (name, c)) in s.composites.iter().enumerate() {
            let t = type_name(name);
            let mut names = member_scope(DECODER_RESERVED);
            let members: Vec<(String, &Field)> =
                c.members.iter().map(|m| (names.take(&m.name), m)).collect();
            let mut enames = member_scope(ENCODER_RESERVED);
            let emembers: Vec<(String, &Field)> = c
                .members
                .iter()
                .map(|m| (enames.take(&m.name), m))
                .collect();
            let (decls, inits) = self.owned_fields(&members, false);
            let out = &mut self.out;
            w!(
                out,
                "/// An owned `{name}` composite: what [`{t}Decoder`] reads, held by value."
            );
            w!(out, "#[derive(Clone, Copy, Debug, PartialEq)]");
            if self.serde {
                w!(out, "{SERDE_DERIVE}");
            }
            w!(out, "pub struct {t}Owned {{");
            for d in &decls {
                w!(out, "{d}");
            }
            w!(out, "}}");
            w!(out, "");
            w!(out, "impl {t}Owned {{");
            w!(out, "/// The values `d` reads.");
            w!(out, "pub fn from_decoder(d: &{t}Decoder<'_>) -> Self {{");
            w!(out, "let _ = d;");
            w!(out, "Self {{");
            for i in &inits {
                w!(out, "{i}");
            }
            w!(out, "}}");
            w!(out, "}}");
            w!(out, "}}");
            w!(out, "");
            self.composite_copy(i, name, &members, &emembers, Src::Owned);
            let checks = self.field_checks(&members, false, name);
            let out = &mut self.out;
            w!(
                out,
                "/// Checks an owned `{name}` composite against the schema."
            );
            w!(
                out,
                "#[allow(dead_code)] // A composite used only by constants has no caller."
            );
            w!(
                out,
                "fn sbe_valid_c{i}(d: &{t}Owned) -> {R}<(), rt::ValidationError> {{"
            );
            w!(out, "let _ = d;");
            out.push_str(&checks);
            w!(out, "{OK}(())");
            w!(out, "}}");
            w!(out, "");
        }
        let mut n = 0;
        let mut msgs = Vec::new();
        for m in &s.messages {
            msgs.push(self.body_owned(&m.body, &mut n, true));
        }
        self.owned_api(&msgs);
    }

    /// The owned type of a body and its groups, with their copy functions; returns the
    /// body's function index.
    fn body_owned(&mut self, b: &Body, n: &mut usize, is_msg: bool) -> usize {
        let mut children = Vec::new();
        for sec in &b.sections {
            if let Section::Group { body, .. } = sec {
                children.push(self.body_owned(body, n, false));
            }
        }
        let me = *n;
        *n += 1;
        let p = self.ty(b);
        let (fields, sections) = member_names(b, DECODER_RESERVED);
        let (efields, esections) = member_names(b, ENCODER_RESERVED);
        let (mut decls, mut inits) = self.owned_fields(&fields, true);
        for (m, sec) in &sections {
            let g = escape_with(self.keywords, m);
            let mut d = String::new();
            let since = sec.since();
            match sec {
                Section::Group { name, body, .. } => {
                    let et = self.ty(body);
                    doc(
                        &mut d,
                        sec.description(),
                        &format!("The `{name}` group's entries."),
                    );
                    since_note(&mut d, since);
                    d.push_str(&format!("pub {g}: {VEC}<{et}Owned>,"));
                    inits.push(if since > 0 {
                        format!("{g}: d.{g}().into_iter().flatten().map(|x| {et}Owned::from_decoder(&x)).collect(),")
                    } else {
                        format!("{g}: d.{g}().map(|x| {et}Owned::from_decoder(&x)).collect(),")
                    });
                }
                Section::Var { name, .. } => {
                    doc(
                        &mut d,
                        sec.description(),
                        &format!("The `{name}` var data."),
                    );
                    since_note(&mut d, since);
                    d.push_str(&format!("pub {g}: {VEC}<u8>,"));
                    inits.push(if since > 0 {
                        format!("{g}: {VEC}::from(d.{g}().unwrap_or(&[])),")
                    } else {
                        format!("{g}: {VEC}::from(d.{g}()),")
                    });
                }
            }
            decls.push(d);
        }
        {
            let out = &mut self.out;
            let what = if is_msg { "message" } else { "group entry" };
            w!(
                out,
                "/// An owned `{}` {what}: what [`{p}Decoder`] reads, held by value.",
                b.path.join(".")
            );
            w!(out, "#[derive(Clone, Debug, PartialEq)]");
            if self.serde {
                w!(out, "{SERDE_DERIVE}");
            }
            w!(out, "pub struct {p}Owned {{");
            if is_msg {
                w!(out, "/// The schema version the message is written at (`SCHEMA_VERSION`, or an older");
                w!(out, "/// writer's): [`Self::encode_into`] writes that version's block and sections.");
                w!(out, "pub acting_version: u64,");
            }
            for d in &decls {
                w!(out, "{d}");
            }
            w!(out, "}}");
            w!(out, "");
            w!(out, "impl {p}Owned {{");
            w!(out, "/// The values `d` reads.");
            w!(out, "pub fn from_decoder(d: &{p}Decoder<'_>) -> Self {{");
            w!(out, "let _ = d;");
            w!(out, "Self {{");
            if is_msg {
                w!(out, "acting_version: d.acting_version(),");
            }
            for i in &inits {
                w!(out, "{i}");
            }
            w!(out, "}}");
            w!(out, "}}");
            w!(out, "}}");
            w!(out, "");
        }
        let copy = CopyNames {
            me,
            children: &children,
            fields: &fields,
            efields: &efields,
            sections: &sections,
            esections: &esections,
        };
        self.body_copy(b, &copy, is_msg, Src::Owned);
        let path = b.path.join(".");
        let mut checks = self.field_checks(&fields, true, &path);
        let mut gi = 0;
        for (m, sec) in &sections {
            let g = escape_with(self.keywords, m);
            let at = format!("{path}.{}", sec.name());
            match sec {
                Section::Group { count, .. } => {
                    let ch = children.get(gi).copied().unwrap_or(0);
                    gi += 1;
                    w!(
                        checks,
                        "rt::validate::check_count(d.{g}.len(), {}, {at:?})?;",
                        count.max
                    );
                    w!(checks, "for x in &d.{g} {{ sbe_valid_b{ch}(x)?; }}");
                }
                Section::Var { len, .. } => w!(
                    checks,
                    "rt::validate::check_length(d.{g}.len(), {}, {at:?})?;",
                    len.max
                ),
            }
        }
        let out = &mut self.out;
        w!(out, "/// Checks an owned `{path}` against the schema.");
        w!(
            out,
            "fn sbe_valid_b{me}(d: &{p}Owned) -> {R}<(), rt::ValidationError> {{"
        );
        w!(out, "let _ = d;");
        out.push_str(&checks);
        w!(out, "{OK}(())");
        w!(out, "}}");
        w!(out, "");
        me
    }

    /// The checks of a block's or composite's fields (`d` the owned value): numbers within
    /// their valid range, enum values the schema lists, composites recursively.
    fn field_checks(&self, fields: &[(String, &Field)], in_body: bool, path: &str) -> String {
        let mut out = String::new();
        for (m, f) in fields {
            if f.is_constant() {
                continue;
            }
            let g = escape_with(self.keywords, m);
            let at = format!("{path}.{}", f.name);
            let optional = if in_body {
                f.may_be_absent()
            } else {
                f.is_nullable()
            };
            // `x` is a reference to the value.
            let body = match &f.kind {
                Kind::Prim(p) => {
                    let mut checks = String::new();
                    // An optional value holding its null value would read back as `None`.
                    if let Some(n) = f.null_when_held() {
                        let test = if n.as_f64().is_some_and(f64::is_nan) && p.ty.is_float() {
                            "x.is_nan()".to_string()
                        } else {
                            format!("*x == {}", lit(n, p.ty))
                        };
                        checks
                            .push_str(&format!("rt::validate::check_not_null({test}, {at:?})?; "));
                    }
                    // The plan's bounds; a side it leaves open is the type's own extreme.
                    let Some(r) = &f.range else {
                        if checks.is_empty() {
                            continue;
                        }
                        w!(out, "if let {SOME}(x) = &d.{g} {{ {checks} }}");
                        continue;
                    };
                    let t = rty(p.ty);
                    let float = p.ty.is_float();
                    let min = r.min.as_ref().map_or_else(
                        || format!("{t}::{}", if float { "NEG_INFINITY" } else { "MIN" }),
                        |v| lit(v, p.ty),
                    );
                    let max = r.max.as_ref().map_or_else(
                        || format!("{t}::{}", if float { "INFINITY" } else { "MAX" }),
                        |v| lit(v, p.ty),
                    );
                    if p.len == 1 {
                        format!("{checks}rt::validate::check_range(*x, {min}, {max}, {at:?})?;")
                    } else {
                        format!(
                            "for &v in x {{ rt::validate::check_range(v, {min}, {max}, {at:?})?; }}"
                        )
                    }
                }
                Kind::Enum { .. } => {
                    format!("rt::validate::check_known(x.is_known(), {at:?})?;")
                }
                Kind::Set { .. } => continue,
                Kind::Composite { ty } => format!("sbe_valid_c{}(x)?;", self.comp_index(ty)),
            };
            if optional {
                w!(out, "if let {SOME}(x) = &d.{g} {{ {body} }}");
            } else {
                w!(out, "{{ let x = &d.{g}; {body} }}");
            }
        }
        out
    }

    /// Per message `decode` and `encode_into`, and `AnyOwned`.
    fn owned_api(&mut self, msgs: &[usize]) {
        let s = self.s;
        for (m, &k) in s.messages.iter().zip(msgs) {
            let path = self.ty(&m.body);
            let out = &mut self.out;
            w!(out, "impl {path}Owned {{");
            w!(
                out,
                "/// Decodes a `{}` message at the start of `buf` into an owned value.",
                m.body.name
            );
            w!(
                out,
                "pub fn decode(buf: &[u8]) -> {R}<Self, rt::DecodeError> {{"
            );
            w!(
                out,
                "{path}Decoder::decode(buf).map(|d| Self::from_decoder(&d))"
            );
            w!(out, "}}");
            w!(out, "");
            w!(out, "/// Writes the message, header first, at the start of `buf` at its acting version (a");
            w!(
                out,
                "/// newer one is written as the schema's) and returns its length: the bytes the"
            );
            w!(out, "/// encoders write for the same values. `buf` should be zeroed: padding is not written.");
            w!(
                out,
                "pub fn encode_into(&self, buf: &mut [u8]) -> {R}<usize, rt::EncodeError> {{"
            );
            w!(out, "let d = self;");
            if s.version > 0 {
                let h = &s.header;
                let bp = rty(prim_of(&h.block_length).ty);
                let vp = rty(prim_of(&h.version).ty);
                w!(out, "let v = d.acting_version;");
                w!(out, "if v < rt::Int::to_u64(SCHEMA_VERSION) {{");
                w!(out, "let mut tail = rt::Tail::new(buf, 0);");
                w!(out, "let hdr = tail.take_array::<HEADER_LENGTH>()?;");
                w!(out, "HeaderFields {{ block_length: ({}) as {bp}, template_id: {path}Decoder::TEMPLATE_ID, schema_id: SCHEMA_ID, version: v as {vp} }}.write(hdr);", super::json::block_len_at(&m.body, "v"));
                w!(out, "sbe_vowned_b{k}(d, &mut tail, v)?;");
                w!(out, "return {OK}(tail.position());");
                w!(out, "}}");
            }
            w!(out, "let mut e = {path}Encoder::new(buf)?;");
            w!(out, "sbe_owned_b{k}(d, &mut e)?;");
            w!(out, "e.finish()");
            w!(out, "}}");
            w!(out, "");
            w!(out, "/// Checks the value against the schema: numbers within their valid range (`minValue`");
            w!(out, "/// to `maxValue`; an integer's type range without its null value by default), enum");
            w!(out, "/// values the schema lists, groups and var data their count and length fields can");
            w!(out, "/// hold. `encode_into` writes what a value holds, so that a message read from the wire");
            w!(
                out,
                "/// goes back as it came; check values you build first."
            );
            w!(
                out,
                "pub fn validate(&self) -> {R}<(), rt::ValidationError> {{"
            );
            w!(out, "sbe_valid_b{k}(self)");
            w!(out, "}}");
            w!(out, "}}");
            w!(out, "");
        }
        let arms = self.dispatch_arms(msgs);
        let out = &mut self.out;
        w!(out, "/// An owned message of any of the schema's types: what [`AnyMessage`] reads, held by value.");
        w!(out, "#[derive(Clone, Debug, PartialEq)]");
        if self.serde {
            w!(out, "{SERDE_DERIVE}");
        }
        // Messages differ in size by design; boxing each would cost an allocation per value.
        w!(out, "#[allow(clippy::large_enum_variant)]");
        w!(out, "pub enum AnyOwned {{");
        for (v, path, _, _) in &arms {
            w!(out, "/// A `{path}` message.");
            w!(out, "{v}({path}Owned),");
        }
        w!(out, "}}");
        w!(out, "");
        w!(out, "impl AnyOwned {{");
        w!(out, "/// The values a decoded message reads.");
        w!(out, "pub fn from_message(m: &AnyMessage<'_>) -> Self {{");
        w!(out, "match m {{");
        for (v, path, _, _) in &arms {
            w!(
                out,
                "AnyMessage::{v}(d) => Self::{v}({path}Owned::from_decoder(d)),"
            );
        }
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
        w!(
            out,
            "/// Decodes the message at the start of `buf` (by its header's template id)."
        );
        w!(
            out,
            "pub fn decode(buf: &[u8]) -> {R}<Self, rt::DecodeError> {{"
        );
        w!(
            out,
            "AnyMessage::decode(buf).map(|m| Self::from_message(&m))"
        );
        w!(out, "}}");
        w!(out, "");
        w!(
            out,
            "/// Checks the message against the schema (see each message's `validate`)."
        );
        w!(
            out,
            "pub fn validate(&self) -> {R}<(), rt::ValidationError> {{"
        );
        w!(out, "match self {{");
        for (v, _, _, _) in &arms {
            w!(out, "Self::{v}(o) => o.validate(),");
        }
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
        w!(out, "/// Writes the message at the start of `buf` at its acting version; returns its length.");
        w!(
            out,
            "pub fn encode_into(&self, buf: &mut [u8]) -> {R}<usize, rt::EncodeError> {{"
        );
        w!(out, "match self {{");
        for (v, _, _, _) in &arms {
            w!(out, "Self::{v}(o) => o.encode_into(buf),");
        }
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }
}

/// The doc line of a section newer than version 0.
fn since_note(d: &mut String, since: u32) {
    if since > 0 {
        w!(d, "///");
        w!(
            d,
            "/// Since schema version {since}: empty in a message of an older version."
        );
    }
}
