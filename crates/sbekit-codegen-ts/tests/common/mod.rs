//! Shared helpers of the TypeScript tests: the Node tools, generating and compiling packages,
//! running the harness, comparing JSON value for value.

#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Node and the pinned TypeScript compiler (installed by `npm ci` in `tests/node`).
pub struct Node {
    /// `tests/node`: harness, tsconfig base, node_modules.
    pub dir: PathBuf,
    /// The pinned `tsc`.
    pub tsc: PathBuf,
}

/// The Node tools, or `None` (a loud skip) when they are missing; under CI a failure.
pub fn tools(test: &str) -> Option<Node> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node");
    let tsc = dir.join("node_modules/.bin/tsc");
    let node_ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if node_ok && tsc.exists() {
        return Some(Node { dir, tsc });
    }
    let what = if node_ok {
        format!("{} (run `npm ci` in {})", tsc.display(), dir.display())
    } else {
        "node (Node 20+)".to_string()
    };
    sbekit_testdata::skip(test, format_args!("{what} not found"));
    None
}

/// Generates the package for `schema` into `root/name`.
pub fn generate(root: &Path, name: &str, schema: &Path) -> sbekit_ir::layout::Layout {
    let layout =
        sbekit_schema::load_layout(schema).unwrap_or_else(|e| panic!("{}: {e}", schema.display()));
    sbekit_codegen_ts::write_package(&layout, &root.join(name), &Default::default())
        .expect("write package");
    layout
}

/// Compiles every package under `root` (`root/*/src/*.ts`, plus `extra` files) with one `tsc`
/// run: type checks only, or emits JavaScript into `root/dist`.
pub fn compile(node: &Node, root: &Path, emit: bool, extra: &[&str]) {
    let base = node.dir.join("tsconfig.base.json");
    let mut include = vec!["*/src/*.ts".to_string()];
    include.extend(extra.iter().map(|s| s.to_string()));
    let cfg = serde_json::json!({
        "extends": base.display().to_string(),
        "compilerOptions": {
            "rootDir": ".",
            "outDir": "dist",
            "noEmit": !emit,
        },
        "include": include,
    });
    std::fs::write(root.join("tsconfig.json"), cfg.to_string()).expect("tsconfig");
    let out = Command::new(&node.tsc)
        .arg("-p")
        .arg(root)
        .output()
        .expect("run tsc");
    assert!(
        out.status.success(),
        "tsc failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs the harness on `inputs` against the compiled package `root/dist/name/src/index.js`.
pub fn harness(
    node: &Node,
    root: &Path,
    name: &str,
    inputs: &[Vec<u8>],
    decode_only: bool,
) -> Vec<Value> {
    let input = root.join(format!("{name}.hex"));
    let text: String = inputs.iter().map(|m| hex(m) + "\n").collect();
    std::fs::write(&input, text).expect("write input");
    let module = root.join("dist").join(name).join("src/index.js");
    let mut cmd = Command::new("node");
    cmd.arg(node.dir.join("harness.mjs"))
        .arg(&module)
        .arg(&input);
    if decode_only {
        cmd.arg("--decode-only");
    }
    let out = cmd.output().expect("run node");
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad harness line {l}: {e}")))
        .collect();
    assert_eq!(lines.len(), inputs.len(), "one harness line per message");
    lines
}

/// Lower-case hex.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Bytes from hex.
pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// True when two JSON values are equal, numbers compared as numbers (`49` equals `49.0`, and
/// two texts of the same float32 are equal): the one equality `sbekit conformance` judges by.
pub fn same(a: &Value, b: &Value) -> bool {
    sbekit_testdata::same_json(a, b)
}

/// The JSON `sbekit decode` prints for one message.
pub fn otf_json(dec: &sbekit_otf::Decoder, bytes: &[u8]) -> Value {
    let (text, _) = sbekit_otf::message_to_decode_json(dec, bytes, false).expect("otf decodes");
    serde_json::from_str(&text).expect("otf json")
}

/// Runs `node root/<js>` and returns its stdout (panics with its output when it fails).
pub fn run_node(root: &Path, js: &str) -> String {
    let out = Command::new("node")
        .arg(root.join(js))
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}
