//! The pages: index, one per message, types, versions, and the search index.

use crate::bytemap::{self, Cell};
use crate::html::{anchor, esc, page, page_with, table};
use crate::sizes::body_range;
use crate::Version;
use sbekit_compat::{Effect, Options};
use sbekit_ir::layout::{Block as LayoutBlock, Field as LayoutField, FieldKind, Layout};
use sbekit_ir::{Presence, PrimitiveType};
use sbekit_plan::json::value;
use sbekit_plan::{Body, Field, Kind, Message, Plan, Section};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The file of message `name`'s page.
pub fn message_file(name: &str) -> String {
    format!("message-{}.html", anchor(name))
}

/// The index: the schema's identity, its messages and its types.
pub fn index(v: &Version, all: &[Version]) -> String {
    let p = &v.plan;
    let mut s = String::new();
    let _ = writeln!(s, "<h1>{}</h1>", esc(&p.package));
    let _ = writeln!(
        s,
        "<dl class=\"facts\"><dt>Schema id</dt><dd>{}</dd><dt>Version</dt><dd>{}</dd>\
         <dt>Semantic version</dt><dd>{}</dd><dt>Byte order</dt><dd>{}</dd>\
         <dt>Header</dt><dd><a href=\"types.html#composite-{}\">{}</a>, {} bytes</dd>\
         <dt>Source</dt><dd>{}</dd></dl>",
        p.id,
        p.version,
        esc(p.semantic_version.as_deref().unwrap_or("-")),
        match p.byte_order {
            sbekit_ir::ByteOrder::LittleEndian => "little-endian",
            sbekit_ir::ByteOrder::BigEndian => "big-endian",
        },
        anchor(&p.header.type_name),
        esc(&p.header.type_name),
        p.header.size,
        esc(&v.schema.label)
    );
    if all.len() > 1 {
        let _ = writeln!(
            s,
            "<p>{} versions documented: <a href=\"versions.html\">what changed</a>.</p>",
            all.len()
        );
    }
    let rows: Vec<Vec<String>> = p
        .messages
        .iter()
        .map(|m| {
            let (min, max) = body_range(&m.body);
            let h = p.header.size as u64;
            vec![
                m.id.to_string(),
                format!(
                    "<a href=\"{}\">{}</a>",
                    message_file(&m.body.name),
                    esc(&m.body.name)
                ),
                m.body.block_length.to_string(),
                (min + h).to_string(),
                max.and_then(|x| x.checked_add(h))
                    .map_or("unbounded".into(), |x| x.to_string()),
                m.since_version.to_string(),
                deprecated_in(&v.schema.layout, &m.body.name),
                esc(m.body.description.as_deref().unwrap_or("")),
            ]
        })
        .collect();
    s.push_str("<h2 id=\"messages\">Messages</h2>\n");
    s.push_str(&table(
        "",
        &[
            "Template id",
            "Message",
            "Block length",
            "Smallest (bytes)",
            "Largest (bytes)",
            "Since version",
            "Deprecated",
            "Description",
        ],
        &rows,
    ));
    s.push_str("<h2 id=\"types\">Types</h2>\n<ul class=\"types\">\n");
    for (kind, names) in [
        ("enum", p.enums.keys().collect::<Vec<_>>()),
        ("set", p.sets.keys().collect()),
        ("composite", p.composites.keys().collect()),
    ] {
        for n in names {
            let _ = writeln!(
                s,
                "<li><a href=\"types.html#{kind}-{}\">{}</a> <span class=\"kind\">{kind}</span></li>",
                anchor(n),
                esc(n)
            );
        }
    }
    s.push_str("</ul>\n");
    s.push_str(DECODE_FORM);
    page_with(
        &p.package,
        &p.package,
        &s,
        &["decoder-model.js", "decoder.js"],
    )
}

/// The version message `name` was deprecated in, or nothing.
fn deprecated_in(layout: &Layout, name: &str) -> String {
    match layout.messages.iter().find(|m| m.name == name) {
        Some(m) if m.deprecated > 0 => format!("since {}", m.deprecated),
        _ => String::new(),
    }
}

