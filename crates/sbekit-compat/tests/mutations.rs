//! The mutation corpus: each rule's typical change applied to real schemas, and the checker's
//! verdict compared with the execution oracle's on every mutation that still compiles.
//!
//! Our own schemas always run; the reference and Binance schemas run when `../shared` is there
//! (skipped loudly otherwise, a failure under `CI=true`).

mod common;

use common::{run, schema};
use roxmltree::{Document, Node};
use std::path::Path;

/// Messages per message type and way (the corpus is large; CI time matters). The Binance
/// schemas have some 70 message types each, so they run fewer.
const MESSAGES: usize = 40;
const MESSAGES_LARGE: usize = 4;

const PRIMITIVES: &[(&str, &str)] = &[
    ("int8", "int16"),
    ("uint8", "uint16"),
    ("int16", "int32"),
    ("uint16", "uint32"),
    ("int32", "int64"),
    ("uint32", "uint64"),
    ("int64", "int32"),
    ("uint64", "uint32"),
    ("char", "uint16"),
    ("float", "double"),
    ("double", "float"),
];

struct Edit {
    range: std::ops::Range<usize>,
    text: String,
}

fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.range.start));
    let mut t = text.to_string();
    for e in edits {
        t.replace_range(e.range, &e.text);
    }
    t
}

fn is_el(n: &Node, tag: &str) -> bool {
    n.is_element() && n.tag_name().name() == tag
}

/// The whole line range of an element (with its indentation), to delete it cleanly.
fn remove(n: Node) -> Edit {
    Edit {
        range: n.range(),
        text: String::new(),
    }
}

fn insert_after(n: Node, s: &str) -> Edit {
    let end = n.range().end;
    Edit {
        range: end..end,
        text: format!("\n{s}"),
    }
}

fn insert_before(n: Node, s: &str) -> Edit {
    let start = n.range().start;
    Edit {
        range: start..start,
        text: format!("{s}\n"),
    }
}

/// Sets (or adds) attribute `name` on element `n`.
fn set_attr(text: &str, n: Node, name: &str, value: &str) -> Edit {
    if let Some(a) = n.attributes().find(|a| a.name() == name) {
        return Edit {
            range: a.range_value(),
            text: value.to_string(),
        };
    }
    // After the tag name.
    let start = n.range().start;
    let tag_end = start
        + text[start..]
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .unwrap_or(0);
    Edit {
        range: tag_end..tag_end,
        text: format!(" {name}=\"{value}\""),
    }
}

