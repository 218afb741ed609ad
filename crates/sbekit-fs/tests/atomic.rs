//! Atomic output: the target appears whole on commit, and never otherwise.

use sbekit_fs::{map, map_range, write, AtomicFile};
use sbekit_testdata::dir_entries;
use std::io::Write;
use std::path::Path;

#[test]
fn write_creates_and_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("out.bin");
    write(&p, b"first").unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"first");
    write(&p, b"second, longer").unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"second, longer");
    assert_eq!(dir_entries(dir.path()), ["out.bin"]);
}

#[test]
fn streaming_commit_and_old_content_until_rename() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("data.txt");
    std::fs::write(&p, "old").unwrap();
    let mut f = AtomicFile::create(&p).unwrap();
    f.write_all(b"new ").unwrap();
    f.write_all(b"content").unwrap();
    assert_eq!(f.target(), p);
    let tmp = f.temp_path().to_path_buf();
    assert_eq!(
        tmp.parent(),
        Some(dir.path()),
        "temp file beside the target"
    );
    let name = tmp.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with(".data.txt.") && name.ends_with(".tmp"),
        "{name}"
    );
    // Before the commit the target still holds the old bytes.
    assert_eq!(std::fs::read(&p).unwrap(), b"old");
    assert_eq!(std::fs::read(&tmp).unwrap(), b"new content");
    f.commit().unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"new content");
    assert!(!tmp.exists());
    assert_eq!(dir_entries(dir.path()), ["data.txt"]);
}

#[test]
fn uncommitted_drop_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("fresh.bin");
    let kept = dir.path().join("kept.bin");
    std::fs::write(&kept, "keep me").unwrap();
    {
        let mut a = AtomicFile::create(&fresh).unwrap();
        let mut b = AtomicFile::create(&kept).unwrap();
        a.write_all(&[1; 10_000]).unwrap();
        b.write_all(b"half-written").unwrap();
        assert_eq!(
            dir_entries(dir.path()).len(),
            3,
            "two temp files exist while writing"
        );
    }
    assert_eq!(dir_entries(dir.path()), ["kept.bin"]);
    assert_eq!(std::fs::read(&kept).unwrap(), b"keep me");
}

#[test]
fn failed_commit_leaves_target_and_no_temp() {
    let dir = tempfile::tempdir().unwrap();
    // The target is a non-empty directory: the rename over it fails.
    let p = dir.path().join("busy");
    std::fs::create_dir(&p).unwrap();
    std::fs::write(p.join("inside"), "x").unwrap();
    let mut f = AtomicFile::create(&p).unwrap();
    f.write_all(b"bytes").unwrap();
    let tmp = f.temp_path().to_path_buf();
    assert!(f.commit().is_err());
    assert!(!tmp.exists(), "the failed commit removed its temp file");
    assert_eq!(dir_entries(dir.path()), ["busy"]);
    assert!(p.join("inside").exists());
}

#[test]
fn failed_create_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("missing-dir/out.bin");
    assert!(write(&p, b"x").is_err());
    assert!(AtomicFile::create(Path::new("/")).is_err(), "no file name");
    assert!(dir_entries(dir.path()).is_empty());
}

#[cfg(unix)]
#[test]
fn permissions_follow_the_umask_not_0600() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::fs::File::create(&a).unwrap();
    write(&b, b"").unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&b), mode(&a), "same mode as File::create gives");
}

#[test]
fn maps_read_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("m.bin");
    let bytes: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
    write(&p, &bytes).unwrap();
    let f = std::fs::File::open(&p).unwrap();
    assert_eq!(&map(&f).unwrap()[..], &bytes[..]);
    let part = map_range(&f, 5000, 100, true).unwrap();
    assert_eq!(&part[..], &bytes[5000..5100]);
}