/// The in-page decoder's form (`decoder.js` fills the output).
const DECODE_FORM: &str = "<section id=\"decode\"><h2>Decode a message</h2>\n\
<form id=\"decode-form\">\n<p><label for=\"hex\">Hex bytes of one message (header first), or of \
a u32le frame</label></p>\n<textarea id=\"hex\" rows=\"4\" cols=\"80\" spellcheck=\"false\" \
placeholder=\"2f 00 01 00 01 00 00 00 ...\"></textarea>\n<fieldset><legend>Framing</legend>\n\
<label><input type=\"radio\" name=\"framing\" value=\"message\" checked> one message</label>\n\
<label><input type=\"radio\" name=\"framing\" value=\"u32le\"> u32le frame (4-byte length \
first)</label>\n</fieldset>\n<p><button type=\"submit\">Decode</button></p>\n</form>\n\
<p id=\"decode-error\" role=\"alert\"></p>\n\
<pre id=\"decode-output\" role=\"status\" aria-label=\"Decoded message as sbekit decode prints it\"></pre>\n\
</section>\n";

/// The page of message `m` (`layout`: the schema's layout, for what the plan leaves out:
/// min/max values and deprecations).
pub fn message(p: &Plan, layout: &Layout, m: &Message) -> String {
    let lm = layout.messages.iter().find(|x| x.name == m.body.name);
    let mut s = String::new();
    let b = &m.body;
    let _ = writeln!(s, "<h1>{}</h1>", esc(&b.name));
    if let Some(d) = &b.description {
        let _ = writeln!(s, "<p>{}</p>", esc(d));
    }
    let (min, max) = body_range(b);
    let h = p.header.size as u64;
    let _ = writeln!(
        s,
        "<dl class=\"facts\"><dt>Template id</dt><dd>{}</dd><dt>Since version</dt><dd>{}</dd>\
         <dt>Block length</dt><dd>{} bytes</dd><dt>Encoded size</dt><dd>{} to {} bytes, \
         the {}-byte header included</dd></dl>",
        m.id,
        m.since_version,
        b.block_length,
        min + h,
        max.and_then(|x| x.checked_add(h))
            .map_or("unbounded".into(), |x| x.to_string()),
        h
    );
    if let Some(d) = lm.map(|x| x.deprecated).filter(|d| *d > 0) {
        let _ = writeln!(
            s,
            "<p class=\"deprecated\">Deprecated since version {d}.</p>"
        );
    }
    body(&mut s, p, b, lm.map(|x| &x.block), 2);
    page(&b.name, &p.package, &s)
}

/// A block's byte map and field table, then its sections, headings at `level`; `lb` is the
/// same block in the layout.
fn body(s: &mut String, p: &Plan, b: &Body, lb: Option<&LayoutBlock>, level: usize) {
    let path = b.path.join(".");
    let _ = writeln!(
        s,
        "<h{level} id=\"block-{}\">Block of <code>{}</code>: {} bytes</h{level}>",
        anchor(&path),
        esc(&path),
        b.block_length
    );
    let extra = lb.map(|x| &x.fields[..]).unwrap_or_default();
    fields(s, p, &b.fields, extra, &path, b.block_length);
    for sec in &b.sections {
        let name = format!("{path}.{}", sec.name());
        match sec {
            Section::Group {
                dim_size,
                count,
                body: entry,
                since,
                description,
                ..
            } => {
                heading(s, level, ("group", "Group"), &name, sec, description);
                let _ = writeln!(
                    s,
                    "<p>A {dim_size}-byte dimension (entry block length, entry count of at most \
                     {}){}, then each entry: its block, then its own groups and var data.</p>",
                    count.max,
                    since_text(*since)
                );
                let lg = lb.and_then(|x| x.groups.iter().find(|g| g.name == sec.name()));
                body(s, p, entry, lg.map(|g| &g.block), (level + 1).min(6));
                s.push_str("</section>\n");
            }
            Section::Var {
                len,
                text,
                since,
                description,
                char_encoding,
                ..
            } => {
                heading(s, level, ("var", "Var data"), &name, sec, description);
                let _ = writeln!(
                    s,
                    "<p>A {}-byte length (at most {}), then that many bytes of {}{}.</p></section>",
                    sec.data_offset(),
                    len.max,
                    if *text {
                        format!(
                            "text ({})",
                            esc(char_encoding.as_deref().unwrap_or("no encoding given"))
                        )
                    } else {
                        "data".into()
                    },
                    since_text(*since)
                );
            }
        }
    }
}

/// Opens a section's `<section>` with its heading (`kind`: its class and id prefix, and what
/// the heading calls it) and its description.
fn heading(
    s: &mut String,
    level: usize,
    kind: (&str, &str),
    path: &str,
    sec: &Section,
    description: &Option<String>,
) {
    let _ = writeln!(
        s,
        "<section class=\"{c}\"><h{level} id=\"{c}-{}\">{} <code>{}</code></h{level}>",
        anchor(path),
        kind.1,
        esc(sec.name()),
        c = kind.0
    );
    if let Some(d) = description {
        let _ = writeln!(s, "<p>{}</p>", esc(d));
    }
}

