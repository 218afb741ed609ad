//! The rule checker: compares two layouts element by element.
//!
//! Messages are matched by template id; fields, groups, var data, enum values and set choices
//! by name, then (for what is left) by position, which is how a rename is told from a removal.
//!
//! This file holds the findings, the walk over schemas, messages and blocks, and the pairing;
//! `fields.rs` compares fields and composites, `types.rs` enum values and set choices, and
//! `sections.rs` groups and var data.

mod fields;
mod sections;
mod types;

use crate::rules::{self, Effect, Rule};
use sbekit_ir::layout::{Block, Field, FieldKind, IntSlot, Layout};
use sbekit_ir::PrimitiveType;
use serde::Serialize;
use std::collections::HashSet;

/// What a finding is about, for locating it in each file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "key", rename_all = "lowercase")]
pub enum Elem {
    /// The schema as a whole.
    Schema,
    /// A message, a field, group or var data (`Car.fuelFigures.speed`), or a composite member.
    Path(String),
    /// A type, or one of its values or choices (`type:Model`, `type:Model.A`).
    Type(String),
}

impl Elem {
    /// The key to look the element up in a source index.
    pub fn key(&self) -> &str {
        match self {
            Elem::Schema => "",
            Elem::Path(p) | Elem::Type(p) => p,
        }
    }
}

/// One difference between the two schemas.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// The rule.
    pub rule: &'static Rule,
    /// Effect on new readers of old messages.
    pub backward: Effect,
    /// Effect on old readers of new messages.
    pub forward: Effect,
    /// What changed, naming the element.
    pub message: String,
    /// The element in the old schema, if it is there.
    pub old: Option<Elem>,
    /// The element in the new schema, if it is there.
    pub new: Option<Elem>,
}

/// The checker's result: findings, and the renames it matched (old path, new name), which the
/// oracle uses to pair elements.
#[derive(Debug, Clone, Default)]
pub struct Comparison {
    /// Every finding, in schema order.
    pub findings: Vec<Finding>,
    /// Renamed elements: (old path such as `Car.fuelFigures.speed`, new last segment).
    pub renames: Vec<(String, String)>,
}

/// Attribute lookups the layout does not carry (alignment); absent for `.sbeir` sides.
pub trait Attributes {
    /// The `alignment` attribute of the field at `path`.
    fn alignment(&self, path: &str) -> Option<String>;
    /// True when the side has source text to read attributes from.
    fn has_text(&self) -> bool;
}

/// Compares `old` with `new`.
pub fn compare(
    old: &Layout,
    new: &Layout,
    old_attrs: &dyn Attributes,
    new_attrs: &dyn Attributes,
) -> Comparison {
    let mut c = Ctx {
        old,
        new,
        old_attrs,
        new_attrs,
        out: Comparison::default(),
        seen: HashSet::new(),
    };
    c.schema();
    c.out
}

pub(super) struct Ctx<'a> {
    pub(super) old: &'a Layout,
    pub(super) new: &'a Layout,
    pub(super) old_attrs: &'a dyn Attributes,
    pub(super) new_attrs: &'a dyn Attributes,
    pub(super) out: Comparison,
    pub(super) seen: HashSet<(&'static str, String)>,
}

/// Where in a message the block being compared sits.
#[derive(Clone)]
pub(super) struct At {
    pub(super) old: String,
    pub(super) new: String,
    pub(super) root: bool,
}

impl At {
    pub(super) fn child(&self, old: &str, new: &str) -> At {
        At {
            old: format!("{}.{old}", self.old),
            new: format!("{}.{new}", self.new),
            root: false,
        }
    }
}

pub(super) fn p(s: &str) -> Option<Elem> {
    Some(Elem::Path(s.to_string()))
}

pub(super) fn ty(s: impl Into<String>) -> Option<Elem> {
    Some(Elem::Type(format!("type:{}", s.into())))
}

