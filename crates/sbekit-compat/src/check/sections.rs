//! Groups and var data, compared.

use super::{check_order, p, pair, At, Ctx};
use crate::rules::{self, Effect};
use sbekit_ir::layout::{Block, Group, IntSlot, VarData};

impl Ctx<'_> {
    pub(super) fn groups(&mut self, ob: &Block, nb: &Block, at: &At) {
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

    pub(super) fn group(&mut self, o: &Group, n: &Group, at: &At) {
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

    pub(super) fn var_data(&mut self, ob: &Block, nb: &Block, at: &At) {
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

    pub(super) fn one_var_data(&mut self, o: &VarData, n: &VarData, at: &At) {
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
