//! What a user reads (issue 35): every help text names the languages and profiles that exist,
//! no output leaks a Rust debug form (`Some(..)`, `None`), and every line a command prints ends
//! with a line break (so that what follows on the other stream is never glued to it).

use std::path::Path;
use std::process::{Command, Output};

/// The languages `sbekit generate` and `sbekit conformance` take, as help texts name them.
const LANGUAGES: [&str; 7] = ["Rust", "TypeScript", "C++", "C", "Java", "Go", "C#"];

fn sbekit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sbekit"))
        .args(args)
        .output()
        .expect("run sbekit")
}

/// The subcommand names listed under a help text's `Commands:` heading (`help` aside).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // A command's line is indented by two; its wrapped description by more.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Fails on a debug form or an unterminated line in what `what` printed.
fn assert_clean(what: &str, stream: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for (i, line) in text.lines().enumerate() {
        for leak in ["Some(", "None", "Ok(", "Err("] {
            // As a word: "None" inside a name (e.g. "NoneOf") is no leak.
            let leaked = line.match_indices(leak).any(|(at, _)| {
                let before = line[..at].chars().next_back();
                let after = line[at + leak.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric())
                    && (leak.ends_with('(') || !after.is_some_and(|c| c.is_alphanumeric()))
            });
            assert!(
                !leaked,
                "{what}: {stream} line {} shows a debug form {leak:?}: {line}",
                i + 1
            );
        }
    }
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "{what}: {stream} does not end with a line break: {:?}",
        text.chars().rev().take(80).collect::<String>()
    );
}

fn run_clean(args: &[&str]) -> Output {
    let out = sbekit(args);
    let what = format!("sbekit {}", args.join(" "));
    assert_clean(&what, "stdout", &out.stdout);
    assert_clean(&what, "stderr", &out.stderr);
    out
}

#[test]
fn every_help_text_is_clean_and_names_what_exists() {
    let top = String::from_utf8(run_clean(&["--help"]).stdout).expect("utf8");
    let mut seen = 0;
    let mut stack: Vec<Vec<String>> = subcommands(&top).into_iter().map(|c| vec![c]).collect();
    assert!(stack.len() >= 12, "top-level commands: {stack:?}");
    while let Some(path) = stack.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let out = run_clean(&args);
        assert!(out.status.success(), "sbekit {}", args.join(" "));
        let help = String::from_utf8(out.stdout).expect("utf8");
        seen += 1;
        for sub in subcommands(&help) {
            let mut p = path.clone();
            p.push(sub);
            stack.push(p);
        }
    }
    assert!(seen >= 25, "{seen} help texts read");

    // The languages: in the top-level list, `generate`'s first line and `conformance --lang`.
    let generate_line = top
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("generate"))
        .take_while(|l| !l.trim_start().starts_with("conformance"))
        .collect::<Vec<_>>()
        .join(" ");
    let generate = String::from_utf8(sbekit(&["generate", "--help"]).stdout).expect("utf8");
    let first = generate
        .split("\n\n")
        .next()
        .unwrap_or_default()
        .replace('\n', " ");
    let conformance = String::from_utf8(sbekit(&["conformance", "--help"]).stdout).expect("utf8");
    for lang in LANGUAGES {
        let named = |text: &str| {
            text.match_indices(lang).any(|(at, _)| {
                // "C" as a word, not the C of "C++" or "C#".
                let after = text[at + lang.len()..].chars().next();
                lang != "C" || !matches!(after, Some('+' | '#'))
            })
        };
        assert!(
            named(&generate_line),
            "`sbekit --help` generate: no {lang}: {generate_line}"
        );
        assert!(
            named(&first),
            "`sbekit generate --help` first line: no {lang}: {first}"
        );
    }
    for lang in ["cpp", "rust", "ts", "java", "go", "`c`", "csharp"] {
        assert!(conformance.contains(lang), "conformance --help: no {lang}");
    }

    // Every built-in framing profile is named where `--profile` is explained.
    let capture = String::from_utf8(sbekit(&["capture", "--help"]).stdout).expect("utf8");
    for p in sbekit_feed::profile::BUILT_IN {
        assert!(capture.contains(p), "capture --help: no profile {p}");
    }
}

