//! Reading schema XML into an owned element tree, resolving XInclude.
//!
//! Elements are matched by local name, so unqualified, `sbe:`-prefixed and other-prefixed
//! elements of the 2016, 2017 and legacy namespaces all read the same way. XInclude
//! (`xi:include href="..."`) is resolved relative to the including file, with a guard against
//! cycles, a limit on the number of included files and a limit on nesting depth, so hostile
//! input yields a diagnostic rather than a stack overflow or unbounded work.

use crate::diag::{Location, Sink};
use crate::rules;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// XInclude namespaces (the 2001 recommendation and the 2003 revision).
const XINCLUDE_NS: [&str; 2] = [
    "http://www.w3.org/2001/XInclude",
    "http://www.w3.org/2003/XInclude",
];
/// Deepest element nesting accepted; real schemas stay far below it.
const MAX_DEPTH: usize = 64;
/// Most files one schema may pull in through XInclude.
const MAX_INCLUDES: usize = 256;
/// Largest schema file accepted (bytes).
const MAX_FILE_SIZE: usize = 64 << 20;
/// Most text that the entity references of one document may expand to, in bytes.
const MAX_ENTITY_EXPANSION: u64 = 64 << 10;

/// An XML element with its attributes, direct text and children.
#[derive(Debug, Clone)]
pub(crate) struct Element {
    /// Local name (no prefix).
    pub name: String,
    /// Attributes by local name, in document order.
    pub attrs: Vec<(String, String)>,
    /// Concatenated direct text content (not trimmed).
    pub text: String,
    /// Child elements (XIncludes already replaced by the included root).
    pub children: Vec<Element>,
    /// Where the element starts.
    pub loc: Location,
}

impl Element {
    /// The value of attribute `name`, if present.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Where schema text comes from: a file on disk, or a string with a display name.
pub(crate) enum Source<'a> {
    File(&'a Path),
    Text { name: &'a str, text: &'a str },
}

/// Loads a document and its includes; returns `None` after reporting an error.
pub(crate) fn load(source: Source<'_>, sink: &mut Sink) -> Option<Element> {
    let mut loader = Loader {
        stack: Vec::new(),
        includes: 0,
    };
    match source {
        Source::File(path) => loader.load_file(path, None, sink),
        Source::Text { name, text } => {
            let base = Path::new(name).parent().map(Path::to_path_buf);
            loader.parse_text(text, Arc::from(name), base.unwrap_or_default(), sink)
        }
    }
}

struct Loader {
    /// Files currently being included (for the cycle guard).
    stack: Vec<PathBuf>,
    includes: usize,
}

impl Loader {
    fn load_file(
        &mut self,
        path: &Path,
        from: Option<&Location>,
        sink: &mut Sink,
    ) -> Option<Element> {
        let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if self.stack.contains(&canonical) {
            sink.error(
                rules::XINCLUDE,
                from,
                format!("XInclude cycle: {} includes itself", path.display()),
            );
            return None;
        }
        let text = match std::fs::read(path) {
            Ok(bytes) if bytes.len() > MAX_FILE_SIZE => {
                sink.error(
                    rules::IO,
                    from,
                    format!("{} is larger than {MAX_FILE_SIZE} bytes", path.display()),
                );
                return None;
            }
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(t) => t,
                Err(_) => {
                    sink.error(rules::XML, from, format!("{} is not UTF-8", path.display()));
                    return None;
                }
            },
            Err(e) => {
                sink.error(
                    rules::IO,
                    from,
                    format!("cannot read {}: {e}", path.display()),
                );
                return None;
            }
        };
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        self.stack.push(canonical);
        let root = self.parse_text(&text, Arc::from(path.display().to_string()), base, sink);
        self.stack.pop();
        root
    }