/// Every mutation of `text`: (name, new text).
fn mutations(text: &str) -> Vec<(String, String)> {
    let doc = Document::parse(text).expect("schema XML");
    let root = doc.root_element();
    let version: u32 = root
        .attribute("version")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let bump = || set_attr(text, root, "version", &(version + 1).to_string());
    let next = version + 1;
    let mut out: Vec<(String, Vec<Edit>)> = Vec::new();
    let messages: Vec<Node> = root.descendants().filter(|n| is_el(n, "message")).collect();
    let types: Vec<Node> = root.descendants().filter(|n| is_el(n, "types")).collect();
    let type_names: Vec<&str> = types
        .iter()
        .flat_map(|t| t.children().filter(Node::is_element))
        .filter_map(|n| n.attribute("name"))
        .collect();
    // Mutate the first message with fields, and one with a group if there is one.
    let with_fields = messages
        .iter()
        .copied()
        .find(|m| m.children().any(|c| is_el(&c, "field")));
    let with_group = messages
        .iter()
        .copied()
        .find(|m| m.children().any(|c| is_el(&c, "group")));
    if let Some(m) = with_fields {
        let fields: Vec<Node> = m.children().filter(|c| is_el(c, "field")).collect();
        let first = fields[0];
        let last = *fields.last().unwrap();
        let f = |extra: &str| format!("<field name=\"zzMut\" id=\"9001\" type=\"uint32\"{extra}/>");
        out.push((
            "append-field".into(),
            vec![
                bump(),
                insert_after(last, &f(&format!(" sinceVersion=\"{next}\""))),
            ],
        ));
        out.push((
            "append-optional-field".into(),
            vec![
                bump(),
                insert_after(
                    last,
                    &f(&format!(" sinceVersion=\"{next}\" presence=\"optional\"")),
                ),
            ],
        ));
        out.push((
            "append-field-unversioned".into(),
            vec![bump(), insert_after(last, &f(""))],
        ));
        out.push((
            "insert-field-first".into(),
            vec![
                bump(),
                insert_before(first, &f(&format!(" sinceVersion=\"{next}\""))),
            ],
        ));
        out.push(("remove-last-field".into(), vec![remove(last)]));
        out.push(("remove-first-field".into(), vec![remove(first)]));
        if fields.len() >= 2 {
            let (a, b) = (fields[0], fields[1]);
            out.push((
                "swap-fields".into(),
                vec![
                    Edit {
                        range: a.range(),
                        text: text[b.range()].to_string(),
                    },
                    Edit {
                        range: b.range(),
                        text: text[a.range()].to_string(),
                    },
                ],
            ));
        }
        out.push((
            "rename-field".into(),
            vec![set_attr(text, first, "name", "zzRenamed")],
        ));
        out.push((
            "deprecate-field".into(),
            vec![
                bump(),
                set_attr(text, first, "deprecated", &next.to_string()),
            ],
        ));
        out.push((
            "field-since-raised".into(),
            vec![
                bump(),
                set_attr(text, last, "sinceVersion", &next.to_string()),
            ],
        ));
        out.push((
            "describe-message".into(),
            vec![set_attr(text, m, "description", "mutated")],
        ));
        out.push(("template-id".into(), vec![set_attr(text, m, "id", "60000")]));
        out.push(("remove-message".into(), vec![remove(m)]));
        if let Some((pf, ty)) = fields.iter().find_map(|f| {
            let t = f.attribute("type")?;
            PRIMITIVES.iter().find(|p| p.0 == t).map(|p| (*f, p.1))
        }) {
            out.push((
                "field-primitive".into(),
                vec![set_attr(text, pf, "type", ty)],
            ));
            if pf.attribute("presence").is_none() {
                out.push((
                    "field-optional".into(),
                    vec![set_attr(text, pf, "presence", "optional")],
                ));
            }
        }
        // A field typed by a named type: point it at another type of the schema.
        if let Some(tf) = fields
            .iter()
            .find(|f| f.attribute("type").is_some_and(|t| type_names.contains(&t)))
        {
            let cur = tf.attribute("type").unwrap();
            if let Some(other) = type_names
                .iter()
                .find(|t| **t != cur && !t.contains("Encoding") && **t != "messageHeader")
            {
                out.push((
                    "field-retyped".into(),
                    vec![set_attr(text, *tf, "type", other)],
                ));
            }
        }
        let has_data = m.children().any(|c| is_el(&c, "data"));
        let last_child = m.children().rfind(Node::is_element).unwrap();
        let dim = types
            .iter()
            .flat_map(|t| t.children())
            .find(|c| {
                is_el(c, "composite")
                    && c.children()
                        .any(|m| m.attribute("name") == Some("numInGroup"))
            })
            .and_then(|c| c.attribute("name"));
        if let Some(dim) = dim {
            let g = format!("<group name=\"zzGroup\" id=\"9002\" dimensionType=\"{dim}\" sinceVersion=\"{next}\"><field name=\"x\" id=\"1\" type=\"uint32\"/></group>");
            let anchor = m
                .children()
                .rfind(|c| is_el(c, "group") || is_el(c, "field"))
                .unwrap();
            out.push((
                "append-group".into(),
                vec![bump(), insert_after(anchor, &g)],
            ));
        }
        let var = types
            .iter()
            .flat_map(|t| t.children())
            .find(|c| {
                is_el(c, "composite")
                    && c.children().any(|m| m.attribute("name") == Some("varData"))
            })
            .and_then(|c| c.attribute("name"));
        if let Some(var) = var {
            let d = format!(
                "<data name=\"zzData\" id=\"9003\" type=\"{var}\" sinceVersion=\"{next}\"/>"
            );
            out.push((
                "append-data".into(),
                vec![bump(), insert_after(last_child, &d)],
            ));
            if has_data {
                let first_data = m.children().find(|c| is_el(c, "data")).unwrap();
                out.push((
                    "insert-data-first".into(),
                    vec![bump(), insert_before(first_data, &d)],
                ));
                out.push((
                    "remove-last-data".into(),
                    vec![remove(m.children().rfind(|c| is_el(c, "data")).unwrap())],
                ));
            }
        }
    }
    if let Some(m) = with_group {
        let groups: Vec<Node> = m.children().filter(|c| is_el(c, "group")).collect();
        out.push((
            "remove-last-group".into(),
            vec![remove(*groups.last().unwrap())],
        ));
        if groups.len() >= 2 {
            let (a, b) = (groups[0], groups[1]);
            out.push((
                "swap-groups".into(),
                vec![
                    Edit {
                        range: a.range(),
                        text: text[b.range()].to_string(),
                    },
                    Edit {
                        range: b.range(),
                        text: text[a.range()].to_string(),
                    },
                ],
            ));
        }
        // A field appended inside the first group's entries.
        let g = groups[0];
        if let Some(gl) = g.children().rfind(|c| is_el(c, "field")) {
            out.push((
                "append-group-field".into(),
                vec![bump(), insert_after(gl, &format!("<field name=\"zzInner\" id=\"9004\" type=\"uint16\" sinceVersion=\"{next}\"/>"))],
            ));
        }
    }
    out.push(("schema-id".into(), vec![set_attr(text, root, "id", "4242")]));
    let order = if root.attribute("byteOrder") == Some("bigEndian") {
        "littleEndian"
    } else {
        "bigEndian"
    };
    out.push((
        "byte-order".into(),
        vec![set_attr(text, root, "byteOrder", order)],
    ));
    let enums: Vec<Node> = types
        .iter()
        .flat_map(|t| t.children())
        .filter(|c| is_el(c, "enum"))
        .collect();
    if let Some(e) = enums
        .iter()
        .find(|e| e.children().filter(|v| is_el(v, "validValue")).count() >= 2)
    {
        let values: Vec<Node> = e.children().filter(|v| is_el(v, "validValue")).collect();
        let last = *values.last().unwrap();
        out.push(("enum-remove".into(), vec![remove(last)]));
        let char_enc = e.attribute("encodingType") == Some("char");
        let used: Vec<String> = values
            .iter()
            .filter_map(|v| v.text())
            .map(|t| t.trim().to_string())
            .collect();
        let fresh = if char_enc {
            ('A'..='Z')
                .chain('a'..='z')
                .map(|c| c.to_string())
                .find(|c| !used.contains(c))
        } else {
            (1..250).map(|i| i.to_string()).find(|c| !used.contains(c))
        };
        if let Some(fresh) = fresh {
            out.push((
                "enum-add".into(),
                vec![bump(), insert_after(last, &format!("<validValue name=\"ZzNew\" sinceVersion=\"{next}\">{fresh}</validValue>"))],
            ));
            out.push((
                "enum-reencode".into(),
                vec![Edit {
                    range: last.first_child().map_or(0..0, |t| t.range()),
                    text: fresh.clone(),
                }],
            ));
        }
    }
    let sets: Vec<Node> = types
        .iter()
        .flat_map(|t| t.children())
        .filter(|c| is_el(c, "set"))
        .collect();
    if let Some(s) = sets.first() {
        let choices: Vec<Node> = s.children().filter(|v| is_el(v, "choice")).collect();
        if let Some(last) = choices.last() {
            out.push(("set-remove".into(), vec![remove(*last)]));
            let used: Vec<u32> = choices
                .iter()
                .filter_map(|c| c.text()?.trim().parse().ok())
                .collect();
            if let Some(bit) = (0..8).find(|b| !used.contains(b)) {
                out.push((
                    "set-add".into(),
                    vec![
                        bump(),
                        insert_after(
                            *last,
                            &format!(
                                "<choice name=\"ZzNew\" sinceVersion=\"{next}\">{bit}</choice>"
                            ),
                        ),
                    ],
                ));
                out.push((
                    "set-move".into(),
                    vec![Edit {
                        range: last.first_child().map_or(0..0, |t| t.range()),
                        text: bit.to_string(),
                    }],
                ));
            }
        }
    }
    out.into_iter()
        .map(|(name, edits)| (name, apply(text, edits)))
        .collect()
}