impl Ctx<'_> {
    pub(super) fn push(
        &mut self,
        rule: &'static Rule,
        message: String,
        old: Option<Elem>,
        new: Option<Elem>,
    ) {
        self.push_with(rule, rule.backward, rule.forward, message, old, new);
    }

    pub(super) fn push_with(
        &mut self,
        rule: &'static Rule,
        backward: Effect,
        forward: Effect,
        message: String,
        old: Option<Elem>,
        new: Option<Elem>,
    ) {
        // Shared types are compared at each use; report each difference once.
        if !self.seen.insert((rule.name, message.clone())) {
            return;
        }
        self.out.findings.push(Finding {
            rule,
            backward,
            forward,
            message,
            old,
            new,
        });
    }

    pub(super) fn schema(&mut self) {
        let (o, n) = (self.old, self.new);
        let root = Some(Elem::Schema);
        if o.byte_order != n.byte_order {
            self.push(
                &rules::BYTE_ORDER_CHANGED,
                format!(
                    "byte order changed from {:?} to {:?}",
                    o.byte_order, n.byte_order
                ),
                root.clone(),
                root.clone(),
            );
        }
        if o.id != n.id {
            self.push(
                &rules::SCHEMA_ID_CHANGED,
                format!("schema id changed from {} to {}", o.id, n.id),
                root.clone(),
                root.clone(),
            );
        }
        let (oh, nh) = (&o.header, &n.header);
        let same_slot = |a: &IntSlot, b: &IntSlot| a.offset == b.offset && a.ty == b.ty;
        if oh.size != nh.size
            || !same_slot(&oh.block_length, &nh.block_length)
            || !same_slot(&oh.template_id, &nh.template_id)
            || !same_slot(&oh.schema_id, &nh.schema_id)
            || !same_slot(&oh.version, &nh.version)
        {
            let name = n.header_composite().name.clone();
            self.push(
                &rules::HEADER_CHANGED,
                format!(
                    "message header '{name}' changed ({} bytes, was {})",
                    nh.size, oh.size
                ),
                ty(o.header_composite().name.clone()),
                ty(name),
            );
        }
        for om in &o.messages {
            match n.message(om.id) {
                Some(nm) => self.message(om, nm),
                None => match n.message_by_name(&om.name) {
                    Some(nm) => self.push(
                        &rules::TEMPLATE_ID_CHANGED,
                        format!(
                            "message '{}' template id changed from {} to {}",
                            om.name, om.id, nm.id
                        ),
                        p(&om.name),
                        p(&nm.name),
                    ),
                    None => self.push(
                        &rules::MESSAGE_REMOVED,
                        format!("message '{}' (template id {}) removed", om.name, om.id),
                        p(&om.name),
                        None,
                    ),
                },
            }
        }
        for nm in &n.messages {
            if o.message(nm.id).is_none() && o.message_by_name(&nm.name).is_none() {
                self.push(
                    &rules::MESSAGE_ADDED,
                    format!("message '{}' (template id {}) added", nm.name, nm.id),
                    None,
                    p(&nm.name),
                );
            }
        }
    }

    pub(super) fn message(
        &mut self,
        om: &sbekit_ir::layout::Message,
        nm: &sbekit_ir::layout::Message,
    ) {
        if om.name != nm.name {
            self.rename(
                &om.name,
                &om.name,
                &nm.name,
                "message",
                p(&om.name),
                p(&nm.name),
            );
        }
        if om.description != nm.description || om.semantic_type != nm.semantic_type {
            self.push(
                &rules::DESCRIPTION_CHANGED,
                format!(
                    "message '{}': description or semantic type changed",
                    nm.name
                ),
                p(&om.name),
                p(&nm.name),
            );
        }
        if nm.deprecated > 0 && om.deprecated == 0 {
            self.push(
                &rules::DEPRECATED,
                format!(
                    "message '{}' deprecated in version {}",
                    nm.name, nm.deprecated
                ),
                p(&om.name),
                p(&nm.name),
            );
        }
        let at = At {
            old: om.name.clone(),
            new: nm.name.clone(),
            root: true,
        };
        self.block(&om.block, &nm.block, &at);
    }

    pub(super) fn rename(
        &mut self,
        old_path: &str,
        old_name: &str,
        new_name: &str,
        what: &str,
        old: Option<Elem>,
        new: Option<Elem>,
    ) {
        self.out
            .renames
            .push((old_path.to_string(), new_name.to_string()));
        self.push(
            &rules::RENAMED,
            format!("{what} '{old_name}' renamed to '{new_name}'"),
            old,
            new,
        );
    }

    pub(super) fn block(&mut self, ob: &Block, nb: &Block, at: &At) {
        let old_extent = extent(&ob.fields);
        let appended = self.fields(&ob.fields, &nb.fields, at, None);
        if nb.block_length < old_extent {
            self.push(
                &rules::BLOCK_LENGTH_LOWERED,
                format!(
                    "'{}' block length {} is below the {old_extent} bytes the old fields need",
                    at.new, nb.block_length
                ),
                p(&at.old),
                p(&at.new),
            );
        } else if nb.block_length != ob.block_length && !appended {
            self.push(
                &rules::BLOCK_LENGTH_PADDED,
                format!(
                    "'{}' block length changed from {} to {} (padding)",
                    at.new, ob.block_length, nb.block_length
                ),
                p(&at.old),
                p(&at.new),
            );
        }
        self.groups(ob, nb, at);
        self.var_data(ob, nb, at);
    }
}