    fn parse_text(
        &mut self,
        text: &str,
        file: Arc<str>,
        base: PathBuf,
        sink: &mut Sink,
    ) -> Option<Element> {
        if let Some(line) = nesting_exceeds(text, MAX_DEPTH) {
            let loc = Location {
                file,
                line,
                column: 1,
            };
            sink.error(
                rules::XML,
                Some(&loc),
                format!("elements nested deeper than {MAX_DEPTH} levels"),
            );
            return None;
        }
        // A DOCTYPE is accepted (real schemas start with `<!DOCTYPE xml>`), but entities are
        // bounded first: none external, none expanding beyond MAX_ENTITY_EXPANSION.
        if let Err(why) = check_entities(text) {
            let loc = Location {
                file,
                line: 1,
                column: 1,
            };
            sink.error(rules::XML, Some(&loc), format!("malformed XML: {why}"));
            return None;
        }
        let options = roxmltree::ParsingOptions {
            allow_dtd: true,
            nodes_limit: 4_000_000,
        };
        let doc = match roxmltree::Document::parse_with_options(text, options) {
            Ok(d) => d,
            Err(e) => {
                let pos = e.pos();
                let loc = Location {
                    file,
                    line: pos.row,
                    column: pos.col,
                };
                sink.error(rules::XML, Some(&loc), format!("malformed XML: {e}"));
                return None;
            }
        };
        let ctx = Ctx {
            doc: &doc,
            file,
            base,
        };
        self.convert(&ctx, doc.root_element(), 0, sink)
    }

    fn convert(
        &mut self,
        ctx: &Ctx<'_, '_>,
        node: roxmltree::Node<'_, '_>,
        depth: usize,
        sink: &mut Sink,
    ) -> Option<Element> {
        let loc = ctx.location(node);
        if depth > MAX_DEPTH {
            sink.error(
                rules::XML,
                Some(&loc),
                format!("elements nested deeper than {MAX_DEPTH} levels"),
            );
            return None;
        }
        let tag = node.tag_name();
        if tag.name() == "include" && tag.namespace().is_some_and(|ns| XINCLUDE_NS.contains(&ns)) {
            return self.include(ctx, node, &loc, sink);
        }
        let mut element = Element {
            name: tag.name().to_string(),
            attrs: node
                .attributes()
                .map(|a| (a.name().to_string(), a.value().to_string()))
                .collect(),
            text: String::new(),
            children: Vec::new(),
            loc,
        };
        for child in node.children() {
            if child.is_element() {
                element
                    .children
                    .push(self.convert(ctx, child, depth + 1, sink)?);
            } else if child.is_text() {
                element.text.push_str(child.text().unwrap_or_default());
            }
        }
        Some(element)
    }

    fn include(
        &mut self,
        ctx: &Ctx<'_, '_>,
        node: roxmltree::Node<'_, '_>,
        loc: &Location,
        sink: &mut Sink,
    ) -> Option<Element> {
        let Some(href) = node.attribute("href") else {
            sink.error(rules::XINCLUDE, Some(loc), "xi:include without href");
            return None;
        };
        if node.attribute("parse").is_some_and(|p| p != "xml") {
            sink.error(
                rules::XINCLUDE,
                Some(loc),
                "only parse=\"xml\" includes are supported",
            );
            return None;
        }
        self.includes += 1;
        if self.includes > MAX_INCLUDES {
            sink.error(
                rules::XINCLUDE,
                Some(loc),
                format!("more than {MAX_INCLUDES} XIncludes"),
            );
            return None;
        }
        let path = ctx.base.join(href);
        self.load_file(&path, Some(loc), sink)
    }
}

struct Ctx<'a, 'input> {
    doc: &'a roxmltree::Document<'input>,
    file: Arc<str>,
    base: PathBuf,
}

impl Ctx<'_, '_> {
    fn location(&self, node: roxmltree::Node<'_, '_>) -> Location {
        let pos = self.doc.text_pos_at(node.range().start);
        Location {
            file: self.file.clone(),
            line: pos.row,
            column: pos.col,
        }
    }
}

