//! What the tshark tests share: generating a dissector, running tshark on a capture, reading
//! its PDML, and `sbekit capture decode`'s JSON for the same packets (the oracle).

#![allow(dead_code)]

use sbekit_feed::json::JsonLines;
use sbekit_feed::profile::Profile;
use sbekit_feed::read::{FeedMessage, PacketMeta, ReadOptions, Reader, Sink};
use sbekit_plan::{Body, Kind, Plan, Section};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// True if tshark runs; otherwise the test skips loudly (fails under `CI=true`).
pub fn tshark(test: &str) -> bool {
    let ok = Command::new("tshark")
        .arg("-v")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        sbekit_testdata::skip(test, "tshark is not installed");
    }
    ok
}

/// A generated dissector.
pub struct Dissector {
    pub plan: Plan,
    pub layout: sbekit_ir::layout::Layout,
    pub ir: sbekit_ir::Ir,
    pub profile: Profile,
    pub proto: String,
    pub lua: PathBuf,
}

/// Generates the dissector of `schema` framed by `profile` into `dir`.
pub fn dissector(
    dir: &Path,
    schema: &Path,
    profile: &str,
    proto: &str,
    udp: &[u16],
    tcp: &[u16],
) -> Dissector {
    let layout = sbekit_schema::load_layout(schema).expect("schema compiles");
    let ir = sbekit_schema::load_ir(schema).expect("schema compiles");
    let plan = Plan::new(&layout).expect("plan");
    let p = sbekit_codegen_wireshark::framing(profile).expect("framing");
    let opts = sbekit_codegen_wireshark::Options {
        proto: Some(proto.to_string()),
        udp_ports: udp.to_vec(),
        tcp_ports: tcp.to_vec(),
    };
    let lua = sbekit_codegen_wireshark::write(&layout, &p, &dir.join(proto), &opts)
        .expect("dissector written");
    Dissector {
        plan,
        layout,
        ir,
        profile: p,
        proto: proto.to_string(),
        lua,
    }
}

/// tshark's output for a capture dissected with the given Lua files.
pub struct Tshark {
    pub stdout: String,
    pub stderr: String,
}

/// Runs `tshark -r pcap -T pdml` (or `-V` when `verbose`) with the Lua files loaded.
pub fn run(luas: &[&Path], pcap: &Path, format: &[&str]) -> Tshark {
    let mut c = Command::new("tshark");
    // No user preferences or plugins of the machine: only what the test loads.
    c.env(
        "WIRESHARK_CONFIG_DIR",
        std::env::temp_dir().join("sbekit-ws-no-config"),
    );
    c.arg("-n").arg("-r").arg(pcap);
    for l in luas {
        c.arg("-X").arg(format!("lua_script:{}", l.display()));
    }
    c.args(format);
    let out = c.output().expect("tshark runs");
    let t = Tshark {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        out.status.success(),
        "tshark failed: {}\n{}",
        out.status,
        t.stderr
    );
    t
}

/// A PDML field: its filter name (empty for text items), shown value, label and children.
#[derive(Debug, Clone)]
pub struct Item {
    pub name: String,
    pub show: String,
    pub showname: String,
    pub children: Vec<Item>,
}

fn item(n: roxmltree::Node) -> Item {
    Item {
        name: n.attribute("name").unwrap_or("").to_string(),
        show: n.attribute("show").unwrap_or("").to_string(),
        showname: n.attribute("showname").unwrap_or("").to_string(),
        children: n
            .children()
            .filter(|c| c.is_element() && c.has_tag_name("field"))
            .map(item)
            .collect(),
    }
}