fn since_text(since: u32) -> String {
    match since {
        0 => String::new(),
        v => format!(" (since version {v})"),
    }
}

/// A byte map and a table of `fields` (of a block or composite named `path`, `length` bytes);
/// `layout` holds the same fields as the layout has them (their min/max and deprecation).
fn fields(
    s: &mut String,
    p: &Plan,
    fields: &[Field],
    layout: &[LayoutField],
    path: &str,
    length: usize,
) {
    let of = |f: &Field| layout.iter().find(|l| l.name == f.name);
    let id = |f: &Field| format!("field-{}-{}", anchor(path), anchor(&f.name));
    let cells: Vec<Cell> = fields
        .iter()
        .map(|f| Cell {
            name: &f.name,
            offset: f.offset,
            size: f.size,
            since: f.since,
            link: format!("#{}", id(f)),
        })
        .collect();
    s.push_str(&bytemap::svg(
        &format!("Byte map of {path}"),
        length,
        &cells,
    ));
    let rows: Vec<Vec<String>> = fields
        .iter()
        .map(|f| {
            let l = of(f);
            let deprecated = match l.map_or(0, |l| l.deprecated) {
                0 => String::new(),
                d => format!(" <span class=\"deprecated\">deprecated since {d}</span>"),
            };
            let (min, max) = match l.map(|l| &l.kind) {
                Some(FieldKind::Primitive(x))
                    if !f.is_constant() && x.ty != PrimitiveType::Char =>
                {
                    (
                        esc(&value(&x.min_value, x.ty)),
                        esc(&value(&x.max_value, x.ty)),
                    )
                }
                _ => (String::new(), String::new()),
            };
            vec![
                format!("<span id=\"{}\">{}</span>{deprecated}", id(f), esc(&f.name)),
                if f.is_constant() {
                    "-".into()
                } else {
                    f.offset.to_string()
                },
                f.size.to_string(),
                type_text(f),
                presence(f),
                null_text(p, f),
                min,
                max,
                esc(f.semantic_type.as_deref().unwrap_or("")),
                f.since.to_string(),
                esc(f.description.as_deref().unwrap_or("")),
            ]
        })
        .collect();
    s.push_str(&table(
        "",
        &[
            "Field",
            "Offset",
            "Size",
            "Type",
            "Presence",
            "Null or constant value",
            "Min",
            "Max",
            "Semantic type",
            "Since",
            "Description",
        ],
        &rows,
    ));
}

fn type_text(f: &Field) -> String {
    let link = |kind: &str, ty: &str| {
        format!(
            "<a href=\"types.html#{kind}-{}\">{}</a>",
            anchor(ty),
            esc(ty)
        )
    };
    match &f.kind {
        Kind::Prim(p) if p.len == 1 => p.ty.schema_name().to_string(),
        Kind::Prim(p) => format!("{}[{}]", p.ty.schema_name(), p.len),
        Kind::Enum { ty, .. } => link("enum", ty),
        Kind::Set { ty } => link("set", ty),
        Kind::Composite { ty } => link("composite", ty),
    }
}

fn presence(f: &Field) -> String {
    if f.is_constant() {
        "constant".into()
    } else if f.presence == Presence::Optional {
        "optional".into()
    } else {
        "required".into()
    }
}

/// A constant's value, or an optional field's null value.
fn null_text(p: &Plan, f: &Field) -> String {
    match &f.kind {
        Kind::Prim(x) if f.is_constant() || f.is_nullable() => {
            let v = x.constant.as_ref().unwrap_or(&x.null);
            esc(&value(v, x.ty))
        }
        Kind::Enum {
            constant: Some(c), ..
        } => esc(c),
        Kind::Enum { ty, optional, .. } if *optional => p
            .enums
            .get(ty)
            .map_or(String::new(), |e| esc(&value(&e.null, e.ty))),
        _ => String::new(),
    }
}

