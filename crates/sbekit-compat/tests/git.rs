//! `git:REV:path`: the old side read from a repository without checking it out, XIncludes
//! included, in a repository the test creates.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> bool {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn reads_old_side_from_git_with_xinclude() {
    if Command::new("git").arg("--version").output().is_err() {
        sbekit_testdata::skip(
            "reads_old_side_from_git_with_xinclude",
            "git is not installed",
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert!(git(d, &["init", "-q"]));
    std::fs::create_dir_all(d.join("schemas/common")).unwrap();
    let base = include_str!("data/base.xml");
    // Split the types into an XIncluded file, as real schemas do.
    let start = base.find("<types>").unwrap();
    let end = base.find("</types>").unwrap() + "</types>".len();
    let types = &base[start..end];
    let main = format!(
        "{}<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"common/types.xml\"/>{}",
        &base[..start],
        &base[end..]
    );
    std::fs::write(d.join("schemas/common/types.xml"), types).unwrap();
    std::fs::write(d.join("schemas/s.xml"), &main).unwrap();
    assert!(git(d, &["add", "."]));
    assert!(git(d, &["commit", "-qm", "v1"]));
    // The working copy changes an enum value and the included types file is edited too.
    std::fs::write(
        d.join("schemas/common/types.xml"),
        types.replace(r#"name="Sell">2<"#, r#"name="Sell">3<"#),
    )
    .unwrap();
    let old = sbekit_compat::load_git(d, "HEAD", "schemas/s.xml", "git:HEAD:schemas/s.xml")
        .unwrap_or_else(|e| panic!("{e}"));
    let new = sbekit_compat::load_file(&d.join("schemas/s.xml"), "schemas/s.xml").unwrap();
    let r = sbekit_compat::check(&old, &new, &Default::default());
    assert_eq!(r.verdict, sbekit_compat::Verdict::Breaking);
    let diag = r
        .diagnostics
        .iter()
        .find(|x| x.rule == "enum-value-changed")
        .unwrap();
    let text = diag.to_string();
    // Both locations point into the included file, old side named by revision.
    assert!(text.starts_with("schemas/common/types.xml:"), "{text}");
    assert!(
        text.contains("(old: git:HEAD:schemas/common/types.xml:"),
        "{text}"
    );
    // The committed file against itself is compatible.
    let same = sbekit_compat::load_git(d, "HEAD", "schemas/s.xml", "old").unwrap();
    assert_eq!(
        sbekit_compat::check(&old, &same, &Default::default()).verdict,
        sbekit_compat::Verdict::Compatible
    );
    // A missing revision is an error, not a panic.
    assert!(sbekit_compat::load_git(d, "nope", "schemas/s.xml", "x").is_err());
}
