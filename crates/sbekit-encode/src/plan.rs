//! The encode plan: each message of a [`Layout`] compiled once into what the encoder needs
//! (offsets, write widths, null images, name tables), so that encoding does no schema lookups.

use sbekit_ir::layout::{wire_bits, Block, Field, FieldKind, IntSlot, Layout, Primitive, VarData};
use sbekit_ir::wire::{self, RequiredLengths};
use sbekit_ir::{ByteOrder, Presence, PrimitiveType, PrimitiveValue};
use std::collections::HashMap;

/// Name lookup for a list of named things: a map when the list is long enough to pay for it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Names {
    names: Vec<String>,
    map: HashMap<String, usize>,
}

impl Names {
    fn new(names: Vec<String>) -> Self {
        let map = if names.len() > 8 {
            names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect()
        } else {
            HashMap::new()
        };
        Names { names, map }
    }

    /// The index of `name`, trying `hint` first (JSON members usually come in schema order).
    #[inline]
    pub fn find(&self, name: &str, hint: usize) -> Option<usize> {
        if self.names.get(hint).is_some_and(|n| n == name) {
            return Some(hint);
        }
        if self.map.is_empty() {
            self.names.iter().position(|n| n == name)
        } else {
            self.map.get(name).copied()
        }
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn get(&self, i: usize) -> &str {
        self.names.get(i).map_or("", String::as_str)
    }
}

/// How char data is turned into bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Text {
    /// The text's UTF-8 bytes (`characterEncoding="UTF-8"`); in a fixed-length field where
    /// they do not fit but every character is U+0000..U+00FF, one byte per character (the
    /// decoder prints bytes that are not valid UTF-8 that way).
    Utf8,
    /// One byte per character when every character is U+0000..U+00FF (the decoder prints bytes
    /// that are not UTF-8 one code point per byte), else the text's UTF-8 bytes (the decoder
    /// prints valid UTF-8 as text).
    Bytes,
    /// Raw bytes (var data without a character encoding): one byte per character, U+0000..U+00FF
    /// only.
    Raw,
}

impl Text {
    fn of(encoding: Option<&str>) -> Text {
        match encoding {
            Some(e) if e.eq_ignore_ascii_case("UTF-8") || e.eq_ignore_ascii_case("UTF8") => {
                Text::Utf8
            }
            _ => Text::Bytes,
        }
    }
}

/// What a field holds, as the encoder writes it.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// Integers or floats: `len` elements of `ty`.
    Num {
        ty: PrimitiveType,
        len: usize,
        null: u64,
    },
    /// `char` data of `len` bytes (1 for a single character).
    Chars { len: usize, text: Text, null: u8 },
    /// An enum (index into `Encoder::enums`).
    Enum {
        ty: PrimitiveType,
        def: usize,
        null: u64,
    },
    /// A set (index into `Encoder::sets`).
    Set { ty: PrimitiveType, def: usize },
    /// A composite's members.
    Composite {
        members: Vec<FieldPlan>,
        names: Names,
    },
    /// A numeric constant: checked, not written.
    ConstNum {
        ty: PrimitiveType,
        value: PrimitiveValue,
    },
    /// A character or character-array constant (bytes up to the first NUL).
    ConstChars(Vec<u8>),
    /// An enum constant: the valid value's name and bits.
    ConstEnum { def: usize, name: String },
}

/// One field of a block or member of a composite.
#[derive(Debug, Clone)]
pub(crate) struct FieldPlan {
    pub name: String,
    pub offset: usize,
    pub size: usize,
    pub since: u32,
    pub required: bool,
    pub kind: Kind,
    /// The bounds a validating encoder checks a number (each element of an array) against:
    /// `sbekit_plan::Range::of` the schema's `minValue`/`maxValue` in force, so that every part
    /// of sbekit agrees. `None` for anything but a non-constant integer or float primitive, and
    /// for a float without bounds of the schema's own.
    pub range: Option<sbekit_plan::Range>,
    /// The bytes of the field's null value (what an omitted or absent field is written as).
    pub null_image: Vec<u8>,
}

impl FieldPlan {
    pub fn is_constant(&self) -> bool {
        matches!(
            self.kind,
            Kind::ConstNum { .. } | Kind::ConstChars(_) | Kind::ConstEnum { .. }
        )
    }
}

/// A block: root or group entry.
#[derive(Debug, Clone)]
pub(crate) struct BlockPlan {
    /// The block length the schema writes.
    pub block_length: usize,
    /// (version, bytes its fields need), ascending.
    pub required: RequiredLengths,
    pub fields: Vec<FieldPlan>,
    pub groups: Vec<GroupPlan>,
    pub var_data: Vec<VarPlan>,
    /// Names of fields, then groups, then var data, in that order.
    pub names: Names,
}