/// Finds the line where element nesting first exceeds `limit`, by a quick scan of the text.
///
/// The XML parser recurses per nesting level, so absurdly deep input must be refused before
/// it is parsed. Comments, CDATA, processing instructions and declarations are skipped; the
/// scan need not validate anything else, as the parser does that next.
fn nesting_exceeds(text: &str, limit: usize) -> Option<u32> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut line = 1u32;
    let mut i = 0;
    let skip_to = |from: usize, end: &[u8]| -> usize {
        bytes[from..]
            .windows(end.len())
            .position(|w| w == end)
            .map_or(bytes.len(), |p| from + p + end.len())
    };
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'<' => {
                let rest = &bytes[i + 1..];
                let end = if rest.starts_with(b"!--") {
                    skip_to(i, b"-->")
                } else if rest.starts_with(b"![CDATA[") {
                    skip_to(i, b"]]>")
                } else if rest.starts_with(b"?") || rest.starts_with(b"!") {
                    skip_to(i, b">")
                } else if rest.starts_with(b"/") {
                    depth = depth.saturating_sub(1);
                    skip_to(i, b">")
                } else {
                    let end = skip_to(i, b">");
                    if end < 2 || bytes[end - 2] != b'/' {
                        depth += 1;
                        if depth > limit {
                            return Some(line);
                        }
                    }
                    end
                };
                line += bytes[i..end].iter().filter(|&&b| b == b'\n').count() as u32;
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Checks a document's entity declarations before the parser expands them: external entities
/// (`SYSTEM`, `PUBLIC`) are refused, and so is a document whose entity references would expand
/// to more than [`MAX_ENTITY_EXPANSION`] bytes (the "billion laughs").
fn check_entities(text: &str) -> Result<(), String> {
    use std::collections::HashMap;
    if !text.contains("<!ENTITY") {
        return Ok(());
    }
    let mut values: HashMap<&str, &str> = HashMap::new();
    let mut rest = text;
    while let Some(at) = rest.find("<!ENTITY") {
        rest = &rest[at + "<!ENTITY".len()..];
        let decl = rest.trim_start().trim_start_matches('%').trim_start();
        let name_end = decl
            .find(|c: char| c.is_whitespace())
            .ok_or("unterminated entity declaration")?;
        let name = &decl[..name_end];
        let body = decl[name_end..].trim_start();
        let quote = body
            .chars()
            .next()
            .ok_or("unterminated entity declaration")?;
        if quote != '"' && quote != '\'' {
            return Err(format!("external entity '{name}' is not allowed"));
        }
        let value_end = body[1..]
            .find(quote)
            .ok_or("unterminated entity declaration")?;
        values.insert(name, &body[1..1 + value_end]);
    }
    // Expanded size of each entity, with nesting bounded and sizes saturating at the limit.
    fn size(
        name: &str,
        values: &HashMap<&str, &str>,
        memo: &mut HashMap<String, u64>,
        depth: usize,
    ) -> u64 {
        if let Some(&n) = memo.get(name) {
            return n;
        }
        let Some(value) = values.get(name) else {
            return 1; // a predefined or character reference
        };
        if depth > 16 {
            return u64::MAX;
        }
        let n = references(value).fold(0u64, |acc, r| match r {
            Ok(lit) => acc.saturating_add(lit as u64),
            Err(inner) => acc.saturating_add(size(inner, values, memo, depth + 1)),
        });
        memo.insert(name.to_string(), n);
        n
    }
    let mut memo = HashMap::new();
    // The document outside the declarations: count what its references expand to.
    let body = text.rfind("]>").map_or(text, |at| &text[at..]);
    let total = references(body).fold(0u64, |acc, r| match r {
        Ok(_) => acc,
        Err(name) => acc.saturating_add(size(name, &values, &mut memo, 0)),
    });
    if total > MAX_ENTITY_EXPANSION {
        return Err(format!(
            "entity references expand to more than {MAX_ENTITY_EXPANSION} bytes"
        ));
    }
    Ok(())
}

/// Splits text into literal runs (`Ok(length)`) and entity references (`Err(name)`).
fn references(text: &str) -> impl Iterator<Item = Result<usize, &str>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match rest.find('&') {
            Some(0) => {
                let end = rest.find(';').unwrap_or(rest.len());
                let name = &rest[1..end];
                rest = rest.get(end + 1..).unwrap_or("");
                Some(Err(name))
            }
            Some(at) => {
                rest = &rest[at..];
                Some(Ok(at))
            }
            None => {
                let n = rest.len();
                rest = "";
                Some(Ok(n))
            }
        }
    })
}
