//! The schema checks that run while the IR is generated (types, names, enums, sets, header
//! and dimension members, `valueRef`s). Each diagnostic cites a rule of [`super`]; the IR
//! itself is emitted by `crate::irgen`.

use crate::irgen::{parse_valid_value, Gen};
use crate::parse::{Composite, Encoded, Member, Meta, TypeDef, Valued};
use crate::rules;
use sbekit_ir::{PrimitiveType, PrimitiveValue};
use std::collections::{HashMap, HashSet};

impl Gen<'_> {
    pub(crate) fn check_types(&mut self) {
        let mut names: Vec<&String> = self.schema.types.keys().collect();
        names.sort();
        for name in names {
            let t = &self.schema.types[name];
            self.check_name(t.meta(), "type");
            match t {
                TypeDef::Composite(c) => {
                    // Lays the composite out once, reporting offset problems and cycles.
                    self.stack.clear();
                    let _ = self.composite_tokens(c, 0, None, &mut Vec::new());
                }
                TypeDef::Enum(v) => self.check_enum(v),
                TypeDef::Set(v) => self.check_set(v),
                TypeDef::Encoded(_) | TypeDef::Ref(_) => {}
            }
        }
    }

    pub(crate) fn check_name(&mut self, meta: &Meta, what: &str) {
        let name = meta.name.as_str();
        if name.is_empty() {
            return;
        }
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            self.sink.warn(
                rules::INVALID_NAME,
                Some(&meta.loc),
                format!("{what} name '{name}' is not a valid identifier in generated code"),
            );
        } else if let Some(langs) = crate::keywords::languages_reserving(name) {
            self.sink.warn(
                rules::KEYWORD,
                Some(&meta.loc),
                format!("{what} name '{name}' is a keyword in {langs}; generators must escape it"),
            );
        }
    }

    /// The null value in force for an enum.
    pub(crate) fn enum_null(
        &mut self,
        v: &Valued,
        primitive: PrimitiveType,
        named: Option<&Encoded>,
    ) -> PrimitiveValue {
        if let Some(text) = &v.null_value_text {
            if let Some(n) = PrimitiveValue::parse(text, primitive) {
                return n;
            }
            self.sink.error(
                rules::INVALID_VALUE,
                Some(&v.meta.loc),
                format!(
                    "nullValue \"{text}\" of '{}' is not a valid {}",
                    v.meta.name,
                    primitive.schema_name()
                ),
            );
        }
        named
            .and_then(|t| t.null_value.clone())
            .unwrap_or_else(|| primitive.default_null())
    }

    pub(crate) fn check_enum(&mut self, v: &Valued) {
        let Some((primitive, named)) = self.valued_encoding(v) else {
            return;
        };
        if !matches!(primitive, PrimitiveType::Char)
            && !primitive.is_unsigned_int()
            && !primitive.is_signed_int()
        {
            self.sink.error(
                rules::INVALID_ATTRIBUTE,
                Some(&v.meta.loc),
                format!(
                    "enum '{}' must be encoded as char or an integer, not {}",
                    v.meta.name,
                    primitive.schema_name()
                ),
            );
            return;
        }
        let null = self.enum_null(v, primitive, named.as_ref());
        // Characters have no implied range beyond their null; integers use the type's range.
        let (min, max) = match (&named, primitive) {
            (Some(t), _) => (
                t.min_value.clone().or_else(|| {
                    (primitive != PrimitiveType::Char).then(|| primitive.default_min())
                }),
                t.max_value.clone().or_else(|| {
                    (primitive != PrimitiveType::Char).then(|| primitive.default_max())
                }),
            ),
            (None, PrimitiveType::Char) => (None, None),
            (None, _) => (Some(primitive.default_min()), Some(primitive.default_max())),
        };
        let mut seen_names = HashSet::new();
        let mut seen_values: HashMap<i128, &str> = HashMap::new();
        for value in &v.values {
            self.check_name(&value.meta, "enum value");
            if !seen_names.insert(value.meta.name.as_str()) {
                self.sink.error(
                    rules::DUPLICATE_VALUE,
                    Some(&value.meta.loc),
                    format!(
                        "enum '{}' has two values named '{}'",
                        v.meta.name, value.meta.name
                    ),
                );
            }
            let Some(parsed) = parse_valid_value(&value.text, primitive) else {
                self.sink.error(
                    rules::INVALID_VALUE,
                    Some(&value.meta.loc),
                    format!(
                        "validValue '{}' of enum '{}' is \"{}\", not a valid {}",
                        value.meta.name,
                        v.meta.name,
                        value.text.trim(),
                        primitive.schema_name()
                    ),
                );
                continue;
            };
            let n = parsed.as_i128().unwrap_or_default();
            let below = min
                .as_ref()
                .and_then(PrimitiveValue::as_i128)
                .is_some_and(|m| n < m);
            let above = max
                .as_ref()
                .and_then(PrimitiveValue::as_i128)
                .is_some_and(|m| n > m);
            if null.as_i128() == Some(n) {
                // SBE 1.0's own optional-Boolean example lists its null value; it stays the
                // null (BEGIN_ENUM's nullValue), which decoders report as absent.
                self.sink.warn(
                    rules::ENUM_VALUE_RANGE,
                    Some(&value.meta.loc),
                    format!(
                        "validValue '{}' of enum '{}' equals the enum's null value {}; it is the null value, and decoders report it as null",
                        value.meta.name, v.meta.name, null
                    ),
                );
            } else if below || above {
                self.sink.error(
                    rules::ENUM_VALUE_RANGE,
                    Some(&value.meta.loc),
                    format!(
                        "validValue '{}' = {} of enum '{}' is outside the range {} ..= {}",
                        value.meta.name,
                        value.text.trim(),
                        v.meta.name,
                        min.as_ref().map(ToString::to_string).unwrap_or_default(),
                        max.as_ref().map(ToString::to_string).unwrap_or_default()
                    ),
                );
            }
            if let Some(prev) = seen_values.insert(n, value.meta.name.as_str()) {
                self.sink.error(
                    rules::DUPLICATE_VALUE,
                    Some(&value.meta.loc),
                    format!(
                        "validValue '{}' of enum '{}' repeats the value of '{prev}'",
                        value.meta.name, v.meta.name
                    ),
                );
            }
        }
    }

    pub(crate) fn check_set(&mut self, v: &Valued) {
        let Some((primitive, _)) = self.valued_encoding(v) else {
            return;
        };
        if !primitive.is_unsigned_int() {
            self.sink.error(
                rules::INVALID_ATTRIBUTE,
                Some(&v.meta.loc),
                format!(
                    "set '{}' must be encoded as an unsigned integer, not {}",
                    v.meta.name,
                    primitive.schema_name()
                ),
            );
            return;
        }
        let bits = primitive.size() * 8;
        let mut seen_names = HashSet::new();
        let mut seen_bits = HashMap::new();
        for choice in &v.values {
            self.check_name(&choice.meta, "set choice");
            if !seen_names.insert(choice.meta.name.as_str()) {
                self.sink.error(
                    rules::DUPLICATE_VALUE,
                    Some(&choice.meta.loc),
                    format!(
                        "set '{}' has two choices named '{}'",
                        v.meta.name, choice.meta.name
                    ),
                );
            }
            match choice.text.trim().parse::<usize>() {
                Ok(bit) if bit < bits => {
                    if let Some(prev) = seen_bits.insert(bit, choice.meta.name.as_str()) {
                        self.sink.error(
                            rules::DUPLICATE_VALUE,
                            Some(&choice.meta.loc),
                            format!(
                                "choice '{}' of set '{}' reuses bit {bit} of '{prev}'",
                                choice.meta.name, v.meta.name
                            ),
                        );
                    }
                }
                _ => self.sink.error(
                    rules::INVALID_VALUE,
                    Some(&choice.meta.loc),
                    format!(
                        "choice '{}' of set '{}' is \"{}\", not a bit position 0..{bits}",
                        choice.meta.name,
                        v.meta.name,
                        choice.text.trim()
                    ),
                ),
            }
        }
    }

    /// Checks that composite `c` has an integer member `member`; warns if it is not `wanted`.
    pub(crate) fn check_member_int(
        &mut self,
        c: &Composite,
        member: &str,
        wanted: Option<PrimitiveType>,
        rule: &'static str,
    ) -> Option<Encoded> {
        let found = c.members.iter().find(|m| m.meta().name == member).cloned();
        let resolved = match found {
            Some(TypeDef::Encoded(t)) => Some(t),
            Some(TypeDef::Ref(r)) => match self.resolve(&r.type_name).as_deref() {
                Some(TypeDef::Encoded(t)) => Some(t.clone()),
                _ => None,
            },
            _ => None,
        };
        let Some(t) =
            resolved.filter(|t| t.primitive.is_unsigned_int() || t.primitive.is_signed_int())
        else {
            self.sink.error(
                rule,
                Some(&c.meta.loc),
                format!(
                    "composite '{}' needs an integer member '{member}'",
                    c.meta.name
                ),
            );
            return None;
        };
        if let Some(w) = wanted {
            if t.primitive != w {
                self.sink.warn(
                    rule,
                    Some(&t.meta.loc),
                    format!(
                        "'{member}' of '{}' is {}; it should be {}",
                        c.meta.name,
                        t.primitive.schema_name(),
                        w.schema_name()
                    ),
                );
            }
        }
        Some(t)
    }

    /// Checks `Enum.Value` against the schema's enums; true if it names a value.
    pub(crate) fn check_value_ref(
        &mut self,
        m: &Member,
        value_ref: &str,
        expected_enum: Option<&str>,
    ) -> bool {
        let Some((enum_name, value)) = value_ref.split_once('.') else {
            self.sink.error(
                rules::VALUE_REF,
                Some(&m.meta.loc),
                format!(
                    "valueRef '{value_ref}' of '{}' is not of the form Enum.Value",
                    m.meta.name
                ),
            );
            return false;
        };
        let ok = match self.schema.types.get(enum_name) {
            Some(TypeDef::Enum(v)) => v.values.iter().any(|x| x.meta.name == value),
            _ => false,
        };
        if !ok {
            self.sink.error(
                rules::VALUE_REF,
                Some(&m.meta.loc),
                format!(
                    "valueRef '{value_ref}' of '{}' names no valid value of an enum",
                    m.meta.name
                ),
            );
            return false;
        }
        if let Some(expected) = expected_enum.filter(|e| *e != enum_name) {
            self.sink.error(
                rules::VALUE_REF,
                Some(&m.meta.loc),
                format!(
                    "valueRef '{value_ref}' of '{}' is not a value of its type '{expected}'",
                    m.meta.name
                ),
            );
        }
        true
    }

    pub(crate) fn check_num_in_group(&mut self, c: &Composite, n: &Encoded) {
        match n.primitive {
            PrimitiveType::Uint8 | PrimitiveType::Uint16 => {}
            PrimitiveType::Uint32 | PrimitiveType::Uint64 => {
                // Counts above i32::MAX break common runtimes; require an explicit bound.
                let bounded = n
                    .max_value
                    .as_ref()
                    .and_then(PrimitiveValue::as_i128)
                    .is_some_and(|m| m <= i128::from(i32::MAX));
                if bounded {
                    self.sink.warn(
                        rules::GROUP_DIMENSIONS,
                        Some(&n.meta.loc),
                        format!("numInGroup of '{}' should be uint8 or uint16", c.meta.name),
                    );
                } else {
                    self.sink.error(
                        rules::GROUP_DIMENSIONS,
                        Some(&n.meta.loc),
                        format!(
                            "numInGroup of '{}' is {} without maxValue <= 2147483647",
                            c.meta.name,
                            n.primitive.schema_name()
                        ),
                    );
                }
            }
            other => self.sink.error(
                rules::GROUP_DIMENSIONS,
                Some(&n.meta.loc),
                format!(
                    "numInGroup of '{}' must be unsigned, not {}",
                    c.meta.name,
                    other.schema_name()
                ),
            ),
        }
    }

    /// The block length to emit: the declared one, unless it is shorter than the fields need
    /// (rule `block-length`), which is also reported past the 16-bit limit.
    pub(crate) fn block_length(
        &mut self,
        meta: &Meta,
        declared: Option<i32>,
        computed: i32,
    ) -> i32 {
        if computed.max(declared.unwrap_or(0)) > i32::from(u16::MAX) {
            self.sink.error(
                rules::BLOCK_LENGTH,
                Some(&meta.loc),
                format!(
                    "'{}' needs a block of {} bytes; SBE block lengths are at most 65535",
                    meta.name,
                    computed.max(declared.unwrap_or(0))
                ),
            );
        }
        match declared {
            Some(d) if d < computed => {
                self.sink.error(
                    rules::BLOCK_LENGTH,
                    Some(&meta.loc),
                    format!(
                        "'{}' declares blockLength {d}, but its fields need {computed} bytes",
                        meta.name
                    ),
                );
                computed
            }
            Some(d) => d,
            None => computed,
        }
    }
}