/// Per packet, the `proto` layer's items (empty when the dissector did not take the packet),
/// and every item of every packet (for expert info and Lua errors).
pub fn pdml(xml: &str, proto: &str) -> Vec<Vec<Item>> {
    let doc = roxmltree::Document::parse(xml).expect("PDML parses");
    doc.root_element()
        .children()
        .filter(|p| p.has_tag_name("packet"))
        .map(|p| {
            p.children()
                .filter(|c| c.has_tag_name("proto") && c.attribute("name") == Some(proto))
                .flat_map(|c| {
                    c.children()
                        .filter(|f| f.is_element() && f.has_tag_name("field"))
                        .map(item)
                        .collect::<Vec<_>>()
                })
                .collect()
        })
        .collect()
}

/// Every item below `items`, depth first.
pub fn all<'a>(items: &'a [Item], out: &mut Vec<&'a Item>) {
    for i in items {
        out.push(i);
        all(&i.children, out);
    }
}

/// `sbekit capture decode`'s lines, by packet index (0-based, as the reader counts).
pub fn decode(d: &Dissector, capture: &[u8]) -> BTreeMap<u64, Vec<Value>> {
    struct Collect<'d> {
        lines: JsonLines<'d>,
        out: BTreeMap<u64, Vec<Value>>,
    }
    impl Sink for Collect<'_> {
        fn message(
            &mut self,
            p: &PacketMeta,
            m: &FeedMessage<'_>,
        ) -> Result<(), sbekit_otf::DecodeError> {
            self.lines.clear();
            if let Err(e) = self.lines.message(p, m) {
                eprintln!("oracle: packet {}: {e}", p.index);
                return Err(e);
            }
            let v: Value = serde_json::from_slice(self.lines.output()).expect("JSON line");
            self.out.entry(p.index).or_default().push(v);
            Ok(())
        }
    }
    let decoder = sbekit_otf::Decoder::from_layout(&d.layout).expect("decoder");
    let mut c = Collect {
        lines: JsonLines::new(&decoder),
        out: BTreeMap::new(),
    };
    let mut reader = Reader::new(d.profile.clone(), &decoder, ReadOptions::default());
    reader.read(&[capture], &mut c);
    // Real captures hold messages of other schemas (CME's TCP session schema), which the
    // reader counts as such; any other problem means the oracle itself failed.
    let bad: Vec<&&str> = reader
        .stats
        .bad_by_kind
        .keys()
        .filter(|k| **k != "unknown-schema")
        .collect();
    assert!(
        bad.is_empty(),
        "the oracle read bad packets: {:?}",
        reader.stats.bad_by_kind
    );
    c.out
}

/// The paths (`Message.group.field`) of a plan's groups, sets and composites.
#[derive(Default)]
pub struct Paths {
    pub groups: BTreeSet<String>,
    pub skip: BTreeSet<String>,
    /// Enum fields: path -> enum name.
    pub enums: BTreeMap<String, String>,
    /// Fields of 32-bit floats.
    pub floats: BTreeSet<String>,
    /// Fields of 64-bit floats.
    pub doubles: BTreeSet<String>,
    /// Raw (not text) var data.
    pub raw: BTreeSet<String>,
}

fn fields_paths(plan: &Plan, fields: &[sbekit_plan::Field], prefix: &str, p: &mut Paths) {
    for f in fields {
        let path = format!("{prefix}.{}", f.name);
        match &f.kind {
            Kind::Set { .. } => {
                p.skip.insert(path);
            }
            Kind::Composite { ty } => {
                p.skip.insert(path.clone());
                if let Some(c) = plan.composites.get(ty) {
                    fields_paths(plan, &c.members, &path, p);
                }
            }
            Kind::Enum { ty, .. } => {
                p.enums.insert(path, ty.clone());
            }
            Kind::Prim(pr) => {
                if pr.ty == sbekit_ir::PrimitiveType::Float {
                    p.floats.insert(path);
                } else if pr.ty == sbekit_ir::PrimitiveType::Double {
                    p.doubles.insert(path);
                }
            }
        }
    }
}

