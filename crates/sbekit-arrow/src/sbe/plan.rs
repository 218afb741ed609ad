//! The columnar plan: a message's layout compiled into column buffers and their Arrow types.

use super::*;

/// Compiles layouts into column plans, collecting constants as schema metadata.
pub(super) struct Planner<'a> {
    pub(super) layout: &'a Layout,
    pub(super) constants: Vec<(String, String)>,
}

impl Planner<'_> {
    pub(super) fn block(&mut self, b: &Block, path: &str) -> BlockCols {
        let mut leaves = Vec::new();
        let mut nodes = Vec::new();
        for f in &b.fields {
            let p = join(path, &f.name);
            if let Some(n) = self.field(f, 0, &p, &mut leaves) {
                nodes.push((f.name.clone(), n));
            }
        }
        let groups = b
            .groups
            .iter()
            .map(|g| {
                let dimension = DimensionSlots::from(&g.dimension);
                let dims = SlotPair::new(dimension.block_length, dimension.count);
                GroupCols {
                    name: g.name.clone(),
                    since: g.since_version,
                    pair_at: dims.u16_pair_at(),
                    dims,
                    dimension,
                    offsets: vec![0],
                    body: self.block(&g.block, &join(path, &g.name)),
                }
            })
            .collect();
        let vars = b
            .var_data
            .iter()
            .map(|v| VarCols {
                name: v.name.clone(),
                since: v.since_version,
                slots: VarDataSlots::from(v),
                text: v.is_text(),
                encoding: Encoding::of(v.character_encoding.as_deref()),
                offsets: vec![0],
                data: Vec::new(),
            })
            .collect();
        BlockCols::new(leaves, nodes, groups, vars, b.required.clone())
    }

    /// The column of one field at `base` (its composite's offset in the block); `None` for a
    /// constant (recorded as metadata) or a composite of constants only.
    pub(super) fn field(
        &mut self,
        f: &LField,
        base: usize,
        path: &str,
        leaves: &mut Vec<Leaf>,
    ) -> Option<Node> {
        let mut leaf = |ty: PrimitiveType, length: usize, kind: LeafKind| {
            leaves.push(Leaf::new(base + f.offset, f.since_version, ty, length));
            Some(Node::Leaf {
                leaf: leaves.len() - 1,
                kind,
            })
        };
        match &f.kind {
            FieldKind::Primitive(p) => {
                let encoding = Encoding::of(p.character_encoding.as_deref());
                let text = |b: &[u8]| sbekit_otf::text::decode(b, encoding).text.into_owned();
                if f.is_constant() {
                    let v = p.constant.as_ref().map(|c| match c {
                        sbekit_ir::PrimitiveValue::Bytes(b) => text(b),
                        // A single char constant is held as its code: the text is the character.
                        sbekit_ir::PrimitiveValue::Int(c) if p.ty == PrimitiveType::Char => {
                            u8::try_from(*c).map_or_else(|_| c.to_string(), |b| text(&[b]))
                        }
                        other => other.to_string(),
                    });
                    self.constants
                        .push((path.to_string(), v.unwrap_or_default()));
                    return None;
                }
                let optional = f.is_optional();
                let kind = match p.ty {
                    PrimitiveType::Char if p.length != 1 => LeafKind::Chars { encoding },
                    PrimitiveType::Char => LeafKind::Char {
                        null: optional
                            .then(|| sbekit_ir::layout::wire_bits(&p.null_value, p.ty) as u8),
                        encoding,
                    },
                    _ if p.length != 1 => LeafKind::Array {
                        ty: p.ty,
                        length: p.length,
                    },
                    PrimitiveType::Float | PrimitiveType::Double => {
                        LeafKind::Float { ty: p.ty, optional }
                    }
                    ty => LeafKind::Int {
                        ty,
                        null: optional.then(|| sbekit_ir::layout::wire_bits(&p.null_value, ty)),
                    },
                };
                leaf(p.ty, p.length, kind)
            }
            FieldKind::Enum { def, constant } => {
                let e = self.layout.enum_def(*def);
                if f.is_constant() {
                    let name = constant
                        .and_then(|c| e.values.get(c))
                        .map(|v| v.name.clone())
                        .unwrap_or_default();
                    self.constants.push((path.to_string(), name));
                    return None;
                }
                let kind = LeafKind::Enum {
                    bits: e.values.iter().map(|v| v.bits).collect(),
                    names: e.values.iter().map(|v| v.name.clone()).collect(),
                    null: e.null_bits(),
                    signed_width: e.encoding.is_signed_int().then(|| e.encoding.size()),
                };
                leaf(e.encoding, 1, kind)
            }
            FieldKind::Set { def } => {
                let s = self.layout.set_def(*def);
                let kind = LeafKind::Set {
                    choices: s.choices.iter().map(|c| (c.name.clone(), c.bit)).collect(),
                };
                leaf(s.encoding, 1, kind)
            }
            FieldKind::Composite { members, .. } => {
                let mut fields = Vec::new();
                for m in members {
                    if let Some(n) = self.field(m, base + f.offset, &join(path, &m.name), leaves) {
                        fields.push((m.name.clone(), n));
                    }
                }
                (!fields.is_empty()).then_some(Node::Struct { fields })
            }
        }
    }
}

pub(super) fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}
