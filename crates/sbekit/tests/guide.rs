//! The guide's runnable examples (`docs/guide/*.md` and `README.md`, issue 35).
//!
//! A fenced block whose info string is `sh run` is what a user types: it runs here with
//! `bash -euo pipefail -c BLOCK` in a fresh temporary directory, with the freshly built `sbekit`
//! first on `PATH`, `SBEKIT_REPO` the workspace root and `SHARED` the shared test material
//! (`sbekit_testdata::shared_dir`). Attributes after `run`: `needs=shared` (the block reads
//! `$SHARED`), `needs=~/FILE` (a file under the home directory, such as a jar in `~/.m2`) and
//! `needs=TOOL` (a command that must be on `PATH`); a block whose needs are not
//! met is skipped through `sbekit_testdata::skip` (loud here, a failure under `CI=true`). Plain
//! `sh` blocks are documentation only.
//!
//! Also checked: every guide page with shell examples has a runnable one, the examples the
//! front page keeps for other tests (TypeScript, Java, C#, Python, Spark) equal their guide
//! pages' copies, and relative links (with their `#anchors`) resolve.

#![cfg(unix)]

use std::fmt::Write as _;
use std::fs::File;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A block that runs longer than this is killed (with its process group) and fails: a guard
/// against a hang, far above what any block needs.
const BLOCK_TIMEOUT: Duration = Duration::from_secs(300);

/// One fenced code block of a Markdown page.
#[derive(Debug, PartialEq)]
struct Block {
    /// The info string's first word (`sh`, `rust`, ...), empty when there is none.
    lang: String,
    /// `sh run`: the test runs it.
    run: bool,
    /// The `needs=` values, in order (`shared` or a command name).
    needs: Vec<String>,
    /// The 1-based line of the opening fence.
    line: usize,
    /// The lines between the fences (each ending in a newline), the fence's indentation removed.
    body: String,
}

/// A fence: its character, its length and its indentation, if `line` opens or closes one.
fn fence(line: &str) -> Option<(char, usize, usize)> {
    let trimmed = line.trim_start_matches(' ');
    let indent = line.len() - trimmed.len();
    let c = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = trimmed.chars().take_while(|x| *x == c).count();
    (indent <= 3 && n >= 3).then_some((c, n, indent))
}

/// Whether `line` closes a block opened by `n` fence characters `c`: at least as many, and no
/// info string.
fn closes(line: &str, c: char, n: usize) -> bool {
    fence(line).is_some_and(|(c2, n2, _)| {
        c2 == c && n2 >= n && line.trim_start_matches(' ')[n2..].trim().is_empty()
    })
}

/// The fenced code blocks of a Markdown page, or what is wrong with one of them.
fn blocks(text: &str) -> Result<Vec<Block>, String> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let Some((c, n, indent)) = fence(line) else {
            continue;
        };
        let info = line.trim_start_matches(' ')[n..].trim();
        let mut words = info.split_whitespace();
        let lang = words.next().unwrap_or("").to_string();
        let rest: Vec<&str> = words.collect();
        let run = lang == "sh" && rest.first() == Some(&"run");
        if !run && !rest.is_empty() && (rest.contains(&"run") || lang == "sh") {
            return Err(format!(
                "line {}: info string `{info}`: only `sh run` blocks take attributes",
                i + 1
            ));
        }
        let mut needs = Vec::new();
        for attr in rest.iter().skip(1).filter(|_| run) {
            match attr.strip_prefix("needs=") {
                Some(v) if !v.is_empty() => {
                    needs.extend(v.split(',').filter(|s| !s.is_empty()).map(String::from))
                }
                _ => {
                    return Err(format!(
                        "line {}: unknown attribute `{attr}` (only needs=shared or needs=TOOL)",
                        i + 1
                    ))
                }
            }
        }
        let mut body = String::new();
        let mut closed = false;
        for (_, l) in lines.by_ref() {
            if closes(l, c, n) {
                closed = true;
                break;
            }
            let strip = l.len() - l.trim_start_matches(' ').len();
            body.push_str(&l[strip.min(indent)..]);
            body.push('\n');
        }
        if !closed {
            return Err(format!("line {}: the code block is never closed", i + 1));
        }
        out.push(Block {
            lang,
            run,
            needs,
            line: i + 1,
            body,
        });
    }
    Ok(out)
}