impl BlockPlan {
    /// The block length a writer of `version` uses: the schema's at the schema's version, else
    /// the extent of the fields that version knows.
    pub fn length_at(&self, version: u32, schema_version: u32) -> usize {
        if version >= schema_version {
            return self.block_length;
        }
        self.required.at(u64::from(version))
    }
}

/// A repeating group.
#[derive(Debug, Clone)]
pub(crate) struct GroupPlan {
    pub name: String,
    pub since: u32,
    pub dim_size: usize,
    pub block_length: IntSlot,
    pub count: IntSlot,
    pub block: BlockPlan,
}

/// A var-data field.
#[derive(Debug, Clone)]
pub(crate) struct VarPlan {
    pub name: String,
    pub since: u32,
    pub length: IntSlot,
    pub data_offset: usize,
    pub text: Text,
}

/// An enum's names and bits.
#[derive(Debug, Clone)]
pub(crate) struct EnumPlan {
    pub name: String,
    pub values: Names,
    pub bits: Vec<u64>,
}

/// A set's choice names and bits.
#[derive(Debug, Clone)]
pub(crate) struct SetPlan {
    pub name: String,
    pub choices: Names,
    pub bits: Vec<u32>,
}

/// A message.
#[derive(Debug, Clone)]
pub(crate) struct MessagePlan {
    pub name: String,
    pub id: u32,
    pub block: BlockPlan,
}

/// Everything the encoder needs, compiled once.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub order: ByteOrder,
    pub schema_id: u32,
    pub schema_version: u32,
    pub header_size: usize,
    pub header: [IntSlot; 4],
    pub messages: Vec<MessagePlan>,
    pub by_name: HashMap<String, usize>,
    pub enums: Vec<EnumPlan>,
    pub sets: Vec<SetPlan>,
}

impl Plan {
    pub fn new(layout: &Layout) -> Plan {
        let enums = layout
            .enums
            .iter()
            .map(|e| EnumPlan {
                name: e.name.clone(),
                values: Names::new(e.values.iter().map(|v| v.name.clone()).collect()),
                bits: e.values.iter().map(|v| v.bits).collect(),
            })
            .collect();
        let sets = layout
            .sets
            .iter()
            .map(|s| SetPlan {
                name: s.name.clone(),
                choices: Names::new(s.choices.iter().map(|c| c.name.clone()).collect()),
                bits: s.choices.iter().map(|c| c.bit).collect(),
            })
            .collect();
        let c = Compiler {
            layout,
            order: layout.byte_order,
        };
        let messages: Vec<MessagePlan> = layout
            .messages
            .iter()
            .map(|m| MessagePlan {
                name: m.name.clone(),
                id: m.id,
                block: c.block(&m.block),
            })
            .collect();
        let by_name = messages
            .iter()
            .enumerate()
            .map(|(i, m)| (m.name.clone(), i))
            .collect();
        let h = &layout.header;
        Plan {
            order: layout.byte_order,
            schema_id: layout.id,
            schema_version: layout.version,
            header_size: h.size,
            header: [h.block_length, h.template_id, h.schema_id, h.version],
            messages,
            by_name,
            enums,
            sets,
        }
    }
}

struct Compiler<'a> {
    layout: &'a Layout,
    order: ByteOrder,
}

impl Compiler<'_> {
    fn block(&self, b: &Block) -> BlockPlan {
        let fields: Vec<FieldPlan> = b.fields.iter().map(|f| self.field(f)).collect();
        let groups: Vec<GroupPlan> = b
            .groups
            .iter()
            .map(|g| GroupPlan {
                name: g.name.clone(),
                since: g.since_version,
                dim_size: g.dimension.size,
                block_length: g.dimension.block_length,
                count: g.dimension.num_in_group,
                block: self.block(&g.block),
            })
            .collect();
        let var_data: Vec<VarPlan> = b.var_data.iter().map(var_plan).collect();
        let names = Names::new(
            fields
                .iter()
                .map(|f| f.name.clone())
                .chain(groups.iter().map(|g| g.name.clone()))
                .chain(var_data.iter().map(|v| v.name.clone()))
                .collect(),
        );
        BlockPlan {
            block_length: b.block_length,
            required: b.required.clone(),
            fields,
            groups,
            var_data,
            names,
        }
    }

    fn field(&self, f: &Field) -> FieldPlan {
        let constant = f.presence == Presence::Constant;
        let kind = match &f.kind {
            FieldKind::Primitive(p) if constant => const_primitive(p, self.layout),
            FieldKind::Primitive(p) => primitive_kind(p),
            FieldKind::Enum { def, constant: c } => {
                let e = &self.layout.enums[def.0];
                match c {
                    Some(i) if constant => Kind::ConstEnum {
                        def: def.0,
                        name: e.values.get(*i).map(|v| v.name.clone()).unwrap_or_default(),
                    },
                    _ => Kind::Enum {
                        ty: e.encoding,
                        def: def.0,
                        null: e.null_bits(),
                    },
                }
            }
            FieldKind::Set { def } => Kind::Set {
                ty: self.layout.sets[def.0].encoding,
                def: def.0,
            },
            FieldKind::Composite { members, .. } => {
                let members: Vec<FieldPlan> = members.iter().map(|m| self.field(m)).collect();
                let names = Names::new(members.iter().map(|m| m.name.clone()).collect());
                Kind::Composite { members, names }
            }
        };
        let range = match &f.kind {
            FieldKind::Primitive(p) if !constant && p.constant.is_none() => {
                sbekit_plan::Range::of(p.ty, &p.min_value, &p.max_value)
            }
            _ => None,
        };
        let mut plan = FieldPlan {
            name: f.name.clone(),
            offset: f.offset,
            size: f.size,
            since: f.since_version,
            required: f.presence == Presence::Required,
            kind,
            range,
            null_image: Vec::new(),
        };
        let mut image = vec![0u8; plan.offset + plan.size];
        null_into(&plan, &mut image, 0, self.order);
        plan.null_image = image.split_off(plan.offset);
        plan
    }
}

