//! Field accessors shared by composites, message bodies and group entries: getters (with
//! null and version checks), setters and `Debug`.

use super::*;

impl Gen<'_> {
    /// A read accessor for a field or member. `arr` is a fixed-size array expression covering
    /// all version-0 fields; versioned fields (when `versioned`) read from `self.blk`.
    pub(super) fn getter(&mut self, m: &str, f: &Field, arr: &str, in_body: bool) {
        let id = escape_with(self.keywords, m);
        let desc = f.description.as_ref();
        let fallback = format!("The `{}` field.", f.name);
        let versioned = in_body && f.since > 0;
        let out = &mut self.out;
        // Constants come from the schema, not the buffer.
        if f.is_constant() {
            match &f.kind {
                Kind::Enum {
                    ty,
                    constant: Some(v),
                    ..
                } => {
                    let t = type_name(ty);
                    let e = self.s.enums.get(ty);
                    let idx = e.map_or(0, |e| e.constant_index(v));
                    doc(out, desc, &fallback);
                    w!(out, "#[inline]");
                    w!(out, "pub const fn {id}(&self) -> {t} {{ {t}::ALL[{idx}] }}");
                }
                Kind::Prim(p) => {
                    let c = p.constant.clone().unwrap_or(PrimitiveValue::Int(0));
                    doc(out, desc, &fallback);
                    w!(out, "#[inline]");
                    match c {
                        PrimitiveValue::Bytes(b) => {
                            w!(
                                out,
                                "pub const fn {id}(&self) -> &'static [u8] {{ &[{}] }}",
                                bstr(&b)
                            );
                            if let Ok(s) = std::str::from_utf8(&b) {
                                w!(out, "/// The `{}` constant as text.", f.name);
                                w!(out, "#[inline]");
                                w!(
                                    out,
                                    "pub const fn {m}_str(&self) -> &'static str {{ {s:?} }}"
                                );
                            }
                        }
                        v => {
                            w!(
                                out,
                                "pub const fn {id}(&self) -> {} {{ {} }}",
                                rty(p.ty),
                                lit(&v, p.ty)
                            );
                        }
                    }
                }
                _ => {}
            }
            return;
        }
        let size = f.size;
        let (src, off) = if versioned { ("b", 0) } else { (arr, f.offset) };
        let (ty, mut expr) = value(
            &f.kind,
            size,
            src,
            f.offset - if versioned { f.offset } else { 0 },
        );
        let _ = off;
        let mut null_check: Option<String> = None;
        match &f.kind {
            Kind::Enum {
                ty: et, optional, ..
            } => {
                let e = self.s.enums.get(et);
                let (pt, order) = e.map_or((PrimitiveType::Uint8, ByteOrder::LittleEndian), |e| {
                    (e.ty, e.order)
                });
                let raw = read(src, if versioned { 0 } else { f.offset }, pt, order);
                if *optional {
                    null_check = Some(format!("raw == {ty}::NULL_VALUE"));
                    expr = format!("{{ let raw = {raw}; if raw == {ty}::NULL_VALUE {{ return {NONE}; }} {ty}::from_raw(raw) }}");
                } else {
                    expr = format!("{ty}::from_raw({raw})");
                }
            }
            Kind::Set { ty: st } => {
                let d = self.s.sets.get(st);
                let (pt, order) = d.map_or((PrimitiveType::Uint8, ByteOrder::LittleEndian), |d| {
                    (d.ty, d.order)
                });
                expr = format!(
                    "{ty}::from_bits({})",
                    read(src, if versioned { 0 } else { f.offset }, pt, order)
                );
            }
            Kind::Prim(p) if p.len == 1 && p.presence == Presence::Optional => {
                null_check = Some(
                    if p.ty.is_float() && p.null.as_f64().is_some_and(f64::is_nan) {
                        "v.is_nan()".to_string()
                    } else {
                        format!("v == {}", lit(&p.null, p.ty))
                    },
                );
            }
            _ => {}
        }
        let optional = null_check.is_some();
        doc(out, desc, &fallback);
        if versioned {
            w!(out, "///");
            w!(
                out,
                "/// Since schema version {}: `None` when the message's acting version is older{}.",
                f.since,
                if optional {
                    " or the value is null"
                } else {
                    ""
                }
            );
        } else if optional {
            w!(out, "///");
            w!(out, "/// `None` when the value is the null value.");
        }
        w!(out, "#[inline]");
        let enum_opt = matches!(f.kind, Kind::Enum { optional: true, .. });
        if versioned {
            w!(out, "pub fn {id}(&self) -> {O}<{ty}> {{");
            w!(
                out,
                "if self.acting_version < {} {{ return {NONE}; }}",
                f.since
            );
            w!(out, "let b = rt::chunk::<{size}>(self.blk, {})?;", f.offset);
            if enum_opt {
                w!(out, "{SOME}({expr})");
            } else if let Some(c) = &null_check {
                w!(out, "let v = {expr};");
                w!(out, "if {c} {{ {NONE} }} else {{ {SOME}(v) }}");
            } else {
                w!(out, "{SOME}({expr})");
            }
            w!(out, "}}");
        } else if enum_opt {
            w!(out, "pub fn {id}(&self) -> {O}<{ty}> {{");
            w!(out, "{SOME}({expr})");
            w!(out, "}}");
        } else if let Some(c) = &null_check {
            w!(out, "pub fn {id}(&self) -> {O}<{ty}> {{");
            w!(out, "let v = {expr};");
            w!(out, "if {c} {{ {NONE} }} else {{ {SOME}(v) }}");
            w!(out, "}}");
        } else {
            w!(out, "pub fn {id}(&self) -> {ty} {{ {expr} }}");
        }
        if let Kind::Prim(p) = &f.kind {
            if p.len > 1 && is_text(p) {
                w!(
                    out,
                    "/// The `{}` characters up to the first NUL, checked to be UTF-8.",
                    f.name
                );
                w!(out, "#[inline]");
                if versioned {
                    w!(out, "pub fn {m}_str(&self) -> {O}<{R}<&'a str, ::core::str::Utf8Error>> {{ self.{id}().map(|b| rt::to_str(rt::trim_nul(b))) }}");
                } else {
                    w!(out, "pub fn {m}_str(&self) -> {R}<&'a str, ::core::str::Utf8Error> {{ rt::to_str(rt::trim_nul(self.{id}())) }}");
                }
            }
        }
    }

    /// A write accessor. `target` is the block array (`in_body`) or the composite's slice.
    pub(super) fn setter(&mut self, m: &str, f: &Field, target: &str, in_body: bool) {
        if f.is_constant() {
            return;
        }
        let id = escape_with(self.keywords, m);
        let out = &mut self.out;
        let off = f.offset;
        let put = if in_body { "rt::put" } else { "rt::put_slice" };
        let slice = if in_body {
            format!("{target}.as_mut_slice()")
        } else {
            target.to_string()
        };
        doc(
            out,
            f.description.as_ref(),
            &format!("Sets the `{}` field.", f.name),
        );
        w!(out, "#[inline]");
        match &f.kind {
            Kind::Prim(p) => {
                let t = rty(p.ty);
                let e = endian(p.order);
                if p.len == 1 {
                    if p.presence == Presence::Optional {
                        w!(out, "pub fn {id}(&mut self, v: {O}<{t}>) -> &mut Self {{");
                        w!(
                            out,
                            "{put}({target}, {off}, v.unwrap_or({}).to_{e}_bytes());",
                            lit(&p.null, p.ty)
                        );
                    } else {
                        w!(out, "pub fn {id}(&mut self, v: {t}) -> &mut Self {{");
                        w!(out, "{put}({target}, {off}, v.to_{e}_bytes());");
                    }
                } else if t == "u8" {
                    w!(
                        out,
                        "pub fn {id}(&mut self, v: &[u8; {}]) -> &mut Self {{",
                        p.len
                    );
                    w!(out, "{put}({target}, {off}, *v);");
                } else {
                    let es = p.ty.size();
                    w!(
                        out,
                        "pub fn {id}(&mut self, v: [{t}; {}]) -> &mut Self {{",
                        p.len
                    );
                    w!(out, "let mut bytes = [0u8; {}];", f.size);
                    w!(out, "for (d, x) in bytes.chunks_exact_mut({es}).zip(v) {{ d.copy_from_slice(&x.to_{e}_bytes()); }}");
                    w!(out, "{put}({target}, {off}, bytes);");
                }
                w!(out, "self");
                w!(out, "}}");
                if p.len > 1 && is_text(p) {
                    let n = p.len;
                    w!(
                        out,
                        "/// Sets the `{}` field from text, padding with NUL bytes.",
                        f.name
                    );
                    w!(out, "#[inline]");
                    w!(
                        out,
                        "pub fn {m}_str(&mut self, s: &str) -> {R}<&mut Self, rt::EncodeError> {{"
                    );
                    w!(out, "if s.len() > {n} {{ return {ERR}(rt::EncodeError::new(rt::EncodeErrorKind::ValueTooLong {{ length: s.len(), maximum: {n} }}, {off})); }}");
                    w!(out, "let mut b = [0u8; {n}];");
                    w!(out, "rt::put_padded(&mut b, s.as_bytes());");
                    w!(out, "{put}({target}, {off}, b);");
                    w!(out, "{OK}(self)");
                    w!(out, "}}");
                }
            }
            Kind::Enum { ty, optional, .. } => {
                let t = type_name(ty);
                let (pt, order) = self
                    .s
                    .enums
                    .get(ty)
                    .map_or((PrimitiveType::Uint8, ByteOrder::LittleEndian), |e| {
                        (e.ty, e.order)
                    });
                let e = endian(order);
                let _ = pt;
                if *optional {
                    w!(out, "pub fn {id}(&mut self, v: {O}<{t}>) -> &mut Self {{");
                    w!(out, "{put}({target}, {off}, v.map_or({t}::NULL_VALUE, {t}::to_raw).to_{e}_bytes());");
                } else {
                    w!(out, "pub fn {id}(&mut self, v: {t}) -> &mut Self {{");
                    w!(out, "{put}({target}, {off}, v.to_raw().to_{e}_bytes());");
                }
                w!(out, "self");
                w!(out, "}}");
            }
            Kind::Set { ty } => {
                let t = type_name(ty);
                let order = self
                    .s
                    .sets
                    .get(ty)
                    .map_or(ByteOrder::LittleEndian, |d| d.order);
                w!(out, "pub fn {id}(&mut self, v: {t}) -> &mut Self {{");
                w!(
                    out,
                    "{put}({target}, {off}, v.bits().to_{}_bytes());",
                    endian(order)
                );
                w!(out, "self");
                w!(out, "}}");
            }
            Kind::Composite { ty } => {
                let t = type_name(ty);
                w!(out, "pub fn {id}(&mut self) -> {t}Encoder<'_> {{");
                w!(
                    out,
                    "{t}Encoder::new(rt::slice_mut({slice}, {off}, {}))",
                    f.size
                );
                w!(out, "}}");
            }
        }
    }

    /// `Debug` listing fields (and sections, for bodies).
    pub(super) fn debug_impl(
        &mut self,
        ty: &str,
        name: &str,
        fields: &[(String, &Field)],
        sections: &[(String, &Section)],
        in_body: bool,
    ) {
        let out = &mut self.out;
        w!(out, "impl ::core::fmt::Debug for {ty} {{");
        w!(
            out,
            "fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{"
        );
        w!(out, "let mut d = f.debug_struct({name:?});");
        for (m, fd) in fields {
            let id = escape_with(self.keywords, m);
            let versioned = in_body && fd.since > 0 && !fd.is_constant();
            let text_arr = matches!(&fd.kind, Kind::Prim(p) if p.len > 1 && is_text(p))
                || matches!(&fd.kind, Kind::Prim(p) if matches!(p.constant, Some(PrimitiveValue::Bytes(_))) && p.presence == Presence::Constant);
            if text_arr {
                if versioned {
                    w!(
                        out,
                        "d.field({:?}, &self.{id}().map(|b| rt::DebugBytes(rt::trim_nul(b))));",
                        fd.name
                    );
                } else {
                    w!(
                        out,
                        "d.field({:?}, &rt::DebugBytes(rt::trim_nul(self.{id}())));",
                        fd.name
                    );
                }
            } else {
                w!(out, "d.field({:?}, &self.{id}());", fd.name);
            }
        }
        for (m, sec) in sections {
            let id = escape_with(self.keywords, m);
            match sec {
                Section::Group { .. } => w!(out, "d.field({:?}, &self.{id}());", sec.name()),
                Section::Var { since, .. } => {
                    if *since > 0 {
                        w!(
                            out,
                            "d.field({:?}, &self.{id}().map(rt::DebugBytes));",
                            sec.name()
                        );
                    } else {
                        w!(
                            out,
                            "d.field({:?}, &rt::DebugBytes(self.{id}()));",
                            sec.name()
                        );
                    }
                }
            }
        }
        w!(out, "d.finish()");
        w!(out, "}}");
        w!(out, "}}");
        w!(out, "");
    }
}