/// A synthetic capture with gaps, duplicates and a second side for arbitration: the statistics
/// text shows sequence ranges as numbers, and nothing in any of these outputs is a debug form.
#[test]
fn capture_outputs_are_clean() {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/market-data.xml");
    let schema = schema.to_str().expect("utf8 path");
    let a = dir.path().join("a.pcapng");
    let b = dir.path().join("b.pcapng");
    let (a, b) = (a.to_str().expect("utf8"), b.to_str().expect("utf8"));
    let synth = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "capture",
            "synth",
            "-p",
            "cme-mdp3",
            "-s",
            schema,
            "-o",
            out,
            "--messages",
            "3000",
        ];
        args.extend_from_slice(extra);
        let o = run_clean(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    synth(a, &["--gaps", "3", "--duplicates", "2"]);
    synth(b, &["--drop", "5,6,7"]);
    let stats = run_clean(&["capture", "stats", "-p", "cme-mdp3", "-s", schema, a]);
    assert!(stats.status.success());
    let text = String::from_utf8(stats.stdout).expect("utf8");
    assert!(
        text.lines()
            .any(|l| l.contains(": ") && l.contains(" seq 1..") && l.contains("3 gaps")),
        "no numeric sequence range in:\n{text}"
    );
    let arb = run_clean(&[
        "capture",
        "stats",
        "--arbitrate",
        "-p",
        "cme-mdp3",
        "-s",
        schema,
        a,
        b,
    ]);
    assert!(arb.status.success());
    let text = String::from_utf8(arb.stdout).expect("utf8");
    assert!(text.contains("arbitration: packets "), "{text}");
    let o = run_clean(&[
        "capture", "stats", "--json", "-p", "cme-mdp3", "-s", schema, a,
    ]);
    assert!(o.status.success());
    let o = run_clean(&[
        "capture",
        "stats",
        "--validate",
        "-p",
        "cme-mdp3",
        "-s",
        schema,
        a,
    ]);
    assert!(o.status.success());
    let o = run_clean(&["capture", "decode", "-p", "cme-mdp3", "-s", schema, a]);
    assert!(o.status.success());
    // A file that is no capture: counted as bad, reported on stderr as one terminated line,
    // and an error with --strict.
    let junk = dir.path().join("junk.pcap");
    std::fs::write(&junk, b"not a capture at all").expect("write");
    let junk = junk.to_str().expect("utf8");
    let o = run_clean(&["capture", "stats", "-p", "cme-mdp3", "-s", schema, junk]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not a pcap or pcap-ng capture"), "{err}");
    let o = run_clean(&[
        "capture", "stats", "--strict", "-p", "cme-mdp3", "-s", schema, junk,
    ]);
    assert!(!o.status.success());
}

/// Schema, IEX, compat and doc commands: what they print has no debug form and ends every line.
#[test]
fn other_outputs_are_clean() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let md = root.join("schemas/market-data.xml");
    let md = md.to_str().expect("utf8");
    let v0 = root.join("crates/sbekit-codegen-tests/schemas/versioned-v0.xml");
    let v1 = root.join("crates/sbekit-codegen-tests/schemas/versioned-v1.xml");
    let (v0, v1) = (v0.to_str().expect("utf8"), v1.to_str().expect("utf8"));
    assert!(run_clean(&["check", md]).status.success());
    assert!(run_clean(&["inspect", md]).status.success());
    let o = run_clean(&["compat", v0, v1]);
    assert!(!o.stdout.is_empty() || !o.stderr.is_empty());
    let _ = run_clean(&["compat", "--tier", "api", v1, v0]);
    // `doc`: one line naming the page to open; an invalid schema is exit 1, not a panic.
    let site = dir.path().join("site");
    let o = run_clean(&["doc", v0, v1, "-o", site.to_str().expect("utf8")]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("index.html"));
    assert!(site.join("index.html").is_file() && site.join("versions.html").is_file());
    let bad = dir.path().join("bad.xml");
    std::fs::write(&bad, "<messageSchema").expect("write");
    let o = run_clean(&[
        "doc",
        bad.to_str().expect("utf8"),
        "-o",
        site.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let iex = dir.path().join("day.pcapng");
    let iex = iex.to_str().expect("utf8");
    assert!(
        run_clean(&["iex", "synth", "--messages", "5000", "-o", iex])
            .status
            .success()
    );
    assert!(run_clean(&["iex", "stats", iex]).status.success());
    // A schema that does not exist: one error line, terminated.
    let o = run_clean(&["inspect", "no-such-schema.xml"]);
    assert!(!o.status.success());
}

/// `conformance --write-messages` prints one file per schema (a line each, for a shell loop),
/// and a run given fewer `--messages` than schemas says so in one line and exits 2.
#[test]
fn conformance_messages_files_one_per_schema() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let md = root.join("schemas/market-data.xml");
    let ob = root.join("crates/sbekit-codegen-tests/schemas/orders-be.xml");
    let (md, ob) = (md.to_str().expect("utf8"), ob.to_str().expect("utf8"));
    let out = dir.path().join("msgs");
    let out = out.to_str().expect("utf8");
    let o = run_clean(&[
        "conformance",
        "--schema",
        md,
        "--schema",
        ob,
        "--write-messages",
        out,
    ]);
    assert!(o.status.success());
    let files: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(
        files,
        [
            format!("{out}/00-market-data.u32"),
            format!("{out}/01-orders-be.u32")
        ]
    );
    for f in &files {
        let bytes = std::fs::read(f).expect("written");
        assert!(bytes.len() > 1000, "{f}: {} bytes", bytes.len());
    }
    let o = run_clean(&[
        "conformance",
        "--schema",
        md,
        "--schema",
        ob,
        "--lang",
        "c",
        "--messages",
        &files[0],
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--messages given once for 2 schemas"), "{err}");
}