fn body_paths(plan: &Plan, b: &Body, prefix: &str, p: &mut Paths) {
    fields_paths(plan, &b.fields, prefix, p);
    for s in &b.sections {
        let path = format!("{prefix}.{}", s.name());
        match s {
            Section::Group { body, .. } => {
                p.groups.insert(path.clone());
                body_paths(plan, body, &path, p);
            }
            Section::Var { text, .. } => {
                if !text {
                    p.raw.insert(path);
                }
            }
        }
    }
}

impl Paths {
    pub fn of(plan: &Plan) -> Paths {
        let mut p = Paths::default();
        for m in &plan.messages {
            body_paths(plan, &m.body, &m.body.name, &mut p);
        }
        p
    }
}

/// A string as tshark's PDML shows it: tab, newline and carriage return as spaces, other
/// control characters as `\\x` and their hex digits (no padding).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = std::fmt::Write::write_fmt(&mut out, format_args!("\\x{:x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// The `(path, value)` pairs of one dissected message, in tree order (group counts included;
/// sets, composites and entries are containers).
pub fn tree_values(msg: &Item, proto: &str, paths: &Paths, out: &mut Vec<(String, String)>) {
    for c in &msg.children {
        let Some(path) = c.name.strip_prefix(proto).and_then(|n| n.strip_prefix('.')) else {
            continue;
        };
        if path.ends_with("._entry") {
            tree_values(c, proto, paths, out);
            continue;
        }
        if paths.skip.contains(path) {
            tree_values(c, proto, paths, out);
            continue;
        }
        if path.starts_with('_') || path.starts_with("expert") {
            continue;
        }
        let show = if paths.floats.contains(path) || paths.doubles.contains(path) {
            // The label holds the exact value (tshark's `show` has 6 or 15 digits).
            c.showname.rsplit(": ").next().unwrap_or("").to_string()
        } else {
            c.show.clone()
        };
        out.push((path.to_string(), show));
        tree_values(c, proto, paths, out);
    }
}

/// The `(path, value)` pairs of one decoded message, in the same order.
pub fn json_values(v: &Value, prefix: &str, paths: &Paths, out: &mut Vec<(String, Value)>) {
    let Some(obj) = v.as_object() else { return };
    for (k, v) in obj {
        if k.starts_with('_') || k.starts_with('$') {
            continue;
        }
        let path = format!("{prefix}.{k}");
        if paths.groups.contains(&path) {
            let entries = v.as_array().cloned().unwrap_or_default();
            out.push((path.clone(), Value::from(entries.len())));
            for e in &entries {
                json_values(e, &path, paths, out);
            }
        } else if paths.skip.contains(&path) {
            if paths.enums.contains_key(&path) {
                continue;
            }
            // A set is an object of booleans (its choices), a composite one of members.
            json_values(v, &path, paths, out);
        } else if let Some(a) = v.as_array() {
            for x in a {
                out.push((path.clone(), x.clone()));
            }
        } else {
            out.push((path, v.clone()));
        }
    }
}

/// True if tshark's shown value equals the decoder's value.
pub fn same(plan: &Plan, paths: &Paths, path: &str, show: &str, v: &Value) -> bool {
    if let Some(e) = paths.enums.get(path).and_then(|e| plan.enums.get(e)) {
        let Ok(n) = show.parse::<i128>() else {
            return false;
        };
        let name = e.values.iter().find_map(|(name, val, _)| {
            let i = match val {
                sbekit_ir::PrimitiveValue::Int(i) => i128::from(*i),
                sbekit_ir::PrimitiveValue::UInt(u) => i128::from(*u),
                sbekit_ir::PrimitiveValue::Bytes(b) => i128::from(*b.first()?),
                sbekit_ir::PrimitiveValue::Float(_) => return None,
            };
            (i == n).then(|| name.clone())
        });
        return match v {
            Value::String(s) => name.as_deref() == Some(s.as_str()),
            Value::Null => true,
            Value::Number(x) => x.to_string() == show,
            _ => false,
        };
    }
    match v {
        Value::Number(x) => {
            if let (Ok(a), Ok(b)) = (show.parse::<i128>(), x.to_string().parse::<i128>()) {
                return a == b;
            }
            let (Ok(a), Some(b)) = (show.parse::<f64>(), x.as_f64()) else {
                return false;
            };
            if paths.floats.contains(path) {
                return a as f32 == b as f32;
            }
            a == b || ((a - b).abs() <= 1e-12 * a.abs().max(b.abs()))
        }
        Value::Null => {
            let s = show.to_ascii_lowercase();
            s.contains("nan")
        }
        Value::Bool(b) => matches!(
            (show, b),
            ("1" | "True" | "true", true) | ("0" | "False" | "false", false)
        ),
        Value::String(s) => {
            if paths.raw.contains(path) {
                let hex: String = s.chars().map(|c| format!("{:02x}", c as u32)).collect();
                return show.replace(':', "") == hex;
            }
            show == escape(s.trim_end_matches('\0'))
        }
        _ => false,
    }
}