/// Shell blocks, runnable or not.
fn is_shell(b: &Block) -> bool {
    matches!(b.lang.as_str(), "sh" | "bash" | "shell" | "console")
}

/// The workspace root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root")
}

/// `README.md` and every `docs/guide/*.md`, as (path relative to the root, text, blocks).
fn pages() -> Vec<(String, String, Vec<Block>)> {
    let root = repo();
    let mut names = vec!["README.md".to_string()];
    let mut guide: Vec<String> = std::fs::read_dir(root.join("docs/guide"))
        .expect("docs/guide")
        .map(|e| e.expect("a directory entry").file_name())
        .filter_map(|n| n.to_str().map(String::from))
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/guide/{n}"))
        .collect();
    guide.sort();
    assert!(guide.len() > 1, "docs/guide holds the guide's pages");
    names.extend(guide);
    names
        .into_iter()
        .map(|name| {
            let text =
                std::fs::read_to_string(root.join(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let b = blocks(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, text, b)
        })
        .collect()
}

/// Whether `tool` is an executable file in a directory of `path`.
fn on_path(tool: &str, path: &std::ffi::OsStr) -> bool {
    std::env::split_paths(path).any(|dir| {
        std::fs::metadata(dir.join(tool))
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    })
}

/// The last `max` bytes of a file the block wrote (its stdout or stderr), lossily as text.
fn tail(path: &Path, max: usize) -> String {
    let bytes = std::fs::read(path).unwrap_or_default();
    let start = bytes.len().saturating_sub(max);
    let mut s = String::from_utf8_lossy(&bytes[start..]).into_owned();
    if start > 0 {
        s.insert_str(0, "[...]\n");
    }
    s
}

/// Runs `body` as the guide says; its exit status, or `None` if it was killed for taking too
/// long.
fn run_block(
    body: &str,
    env: &[(&str, &std::ffi::OsStr)],
    stdout: &Path,
    stderr: &Path,
) -> Option<ExitStatus> {
    let cwd = tempfile::tempdir().expect("a temporary directory");
    let mut cmd = Command::new("bash");
    cmd.args(["-euo", "pipefail", "-c", body])
        .current_dir(cwd.path())
        // Blocks that build with cargo use their own target directories, never the one this
        // test runs from.
        .env_remove("CARGO_TARGET_DIR")
        .stdin(Stdio::null())
        .stdout(File::create(stdout).expect("stdout file"))
        .stderr(File::create(stderr).expect("stderr file"))
        // Its own process group, so that a block that hangs is killed with its children.
        .process_group(0);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("run bash");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for bash") {
            return Some(status);
        }
        if start.elapsed() > BLOCK_TIMEOUT {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn guide_blocks_run() {
    const TEST: &str = "guide_blocks_run";
    let root = repo();
    let bin = Path::new(env!("CARGO_BIN_EXE_sbekit"))
        .parent()
        .expect("the sbekit binary's directory")
        .to_path_buf();
    let mut dirs = vec![bin];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let path = std::env::join_paths(dirs).expect("PATH");
    let shared = sbekit_testdata::shared_dir();
    let shared = shared.canonicalize().unwrap_or(shared);
    let env: [(&str, &std::ffi::OsStr); 3] = [
        ("PATH", path.as_os_str()),
        ("SBEKIT_REPO", root.as_os_str()),
        ("SHARED", shared.as_os_str()),
    ];
    let logs = tempfile::tempdir().expect("a temporary directory");
    let (stdout, stderr) = (logs.path().join("stdout"), logs.path().join("stderr"));

    let started = Instant::now();
    let (mut ran, mut skipped) = (0usize, 0usize);
    let mut failures = String::new();
    for (name, _, page_blocks) in pages() {
        for b in page_blocks.iter().filter(|b| b.run) {
            let at = format!("{name}:{}", b.line);
            let unmet: Vec<String> = b
                .needs
                .iter()
                .filter_map(|need| match need.as_str() {
                    // An empty folder is no shared material (the newcomer run of `.ci/run`
                    // points SBEKIT_SHARED_DIR at one).
                    "shared" => (!has_entries(&shared)).then(|| {
                        format!("{} (the shared test material) not found", shared.display())
                    }),
                    file if file.starts_with("~/") => {
                        let home = std::env::var_os("HOME").unwrap_or_default();
                        let f = Path::new(&home).join(&file[2..]);
                        (!f.is_file()).then(|| format!("{} not found", f.display()))
                    }
                    tool => (!on_path(tool, &path)).then(|| format!("`{tool}` is not on PATH")),
                })
                .collect();
            if !unmet.is_empty() {
                sbekit_testdata::skip(
                    &format!("{TEST} ({at})"),
                    format_args!("the block needs what is missing: {}", unmet.join("; ")),
                );
                skipped += 1;
                continue;
            }
            let t = Instant::now();
            let status = run_block(&b.body, &env, &stdout, &stderr);
            ran += 1;
            let secs = t.elapsed().as_secs_f64();
            match status {
                Some(s) if s.success() => eprintln!("{TEST}: {at}: ok in {secs:.1} s"),
                _ => {
                    let what = status.map_or_else(
                        || format!("killed after {} s", BLOCK_TIMEOUT.as_secs()),
                        |s| s.to_string(),
                    );
                    let _ = write!(
                        failures,
                        "\n==== {at}: {what}\n--- block ---\n{}--- stdout ---\n{}\n--- stderr ---\n{}\n",
                        b.body,
                        tail(&stdout, 4000),
                        tail(&stderr, 4000),
                    );
                }
            }
        }
    }
    eprintln!(
        "{TEST}: {ran} blocks ran, {skipped} skipped, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "guide blocks failed:{failures}");
    assert!(ran > 0, "no runnable block ran ({skipped} skipped)");
}

#[test]
fn every_page_with_shell_examples_has_a_runnable_block() {
    let mut total = 0;
    for (name, _, b) in pages() {
        total += b.iter().filter(|b| b.run).count();
        if name.starts_with("docs/guide/") && b.iter().any(is_shell) {
            assert!(
                b.iter().any(|b| b.run),
                "{name} has shell examples but no `sh run` block"
            );
        }
    }
    assert!(total > 0, "the guide has no runnable block");
}

/// The front page keeps the examples other tests read from it (TypeScript, Java, C#, Python,
/// Spark); each must be the same text as on its guide page.
#[test]
fn front_page_examples_match_the_guide() {
    let all = pages();
    let (readme, guide) = all.split_first().expect("README.md first");
    let mut checked = 0;
    for b in readme.2.iter().filter(|b| !is_shell(b) && b.lang != "text") {
        let found = guide
            .iter()
            .any(|(_, _, gb)| gb.iter().any(|g| g.lang == b.lang && g.body == b.body));
        assert!(
            found,
            "README.md:{}: this `{}` block is on no guide page as it is here",
            b.line, b.lang
        );
        checked += 1;
    }
    assert!(
        checked >= 5,
        "README.md keeps {checked} examples, expected 5"
    );
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The lines of a page outside its code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut open: Option<(char, usize)> = None;
    for line in text.lines() {
        match open {
            None => match fence(line) {
                Some((c, n, _)) => open = Some((c, n)),
                None => out.push(line),
            },
            Some((c, n)) if closes(line, c, n) => open = None,
            Some(_) => {}
        }
    }
    out
}

/// The anchors of a page's headings, with GitHub's `-1`, `-2` for repeated ones.
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in prose(text) {
        let Some(h) = line.strip_prefix('#') else {
            continue;
        };
        let h = h.trim_start_matches('#');
        if !h.starts_with(' ') {
            continue;
        }
        let base = slug(h);
        let mut s = base.clone();
        let mut k = 0;
        while out.contains(&s) {
            k += 1;
            s = format!("{base}-{k}");
        }
        out.push(s);
    }
    out
}

#[test]
fn relative_links_resolve() {
    let root = repo();
    let mut broken = Vec::new();
    let mut checked = 0;
    for (name, text, _) in pages() {
        let dir = root
            .join(&name)
            .parent()
            .expect("a page's directory")
            .to_path_buf();
        for line in prose(&text) {
            let mut rest = line;
            while let Some(i) = rest.find("](") {
                let after = &rest[i + 2..];
                let Some(j) = after.find(')') else { break };
                let target = &after[..j];
                rest = &after[j..];
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
                let path = if file.is_empty() {
                    root.join(&name)
                } else {
                    dir.join(file)
                };
                checked += 1;
                if !path.exists() {
                    broken.push(format!("{name}: {target}: no such file"));
                    continue;
                }
                if !anchor.is_empty() && path.extension().is_some_and(|e| e == "md") {
                    let target_text = std::fs::read_to_string(&path).expect("a linked page");
                    if !anchors(&target_text).iter().any(|a| a == anchor) {
                        broken.push(format!("{name}: {target}: no such heading"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 20, "only {checked} links found");
}

#[test]
fn extractor_reads_info_strings_attributes_and_lines() {
    let page = "\
# Title

```sh
plain documentation
```

```sh run
echo one
```

Text.

```sh run needs=shared needs=go
echo \"$SHARED\"
```

- a list item:

  ```sh run needs=javac,java
  javac -version
    indented more
  ```

````markdown
```sh run
not a block of its own
```
````

```rust
fn main() {}
```
";
    let b = blocks(page).expect("a valid page");
    let summary: Vec<(&str, bool, Vec<&str>, usize)> = b
        .iter()
        .map(|b| {
            (
                b.lang.as_str(),
                b.run,
                b.needs.iter().map(String::as_str).collect(),
                b.line,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("sh", false, vec![], 3),
            ("sh", true, vec![], 7),
            ("sh", true, vec!["shared", "go"], 13),
            ("sh", true, vec!["javac", "java"], 19),
            ("markdown", false, vec![], 24),
            ("rust", false, vec![], 30),
        ]
    );
    assert_eq!(b[1].body, "echo one\n");
    assert_eq!(b[3].body, "javac -version\n  indented more\n");
    assert_eq!(b[4].body, "```sh run\nnot a block of its own\n```\n");
    assert!(b.iter().filter(|b| b.run).all(is_shell));

    for (bad, why) in [
        ("```sh run\necho\n", "never closed"),
        ("```sh run needs=\n```\n", "unknown attribute"),
        ("```sh run timeout=5\n```\n", "unknown attribute"),
        ("```sh needs=go\n```\n", "only `sh run`"),
        ("```bash run\n```\n", "only `sh run`"),
    ] {
        let err = blocks(bad).expect_err(bad);
        assert!(err.contains(why), "{bad:?}: {err}");
        assert!(err.starts_with("line 1:"), "{bad:?}: {err}");
    }

    let other = blocks("```python title=x\nprint()\n```\n").expect("other info strings pass");
    assert_eq!((other[0].lang.as_str(), other[0].run), ("python", false));
    assert!(other[0].needs.is_empty());

    assert_eq!(slug("Generated C# codecs"), "generated-c-codecs");
    assert_eq!(
        slug("sbekit-arrow: SBE and IEX to Arrow / Parquet (issue 14)"),
        "sbekit-arrow-sbe-and-iex-to-arrow--parquet-issue-14"
    );
    assert_eq!(
        anchors("# A\n## A\n```\n# not a heading\n```\n#no"),
        ["a", "a-1"]
    );
}

/// True when `dir` is a folder with at least one entry.
fn has_entries(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some())
}
