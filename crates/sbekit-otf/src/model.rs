//! The decoder's tables as JSON ([`Decoder::model_json`]), for a decoder written in another
//! language that must print what this one prints: the in-page decoder of `sbekit doc` reads
//! it. Everything the walk in `decode.rs` consults is there, and nothing else: header slots,
//! per block the required lengths, the field nodes (offsets, types, constants, the bytes an
//! absent field reads as, enum and set tables), groups' dimensions and var data's slots.
//!
//! Integers that may not fit a JavaScript number (enum raw values) are strings.

use crate::plan::{BlockPlan, Decoder, FieldNode, NodeKind, Slot};
use sbekit_ir::layout::IntSlot;
use sbekit_ir::ByteOrder;
use serde_json::{json, Value as Json};

impl Decoder {
    /// This decoder's tables as one JSON object (see the module documentation for the shape:
    /// it is the contract with `sbekit-doc`'s `decoder.js`).
    pub fn model_json(&self) -> String {
        let slot = |s: Slot, constant: Option<u64>| json!([s.offset, s.ty.schema_name(), constant]);
        let h = &self.header;
        let [bl, tid, sid, ver] = h.constants;
        json!({
            "order": match self.order {
                ByteOrder::LittleEndian => "le",
                ByteOrder::BigEndian => "be",
            },
            "schemaId": self.schema_id,
            "version": self.schema_version,
            "header": {
                "length": h.length,
                "blockLength": slot(h.block_length, bl),
                "templateId": slot(h.template_id, tid),
                "schemaId": slot(h.schema_id, sid),
                "version": slot(h.version, ver),
            },
            "maxEmptyEntries": self.limits.max_empty_entries,
            "messages": self.messages.iter().map(|m| json!({
                "name": m.name,
                "id": m.id,
                "body": block(&m.body),
            })).collect::<Vec<_>>(),
        })
        .to_string()
    }
}

fn int_slot(s: &IntSlot) -> Json {
    json!([s.offset, s.ty.schema_name()])
}

fn block(b: &BlockPlan) -> Json {
    json!({
        "required": b.required.0,
        "fields": b.fields.iter().map(node).collect::<Vec<_>>(),
        "groups": b.groups.iter().map(|g| json!({
            "name": g.name,
            "since": g.since_version,
            "dim": {
                "size": g.dimension.size,
                "blockLength": int_slot(&g.dimension.block_length),
                "count": int_slot(&g.dimension.count),
            },
            "body": block(&g.body),
        })).collect::<Vec<_>>(),
        "vars": b.var_data.iter().map(|d| json!({
            "name": d.name,
            "since": d.since_version,
            "length": int_slot(&d.slots.length),
            "dataOffset": d.slots.data_offset,
            "encoding": d.character_encoding,
        })).collect::<Vec<_>>(),
    })
}

fn node(n: &FieldNode) -> Json {
    let mut v = match &n.kind {
        NodeKind::Primitive(p) => json!({
            "kind": "prim",
            "type": p.slot.ty.schema_name(),
            "offset": p.slot.offset,
            "length": p.length,
            "encoding": p.character_encoding,
            "constant": p.constant.as_deref(),
            "absent": &p.absent[..],
        }),
        NodeKind::Enum(e) => json!({
            "kind": "enum",
            "type": e.slot.ty.schema_name(),
            "offset": e.slot.offset,
            "values": e.values.iter().map(|(name, raw)| json!([name, raw.to_string()])).collect::<Vec<_>>(),
            "null": e.null_raw.to_string(),
            "constant": e.constant,
        }),
        NodeKind::Set(s) => json!({
            "kind": "set",
            "type": s.slot.ty.schema_name(),
            "offset": s.slot.offset,
            "choices": s.choices.iter().map(|c| json!([c.name, c.bit])).collect::<Vec<_>>(),
        }),
        NodeKind::BeginComposite { .. } => json!({ "kind": "begin" }),
        NodeKind::EndComposite { .. } => json!({ "kind": "end" }),
    };
    v["name"] = json!(n.name);
    v["since"] = json!(n.since_version);
    v
}