/// Compares every message of every packet; returns (messages, values) compared. Panics on
/// the first difference, naming the packet, message and field.
pub fn compare(d: &Dissector, capture: &[u8], pdml_xml: &str) -> (usize, usize) {
    compare_as(d, capture, pdml_xml, true)
}

/// [`compare`]; with `by_packet` false, the messages of the whole capture are compared in
/// order (a TCP stream whose messages span segments: the reader and tshark each say in which
/// packet a message ends in their own way).
pub fn compare_as(
    d: &Dissector,
    capture: &[u8],
    pdml_xml: &str,
    by_packet: bool,
) -> (usize, usize) {
    let mut packets = pdml(pdml_xml, &d.proto);
    let mut oracle = decode(d, capture);
    if !by_packet {
        packets = vec![packets.concat()];
        oracle = BTreeMap::from([(0, oracle.into_values().flatten().collect())]);
    }
    let paths = Paths::of(&d.plan);
    let names: BTreeMap<String, String> = d
        .plan
        .messages
        .iter()
        .map(|m| (format!("{}.{}", d.proto, m.body.name), m.body.name.clone()))
        .collect();
    let (mut msgs, mut values) = (0, 0);
    for (i, items) in packets.iter().enumerate() {
        let mut flat = Vec::new();
        all(items, &mut flat);
        for it in &flat {
            assert!(
                !it.name.ends_with("expert.internal") && !it.show.contains("Lua Error"),
                "packet {i}: {}",
                it.showname
            );
        }
        let dissected: Vec<&Item> = flat
            .iter()
            .copied()
            .filter(|it| names.contains_key(&it.name))
            .collect();
        let want = oracle.get(&(i as u64)).cloned().unwrap_or_default();
        assert_eq!(
            dissected.len(),
            want.len(),
            "packet {i}: messages dissected vs decoded (decoded packets {:?})",
            oracle.keys().take(5).collect::<Vec<_>>()
        );
        for (m, (item, json)) in dissected.iter().zip(&want).enumerate() {
            let name = &names[&item.name];
            let mut a = Vec::new();
            tree_values(item, &d.proto, &paths, &mut a);
            let mut b = Vec::new();
            json_values(json, name, &paths, &mut b);
            assert_eq!(
                a.len(),
                b.len(),
                "packet {i} message {m} ({name}): value count\n dissector {a:?}\n decode {b:?}"
            );
            // The decoder's JSON object is read back in key order: compare each field's
            // values in wire order.
            a.sort_by(|x, y| x.0.cmp(&y.0));
            b.sort_by(|x, y| x.0.cmp(&y.0));
            for ((pa, sa), (pb, vb)) in a.iter().zip(&b) {
                assert_eq!(
                    pa, pb,
                    "packet {i} message {m}: fields\n dissector {a:?}\n decode {b:?}"
                );
                assert!(
                    same(&d.plan, &paths, pa, sa, vb),
                    "packet {i} message {m} {pa}: tshark shows {sa:?}, decode prints {vb:?}"
                );
                values += 1;
            }
            msgs += 1;
        }
    }
    (msgs, values)
}
