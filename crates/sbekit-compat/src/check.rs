//! The rule checker: compares two layouts element by element.
//!
//! Messages are matched by template id; fields, groups, var data, enum values and set choices
//! by name, then (for what is left) by position, which is how a rename is told from a removal.

use crate::rules::{self, Effect, Rule};
use sbekit_ir::layout::{
    wire_bits, Block, CompositeId, EnumId, Field, FieldKind, Group, IntSlot, Layout, SetId, VarData,
};
use sbekit_ir::{Presence, PrimitiveType};
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

struct Ctx<'a> {
    old: &'a Layout,
    new: &'a Layout,
    old_attrs: &'a dyn Attributes,
    new_attrs: &'a dyn Attributes,
    out: Comparison,
    seen: HashSet<(&'static str, String)>,
}

/// Where in a message the block being compared sits.
#[derive(Clone)]
struct At {
    old: String,
    new: String,
    root: bool,
}

impl At {
    fn child(&self, old: &str, new: &str) -> At {
        At {
            old: format!("{}.{old}", self.old),
            new: format!("{}.{new}", self.new),
            root: false,
        }
    }
}

fn p(s: &str) -> Option<Elem> {
    Some(Elem::Path(s.to_string()))
}

fn ty(s: impl Into<String>) -> Option<Elem> {
    Some(Elem::Type(format!("type:{}", s.into())))
}

