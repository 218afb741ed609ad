//! Builds a [`Plan`] from a [`Layout`]: the same model with the type tables keyed by name (so
//! output order is stable), only the types that fields use, and the checks of each message.
//!
//! Nothing here reads tokens or recomputes what the layout knows; every offset, size,
//! presence and per-version block length comes from the layout.

use crate::HeaderSlots;
use crate::{
    checks, Body, CompositeDef, EnumDef, Field, Header, Kind, Message, Plan, PlanError, Prim,
    Section, SetDef, Slot, TypeTables,
};
use sbekit_ir::layout::{self, FieldKind, IntSlot, Layout};
use std::collections::BTreeSet;

/// The plan of `l`.
pub fn plan(l: &Layout) -> Result<Plan, PlanError> {
    let mut used = Used::default();
    used.composites.insert(l.header.composite.0);
    for m in &l.messages {
        used.block(l, &m.block);
    }
    used.composite(l, l.header.composite.0);
    let v = View { l };
    let hc = l.header_composite();
    let hfield = |name: &'static str| {
        hc.members
            .iter()
            .find(|m| m.name == name)
            .map(|m| v.field(m))
            .ok_or(PlanError::MissingHeaderField(name))
    };
    Ok(Plan {
        package: l.package.clone(),
        id: l.id,
        version: l.version,
        semantic_version: l.semantic_version.clone(),
        byte_order: l.byte_order,
        header: Header {
            size: l.header.size,
            type_name: hc.name.clone(),
            block_length: hfield("blockLength")?,
            template_id: hfield("templateId")?,
            schema_id: hfield("schemaId")?,
            version: hfield("version")?,
            slots: HeaderSlots {
                block_length: v.slot(&l.header.block_length),
                template_id: v.slot(&l.header.template_id),
                schema_id: v.slot(&l.header.schema_id),
                version: v.slot(&l.header.version),
            },
        },
        enums: used
            .enums
            .iter()
            .map(|&i| (l.enums[i].name.clone(), v.enum_def(&l.enums[i])))
            .collect(),
        sets: used
            .sets
            .iter()
            .map(|&i| (l.sets[i].name.clone(), v.set_def(&l.sets[i])))
            .collect(),
        composites: used
            .composites
            .iter()
            .map(|&i| {
                let c = &l.composites[i];
                (c.name.clone(), v.composite_def(c))
            })
            .collect(),
        messages: l
            .messages
            .iter()
            .map(|m| Message {
                id: m.id,
                since_version: m.since_version,
                body: v.body(&m.block, vec![m.name.clone()], m.description.as_ref()),
                checks: checks::of_message(l, m),
            })
            .collect(),
    })
}

/// Every type of `l`, in the layout's order (see [`crate::all_types`]).
pub fn all_types(l: &Layout) -> TypeTables {
    let v = View { l };
    TypeTables {
        enums: l
            .enums
            .iter()
            .map(|e| (e.name.clone(), v.enum_def(e)))
            .collect(),
        sets: l
            .sets
            .iter()
            .map(|d| (d.name.clone(), v.set_def(d)))
            .collect(),
        composites: l
            .composites
            .iter()
            .map(|c| (c.name.clone(), v.composite_def(c)))
            .collect(),
    }
}

/// The types that fields refer to (group dimension and var-data composites are not listed).
#[derive(Default)]
struct Used {
    enums: BTreeSet<usize>,
    sets: BTreeSet<usize>,
    composites: BTreeSet<usize>,
}

impl Used {
    fn block(&mut self, l: &Layout, b: &layout::Block) {
        for f in &b.fields {
            self.field(l, f);
        }
        for g in &b.groups {
            self.block(l, &g.block);
        }
    }

    fn field(&mut self, l: &Layout, f: &layout::Field) {
        match &f.kind {
            FieldKind::Primitive(_) => {}
            FieldKind::Enum { def, .. } => {
                self.enums.insert(def.0);
            }
            FieldKind::Set { def } => {
                self.sets.insert(def.0);
            }
            FieldKind::Composite { def, .. } => self.composite(l, def.0),
        }
    }

    fn composite(&mut self, l: &Layout, i: usize) {
        // Composites nest (a layout never cycles), so each is visited once per use.
        if !self.composites.insert(i) && i != l.header.composite.0 {
            return;
        }
        for m in &l.composites[i].members {
            self.field(l, m);
        }
    }
}

