//! Enum values and set choices, compared: both are named values on an integer encoding, so one
//! comparison serves both, told apart by [`Named`].

use super::{bytes_alike, p, pair, ty, At, Ctx};
use crate::rules::{self, Rule};
use sbekit_ir::layout::{EnumId, SetId};
use sbekit_ir::PrimitiveType;

/// What the comparison of named values needs to know of an enum or a set.
struct Named<'a> {
    /// `enum` or `set`.
    kind: &'static str,
    /// `value` or `choice`.
    member: &'static str,
    name: &'a str,
    encoding: PrimitiveType,
    /// Each value or choice: name, the bits that identify it on the wire, its text in a
    /// message, and the version it was deprecated in.
    items: Vec<Item<'a>>,
    /// The rules and wording that differ between enums and sets.
    words: &'static Words,
}

struct Item<'a> {
    name: &'a str,
    wire: u64,
    /// The value (`65`) or the bit (`3`) as the schema gives it.
    raw: String,
    deprecated: u32,
}

struct Words {
    encoding_changed: &'static Rule,
    /// Same name, other wire bits.
    moved: &'static Rule,
    /// `changed from` or `moved from bit`.
    moved_verb: &'static str,
    removed: &'static Rule,
    added: &'static Rule,
    /// How the item is shown in parentheses: `65` or `bit 3`.
    paren: &'static str,
    removed_note: &'static str,
    added_note: &'static str,
    /// Whether `char` and `uint8` encodings count as the same bytes (enums: yes).
    char_is_uint8: bool,
}

static ENUM: Words = Words {
    encoding_changed: &rules::ENUM_ENCODING_CHANGED,
    moved: &rules::ENUM_VALUE_CHANGED,
    moved_verb: "changed from",
    removed: &rules::ENUM_VALUE_REMOVED,
    added: &rules::ENUM_VALUE_ADDED,
    paren: "",
    removed_note: "; new readers see it as unknown",
    added_note: "; old readers see it as an unknown value",
    char_is_uint8: true,
};

static SET: Words = Words {
    encoding_changed: &rules::SET_ENCODING_CHANGED,
    moved: &rules::SET_CHOICE_MOVED,
    moved_verb: "moved from bit",
    removed: &rules::SET_CHOICE_REMOVED,
    added: &rules::SET_CHOICE_ADDED,
    paren: "bit ",
    removed_note: "",
    added_note: "; old readers see an unknown bit",
    char_is_uint8: false,
};

impl Ctx<'_> {
    pub(super) fn enums(&mut self, a: EnumId, b: EnumId, at: &At) {
        let of = |e: &'_ sbekit_ir::layout::EnumDef| -> Vec<(String, u64, String, u32)> {
            e.values
                .iter()
                .map(|v| (v.name.clone(), v.bits, v.value.to_string(), v.deprecated))
                .collect()
        };
        let (oe, ne) = (self.old.enum_def(a), self.new.enum_def(b));
        let (ov, nv) = (of(oe), of(ne));
        let o = named("enum", "value", &oe.name, oe.encoding, &ov, &ENUM);
        let n = named("enum", "value", &ne.name, ne.encoding, &nv, &ENUM);
        self.named_values(&o, &n, at);
    }

    pub(super) fn sets(&mut self, a: SetId, b: SetId, at: &At) {
        let of = |s: &'_ sbekit_ir::layout::SetDef| -> Vec<(String, u64, String, u32)> {
            s.choices
                .iter()
                .map(|c| {
                    (
                        c.name.clone(),
                        u64::from(c.bit),
                        c.bit.to_string(),
                        c.deprecated,
                    )
                })
                .collect()
        };
        let (os, ns) = (self.old.set_def(a), self.new.set_def(b));
        let (oc, nc) = (of(os), of(ns));
        let o = named("set", "choice", &os.name, os.encoding, &oc, &SET);
        let n = named("set", "choice", &ns.name, ns.encoding, &nc, &SET);
        self.named_values(&o, &n, at);
    }

    fn named_values(&mut self, o: &Named<'_>, n: &Named<'_>, at: &At) {
        let kind = o.kind;
        if o.name != n.name {
            self.push(
                &rules::TYPE_RENAMED,
                format!(
                    "'{}' {kind} type renamed from '{}' to '{}'",
                    at.new, o.name, n.name
                ),
                p(&at.old),
                p(&at.new),
            );
        }
        // An enum on char and one on uint8 carry the same bytes; a set's encoding must match.
        let same_bytes = o.encoding == n.encoding
            || (o.words.char_is_uint8 && bytes_alike(o.encoding, n.encoding));
        if !same_bytes {
            self.push(
                o.words.encoding_changed,
                format!(
                    "{kind} '{}' encoding changed from {} to {}",
                    n.name,
                    o.encoding.schema_name(),
                    n.encoding.schema_name()
                ),
                ty(o.name),
                ty(n.name),
            );
            return;
        }
        let w = o.words;
        let member = o.member;
        let pairs = pair(
            &o.items,
            &n.items,
            |v| v.name,
            |i, j| o.items[i].wire == n.items[j].wire,
        );
        for (oi, ni) in pairs.matched {
            let (ov, nv) = (&o.items[oi], &n.items[ni]);
            let (oi_e, ni_e) = (
                ty(format!("{}.{}", o.name, ov.name)),
                ty(format!("{}.{}", n.name, nv.name)),
            );
            if ov.name != nv.name {
                self.push(
                    &rules::RENAMED,
                    format!(
                        "{kind} '{}' {member} '{}' renamed to '{}'",
                        n.name, ov.name, nv.name
                    ),
                    oi_e,
                    ni_e,
                );
            } else if ov.wire != nv.wire {
                self.push(
                    w.moved,
                    format!(
                        "{kind} '{}' {member} '{}' {} {} to {}",
                        n.name, nv.name, w.moved_verb, ov.raw, nv.raw
                    ),
                    oi_e,
                    ni_e,
                );
            } else if nv.deprecated > 0 && ov.deprecated == 0 {
                self.push(
                    &rules::DEPRECATED,
                    format!("{kind} '{}' {member} '{}' deprecated", n.name, nv.name),
                    oi_e,
                    ni_e,
                );
            }
        }
        for oi in pairs.old_only {
            let v = &o.items[oi];
            self.push(
                w.removed,
                format!(
                    "{kind} '{}' {member} '{}' ({}{}) removed{}",
                    o.name, v.name, w.paren, v.raw, w.removed_note
                ),
                ty(format!("{}.{}", o.name, v.name)),
                ty(n.name),
            );
        }
        for ni in pairs.new_only {
            let v = &n.items[ni];
            self.push(
                w.added,
                format!(
                    "{kind} '{}' {member} '{}' ({}{}) added{}",
                    n.name, v.name, w.paren, v.raw, w.added_note
                ),
                ty(o.name),
                ty(format!("{}.{}", n.name, v.name)),
            );
        }
    }
}

fn named<'a>(
    kind: &'static str,
    member: &'static str,
    name: &'a str,
    encoding: PrimitiveType,
    items: &'a [(String, u64, String, u32)],
    words: &'static Words,
) -> Named<'a> {
    Named {
        kind,
        member,
        name,
        encoding,
        items: items
            .iter()
            .map(|(name, wire, raw, deprecated)| Item {
                name,
                wire: *wire,
                raw: raw.clone(),
                deprecated: *deprecated,
            })
            .collect(),
        words,
    }
}
