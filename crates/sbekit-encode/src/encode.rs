//! The encoder's walk: a value tree against a compiled plan, into message bytes.

use crate::json::{Kind as J, NodeRef};
use crate::plan::{
    null_into, put_bits, BlockPlan, FieldPlan, GroupPlan, Kind, Plan, Text, VarPlan,
};
use crate::EncodeError;
use sbekit_ir::wire::VERSION_MEMBER;
use sbekit_ir::{PrimitiveType, PrimitiveValue};
use std::borrow::Cow;

type R<T = ()> = Result<T, EncodeError>;

fn fail<T>(message: impl Into<String>) -> R<T> {
    Err(EncodeError::new("", message))
}

/// Objects with at most this many members resolve their members on the stack.
const STACK_SLOTS: usize = 32;

pub(crate) struct Walk<'p> {
    pub plan: &'p Plan,
    pub version: u32,
    /// Check values against the schema's rules (`Encoder::with_validation`).
    pub validate: bool,
}

impl Walk<'_> {
    /// Encodes a message's root block (whose object may carry [`VERSION_MEMBER`]) and what
    /// follows it.
    pub fn root(&self, b: &BlockPlan, obj: NodeRef<'_>, out: &mut Vec<u8>) -> R {
        self.block_of(b, Some(obj), true, out)
    }

    /// Encodes one group entry's block and what follows it: its groups and var data.
    pub fn block(&self, b: &BlockPlan, obj: Option<NodeRef<'_>>, out: &mut Vec<u8>) -> R {
        self.block_of(b, obj, false, out)
    }

    fn block_of(
        &self,
        b: &BlockPlan,
        obj: Option<NodeRef<'_>>,
        root: bool,
        out: &mut Vec<u8>,
    ) -> R {
        let n = b.names.len();
        let mut stack = [None; STACK_SLOTS];
        let mut heap = Vec::new();
        let slots: &mut [Option<NodeRef<'_>>] = if n <= STACK_SLOTS {
            &mut stack[..n]
        } else {
            heap.resize(n, None);
            &mut heap
        };
        if let Some(o) = obj {
            resolve(&b.names, o, root, slots)?;
        }
        let start = out.len();
        let len = b.length_at(self.version, self.plan.schema_version);
        out.resize(start + len.max(b.block_length), 0);
        let nf = b.fields.len();
        for (f, slot) in b.fields.iter().zip(&slots[..nf]) {
            self.field(f, *slot, &mut out[start..], 0)
                .map_err(|e| e.at(&f.name))?;
        }
        out.truncate(start + len);
        let ng = b.groups.len();
        for (g, slot) in b.groups.iter().zip(&slots[nf..nf + ng]) {
            self.group(g, *slot, out).map_err(|e| e.at(&g.name))?;
        }
        for (v, slot) in b.var_data.iter().zip(&slots[nf + ng..]) {
            self.var_data(v, *slot, out).map_err(|e| e.at(&v.name))?;
        }
        Ok(())
    }

    /// Writes field `f` of the block or composite at `buf[base..]`.
    fn field(&self, f: &FieldPlan, val: Option<NodeRef<'_>>, buf: &mut [u8], base: usize) -> R {
        if f.is_constant() {
            return match val {
                Some(v) => self.check_constant(f, v),
                None => Ok(()),
            };
        }
        if f.since > self.version {
            // Absent at the acting version: nothing is written, and only its null value (what
            // the decoder prints for it) may be given.
            if let Some(v) = val.filter(|v| v.kind() != J::Null) {
                let mut tmp = vec![0u8; f.offset + f.size];
                // Written as the newest writer would, to compare every member with its null.
                let newest = Walk {
                    plan: self.plan,
                    version: u32::MAX,
                    validate: false,
                };
                newest.value(f, v, &mut tmp, 0)?;
                if tmp[f.offset..] != f.null_image[..] {
                    return fail(format!(
                        "{} is not null, but the field is newer (sinceVersion {}) than version {}",
                        v.describe(),
                        f.since,
                        self.version
                    ));
                }
            }
            return Ok(());
        }
        match val {
            Some(v) => self.value(f, v, buf, base),
            None => match &f.kind {
                Kind::Composite { members, .. } => {
                    for m in members {
                        self.field(m, None, buf, base + f.offset)
                            .map_err(|e| e.at(&m.name))?;
                    }
                    Ok(())
                }
                _ if f.required => fail("missing (the field is required)"),
                _ => {
                    null_into(f, buf, base, self.plan.order);
                    Ok(())
                }
            },
        }
    }

    fn value(&self, f: &FieldPlan, v: NodeRef<'_>, buf: &mut [u8], base: usize) -> R {
        let order = self.plan.order;
        let at = base + f.offset;
        if v.kind() == J::Null {
            if self.validate {
                self.check_null(f)?;
            }
            null_into(f, buf, base, order);
            return Ok(());
        }
        match &f.kind {
            Kind::Num { ty, len, null } => {
                let size = ty.size();
                if *len == 1 {
                    let bits = number_bits(*ty, v, *null)?;
                    if self.validate {
                        check_number(f, *ty, *null, bits, Some(v))?;
                    }
                    put(buf, at, size, bits, order)
                } else {
                    if v.kind() != J::Array {
                        return fail(format!(
                            "expected an array of {len} {}, got {}",
                            ty.schema_name(),
                            v.describe()
                        ));
                    }
                    if v.len() != *len {
                        return fail(format!("expected {len} elements, got {}", v.len()));
                    }
                    for (k, item) in v.items().enumerate() {
                        let bits = number_bits(*ty, item, *null).map_err(|e| e.index(k))?;
                        if self.validate {
                            check_number(f, *ty, *null, bits, Some(item))
                                .map_err(|e| e.index(k))?;
                        }
                        put(buf, at + k * size, size, bits, order)?;
                    }
                    Ok(())
                }
            }
            Kind::Chars { len, text, .. } => {
                if v.kind() != J::String {
                    return fail(format!("expected a string, got {}", v.describe()));
                }
                let bytes = text_bytes(v.text(), *text, *len)?;
                // An array's text ends at the first NUL when read back, so anything after one
                // would be written but never decoded: refuse it and keep encode/decode an exact
                // pair. (A single char is printed as it is, NUL included.)
                if *len > 1 && bytes.contains(&0) {
                    return fail(format!(
                        "{} contains NUL (U+0000): a character array's text ends at its first NUL",
                        v.describe()
                    ));
                }
                if bytes.len() > *len {
                    return fail(format!(
                        "{} is {} bytes, longer than the field's {len}",
                        v.describe(),
                        bytes.len()
                    ));
                }
                let dst = buf
                    .get_mut(at..at + len)
                    .ok_or_else(|| EncodeError::new("", "field outside its block"))?;
                dst[..bytes.len()].copy_from_slice(&bytes);
                dst[bytes.len()..].fill(0);
                Ok(())
            }
            Kind::Enum { ty, def, null } => {
                let e = &self.plan.enums[*def];
                let bits = match v.kind() {
                    J::String => match e.values.find(v.text(), usize::MAX) {
                        Some(i) => e.bits[i],
                        None if looks_numeric(v.text()) => int_bits(*ty, v.text())?,
                        None => {
                            return fail(format!(
                                "unknown value {} of enum {} (one of {})",
                                v.describe(),
                                e.name,
                                list(&e.values)
                            ))
                        }
                    },
                    J::Number => int_bits(*ty, v.text())?,
                    _ => {
                        return fail(format!(
                            "expected a name of enum {}, got {}",
                            e.name,
                            v.describe()
                        ))
                    }
                };
                if self.validate {
                    self.check_enum(f, *ty, *def, *null, bits, Some(v))?;
                }
                put(buf, at, ty.size(), bits, order)
            }
            Kind::Set { ty, def } => {
                let s = &self.plan.sets[*def];
                let mut bits = 0u64;
                let choice = |name: &str| {
                    s.choices
                        .find(name, usize::MAX)
                        .map(|i| 1u64 << s.bits[i])
                        .ok_or_else(|| {
                            EncodeError::new(
                                "",
                                format!(
                                    "unknown choice {name:?} of set {} (one of {})",
                                    s.name,
                                    list(&s.choices)
                                ),
                            )
                        })
                };
                match v.kind() {
                    J::Array => {
                        for (k, item) in v.items().enumerate() {
                            if item.kind() != J::String {
                                return Err(EncodeError::new(
                                    "",
                                    format!("expected a choice name, got {}", item.describe()),
                                )
                                .index(k));
                            }
                            bits |= choice(item.text()).map_err(|e| e.index(k))?;
                        }
                    }
                    J::Object => {
                        for (name, on) in v.members() {
                            let bit = choice(name)?;
                            match on.kind() {
                                J::True => bits |= bit,
                                J::False | J::Null => {}
                                _ => {
                                    return fail(format!(
                                        "expected true or false, got {}",
                                        on.describe()
                                    ))
                                    .map_err(|e: EncodeError| e.at(name))
                                }
                            }
                        }
                    }
                    J::Number | J::String => bits = int_bits(*ty, v.text())?,
                    _ => {
                        return fail(format!(
                            "expected a list of choices of set {}, got {}",
                            s.name,
                            v.describe()
                        ))
                    }
                }
                put(buf, at, ty.size(), bits, order)
            }
            Kind::Composite { members, names } => {
                if v.kind() != J::Object {
                    return fail(format!("expected an object, got {}", v.describe()));
                }
                let n = names.len();
                let mut stack = [None; STACK_SLOTS];
                let mut heap = Vec::new();
                let slots: &mut [Option<NodeRef<'_>>] = if n <= STACK_SLOTS {
                    &mut stack[..n]
                } else {
                    heap.resize(n, None);
                    &mut heap
                };
                resolve(names, v, false, slots)?;
                for (m, slot) in members.iter().zip(slots.iter()) {
                    self.field(m, *slot, buf, at).map_err(|e| e.at(&m.name))?;
                }
                Ok(())
            }
            Kind::ConstNum { .. } | Kind::ConstChars(_) | Kind::ConstEnum { .. } => {
                self.check_constant(f, v)
            }
        }
    }

    /// Validation of `null` (or a field's null value) given for field `f`: a required integer
    /// or enum refuses it (a required float only when the schema bounds it: NaN is outside any
    /// bounds); a composite passes it to each member.
    fn check_null(&self, f: &FieldPlan) -> R {
        match &f.kind {
            Kind::Num { ty, null, .. } => check_number(f, *ty, *null, *null, None),
            Kind::Enum { ty, def, null } => self.check_enum(f, *ty, *def, *null, *null, None),
            Kind::Composite { members, .. } => {
                for m in members.iter().filter(|m| m.since <= self.version) {
                    self.check_null(m).map_err(|e| e.at(&m.name))?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Validation of an enum field's raw value: one the schema lists, or the null value of an
    /// optional field. `given` is the value as given (`None`: null), for the message.
    fn check_enum(
        &self,
        f: &FieldPlan,
        ty: PrimitiveType,
        def: usize,
        null: u64,
        bits: u64,
        given: Option<NodeRef<'_>>,
    ) -> R {
        let e = &self.plan.enums[def];
        let bits = width_bits(ty, bits);
        if e.bits.contains(&bits) || (bits == null && !f.required) {
            return Ok(());
        }
        let shown = shown(given);
        if bits == null {
            return fail(required_null(&shown, &format!("enum {}", e.name)));
        }
        fail(format!(
            "{shown} is not a value of enum {} (one of {})",
            e.name,
            list(&e.values)
        ))
    }

    /// A constant is not written; a value given for it must be the constant (or null).
    fn check_constant(&self, f: &FieldPlan, v: NodeRef<'_>) -> R {
        if v.kind() == J::Null {
            return Ok(());
        }
        let ok = match &f.kind {
            Kind::ConstNum { ty, value } => {
                let t = v.text();
                match v.kind() {
                    J::Number | J::String if ty.is_float() => {
                        t.trim().parse::<f64>().ok() == value.as_f64()
                    }
                    J::Number | J::String => parse_int(t).ok() == value.as_i128(),
                    _ => false,
                }
            }
            Kind::ConstChars(bytes) => {
                v.kind() == J::String
                    && text_bytes(v.text(), Text::Bytes, usize::MAX)
                        .is_ok_and(|b| b[..] == bytes[..])
            }
            Kind::ConstEnum { def, name } => match v.kind() {
                J::String => v.text() == name,
                J::Number => {
                    let e = &self.plan.enums[*def];
                    let i = e.values.find(name, usize::MAX);
                    parse_int(v.text()).ok() == i.map(|i| i128::from(e.bits[i]))
                }
                _ => false,
            },
            _ => true,
        };
        if ok {
            Ok(())
        } else {
            fail(format!(
                "{} is not the constant {}",
                v.describe(),
                constant_text(f)
            ))
        }
    }

    fn group(&self, g: &GroupPlan, val: Option<NodeRef<'_>>, out: &mut Vec<u8>) -> R {
        let items = match val {
            None => None,
            Some(v) if v.kind() == J::Null => None,
            Some(v) if v.kind() == J::Array => Some(v),
            Some(v) => {
                return fail(format!(
                    "expected an array of entries, got {}",
                    v.describe()
                ))
            }
        };
        let count = items.map_or(0, |v| v.len());
        if g.since > self.version {
            if count > 0 {
                return fail(format!(
                    "{count} entries, but the group is newer (sinceVersion {}) than version {}",
                    g.since, self.version
                ));
            }
            return Ok(());
        }
        if count as u64 > g.count.max {
            return fail(format!(
                "{count} entries do not fit the group's count ({}, at most {})",
                g.count.ty.schema_name(),
                g.count.max
            ));
        }
        let block_length = g.block.length_at(self.version, self.plan.schema_version);
        if block_length as u64 > g.block_length.max {
            return fail(format!(
                "block length {block_length} does not fit the group's blockLength ({})",
                g.block_length.ty.schema_name()
            ));
        }
        let start = out.len();
        out.resize(start + g.dim_size, 0);
        let dim = &mut out[start..];
        let order = self.plan.order;
        let bl = &g.block_length;
        put(dim, bl.offset, bl.ty.size(), block_length as u64, order)?;
        put(dim, g.count.offset, g.count.ty.size(), count as u64, order)?;
        if let Some(items) = items {
            for (k, item) in items.items().enumerate() {
                if item.kind() != J::Object {
                    return fail(format!("expected an object, got {}", item.describe()))
                        .map_err(|e: EncodeError| e.index(k));
                }
                self.block(&g.block, Some(item), out)
                    .map_err(|e| e.index(k))?;
            }
        }
        Ok(())
    }

    fn var_data(&self, d: &VarPlan, val: Option<NodeRef<'_>>, out: &mut Vec<u8>) -> R {
        let bytes: Cow<'_, [u8]> = match val {
            None => Cow::Borrowed(&[]),
            Some(v) => match v.kind() {
                J::Null => Cow::Borrowed(&[]),
                J::String => text_bytes(v.text(), d.text, usize::MAX)?,
                J::Array => {
                    let mut b = Vec::with_capacity(v.len());
                    for (k, item) in v.items().enumerate() {
                        let x = match item.kind() {
                            J::Number => parse_int(item.text()).ok(),
                            _ => None,
                        }
                        .and_then(|x| u8::try_from(x).ok())
                        .ok_or_else(|| {
                            EncodeError::new("", format!("{} is not a byte", item.describe()))
                                .index(k)
                        })?;
                        b.push(x);
                    }
                    Cow::Owned(b)
                }
                _ => return fail(format!("expected a string, got {}", v.describe())),
            },
        };
        if d.since > self.version {
            if !bytes.is_empty() {
                return fail(format!(
                    "{} bytes, but the field is newer (sinceVersion {}) than version {}",
                    bytes.len(),
                    d.since,
                    self.version
                ));
            }
            return Ok(());
        }
        if bytes.len() as u64 > d.length.max {
            return fail(format!(
                "{} bytes do not fit the length ({}, at most {})",
                bytes.len(),
                d.length.ty.schema_name(),
                d.length.max
            ));
        }
        let start = out.len();
        out.resize(start + d.data_offset, 0);
        put(
            &mut out[start..],
            d.length.offset,
            d.length.ty.size(),
            bytes.len() as u64,
            self.plan.order,
        )?;
        out.extend_from_slice(&bytes);
        Ok(())
    }
}

/// Maps an object's members to the plan's names; unknown and repeated names are errors.
/// A message's root object may also say which version wrote it ([`VERSION_MEMBER`]).
fn resolve<'a>(
    names: &crate::plan::Names,
    obj: NodeRef<'a>,
    root: bool,
    slots: &mut [Option<NodeRef<'a>>],
) -> R {
    if obj.kind() != J::Object {
        return fail(format!("expected an object, got {}", obj.describe()));
    }
    let mut hint = 0;
    for (key, v) in obj.members() {
        if root && key == VERSION_MEMBER {
            continue;
        }
        let Some(i) = names.find(key, hint) else {
            return fail(format!("unknown field (fields here: {})", list(names)))
                .map_err(|e: EncodeError| e.at(key));
        };
        let slot = &mut slots[i];
        if slot.is_some() {
            return fail("given twice").map_err(|e: EncodeError| e.at(key));
        }
        *slot = Some(v);
        hint = i + 1;
    }
    Ok(())
}

fn put(buf: &mut [u8], at: usize, size: usize, bits: u64, order: sbekit_ir::ByteOrder) -> R {
    if put_bits(buf, at, size, bits, order) {
        Ok(())
    } else {
        fail("field outside its block (malformed layout)")
    }
}

fn list(names: &crate::plan::Names) -> String {
    let n = names.len();
    let shown: Vec<&str> = (0..n.min(12)).map(|i| names.get(i)).collect();
    let mut s = shown.join(", ");
    if n > 12 {
        s.push_str(&format!(", ... {} more", n - 12));
    }
    s
}

fn looks_numeric(t: &str) -> bool {
    let t = t.trim();
    !t.is_empty()
        && t.trim_start_matches('-')
            .bytes()
            .all(|c| c.is_ascii_digit())
}

/// An integer from JSON number text (or a string holding one): exact for any width. A number
/// written with a fraction or exponent is accepted when it is a whole number below 2^53.
pub(crate) fn parse_int(t: &str) -> Result<i128, String> {
    let t = t.trim();
    if let Ok(v) = t.parse::<i128>() {
        return Ok(v);
    }
    if !t.is_empty()
        && t.trim_start_matches('-')
            .bytes()
            .all(|c| c.is_ascii_digit())
    {
        return Err(format!("{t} is out of range"));
    }
    match t.parse::<f64>() {
        Ok(f) if f.is_finite() && f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0 => {
            Ok(f as i128)
        }
        _ => Err(format!("{t:?} is not an integer")),
    }
}

/// The wire bits of integer text for `ty` (a `char` takes 0..=255), range checked.
fn int_bits(ty: PrimitiveType, t: &str) -> R<u64> {
    let v = parse_int(t).map_err(|m| EncodeError::new("", m))?;
    let bits = ty.size() as u32 * 8;
    let (lo, hi) = if ty.is_signed_int() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    if v < lo || v > hi {
        return fail(format!("{} does not fit {}", t.trim(), ty.schema_name()));
    }
    Ok(v as u64)
}

/// A value as given, for a validation message (`None`: null).
fn shown(given: Option<NodeRef<'_>>) -> String {
    given.map_or_else(|| "null".to_string(), NodeRef::describe)
}

/// Validation of one number element of field `f` (bits as [`number_bits`] gives them): an
/// optional field may hold its null value (a float any NaN); a required integer field may not;
/// else the element must be within the field's bounds ([`FieldPlan::range`],
/// `sbekit_plan::Range::of`'s). `given` is the value as given (`None`: null), for the message.
fn check_number(
    f: &FieldPlan,
    ty: PrimitiveType,
    null: u64,
    bits: u64,
    given: Option<NodeRef<'_>>,
) -> R {
    let bits = width_bits(ty, bits);
    let float = match ty {
        PrimitiveType::Float => Some(f64::from(f32::from_bits(bits as u32))),
        PrimitiveType::Double => Some(f64::from_bits(bits)),
        _ => None,
    };
    let is_null = bits == null || (!f.required && float.is_some_and(f64::is_nan));
    if is_null {
        if !f.required {
            return Ok(());
        }
        if float.is_none() {
            return fail(required_null(&shown(given), ty.schema_name()));
        }
    }
    let Some(range) = &f.range else {
        return Ok(());
    };
    let (min, max) = (range.min.as_ref(), range.max.as_ref());
    let (below, above) = match float {
        Some(x) if x.is_nan() => {
            let bounds = match (min, max) {
                (Some(_), Some(_)) => {
                    format!("{} to {}", number_text(ty, min), number_text(ty, max))
                }
                (Some(_), None) => format!("at least {}", number_text(ty, min)),
                _ => format!("at most {}", number_text(ty, max)),
            };
            return fail(format!(
                "{} (NaN) is outside the field's range, {bounds}",
                shown(given)
            ));
        }
        Some(x) => {
            // A `float` field's bounds are compared as `float`s (as the generated code does).
            let bound = |v: Option<&PrimitiveValue>| {
                let m = v.and_then(PrimitiveValue::as_f64)?;
                Some(if ty == PrimitiveType::Float {
                    f64::from(m as f32)
                } else {
                    m
                })
            };
            (
                bound(min).is_some_and(|m| x < m),
                bound(max).is_some_and(|m| x > m),
            )
        }
        None => {
            let x = int_of(ty, bits);
            (
                min.and_then(PrimitiveValue::as_i128).is_some_and(|m| x < m),
                max.and_then(PrimitiveValue::as_i128).is_some_and(|m| x > m),
            )
        }
    };
    if below {
        return fail(format!(
            "{} is below the field's minimum, {}",
            shown(given),
            number_text(ty, min)
        ));
    }
    if above {
        return fail(format!(
            "{} is above the field's maximum, {}",
            shown(given),
            number_text(ty, max)
        ));
    }
    Ok(())
}

/// The message for a required field given its null value (`what`: the type it is the null
/// value of).
fn required_null(shown: &str, what: &str) -> String {
    if shown == "null" {
        format!("null (the null value of {what}), but the field is required")
    } else {
        format!("{shown} is the null value of {what}, but the field is required")
    }
}

/// `bits` cut to `ty`'s width (signed integers' bits arrive sign-extended to 64).
fn width_bits(ty: PrimitiveType, bits: u64) -> u64 {
    match ty.size() {
        8.. => bits,
        n => bits & ((1u64 << (8 * n)) - 1),
    }
}

/// The integer that `ty`'s wire bits (of its width) hold.
fn int_of(ty: PrimitiveType, bits: u64) -> i128 {
    if ty.is_signed_int() {
        let shift = 128 - 8 * ty.size() as u32;
        (i128::from(bits) << shift) >> shift
    } else {
        i128::from(bits)
    }
}

/// A bound as text: a `float` field's as the `float` it is.
fn number_text(ty: PrimitiveType, v: Option<&PrimitiveValue>) -> String {
    match v {
        Some(v) => v
            .as_i128()
            .map(|i| i.to_string())
            .or_else(|| {
                let x = v.as_f64()?;
                Some(if ty == PrimitiveType::Float {
                    (x as f32).to_string()
                } else {
                    x.to_string()
                })
            })
            .unwrap_or_else(|| format!("{v:?}")),
        None => "?".into(),
    }
}

/// The wire bits of one number element of type `ty`.
fn number_bits(ty: PrimitiveType, v: NodeRef<'_>, null: u64) -> R<u64> {
    let t = match v.kind() {
        J::Number | J::String => v.text(),
        J::Null => return Ok(null),
        _ => {
            return fail(format!(
                "expected a number ({}), got {}",
                ty.schema_name(),
                v.describe()
            ))
        }
    };
    match ty {
        PrimitiveType::Float => {
            let f = parse_float::<f32>(t)?;
            Ok(u64::from(f.to_bits()))
        }
        PrimitiveType::Double => Ok(parse_float::<f64>(t)?.to_bits()),
        _ => int_bits(ty, t),
    }
}

trait Float: std::str::FromStr + Copy {
    fn is_infinite(self) -> bool;
    const NAME: &'static str;
}

impl Float for f32 {
    fn is_infinite(self) -> bool {
        f32::is_infinite(self)
    }
    const NAME: &'static str = "float";
}

impl Float for f64 {
    fn is_infinite(self) -> bool {
        f64::is_infinite(self)
    }
    const NAME: &'static str = "double";
}

/// Parses float text straight to the target width (no rounding through `f64` for a `float`),
/// so the decoder's shortest round-trip text reads back to the same bits. `NaN`, `Infinity`
/// and `-Infinity` (as strings) are accepted; finite text beyond the type's range is an error.
fn parse_float<F: Float>(t: &str) -> R<F> {
    let t = t.trim();
    let f: F = t
        .parse()
        .map_err(|_| EncodeError::new("", format!("{t:?} is not a number")))?;
    if f.is_infinite() && !t.to_ascii_lowercase().contains("inf") {
        return fail(format!("{t} does not fit {}", F::NAME));
    }
    Ok(f)
}

/// Char data's bytes for a field of `room` bytes, by the field's rule (see [`Text`]).
fn text_bytes(s: &str, text: Text, room: usize) -> R<Cow<'_, [u8]>> {
    if s.is_ascii() || (text == Text::Utf8 && s.len() <= room) {
        return Ok(Cow::Borrowed(s.as_bytes()));
    }
    if s.chars().all(|c| u32::from(c) <= 0xFF) {
        return Ok(Cow::Owned(s.chars().map(|c| u32::from(c) as u8).collect()));
    }
    if text == Text::Raw {
        let c = s.chars().find(|&c| u32::from(c) > 0xFF).unwrap_or(' ');
        return fail(format!(
            "raw data takes one byte per character (U+0000..U+00FF), not U+{:04X}",
            u32::from(c)
        ));
    }
    Ok(Cow::Borrowed(s.as_bytes()))
}

fn constant_text(f: &FieldPlan) -> String {
    match &f.kind {
        Kind::ConstNum { value, .. } => match value {
            PrimitiveValue::Float(x) => x.to_string(),
            v => v
                .as_i128()
                .map_or_else(|| format!("{v:?}"), |i| i.to_string()),
        },
        Kind::ConstChars(b) => format!("{:?}", String::from_utf8_lossy(b)),
        Kind::ConstEnum { name, .. } => format!("{name:?}"),
        _ => String::new(),
    }
}
