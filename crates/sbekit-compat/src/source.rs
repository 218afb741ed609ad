//! Loading one side of a comparison: an XML schema, a `.sbeir` file, or `git:REV:path` (read
//! with `git show`, never checked out; the files it XIncludes are read from the same revision).

use crate::error::LoadError;
use crate::locate::SourceIndex;
use sbekit_ir::layout::Layout;
use sbekit_ir::Ir;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Most files one schema may pull in through XInclude (the compiler's own limit is similar).
const MAX_FILES: usize = 64;

/// One side of a comparison.
#[derive(Debug, Clone)]
pub struct Schema {
    /// How diagnostics name the main file (`new.xml`, `git:HEAD~1:schemas/a.xml`).
    pub label: String,
    /// The schema's IR (the oracle's random writer and decoder run from it).
    pub ir: Ir,
    /// The layout model (the checker compares these).
    pub layout: Layout,
    /// Element locations in the XML text; empty for `.sbeir`.
    pub index: SourceIndex,
}

impl Schema {
    /// Builds a side from IR that is already loaded (no source locations).
    pub fn from_ir(label: &str, ir: Ir) -> Result<Schema, LoadError> {
        let layout = Layout::from_ir(&ir).map_err(|e| LoadError::Ir {
            label: label.to_string(),
            message: e.to_string(),
        })?;
        Ok(Schema {
            label: label.to_string(),
            ir,
            layout,
            index: SourceIndex::default(),
        })
    }

    /// Compiles XML schema text; XIncludes resolve relative to `name` on disk.
    pub fn from_xml_str(label: &str, text: &str) -> Result<Schema, LoadError> {
        let compiled = sbekit_schema::compile_str(text, label, &Default::default());
        let ir = compiled
            .ir
            .ok_or_else(|| schema_errors(label, &compiled.diagnostics))?;
        let mut s = Schema::from_ir(label, ir)?;
        s.index = SourceIndex::new(&[(label.to_string(), text.to_string())]);
        Ok(s)
    }
}

fn schema_errors(label: &str, diags: &[sbekit_schema::Diagnostic]) -> LoadError {
    LoadError::Schema {
        label: label.to_string(),
        diagnostics: diags.to_vec(),
    }
}

fn ir_error(label: &str, e: impl std::fmt::Display) -> LoadError {
    LoadError::Ir {
        label: label.to_string(),
        message: e.to_string(),
    }
}

/// Loads `spec`: a file path (XML or `.sbeir`), or `git:REV:path` read from the repository
/// around the current directory.
pub fn load(spec: &str) -> Result<Schema, LoadError> {
    if let Some(rest) = spec.strip_prefix("git:") {
        let (rev, path) = rest
            .split_once(':')
            .ok_or_else(|| LoadError::Spec(spec.to_string()))?;
        return load_git(Path::new("."), rev, path, spec);
    }
    load_file(Path::new(spec), spec)
}

/// Loads a schema file; `label` names it in diagnostics.
pub fn load_file(path: &Path, label: &str) -> Result<Schema, LoadError> {
    let bytes = std::fs::read(path).map_err(|e| LoadError::Io {
        path: path.to_path_buf(),
        source: e,
    })?;
    if !sbekit_schema::looks_like_xml(&bytes) {
        let ir = sbekit_ir::sbeir::decode(&bytes).map_err(|e| ir_error(label, e))?;
        return Schema::from_ir(label, ir);
    }
    let compiled = sbekit_schema::compile_file(path, &Default::default());
    let ir = compiled
        .ir
        .ok_or_else(|| schema_errors(label, &compiled.diagnostics))?;
    let mut s = Schema::from_ir(label, ir)?;
    let mut files = Vec::new();
    collect_files(path, label, &mut files, &mut |p| {
        std::fs::read_to_string(p).ok()
    });
    s.index = SourceIndex::new(&files);
    Ok(s)
}

/// Reads `path` and the files it XIncludes (relative hrefs), through `read`, labelling each
/// relative to `label`.
fn collect_files(
    path: &Path,
    label: &str,
    out: &mut Vec<(String, String)>,
    read: &mut dyn FnMut(&Path) -> Option<String>,
) {
    if out.len() >= MAX_FILES || out.iter().any(|(l, _)| l == label) {
        return;
    }
    let Some(text) = read(path) else { return };
    let hrefs = include_hrefs(&text);
    out.push((label.to_string(), text));
    for href in hrefs {
        let child = path.parent().unwrap_or(Path::new("")).join(&href);
        let child_label = match label.rfind('/') {
            Some(i) => format!("{}/{href}", &label[..i]),
            None => href.clone(),
        };
        collect_files(&child, &child_label, out, read);
    }
}

/// The `href`s of a text's `xi:include` elements.
fn include_hrefs(text: &str) -> Vec<String> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: false,
        ..Default::default()
    };
    let Ok(doc) = roxmltree::Document::parse_with_options(text, opts) else {
        return Vec::new();
    };
    doc.descendants()
        .filter(|n| n.is_element() && n.tag_name().name() == "include")
        .filter_map(|n| n.attribute("href"))
        .filter(|h| !h.contains("://") && !Path::new(h).is_absolute())
        .map(str::to_string)
        .collect()
}

