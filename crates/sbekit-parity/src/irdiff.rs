//! Token-by-token comparison of two IRs, for readable `.sbeir` parity reports.

use sbekit_ir::{Ir, Token};

/// One differing attribute of one token.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenDiff {
    /// Where: `header` or the message name, the token index and the token's signal and name.
    pub at: String,
    /// The attribute that differs (`version`, `encoding.semantic_type`, ...).
    pub attribute: &'static str,
    /// sbekit's value.
    pub ours: String,
    /// The reference's value.
    pub theirs: String,
}

impl std::fmt::Display for TokenDiff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {}: sbekit {} / reference {}",
            self.at, self.attribute, self.ours, self.theirs
        )
    }
}

/// Every difference between `ours` and `theirs`, attribute by attribute.
pub fn diff(ours: &Ir, theirs: &Ir) -> Vec<TokenDiff> {
    let mut out = Vec::new();
    let frame = |attribute: &'static str, a: String, b: String, out: &mut Vec<TokenDiff>| {
        if a != b {
            out.push(TokenDiff {
                at: "frame".into(),
                attribute,
                ours: a,
                theirs: b,
            });
        }
    };
    frame(
        "package_name",
        ours.package_name.clone(),
        theirs.package_name.clone(),
        &mut out,
    );
    frame(
        "namespace_name",
        format!("{:?}", ours.namespace_name),
        format!("{:?}", theirs.namespace_name),
        &mut out,
    );
    frame("id", ours.id.to_string(), theirs.id.to_string(), &mut out);
    frame(
        "version",
        ours.version.to_string(),
        theirs.version.to_string(),
        &mut out,
    );
    frame(
        "semantic_version",
        format!("{:?}", ours.semantic_version),
        format!("{:?}", theirs.semantic_version),
        &mut out,
    );
    tokens("header", &ours.header, &theirs.header, &mut out);
    let names = |ir: &Ir| -> Vec<String> {
        ir.messages
            .iter()
            .map(|m| m.first().map(|t| t.name.clone()).unwrap_or_default())
            .collect()
    };
    if names(ours) != names(theirs) {
        out.push(TokenDiff {
            at: "messages".into(),
            attribute: "order",
            ours: names(ours).join(","),
            theirs: names(theirs).join(","),
        });
    }
    for b in &theirs.messages {
        let name = &b[0].name;
        match ours.messages.iter().find(|a| a[0].name == *name) {
            Some(a) => tokens(name, a, b, &mut out),
            None => out.push(TokenDiff {
                at: name.clone(),
                attribute: "message",
                ours: "missing".into(),
                theirs: "present".into(),
            }),
        }
    }
    out
}

fn tokens(what: &str, ours: &[Token], theirs: &[Token], out: &mut Vec<TokenDiff>) {
    if ours.len() != theirs.len() {
        out.push(TokenDiff {
            at: what.to_string(),
            attribute: "token count",
            ours: ours.len().to_string(),
            theirs: theirs.len().to_string(),
        });
    }
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        let at = format!("{what}[{i}] {:?} {}", b.signal, b.name);
        let mut push = |attribute: &'static str, x: String, y: String| {
            if x != y {
                out.push(TokenDiff {
                    at: at.clone(),
                    attribute,
                    ours: x,
                    theirs: y,
                });
            }
        };
        let (ea, eb) = (&a.encoding, &b.encoding);
        push(
            "signal",
            format!("{:?}", a.signal),
            format!("{:?}", b.signal),
        );
        push("name", a.name.clone(), b.name.clone());
        push(
            "referenced_name",
            format!("{:?}", a.referenced_name),
            format!("{:?}", b.referenced_name),
        );
        push(
            "description",
            format!("{:?}", a.description),
            format!("{:?}", b.description),
        );
        push(
            "package_name",
            format!("{:?}", a.package_name),
            format!("{:?}", b.package_name),
        );
        push("id", a.id.to_string(), b.id.to_string());
        push("version", a.version.to_string(), b.version.to_string());
        push(
            "deprecated",
            a.deprecated.to_string(),
            b.deprecated.to_string(),
        );
        push(
            "encoded_length",
            a.encoded_length.to_string(),
            b.encoded_length.to_string(),
        );
        push("offset", a.offset.to_string(), b.offset.to_string());
        push(
            "component_token_count",
            a.component_token_count.to_string(),
            b.component_token_count.to_string(),
        );
        push(
            "encoding.presence",
            format!("{:?}", ea.presence),
            format!("{:?}", eb.presence),
        );
        push(
            "encoding.primitive_type",
            format!("{:?}", ea.primitive()),
            format!("{:?}", eb.primitive()),
        );
        push(
            "encoding.byte_order",
            format!("{:?}", ea.byte_order),
            format!("{:?}", eb.byte_order),
        );
        let ty = ea.primitive();
        let bytes = |v: &Option<sbekit_ir::PrimitiveValue>, ty| {
            v.as_ref()
                .map(|v| format!("{:?}", v.to_le_bytes(ty)))
                .unwrap_or_else(|| "-".into())
        };
        let tyb = eb.primitive();
        push(
            "encoding.const_value",
            bytes(&ea.const_value, ty),
            bytes(&eb.const_value, tyb),
        );
        push(
            "encoding.min_value",
            bytes(&ea.min_value, ty),
            bytes(&eb.min_value, tyb),
        );
        push(
            "encoding.max_value",
            bytes(&ea.max_value, ty),
            bytes(&eb.max_value, tyb),
        );
        push(
            "encoding.null_value",
            bytes(&ea.null_value, ty),
            bytes(&eb.null_value, tyb),
        );
        push(
            "encoding.character_encoding",
            format!("{:?}", ea.character_encoding),
            format!("{:?}", eb.character_encoding),
        );
        push(
            "encoding.epoch",
            format!("{:?}", ea.epoch),
            format!("{:?}", eb.epoch),
        );
        push(
            "encoding.time_unit",
            format!("{:?}", ea.time_unit),
            format!("{:?}", eb.time_unit),
        );
        push(
            "encoding.semantic_type",
            format!("{:?}", ea.semantic_type),
            format!("{:?}", eb.semantic_type),
        );
    }
}
