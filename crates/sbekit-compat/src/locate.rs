//! Source locations for findings: the layout model carries none, so elements are looked up in
//! the XML text by name path (`Car.fuelFigures.speed`, `type:Model`, `type:Model.A`).

use roxmltree::{Document, Node, ParsingOptions};
use sbekit_schema::Location;
use std::collections::HashMap;
use std::sync::Arc;

/// Where an element sits, and the attributes the checker reads from the text.
#[derive(Debug, Clone)]
struct Entry {
    loc: Location,
    alignment: Option<String>,
}

/// An index of one schema's XML files (the main file and the files it XIncludes).
#[derive(Debug, Clone, Default)]
pub struct SourceIndex {
    entries: HashMap<String, Entry>,
    root: Option<Location>,
}

impl SourceIndex {
    /// Indexes `files`: (label used in diagnostics, XML text); the first is the main file.
    pub fn new(files: &[(String, String)]) -> SourceIndex {
        let mut idx = SourceIndex::default();
        for (label, text) in files {
            let opts = ParsingOptions {
                allow_dtd: false,
                ..ParsingOptions::default()
            };
            let Ok(doc) = Document::parse_with_options(text, opts) else {
                continue;
            };
            let file: Arc<str> = Arc::from(label.as_str());
            if idx.root.is_none() {
                idx.root = Some(loc_of(&doc, doc.root_element(), &file));
            }
            for node in doc.descendants().filter(Node::is_element) {
                let tag = node.tag_name().name();
                let Some(name) = node.attribute("name") else {
                    continue;
                };
                let parent = node.parent_element().map(|p| p.tag_name().name());
                match tag {
                    "message" => idx.put(name.to_string(), &doc, node, &file),
                    "type" | "composite" | "enum" | "set" if parent == Some("types") => {
                        idx.put(format!("type:{name}"), &doc, node, &file);
                        for item in node.children().filter(Node::is_element) {
                            if let Some(n) = item.attribute("name") {
                                idx.put(format!("type:{name}.{n}"), &doc, item, &file);
                            }
                        }
                    }
                    "field" | "group" | "data" => {
                        // Path from the enclosing message through the enclosing groups.
                        let mut parts = vec![name.to_string()];
                        let mut up = node.parent_element();
                        while let Some(p) = up {
                            let Some(pn) = p.attribute("name") else { break };
                            match p.tag_name().name() {
                                "group" => parts.push(pn.to_string()),
                                "message" => {
                                    parts.push(pn.to_string());
                                    break;
                                }
                                _ => break,
                            }
                            up = p.parent_element();
                        }
                        parts.reverse();
                        idx.put(parts.join("."), &doc, node, &file);
                    }
                    _ => {}
                }
            }
        }
        idx
    }

    fn put(&mut self, key: String, doc: &Document, node: Node, file: &Arc<str>) {
        self.entries.entry(key).or_insert_with(|| Entry {
            loc: loc_of(doc, node, file),
            alignment: node.attribute("alignment").map(str::to_string),
        });
    }

    /// The location of `key`, or of its longest known prefix (a composite member resolves to
    /// the field that holds it), or of the schema's root element.
    pub fn locate(&self, key: &str) -> Option<Location> {
        let mut k = key;
        loop {
            if let Some(e) = self.entries.get(k) {
                return Some(e.loc.clone());
            }
            match k.rfind('.') {
                Some(i) => k = &k[..i],
                None => return self.root.clone(),
            }
        }
    }

    /// The `alignment` attribute of the field at `key`, if the text gives one.
    pub fn alignment(&self, key: &str) -> Option<&str> {
        self.entries.get(key).and_then(|e| e.alignment.as_deref())
    }

    /// True when nothing was indexed (a `.sbeir` side).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.root.is_none()
    }
}

fn loc_of(doc: &Document, node: Node, file: &Arc<str>) -> Location {
    let pos = doc.text_pos_at(node.range().start);
    Location {
        file: file.clone(),
        line: pos.row,
        column: pos.col,
    }
}