/// The types page: enums, sets, composites, and who uses each.
pub fn types(p: &Plan, layout: &Layout) -> String {
    let users = users(p);
    let used_by = |kind: &str, name: &str| -> String {
        let list = users.get(&(kind.to_string(), name.to_string()));
        match list {
            None => "<p>Used by no message.</p>\n".into(),
            Some(ms) => {
                let links: Vec<String> = ms
                    .iter()
                    .map(|m| format!("<a href=\"{}\">{}</a>", message_file(m), esc(m)))
                    .collect();
                format!("<p>Used by {}.</p>\n", links.join(", "))
            }
        }
    };
    let mut s = String::from("<h1>Types</h1>\n<h2>Enums</h2>\n");
    for (name, e) in &p.enums {
        let _ = writeln!(
            s,
            "<section><h3 id=\"enum-{}\">{} <span class=\"kind\">enum of {}</span></h3>",
            anchor(name),
            esc(name),
            e.ty.schema_name()
        );
        if let Some(d) = &e.description {
            let _ = writeln!(s, "<p>{}</p>", esc(d));
        }
        let rows: Vec<Vec<String>> = e
            .values
            .iter()
            .map(|(n, v, d)| {
                vec![
                    esc(n),
                    esc(&value(v, e.ty)),
                    esc(d.as_deref().unwrap_or("")),
                ]
            })
            .collect();
        s.push_str(&table("", &["Name", "Value", "Description"], &rows));
        let _ = writeln!(s, "<p>Null value: {}.</p>", esc(&value(&e.null, e.ty)));
        s.push_str(&used_by("enum", name));
        s.push_str("</section>\n");
    }
    s.push_str("<h2>Sets</h2>\n");
    for (name, d) in &p.sets {
        let _ = writeln!(
            s,
            "<section><h3 id=\"set-{}\">{} <span class=\"kind\">set of {}</span></h3>",
            anchor(name),
            esc(name),
            d.ty.schema_name()
        );
        let rows: Vec<Vec<String>> = d
            .choices
            .iter()
            .map(|(n, bit, desc)| vec![esc(n), bit.to_string(), esc(desc.as_deref().unwrap_or(""))])
            .collect();
        s.push_str(&table("", &["Choice", "Bit", "Description"], &rows));
        s.push_str(&used_by("set", name));
        s.push_str("</section>\n");
    }
    s.push_str("<h2>Composites</h2>\n");
    for (name, c) in &p.composites {
        let _ = writeln!(
            s,
            "<section><h3 id=\"composite-{}\">{} <span class=\"kind\">composite, {} bytes</span></h3>",
            anchor(name),
            esc(name),
            c.size
        );
        if let Some(d) = &c.description {
            let _ = writeln!(s, "<p>{}</p>", esc(d));
        }
        let members = layout
            .composites
            .iter()
            .find(|x| &x.name == name)
            .map(|x| &x.members[..])
            .unwrap_or_default();
        fields(&mut s, p, &c.members, members, name, c.size);
        s.push_str(&used_by("composite", name));
        s.push_str("</section>\n");
    }
    page("Types", &p.package, &s)
}

/// For each type (kind, name), the messages whose fields use it, at any depth.
fn users(p: &Plan) -> BTreeMap<(String, String), Vec<String>> {
    fn visit(
        p: &Plan,
        fields: &[Field],
        msg: &str,
        out: &mut BTreeMap<(String, String), Vec<String>>,
    ) {
        for f in fields {
            let key = match &f.kind {
                Kind::Enum { ty, .. } => ("enum", ty),
                Kind::Set { ty } => ("set", ty),
                Kind::Composite { ty } => {
                    if let Some(c) = p.composites.get(ty) {
                        visit(p, &c.members, msg, out);
                    }
                    ("composite", ty)
                }
                Kind::Prim(_) => continue,
            };
            let list = out.entry((key.0.to_string(), key.1.clone())).or_default();
            if list.last().map(String::as_str) != Some(msg) {
                list.push(msg.to_string());
            }
        }
    }
    fn body(p: &Plan, b: &Body, msg: &str, out: &mut BTreeMap<(String, String), Vec<String>>) {
        visit(p, &b.fields, msg, out);
        for (_, _, g) in b.groups() {
            body(p, g, msg, out);
        }
    }
    let mut out = BTreeMap::new();
    for m in &p.messages {
        body(p, &m.body, &m.body.name, &mut out);
    }
    out
}