struct View<'l> {
    l: &'l Layout,
}

impl View<'_> {
    fn body(&self, b: &layout::Block, path: Vec<String>, description: Option<&String>) -> Body {
        let mut sections = Vec::new();
        for g in &b.groups {
            let mut gpath = path.clone();
            gpath.push(g.name.clone());
            sections.push(Section::Group {
                name: g.name.clone(),
                description: g.description.clone(),
                since: g.since_version,
                dim_size: g.dimension.size,
                block_len: self.slot(&g.dimension.block_length),
                count: self.slot(&g.dimension.num_in_group),
                body: Box::new(self.body(&g.block, gpath, g.description.as_ref())),
            });
        }
        for d in &b.var_data {
            sections.push(Section::Var {
                name: d.name.clone(),
                description: d.description.clone(),
                since: d.since_version,
                len: self.slot(&d.length),
                text: d.is_text(),
                data_offset: d.data_offset,
                char_encoding: d.character_encoding.clone(),
            });
        }
        Body {
            name: path.last().cloned().unwrap_or_default(),
            path,
            description: description.cloned(),
            block_length: b.block_length,
            min_block: b.min_length(),
            required: b.required.clone(),
            fields: b.fields.iter().map(|f| self.field(f)).collect(),
            sections,
        }
    }

    fn slot(&self, s: &IntSlot) -> Slot {
        Slot {
            ty: s.ty,
            offset: s.offset,
            order: self.l.byte_order,
            max: s.max,
            constant: s.constant,
        }
    }

    fn field(&self, f: &layout::Field) -> Field {
        let kind = match &f.kind {
            FieldKind::Primitive(p) => Kind::Prim(Prim {
                ty: p.ty,
                len: p.length,
                order: self.l.byte_order,
                presence: f.presence,
                null: p.null_value.clone(),
                constant: p.constant.clone(),
                char_encoding: p.character_encoding.clone(),
                min: p.min_value.clone(),
                max: p.max_value.clone(),
            }),
            FieldKind::Enum { def, constant } => {
                let e = self.l.enum_def(*def);
                Kind::Enum {
                    ty: e.name.clone(),
                    optional: f.is_optional(),
                    constant: constant
                        .and_then(|i| e.values.get(i))
                        .map(|v| v.name.clone()),
                }
            }
            FieldKind::Set { def } => Kind::Set {
                ty: self.l.set_def(*def).name.clone(),
            },
            FieldKind::Composite { def, .. } => Kind::Composite {
                ty: self.l.composite_def(*def).name.clone(),
            },
        };
        Field {
            name: f.name.clone(),
            description: f.description.clone(),
            offset: f.offset,
            size: f.size,
            since: f.since_version,
            presence: f.presence,
            kind,
            semantic_type: f.semantic_type.clone(),
            time_unit: match &f.kind {
                FieldKind::Primitive(p) => p.time_unit.clone(),
                _ => None,
            },
            range: match &f.kind {
                FieldKind::Primitive(p)
                    if p.constant.is_none() && f.presence != sbekit_ir::Presence::Constant =>
                {
                    crate::Range::of(p.ty, &p.min_value, &p.max_value)
                }
                _ => None,
            },
        }
    }

    fn composite_def(&self, c: &layout::CompositeDef) -> CompositeDef {
        CompositeDef {
            description: c.description.clone(),
            size: c.size,
            members: c.members.iter().map(|m| self.field(m)).collect(),
        }
    }

    fn enum_def(&self, e: &layout::EnumDef) -> EnumDef {
        EnumDef {
            description: e.description.clone(),
            ty: e.encoding,
            order: self.l.byte_order,
            null: e.null_value.clone(),
            values: e
                .values
                .iter()
                .map(|v| (v.name.clone(), v.value.clone(), v.description.clone()))
                .collect(),
        }
    }

    fn set_def(&self, d: &layout::SetDef) -> SetDef {
        SetDef {
            description: d.description.clone(),
            ty: d.encoding,
            order: self.l.byte_order,
            choices: d
                .choices
                .iter()
                .map(|c| (c.name.clone(), c.bit, c.description.clone()))
                .collect(),
        }
    }
}
