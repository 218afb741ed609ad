//! Shared test helpers: loading reference IR and a visitor recording (path, value) pairs.

#![allow(dead_code)]

use sbekit_ir::{sbeir, Ir};
use sbekit_otf::random::Expected;
use sbekit_otf::{
    FieldNode, GroupPlan, MessageHeader, MessagePlan, Origin, Value, VarDataPlan, Visitor,
};

/// The four reference `.sbeir` files.
pub const SBEIR: [&str; 4] = [
    "car",
    "example-schema",
    "example-extension-schema",
    "fix-message-samples",
];

/// Loads `derived/sbeir/{name}.sbeir`, or `None` (skipped loudly) when the material is missing.
pub fn load_ir(name: &str, test: &str) -> Option<Ir> {
    let path = sbekit_testdata::require_reference(&format!("derived/sbeir/{name}.sbeir"), test)?;
    Some(sbeir::decode(&std::fs::read(path).unwrap()).unwrap())
}

/// Records every element the decoder reports as (path, value), like `random::RandomMessage`.
#[derive(Default)]
pub struct Collector {
    pub stack: Vec<String>,
    pub events: Vec<(String, Expected)>,
}

impl Collector {
    fn path(&self, leaf: &str) -> String {
        let mut p = self.stack.join(".");
        p.push('.');
        p.push_str(leaf);
        p
    }
}

pub fn expected(v: Value<'_>) -> Expected {
    match v {
        Value::Int(i) => Expected::Int(i.into()),
        Value::UInt(u) => Expected::Int(u.into()),
        Value::Float(f) => Expected::Float(f64::from(f).to_bits()),
        Value::Double(d) => Expected::Float(d.to_bits()),
        Value::Char(c) => Expected::Char(c),
        Value::Chars(b) => Expected::Chars(b.to_vec()),
        Value::Array(a) => Expected::Array(a.iter().map(expected).collect()),
        Value::Enum(e) => Expected::Enum(e.raw, e.name.map(str::to_string)),
        Value::Set(s) => Expected::Set(s.raw),
    }
}

impl Visitor for Collector {
    fn begin_message(&mut self, message: &MessagePlan, _header: &MessageHeader) {
        self.stack.push(message.name.clone());
    }
    fn end_message(&mut self, _message: &MessagePlan) {
        self.stack.pop();
    }
    fn on_value(&mut self, node: &FieldNode, value: Value<'_>, _origin: Origin) {
        let p = self.path(&node.name);
        self.events.push((p, expected(value)));
    }
    fn begin_composite(&mut self, node: &FieldNode) {
        self.stack.push(node.name.clone());
    }
    fn end_composite(&mut self, _begin: &FieldNode) {
        self.stack.pop();
    }
    fn begin_group(&mut self, group: &GroupPlan, count: u64) {
        let p = self.path(&group.name);
        self.events.push((p, Expected::Count(count)));
        self.stack.push(group.name.clone());
    }
    fn begin_entry(&mut self, group: &GroupPlan, index: u64) {
        if let Some(top) = self.stack.last_mut() {
            *top = format!("{}[{index}]", group.name);
        }
    }
    fn end_group(&mut self, _group: &GroupPlan) {
        self.stack.pop();
    }
    fn on_var_data(&mut self, field: &VarDataPlan, data: &[u8], _origin: Origin) {
        let p = self.path(&field.name);
        self.events.push((p, Expected::Data(data.to_vec())));
    }
}