/// The extent of a block's wire fields.
pub(super) fn extent(fields: &[Field]) -> usize {
    fields
        .iter()
        .filter(|f| !f.is_constant())
        .map(Field::end)
        .max()
        .unwrap_or(0)
}

/// `char` and `uint8` carry the same bytes and the same numbers.
pub(super) fn bytes_alike(a: PrimitiveType, b: PrimitiveType) -> bool {
    let cu = |t| matches!(t, PrimitiveType::Char | PrimitiveType::Uint8);
    a == b || (cu(a) && cu(b))
}

/// The scalar wire encoding of a primitive, enum or set field (for kind changes that keep bytes).
pub(super) fn scalar_encoding(layout: &Layout, f: &Field) -> Option<PrimitiveType> {
    let t = match &f.kind {
        FieldKind::Primitive(p) if p.length == 1 => p.ty,
        FieldKind::Enum { def, .. } => layout.enum_def(*def).encoding,
        FieldKind::Set { def } => layout.set_def(*def).encoding,
        _ => return None,
    };
    Some(if t == PrimitiveType::Char {
        PrimitiveType::Uint8
    } else {
        t
    })
}

/// True when matched pairs (sorted by old index) are out of order in the new list.
pub(super) fn check_order(matched: &[(usize, usize)]) -> bool {
    matched.windows(2).any(|w| w[1].1 < w[0].1)
}

pub(super) struct Pairs {
    pub(super) matched: Vec<(usize, usize)>,
    pub(super) old_only: Vec<usize>,
    pub(super) new_only: Vec<usize>,
}

/// Pairs two lists by name, then pairs what is left one to one when `same_place(i, j)` says
/// old element `i` and new element `j` sit alike (a rename); `old_only` and `new_only` keep
/// schema order.
pub(super) fn pair<T>(
    old: &[T],
    new: &[T],
    name: impl Fn(&T) -> &str,
    same_place: impl Fn(usize, usize) -> bool,
) -> Pairs {
    let mut matched = Vec::new();
    let mut new_used = vec![false; new.len()];
    let mut left = Vec::new();
    for (i, o) in old.iter().enumerate() {
        match new.iter().position(|n| name(n) == name(o)) {
            Some(j) => {
                matched.push((i, j));
                new_used[j] = true;
            }
            None => left.push(i),
        }
    }
    let mut old_only = Vec::new();
    for i in left {
        let candidate = (0..new.len()).find(|&j| {
            !new_used[j] && same_place(i, j) && !old.iter().any(|o| name(o) == name(&new[j]))
        });
        match candidate {
            Some(j) => {
                matched.push((i, j));
                new_used[j] = true;
            }
            None => old_only.push(i),
        }
    }
    matched.sort_unstable();
    Pairs {
        matched,
        old_only,
        new_only: (0..new.len()).filter(|&j| !new_used[j]).collect(),
    }
}
