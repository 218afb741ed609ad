//! Fields, their kinds and composites, compared.

use super::{bytes_alike, p, pair, scalar_encoding, At, Ctx};
use crate::rules::{self, Effect};
use sbekit_ir::layout::{wire_bits, CompositeId, Field, FieldKind, Layout};
use sbekit_ir::Presence;

impl Ctx<'_> {
    /// Compares the fields of a block (or the members of a composite, when `composite` gives
    /// the composite's old size). Returns true when a wire field was appended.
    pub(super) fn fields(
        &mut self,
        of: &[Field],
        nf: &[Field],
        at: &At,
        composite: Option<usize>,
    ) -> bool {
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

    pub(super) fn field(&mut self, o: &Field, n: &Field, at: &At, member: bool) {
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

    pub(super) fn constant_text(layout: &Layout, f: &Field) -> String {
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

    pub(super) fn kind(&mut self, o: &Field, n: &Field, at: &At) {
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
    pub(super) fn composite(
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
}