impl Ctx<'_> {
    fn push(&mut self, rule: &'static Rule, message: String, old: Option<Elem>, new: Option<Elem>) {
        self.push_with(rule, rule.backward, rule.forward, message, old, new);
    }

    fn push_with(
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

    fn schema(&mut self) {
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

    fn message(&mut self, om: &sbekit_ir::layout::Message, nm: &sbekit_ir::layout::Message) {
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

    fn rename(
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

    fn block(&mut self, ob: &Block, nb: &Block, at: &At) {
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

    /// Compares the fields of a block (or the members of a composite, when `composite` gives
    /// the composite's old size). Returns true when a wire field was appended.
    fn fields(&mut self, of: &[Field], nf: &[Field], at: &At, composite: Option<usize>) -> bool {
        let pairs = pair(
            of,
            nf,
            |f| &f.name,
            |i, j| {
                let (a, b) = (&of[i], &nf[j]);
                a.offset == b.offset && a.size == b.size && a.is_constant() == b.is_constant()
            },
        );
        let mut appended = false;
        for (oi, ni) in &pairs.matched {
            let (o, n) = (&of[*oi], &nf[*ni]);
            let sub = at.child(&o.name, &n.name);
            if o.name != n.name {
                let what = if composite.is_some() {
                    "member"
                } else {
                    "field"
                };
                self.rename(&sub.old, &o.name, &n.name, what, p(&sub.old), p(&sub.new));
            }
            self.field(o, n, &sub, composite.is_some());
        }
        for &oi in &pairs.old_only {
            let o = &of[oi];
            let path = format!("{}.{}", at.old, o.name);
            if o.is_constant() {
                self.push(
                    &rules::CONSTANT_REMOVED,
                    format!("constant '{path}' removed"),
                    p(&path),
                    p(&at.new),
                );
            } else {
                self.push(
                    &rules::FIELD_REMOVED,
                    format!("field '{path}' removed; old readers still read its bytes"),
                    p(&path),
                    p(&at.new),
                );
            }
        }
        for &ni in &pairs.new_only {
            let n = &nf[ni];
            let path = format!("{}.{}", at.new, n.name);
            if n.is_constant() {
                self.push(
                    &rules::CONSTANT_ADDED,
                    format!("constant '{path}' added"),
                    p(&at.old),
                    p(&path),
                );
                continue;
            }
            let overlaps = of
                .iter()
                .filter(|o| !o.is_constant())
                .find(|o| n.offset < o.end() && o.offset < n.end());
            if let Some(o) = overlaps {
                self.push(
                    &rules::FIELD_INSERTED,
                    format!(
                        "field '{path}' (bytes {}..{}) takes bytes old field '{}' used",
                        n.offset,
                        n.end(),
                        o.name
                    ),
                    p(&format!("{}.{}", at.old, o.name)),
                    p(&path),
                );
                continue;
            }
            appended = true;
            if n.since_version <= self.old.version {
                let rule = if composite.is_some() {
                    &rules::COMPOSITE_EXTENDED
                } else {
                    &rules::SINCE_VERSION_MISSING
                };
                self.push(
                    rule,
                    format!(
                        "'{path}' is new but its sinceVersion {} is not above the old schema version {}",
                        n.since_version, self.old.version
                    ),
                    p(&at.old),
                    p(&path),
                );
                continue;
            }
            if let Some(old_size) = composite {
                if n.end() > old_size {
                    self.push_with(
                        &rules::COMPOSITE_EXTENDED,
                        Effect::Break,
                        Effect::Ok,
                        format!(
                            "'{path}' grows its composite past its old {old_size} bytes; decoders need the whole composite at every acting version"
                        ),
                        p(&at.old),
                        p(&path),
                    );
                } else {
                    self.push(
                        &rules::COMPOSITE_MEMBER_APPENDED,
                        format!("'{path}' appended (sinceVersion {})", n.since_version),
                        p(&at.old),
                        p(&path),
                    );
                }
                continue;
            }
            self.push(
                &rules::FIELD_APPENDED,
                format!("field '{path}' appended (sinceVersion {})", n.since_version),
                p(&at.old),
                p(&path),
            );
            if n.presence == Presence::Required {
                self.push(
                    &rules::FIELD_ADDED_REQUIRED,
                    format!(
                        "new field '{path}' is required; readers report it as null for older writers"
                    ),
                    p(&at.old),
                    p(&path),
                );
            }
        }
        appended
    }

    fn field(&mut self, o: &Field, n: &Field, at: &At, member: bool) {
        let (op, np) = (p(&at.old), p(&at.new));
        // A constant has no bytes, so its offset means nothing.
        if o.offset != n.offset && !(o.is_constant() && n.is_constant()) {
            self.push(
                &rules::FIELD_MOVED,
                format!(
                    "'{}' moved from offset {} to {}",
                    at.new, o.offset, n.offset
                ),
                op.clone(),
                np.clone(),
            );
        }
        if o.since_version != n.since_version && !o.is_constant() {
            self.push(
                &rules::SINCE_VERSION_CHANGED,
                format!(
                    "'{}' sinceVersion changed from {} to {}",
                    at.new, o.since_version, n.since_version
                ),
                op.clone(),
                np.clone(),
            );
        }
        if n.deprecated > 0 && o.deprecated == 0 {
            self.push(
                &rules::DEPRECATED,
                format!("'{}' deprecated in version {}", at.new, n.deprecated),
                op.clone(),
                np.clone(),
            );
        }
        if o.description != n.description || o.semantic_type != n.semantic_type {
            self.push(
                &rules::DESCRIPTION_CHANGED,
                format!("'{}': description or semantic type changed", at.new),
                op.clone(),
                np.clone(),
            );
        }
        if !member && o.id != n.id {
            self.push(
                &rules::ID_CHANGED,
                format!("'{}' id changed from {} to {}", at.new, o.id, n.id),
                op.clone(),
                np.clone(),
            );
        }
        if self.old_attrs.has_text() && self.new_attrs.has_text() {
            let (oa, na) = (
                self.old_attrs.alignment(&at.old),
                self.new_attrs.alignment(&at.new),
            );
            if oa != na {
                self.push(
                    &rules::ALIGNMENT_CHANGED,
                    format!(
                        "'{}' alignment changed from {} to {}",
                        at.new,
                        oa.as_deref().unwrap_or("none"),
                        na.as_deref().unwrap_or("none")
                    ),
                    op.clone(),
                    np.clone(),
                );
            }
        }
        use Presence::*;
        match (o.presence, n.presence) {
            (Required, Optional) => self.push(
                &rules::PRESENCE_RELAXED,
                format!("'{}' became optional", at.new),
                op.clone(),
                np.clone(),
            ),
            (Optional, Required) => self.push(
                &rules::PRESENCE_TIGHTENED,
                format!("'{}' became required", at.new),
                op.clone(),
                np.clone(),
            ),
            (Constant, Constant) => {
                let (ot, nt) = (
                    Self::constant_text(self.old, o),
                    Self::constant_text(self.new, n),
                );
                if ot != nt {
                    self.push(
                        &rules::CONSTANT_CHANGED,
                        format!("constant '{}' changed from {ot} to {nt}", at.new),
                        op,
                        np,
                    );
                }
                return;
            }
            (a, b) if a != b => {
                self.push(
                    &rules::PRESENCE_CONSTANT_CHANGED,
                    format!("'{}' presence changed from {a:?} to {b:?}", at.new),
                    op,
                    np,
                );
                return;
            }
            _ => {}
        }
        self.kind(o, n, at);
    }

    fn constant_text(layout: &Layout, f: &Field) -> String {
        match &f.kind {
            FieldKind::Primitive(pr) => pr
                .constant
                .as_ref()
                .map(|v| v.to_string())
                .unwrap_or_default(),
            FieldKind::Enum {
                def,
                constant: Some(i),
            } => layout
                .enum_def(*def)
                .values
                .get(*i)
                .map(|v| v.name.clone())
                .unwrap_or_default(),
            _ => String::new(),
        }
    }

    fn kind(&mut self, o: &Field, n: &Field, at: &At) {
        let (op, np) = (p(&at.old), p(&at.new));
        match (&o.kind, &n.kind) {
            (FieldKind::Primitive(a), FieldKind::Primitive(b)) => {
                if a.ty != b.ty {
                    if bytes_alike(a.ty, b.ty) && a.length == b.length {
                        self.push(
                            &rules::TYPE_RENAMED,
                            format!(
                                "'{}' type changed from {:?} to {:?} (same bytes)",
                                at.new, a.ty, b.ty
                            ),
                            op,
                            np,
                        );
                    } else {
                        self.push(
                            &rules::FIELD_PRIMITIVE_CHANGED,
                            format!(
                                "'{}' primitive type changed from {} to {}",
                                at.new,
                                a.ty.schema_name(),
                                b.ty.schema_name()
                            ),
                            op,
                            np,
                        );
                    }
                    return;
                }
                if a.length != b.length {
                    self.push(
                        &rules::FIELD_LENGTH_CHANGED,
                        format!(
                            "'{}' length changed from {} to {}",
                            at.new, a.length, b.length
                        ),
                        op,
                        np,
                    );
                    return;
                }
                let optional = o.presence == Presence::Optional || n.presence == Presence::Optional;
                if optional && wire_bits(&a.null_value, a.ty) != wire_bits(&b.null_value, b.ty) {
                    self.push(
                        &rules::NULL_VALUE_CHANGED,
                        format!(
                            "'{}' null value changed from {} to {}",
                            at.new, a.null_value, b.null_value
                        ),
                        op,
                        np,
                    );
                    return;
                }
                if o.type_name != n.type_name {
                    self.push(
                        &rules::TYPE_RENAMED,
                        format!(
                            "'{}' type renamed from '{}' to '{}'",
                            at.new, o.type_name, n.type_name
                        ),
                        op,
                        np,
                    );
                }
            }
            (FieldKind::Enum { def: a, .. }, FieldKind::Enum { def: b, .. }) => {
                self.enums(*a, *b, at);
            }
            (FieldKind::Set { def: a }, FieldKind::Set { def: b }) => self.sets(*a, *b, at),
            (
                FieldKind::Composite {
                    def: a,
                    members: am,
                },
                FieldKind::Composite {
                    def: b,
                    members: bm,
                },
            ) => {
                self.composite(*a, *b, am, bm, o, n, at);
            }
            _ => {
                let (oe, ne) = (scalar_encoding(self.old, o), scalar_encoding(self.new, n));
                if oe.is_some() && oe == ne {
                    self.push(
                        &rules::TYPE_RENAMED,
                        format!(
                            "'{}' changed kind from '{}' to '{}' with the same encoding",
                            at.new, o.type_name, n.type_name
                        ),
                        op,
                        np,
                    );
                } else {
                    self.push(
                        &rules::FIELD_TYPE_CHANGED,
                        format!(
                            "'{}' type changed from '{}' to '{}'",
                            at.new, o.type_name, n.type_name
                        ),
                        op,
                        np,
                    );
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn composite(
        &mut self,
        a: CompositeId,
        b: CompositeId,
        am: &[Field],
        bm: &[Field],
        o: &Field,
        n: &Field,
        at: &At,
    ) {
        let (oc, nc) = (self.old.composite_def(a), self.new.composite_def(b));
        if oc.name != nc.name {
            self.push(
                &rules::TYPE_RENAMED,
                format!(
                    "'{}' type renamed from '{}' to '{}'",
                    at.new, oc.name, nc.name
                ),
                p(&at.old),
                p(&at.new),
            );
        }
        // Decoders require a present field's whole composite, whatever its members'
        // versions, so a member is compatible only inside the composite's old size.
        self.fields(am, bm, at, Some(o.size));
        let _ = n;
    }

    fn enums(&mut self, a: EnumId, b: EnumId, at: &At) {
        let (oe, ne) = (self.old.enum_def(a), self.new.enum_def(b));
        let (ot, nt) = (ty(oe.name.clone()), ty(ne.name.clone()));
        if oe.name != ne.name {
            self.push(
                &rules::TYPE_RENAMED,
                format!(
                    "'{}' enum type renamed from '{}' to '{}'",
                    at.new, oe.name, ne.name
                ),
                p(&at.old),
                p(&at.new),
            );
        }
        if oe.encoding != ne.encoding && !bytes_alike(oe.encoding, ne.encoding) {
            self.push(
                &rules::ENUM_ENCODING_CHANGED,
                format!(
                    "enum '{}' encoding changed from {} to {}",
                    ne.name,
                    oe.encoding.schema_name(),
                    ne.encoding.schema_name()
                ),
                ot,
                nt,
            );
            return;
        }
        let pairs = pair(
            &oe.values,
            &ne.values,
            |v| &v.name,
            |i, j| oe.values[i].bits == ne.values[j].bits,
        );
        for (oi, ni) in pairs.matched {
            let (ov, nv) = (&oe.values[oi], &ne.values[ni]);
            let (oi_e, ni_e) = (
                ty(format!("{}.{}", oe.name, ov.name)),
                ty(format!("{}.{}", ne.name, nv.name)),
            );
            if ov.name != nv.name {
                self.push(
                    &rules::RENAMED,
                    format!(
                        "enum '{}' value '{}' renamed to '{}'",
                        ne.name, ov.name, nv.name
                    ),
                    oi_e,
                    ni_e,
                );
            } else if ov.bits != nv.bits {
                self.push(
                    &rules::ENUM_VALUE_CHANGED,
                    format!(
                        "enum '{}' value '{}' changed from {} to {}",
                        ne.name, nv.name, ov.value, nv.value
                    ),
                    oi_e,
                    ni_e,
                );
            } else if nv.deprecated > 0 && ov.deprecated == 0 {
                self.push(
                    &rules::DEPRECATED,
                    format!("enum '{}' value '{}' deprecated", ne.name, nv.name),
                    oi_e,
                    ni_e,
                );
            }
        }
        for oi in pairs.old_only {
            let v = &oe.values[oi];
            self.push(
                &rules::ENUM_VALUE_REMOVED,
                format!(
                    "enum '{}' value '{}' ({}) removed; new readers see it as unknown",
                    oe.name, v.name, v.value
                ),
                ty(format!("{}.{}", oe.name, v.name)),
                ty(ne.name.clone()),
            );
        }
        for ni in pairs.new_only {
            let v = &ne.values[ni];
            self.push(
                &rules::ENUM_VALUE_ADDED,
                format!(
                    "enum '{}' value '{}' ({}) added; old readers see it as an unknown value",
                    ne.name, v.name, v.value
                ),
                ty(oe.name.clone()),
                ty(format!("{}.{}", ne.name, v.name)),
            );
        }
    }

    fn sets(&mut self, a: SetId, b: SetId, at: &At) {
        let (os, ns) = (self.old.set_def(a), self.new.set_def(b));
        if os.name != ns.name {
            self.push(
                &rules::TYPE_RENAMED,
                format!(
                    "'{}' set type renamed from '{}' to '{}'",
                    at.new, os.name, ns.name
                ),
                p(&at.old),
                p(&at.new),
            );
        }
        if os.encoding != ns.encoding {
            self.push(
                &rules::SET_ENCODING_CHANGED,
                format!(
                    "set '{}' encoding changed from {} to {}",
                    ns.name,
                    os.encoding.schema_name(),
                    ns.encoding.schema_name()
                ),
                ty(os.name.clone()),
                ty(ns.name.clone()),
            );
            return;
        }
        let pairs = pair(
            &os.choices,
            &ns.choices,
            |c| &c.name,
            |i, j| os.choices[i].bit == ns.choices[j].bit,
        );
        for (oi, ni) in pairs.matched {
            let (oc, nc) = (&os.choices[oi], &ns.choices[ni]);
            let (oi_e, ni_e) = (
                ty(format!("{}.{}", os.name, oc.name)),
                ty(format!("{}.{}", ns.name, nc.name)),
            );
            if oc.name != nc.name {
                self.push(
                    &rules::RENAMED,
                    format!(
                        "set '{}' choice '{}' renamed to '{}'",
                        ns.name, oc.name, nc.name
                    ),
                    oi_e,
                    ni_e,
                );
            } else if oc.bit != nc.bit {
                self.push(
                    &rules::SET_CHOICE_MOVED,
                    format!(
                        "set '{}' choice '{}' moved from bit {} to {}",
                        ns.name, nc.name, oc.bit, nc.bit
                    ),
                    oi_e,
                    ni_e,
                );
            } else if nc.deprecated > 0 && oc.deprecated == 0 {
                self.push(
                    &rules::DEPRECATED,
                    format!("set '{}' choice '{}' deprecated", ns.name, nc.name),
                    oi_e,
                    ni_e,
                );
            }
        }
        for oi in pairs.old_only {
            let c = &os.choices[oi];
            self.push(
                &rules::SET_CHOICE_REMOVED,
                format!(
                    "set '{}' choice '{}' (bit {}) removed",
                    os.name, c.name, c.bit
                ),
                ty(format!("{}.{}", os.name, c.name)),
                ty(ns.name.clone()),
            );
        }
        for ni in pairs.new_only {
            let c = &ns.choices[ni];
            self.push(
                &rules::SET_CHOICE_ADDED,
                format!(
                    "set '{}' choice '{}' (bit {}) added; old readers see an unknown bit",
                    ns.name, c.name, c.bit
                ),
                ty(os.name.clone()),
                ty(format!("{}.{}", ns.name, c.name)),
            );
        }
    }

    fn groups(&mut self, ob: &Block, nb: &Block, at: &At) {
        let pairs = pair(&ob.groups, &nb.groups, |g| &g.name, |i, j| i == j);
        check_order(&pairs.matched).then(|| {
            self.push(
                &rules::GROUP_REORDERED,
                format!("groups of '{}' reordered", at.new),
                p(&at.old),
                p(&at.new),
            )
        });
        for &(oi, ni) in &pairs.matched {
            let (o, n) = (&ob.groups[oi], &nb.groups[ni]);
            let sub = at.child(&o.name, &n.name);
            if o.name != n.name {
                self.rename(
                    &sub.old,
                    &o.name,
                    &n.name,
                    "group",
                    p(&sub.old),
                    p(&sub.new),
                );
            }
            self.group(o, n, &sub);
        }
        let last_matched_old = pairs.matched.iter().map(|m| m.0).max();
        for &oi in &pairs.old_only {
            let g = &ob.groups[oi];
            let path = format!("{}.{}", at.old, g.name);
            // New readers stop before it only when nothing they read follows it.
            let trailing =
                at.root && !matches!(last_matched_old, Some(l) if l > oi) && ob.var_data.is_empty();
            self.push_with(
                &rules::GROUP_REMOVED,
                if trailing { Effect::Ok } else { Effect::Break },
                Effect::Break,
                format!("group '{path}' removed"),
                p(&path),
                p(&at.new),
            );
        }
        let last_matched_new = pairs.matched.iter().map(|m| m.1).max();
        for &ni in &pairs.new_only {
            let g = &nb.groups[ni];
            let path = format!("{}.{}", at.new, g.name);
            if last_matched_new.is_some_and(|l| l > ni) {
                self.push(
                    &rules::GROUP_INSERTED,
                    format!("group '{path}' inserted before existing groups"),
                    p(&at.old),
                    p(&path),
                );
                continue;
            }
            if g.since_version <= self.old.version {
                self.push(
                    &rules::SINCE_VERSION_MISSING,
                    format!(
                        "group '{path}' is new but its sinceVersion {} is not above the old schema version {}",
                        g.since_version, self.old.version
                    ),
                    p(&at.old),
                    p(&path),
                );
            }
            if at.root && ob.var_data.is_empty() {
                self.push(
                    &rules::GROUP_APPENDED,
                    format!("group '{path}' appended (sinceVersion {})", g.since_version),
                    p(&at.old),
                    p(&path),
                );
            } else {
                let why = if at.root {
                    "before var data"
                } else {
                    "inside a group entry"
                };
                self.push(
                    &rules::GROUP_APPENDED_UNSKIPPABLE,
                    format!("group '{path}' appended {why}; old readers cannot skip it"),
                    p(&at.old),
                    p(&path),
                );
            }
        }
    }

    fn group(&mut self, o: &Group, n: &Group, at: &At) {
        let (op, np) = (p(&at.old), p(&at.new));
        let (od, nd) = (&o.dimension, &n.dimension);
        let same = |a: &IntSlot, b: &IntSlot| a.offset == b.offset && a.ty == b.ty;
        if od.size != nd.size
            || !same(&od.block_length, &nd.block_length)
            || !same(&od.num_in_group, &nd.num_in_group)
        {
            self.push(
                &rules::GROUP_DIMENSION_CHANGED,
                format!(
                    "group '{}' dimension changed from '{}' to '{}'",
                    at.new, od.type_name, nd.type_name
                ),
                op,
                np,
            );
            return;
        }
        if o.since_version != n.since_version {
            self.push(
                &rules::SINCE_VERSION_CHANGED,
                format!(
                    "group '{}' sinceVersion changed from {} to {}",
                    at.new, o.since_version, n.since_version
                ),
                op.clone(),
                np.clone(),
            );
        }
        if o.id != n.id {
            self.push(
                &rules::ID_CHANGED,
                format!("group '{}' id changed from {} to {}", at.new, o.id, n.id),
                op.clone(),
                np.clone(),
            );
        }
        if n.deprecated > 0 && o.deprecated == 0 {
            self.push(
                &rules::DEPRECATED,
                format!("group '{}' deprecated in version {}", at.new, n.deprecated),
                op.clone(),
                np.clone(),
            );
        }
        if o.description != n.description {
            self.push(
                &rules::DESCRIPTION_CHANGED,
                format!("group '{}': description changed", at.new),
                op,
                np,
            );
        }
        self.block(&o.block, &n.block, at);
    }

    fn var_data(&mut self, ob: &Block, nb: &Block, at: &At) {
        let pairs = pair(&ob.var_data, &nb.var_data, |d| &d.name, |i, j| i == j);
        check_order(&pairs.matched).then(|| {
            self.push(
                &rules::VAR_DATA_REORDERED,
                format!("var data of '{}' reordered", at.new),
                p(&at.old),
                p(&at.new),
            )
        });
        for &(oi, ni) in &pairs.matched {
            let (o, n) = (&ob.var_data[oi], &nb.var_data[ni]);
            let sub = at.child(&o.name, &n.name);
            if o.name != n.name {
                self.rename(
                    &sub.old,
                    &o.name,
                    &n.name,
                    "var data",
                    p(&sub.old),
                    p(&sub.new),
                );
            }
            self.one_var_data(o, n, &sub);
        }
        let last_matched_old = pairs.matched.iter().map(|m| m.0).max();
        for &oi in &pairs.old_only {
            let d = &ob.var_data[oi];
            let path = format!("{}.{}", at.old, d.name);
            let trailing = at.root && !matches!(last_matched_old, Some(l) if l > oi);
            self.push_with(
                &rules::VAR_DATA_REMOVED,
                if trailing { Effect::Ok } else { Effect::Break },
                Effect::Break,
                format!("var data '{path}' removed"),
                p(&path),
                p(&at.new),
            );
        }
        let last_matched_new = pairs.matched.iter().map(|m| m.1).max();
        for &ni in &pairs.new_only {
            let d = &nb.var_data[ni];
            let path = format!("{}.{}", at.new, d.name);
            if last_matched_new.is_some_and(|l| l > ni) {
                self.push(
                    &rules::VAR_DATA_INSERTED,
                    format!("var data '{path}' inserted before existing var data"),
                    p(&at.old),
                    p(&path),
                );
                continue;
            }
            if d.since_version <= self.old.version {
                self.push(
                    &rules::SINCE_VERSION_MISSING,
                    format!(
                        "var data '{path}' is new but its sinceVersion {} is not above the old schema version {}",
                        d.since_version, self.old.version
                    ),
                    p(&at.old),
                    p(&path),
                );
            }
            let rule = if at.root {
                &rules::VAR_DATA_APPENDED
            } else {
                &rules::VAR_DATA_APPENDED_UNSKIPPABLE
            };
            self.push(
                rule,
                format!(
                    "var data '{path}' appended (sinceVersion {})",
                    d.since_version
                ),
                p(&at.old),
                p(&path),
            );
        }
    }

    fn one_var_data(&mut self, o: &VarData, n: &VarData, at: &At) {
        let (op, np) = (p(&at.old), p(&at.new));
        if o.length.ty != n.length.ty || o.data_offset != n.data_offset {
            self.push(
                &rules::VAR_DATA_LENGTH_CHANGED,
                format!(
                    "var data '{}' length changed from {} to {}",
                    at.new,
                    o.length.ty.schema_name(),
                    n.length.ty.schema_name()
                ),
                op,
                np,
            );
            return;
        }
        if o.since_version != n.since_version {
            self.push(
                &rules::SINCE_VERSION_CHANGED,
                format!(
                    "var data '{}' sinceVersion changed from {} to {}",
                    at.new, o.since_version, n.since_version
                ),
                op.clone(),
                np.clone(),
            );
        }
        if o.id != n.id {
            self.push(
                &rules::ID_CHANGED,
                format!("var data '{}' id changed from {} to {}", at.new, o.id, n.id),
                op.clone(),
                np.clone(),
            );
        }
        if o.data_type != n.data_type
            || o.character_encoding != n.character_encoding
            || o.type_name != n.type_name
        {
            self.push(
                &rules::TYPE_RENAMED,
                format!(
                    "var data '{}' type changed from '{}' to '{}' (same length prefix)",
                    at.new, o.type_name, n.type_name
                ),
                op.clone(),
                np.clone(),
            );
        }
        if n.deprecated > 0 && o.deprecated == 0 {
            self.push(
                &rules::DEPRECATED,
                format!(
                    "var data '{}' deprecated in version {}",
                    at.new, n.deprecated
                ),
                op.clone(),
                np.clone(),
            );
        }
        if o.description != n.description {
            self.push(
                &rules::DESCRIPTION_CHANGED,
                format!("var data '{}': description changed", at.new),
                op,
                np,
            );
        }
    }
}

/// The extent of a block's wire fields.
fn extent(fields: &[Field]) -> usize {
    fields
        .iter()
        .filter(|f| !f.is_constant())
        .map(Field::end)
        .max()
        .unwrap_or(0)
}

/// `char` and `uint8` carry the same bytes and the same numbers.
fn bytes_alike(a: PrimitiveType, b: PrimitiveType) -> bool {
    let cu = |t| matches!(t, PrimitiveType::Char | PrimitiveType::Uint8);
    a == b || (cu(a) && cu(b))
}

/// The scalar wire encoding of a primitive, enum or set field (for kind changes that keep bytes).
fn scalar_encoding(layout: &Layout, f: &Field) -> Option<PrimitiveType> {
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
fn check_order(matched: &[(usize, usize)]) -> bool {
    matched.windows(2).any(|w| w[1].1 < w[0].1)
}

struct Pairs {
    matched: Vec<(usize, usize)>,
    old_only: Vec<usize>,
    new_only: Vec<usize>,
}

/// Pairs two lists by name, then pairs what is left one to one when `same_place(i, j)` says
/// old element `i` and new element `j` sit alike (a rename); `old_only` and `new_only` keep
/// schema order.
fn pair<T>(
    old: &[T],
    new: &[T],
    name: impl Fn(&T) -> &String,
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
