//! The site of the repository's own schemas: every page is whole, every link lands on an id
//! that exists, byte maps put each field at its offset, search finds every field, and the
//! versions page lists what `sbekit compat` finds.

use sbekit_doc::{site, GeneratedFile};
use sbekit_plan::{Body, Plan};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn load(rel: &str) -> sbekit_compat::Schema {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    sbekit_compat::load_file(&root.join(rel), rel).expect(rel)
}

fn pages(files: &[GeneratedFile]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|f| (f.path.display().to_string(), f.text.clone()))
        .collect()
}

/// Every value of attribute `attr` in `html`.
fn attrs<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let key = format!(" {attr}=\"");
    html.match_indices(&key)
        .filter_map(|(i, _)| {
            let rest = &html[i + key.len()..];
            rest.find('"').map(|e| &rest[..e])
        })
        .collect()
}

const OWN: [&str; 5] = [
    "schemas/market-data.xml",
    "schemas/trades.xml",
    "crates/sbekit-codegen-tests/schemas/orders-be.xml",
    "crates/sbekit-codegen-tests/schemas/keywords.xml",
    "crates/sbekit-codegen-tests/schemas/hostile-names.xml",
];

#[test]
fn pages_are_whole_and_every_link_lands() {
    for rel in OWN {
        let files = site(&[load(rel)]).expect(rel);
        let pages = pages(&files);
        let mut ids: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for (name, text) in &pages {
            if !name.ends_with(".html") {
                continue;
            }
            assert!(
                text.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"),
                "{rel} {name}"
            );
            assert!(text.trim_end().ends_with("</html>"), "{rel} {name}");
            assert_eq!(text.matches("<h1>").count(), 1, "{rel} {name}: one h1");
            let set: BTreeSet<&str> = attrs(text, "id").into_iter().collect();
            assert_eq!(
                set.len(),
                attrs(text, "id").len(),
                "{rel} {name}: ids unique"
            );
            ids.insert(name, set);
        }
        for (name, text) in &pages {
            for href in attrs(text, "href") {
                let (file, frag) = href.split_once('#').unwrap_or((href, ""));
                let file = if file.is_empty() { name.as_str() } else { file };
                assert!(pages.contains_key(file), "{rel} {name}: link to {href}");
                if !frag.is_empty() {
                    assert!(
                        ids.get(file).is_some_and(|s| s.contains(frag)),
                        "{rel} {name}: {href} lands on no id"
                    );
                }
            }
        }
    }
}

#[test]
fn byte_maps_draw_each_field_at_its_offset_and_search_finds_it() {
    let schema = load("crates/sbekit-codegen-tests/schemas/orders-be.xml");
    let plan = Plan::new(&schema.layout).expect("plan");
    let pages = pages(&site(&[schema]).expect("site"));
    let index = &pages["search-index.js"];
    fn check(b: &Body, page: &str, index: &str) {
        for f in &b.fields {
            let boxed = format!("data-field=\"{}\" data-offset=\"{}\"", f.name, f.offset);
            // A constant takes no bytes: no box. Every other field: one, at its offset.
            assert_eq!(
                page.matches(&boxed).count(),
                usize::from(f.size > 0),
                "{}.{}",
                b.name,
                f.name
            );
            assert!(
                index.contains(&format!("\"n\":\"{}\"", f.name)),
                "{}",
                f.name
            );
        }
        for (_, _, g) in b.groups() {
            check(g, page, index);
        }
    }
    for m in &plan.messages {
        let page = &pages[&format!("message-{}.html", m.body.name)];
        check(&m.body, page, index);
        assert!(pages["index.html"].contains(&format!("message-{}.html", m.body.name)));
    }
    // The x of the first box of a field at offset 8 is 8 bytes in.
    let order = &pages["message-Order.html"];
    let at = order.find("data-offset=\"8\"").expect("a field at 8");
    let x = format!("<rect x=\"{}\"", 8 * sbekit_doc::bytemap::BYTE_WIDTH);
    assert!(order[at..].contains(&x));
}

#[test]
fn versions_page_lists_what_compat_finds() {
    let old = load("crates/sbekit-codegen-tests/schemas/versioned-v0.xml");
    let new = load("crates/sbekit-codegen-tests/schemas/versioned-v1.xml");
    let report = sbekit_compat::check(&old, &new, &Default::default());
    assert!(!report.diagnostics.is_empty());
    // Given newest first, the site still documents the newest and steps from the oldest.
    let pages = pages(&site(&[new, old]).expect("site"));
    let versions = &pages["versions.html"];
    assert!(versions.contains("Version 0 (schema id 7) → 1 (schema id 7)"));
    for d in &report.diagnostics {
        assert!(
            versions.contains(&format!("<code>{}</code>", d.rule)),
            "{}",
            d.rule
        );
    }
    assert!(pages["index.html"].contains("href=\"versions.html\""));
    assert!(pages["index.html"].contains("<dt>Version</dt><dd>1</dd>"));
}

#[test]
fn nothing_or_unrelated_schemas_are_an_error() {
    assert!(site(&[]).is_err());
    // Neither the package nor the schema id in common: not one schema's versions.
    let e = site(&[
        load("schemas/market-data.xml"),
        load("crates/sbekit-codegen-tests/schemas/keywords.xml"),
    ])
    .expect_err("refused");
    assert!(e.to_string().contains("not versions of one schema"), "{e}");
}