/// The versions page: per step from one version to the next, what `sbekit compat` finds.
pub fn versions(all: &[Version]) -> String {
    let mut s = String::from("<h1>Versions</h1>\n");
    let effect = |e: Effect| match e {
        Effect::Ok => "<span class=\"ok\">compatible</span>",
        Effect::Warn => "<span class=\"warn\">warning</span>",
        Effect::Break => "<span class=\"break\">breaks</span>",
    };
    for pair in all.windows(2).rev() {
        let (old, new) = (&pair[0], &pair[1]);
        let report = sbekit_compat::check(old.schema, new.schema, &Options::default());
        let _ = writeln!(
            s,
            "<section><h2 id=\"{}-{}\">Version {} → {}</h2>\n<p><code>{}</code> → <code>{}</code>: \
             {} change{}, verdict <strong>{:?}</strong>.</p>",
            version_id(&old.plan),
            version_id(&new.plan),
            version_name(&old.plan),
            version_name(&new.plan),
            esc(&old.schema.label),
            esc(&new.schema.label),
            report.diagnostics.len(),
            if report.diagnostics.len() == 1 { "" } else { "s" },
            report.verdict
        );
        let rows: Vec<Vec<String>> = report
            .diagnostics
            .iter()
            .map(|d| {
                vec![
                    format!("<code>{}</code>", esc(d.rule)),
                    esc(&d.message),
                    effect(d.backward).to_string(),
                    effect(d.forward).to_string(),
                ]
            })
            .collect();
        if !rows.is_empty() {
            s.push_str(&table(
                "",
                &[
                    "Rule",
                    "Change",
                    "New readers, old messages",
                    "Old readers, new messages",
                ],
                &rows,
            ));
        }
        s.push_str("</section>\n");
    }
    let newest = &all[all.len() - 1].plan;
    page("Versions", &newest.package, &s)
}

/// A version as the versions page names it (`3 (schema id 2)`).
fn version_name(p: &Plan) -> String {
    format!("{} (schema id {})", p.version, p.id)
}

/// A version as a fragment identifier.
fn version_id(p: &Plan) -> String {
    format!("id{}-v{}", p.id, p.version)
}

/// `search-index.js`: every message, group, var data, field, type and enum value, with the
/// page that shows it, as a script (a page opened from `file://` cannot fetch JSON).
pub fn search_index(p: &Plan) -> String {
    let mut items = Vec::new();
    let mut add = |name: &str, kind: String, href: String, text: &str| {
        items.push(serde_json::json!({ "n": name, "k": kind, "h": href, "d": text }));
    };
    fn walk(b: &Body, page: &str, add: &mut dyn FnMut(&str, String, String, &str)) {
        let path = b.path.join(".");
        for f in &b.fields {
            add(
                &f.name,
                format!("field of {path}"),
                format!("{page}#field-{}-{}", anchor(&path), anchor(&f.name)),
                f.description.as_deref().unwrap_or(""),
            );
        }
        for s in &b.sections {
            let name = format!("{path}.{}", s.name());
            match s {
                Section::Group { body, .. } => {
                    add(
                        s.name(),
                        format!("group of {path}"),
                        format!("{page}#group-{}", anchor(&name)),
                        "",
                    );
                    walk(body, page, add);
                }
                Section::Var { .. } => add(
                    s.name(),
                    format!("var data of {path}"),
                    format!("{page}#var-{}", anchor(&name)),
                    "",
                ),
            }
        }
    }
    for m in &p.messages {
        let page = message_file(&m.body.name);
        add(
            &m.body.name,
            format!("message {}", m.id),
            page.clone(),
            m.body.description.as_deref().unwrap_or(""),
        );
        walk(&m.body, &page, &mut add);
    }
    for (name, e) in &p.enums {
        let href = format!("types.html#enum-{}", anchor(name));
        add(
            name,
            "enum".into(),
            href.clone(),
            e.description.as_deref().unwrap_or(""),
        );
        for (v, raw, d) in &e.values {
            add(
                v,
                format!("value {} of {name}", value(raw, e.ty)),
                href.clone(),
                d.as_deref().unwrap_or(""),
            );
        }
    }
    for (name, d) in &p.sets {
        let href = format!("types.html#set-{}", anchor(name));
        add(
            name,
            "set".into(),
            href.clone(),
            d.description.as_deref().unwrap_or(""),
        );
        for (c, bit, desc) in &d.choices {
            add(
                c,
                format!("bit {bit} of {name}"),
                href.clone(),
                desc.as_deref().unwrap_or(""),
            );
        }
    }
    for (name, c) in &p.composites {
        let href = format!("types.html#composite-{}", anchor(name));
        add(
            name,
            "composite".into(),
            href,
            c.description.as_deref().unwrap_or(""),
        );
    }
    format!(
        "// The search index of this site (sbekit doc).\nwindow.SBEKIT_INDEX = {};\n",
        serde_json::Value::Array(items)
    )
}