/// Reads `REV:path` from the repository at `repo` with `git show`, with the files it
/// XIncludes, into a temporary directory, and compiles it there.
pub fn load_git(repo: &Path, rev: &str, path: &str, label: &str) -> Result<Schema, LoadError> {
    let dir = tempfile::tempdir().map_err(|e| LoadError::Scratch {
        what: "cannot create a temporary directory".into(),
        source: e,
    })?;
    let rel = PathBuf::from(path.trim_start_matches("./"));
    let raw = git_show_bytes(repo, rev, &rel).map_err(LoadError::Git)?;
    if !sbekit_schema::looks_like_xml(&raw) {
        let ir = sbekit_ir::sbeir::decode(&raw).map_err(|e| ir_error(label, e))?;
        return Schema::from_ir(label, ir);
    }
    let mut files = Vec::new();
    let mut failure = None;
    {
        let mut read = |p: &Path| -> Option<String> {
            match git_show(repo, rev, p) {
                Ok(text) => Some(text),
                Err(e) => {
                    failure.get_or_insert(e);
                    None
                }
            }
        };
        collect_files(&rel, label, &mut files, &mut read);
    }
    if files.is_empty() {
        return Err(LoadError::Git(
            failure.unwrap_or_else(|| format!("{label}: not found")),
        ));
    }
    // Mirror the files in the temporary directory so relative XIncludes resolve.
    let mut paths = vec![rel.clone()];
    let mut k = 0;
    while k < paths.len() && k < files.len() {
        let p = paths[k].clone();
        for href in include_hrefs(&files[k].1) {
            paths.push(p.parent().unwrap_or(Path::new("")).join(href));
        }
        k += 1;
    }
    for (p, (_, text)) in paths.iter().zip(&files) {
        let target = dir.path().join(normalize(p));
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| LoadError::Scratch {
                what: parent.display().to_string(),
                source: e,
            })?;
        }
        std::fs::write(&target, text).map_err(|e| LoadError::Scratch {
            what: target.display().to_string(),
            source: e,
        })?;
    }
    let main = dir.path().join(normalize(&rel));
    let compiled = sbekit_schema::compile_file(&main, &Default::default());
    let ir = compiled
        .ir
        .ok_or_else(|| schema_errors(label, &compiled.diagnostics))?;
    let mut s = Schema::from_ir(label, ir)?;
    s.index = SourceIndex::new(&files);
    Ok(s)
}

/// `a/b/../c` as `a/c`; a path climbing above the repository root keeps its remaining parts.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::Normal(n) => out.push(n),
            _ => {}
        }
    }
    out
}

fn git_show(repo: &Path, rev: &str, path: &Path) -> Result<String, String> {
    let bytes = git_show_bytes(repo, rev, path)?;
    String::from_utf8(bytes).map_err(|_| format!("git show {rev}:{}: not UTF-8", path.display()))
}

fn git_show_bytes(repo: &Path, rev: &str, path: &Path) -> Result<Vec<u8>, String> {
    let spec = format!("{rev}:./{}", normalize(path).display());
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .arg("show")
        .arg(&spec)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git show {spec}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(out.stdout)
}