/// Runs the corpus over one schema; returns (mutations run, disagreements).
fn corpus(path: &Path, messages: usize) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let label = path.file_name().unwrap().to_string_lossy().to_string();
    let old = schema(&label, &text);
    let mut ran = 0;
    let mut bad = Vec::new();
    for (name, new_text) in mutations(&text) {
        // Some mutations make an invalid schema (a removed type still referenced...): not
        // a compatibility question.
        let Ok(new) = sbekit_compat::Schema::from_xml_str(&label, &new_text) else {
            continue;
        };
        ran += 1;
        let out = run(&old, &new, messages);
        if !out.agrees() {
            bad.push(format!("{label} / {name}:\n{}", out.describe()));
        }
    }
    (ran, bad)
}

fn check_all(paths: &[std::path::PathBuf], messages: usize) {
    let mut total = 0;
    let mut bad = Vec::new();
    for p in paths {
        let (n, b) = corpus(p, messages);
        eprintln!("{}: {n} mutations, {} disagreements", p.display(), b.len());
        total += n;
        bad.extend(b);
    }
    assert!(total > 0);
    assert!(
        bad.is_empty(),
        "{} of {total} mutations disagree:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn our_schemas() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas");
    check_all(
        &[root.join("market-data.xml"), root.join("shootout-2019.xml")],
        MESSAGES,
    );
}

#[test]
fn reference_schemas() {
    let mut paths = Vec::new();
    for rel in [
        "sbe-benchmarks/src/main/resources/car.xml",
        "sbe-benchmarks/src/main/resources/fix-message-samples.xml",
    ] {
        match sbekit_testdata::require_reference(rel, "mutations::reference_schemas") {
            Some(p) => paths.push(p),
            None => return,
        }
    }
    check_all(&paths, MESSAGES);
}

#[test]
fn binance_schemas() {
    let mut paths = Vec::new();
    for f in ["spot_3_5.xml", "spot-fixsbe-1_1.xml", "stream_1_0.xml"] {
        match sbekit_testdata::require(
            &format!("schemas/binance-spot/{f}"),
            "mutations::binance_schemas",
        ) {
            Some(p) => paths.push(p),
            None => return,
        }
    }
    check_all(&paths, MESSAGES_LARGE);
}