fn primitive_kind(p: &Primitive) -> Kind {
    let null = wire_bits(&p.null_value, p.ty);
    if p.ty == PrimitiveType::Char {
        Kind::Chars {
            len: p.length,
            text: Text::of(p.character_encoding.as_deref()),
            null: null as u8,
        }
    } else {
        Kind::Num {
            ty: p.ty,
            len: p.length,
            null,
        }
    }
}

fn const_primitive(p: &Primitive, layout: &Layout) -> Kind {
    match &p.constant {
        // A numeric constant given by `valueRef="Enum.value"`: the value's number.
        Some(PrimitiveValue::Bytes(b)) if p.ty != PrimitiveType::Char => {
            let text = String::from_utf8_lossy(b);
            let value = text.split_once('.').and_then(|(e, v)| {
                let e = layout.enums.iter().find(|d| d.name == e)?;
                Some(e.values.iter().find(|x| x.name == v)?.value.clone())
            });
            match value {
                Some(value) => Kind::ConstNum { ty: p.ty, value },
                None => Kind::ConstChars(b.clone()),
            }
        }
        Some(PrimitiveValue::Bytes(b)) => {
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            Kind::ConstChars(b[..end].to_vec())
        }
        Some(v) if p.ty == PrimitiveType::Char => {
            let c = v.as_i64().unwrap_or(0) as u8;
            Kind::ConstChars(if c == 0 { Vec::new() } else { vec![c] })
        }
        Some(v) => Kind::ConstNum {
            ty: p.ty,
            value: v.clone(),
        },
        None => Kind::ConstChars(Vec::new()),
    }
}

fn var_plan(v: &VarData) -> VarPlan {
    VarPlan {
        name: v.name.clone(),
        since: v.since_version,
        length: v.length,
        data_offset: v.data_offset,
        text: if v.character_encoding.is_some() {
            Text::of(v.character_encoding.as_deref())
        } else {
            Text::Raw
        },
    }
}

/// Writes `bits` as a `size`-byte integer at `buf[at..]` in `order`. Returns false when the
/// slot does not fit in `buf` (the layout rules that out; this keeps hostile layouts panic-free).
#[inline]
pub(crate) fn put_bits(
    buf: &mut [u8],
    at: usize,
    size: usize,
    bits: u64,
    order: ByteOrder,
) -> bool {
    buf.get_mut(at..)
        .and_then(|out| wire::write_bits(out, size, order, bits))
        .is_some()
}

/// Writes a field's null value at `buf[base + offset..]`: what an omitted optional field, or one
/// newer than the acting version, is written as.
pub(crate) fn null_into(f: &FieldPlan, buf: &mut [u8], base: usize, order: ByteOrder) {
    let at = base + f.offset;
    match &f.kind {
        Kind::Num { ty, len, null } => {
            for k in 0..*len {
                put_bits(buf, at + k * ty.size(), ty.size(), *null, order);
            }
        }
        Kind::Chars { len, null, .. } => {
            if let Some(dst) = buf.get_mut(at..at + len) {
                dst.fill(*null);
            }
        }
        Kind::Enum { ty, null, .. } => {
            put_bits(buf, at, ty.size(), *null, order);
        }
        Kind::Set { ty, .. } => {
            put_bits(buf, at, ty.size(), 0, order);
        }
        Kind::Composite { members, .. } => {
            for m in members {
                null_into(m, buf, at, order);
            }
        }
        Kind::ConstNum { .. } | Kind::ConstChars(_) | Kind::ConstEnum { .. } => {}
    }
}
