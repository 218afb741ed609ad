//! Finding Java and the reference jar, compiling `java/Parity.java` and running it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Maven coordinates of the reference tool.
pub const ARTIFACT: &str = "uk.co.real-logic:sbe-all:1.38.1";

/// A compiled reference helper, ready to run.
#[derive(Debug)]
pub struct Java {
    jar: PathBuf,
    classes: PathBuf,
}

/// The reference jar: `$SBEKIT_SBE_JAR`, or where `mvn dependency:get` puts it.
pub fn jar_path() -> PathBuf {
    if let Some(p) = std::env::var_os("SBEKIT_SBE_JAR") {
        return PathBuf::from(p);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    home.join(".m2/repository/uk/co/real-logic/sbe-all/1.38.1/sbe-all-1.38.1.jar")
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Compiles the helpers (`java/Parity.java`, `java/GenParity.java`, `java/DtoInterop.java`) into `work`; `None` (after a loud SKIPPED line) if Java or the jar is
/// missing, which under `CI=true` is a failure instead.
pub fn require(test: &str, work: &Path) -> Option<Java> {
    let jar = jar_path();
    let missing = if !have("java") || !have("javac") {
        Some("java/javac (JDK 17+) not on PATH".to_string())
    } else if !jar.exists() {
        Some(format!(
            "{} not found (fetch it with `mvn -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get -Dartifact={ARTIFACT}` or scripts/parity.sh)",
            jar.display()
        ))
    } else {
        None
    };
    if let Some(why) = missing {
        sbekit_testdata::skip(test, why);
        return None;
    }
    let classes = work.join("classes");
    std::fs::create_dir_all(&classes).expect("class directory");
    let java = Path::new(env!("CARGO_MANIFEST_DIR")).join("java");
    let out = Command::new("javac")
        .arg("-cp")
        .arg(&jar)
        .arg("-d")
        .arg(&classes)
        .arg(java.join("Parity.java"))
        .arg(java.join("GenParity.java"))
        .arg(java.join("DtoInterop.java"))
        .output()
        .expect("run javac");
    assert!(
        out.status.success(),
        "javac failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(Java { jar, classes })
}

impl Java {
    fn run(&self, args: &[&std::ffi::OsStr]) -> std::process::Output {
        self.run_class("Parity", args)
    }

    fn run_class(&self, class: &str, args: &[&std::ffi::OsStr]) -> std::process::Output {
        let sep = if cfg!(windows) { ";" } else { ":" };
        let mut cp = self.jar.clone().into_os_string();
        cp.push(sep);
        cp.push(&self.classes);
        Command::new("java")
            .arg("--add-opens")
            .arg("java.base/jdk.internal.misc=ALL-UNNAMED")
            .arg("-Dsbe.xinclude.aware=true")
            .arg("-Dsbe.validation.suppress.output=true")
            .arg("-cp")
            .arg(cp)
            .arg(class)
            .args(args)
            .output()
            .expect("run java")
    }

    /// Writes the reference's `.sbeir` for each (schema, output) pair in one JVM; returns the
    /// helper's stderr (warnings, and a FAILED line per schema it could not compile).
    pub fn ir(&self, pairs: &[(PathBuf, PathBuf)]) -> String {
        let mut args: Vec<&std::ffi::OsStr> = vec!["ir".as_ref()];
        for (s, o) in pairs {
            args.push(s.as_os_str());
            args.push(o.as_os_str());
        }
        let out = self.run(&args);
        String::from_utf8_lossy(&out.stderr).into_owned()
    }

    /// Decodes framed message files with the reference's OTF decoder and JsonTokenListener:
    /// each job is (ir.sbeir, frames, out.jsonl). One JVM for all jobs.
    pub fn decode(&self, work: &Path, jobs: &[(PathBuf, PathBuf, PathBuf)]) {
        let manifest = work.join("decode-manifest.tsv");
        let text: String = jobs
            .iter()
            .map(|(ir, f, o)| format!("{}\t{}\t{}\n", ir.display(), f.display(), o.display()))
            .collect();
        std::fs::write(&manifest, text).expect("write manifest");
        let out = self.run(&["decode".as_ref(), manifest.as_os_str()]);
        assert!(
            out.status.success(),
            "reference decode failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Runs `java/GenParity.java` over (schema, directory) pairs in one JVM: generates and
    /// compiles the reference's Java codecs for each schema, writes `per_message` random
    /// messages per message with them (`java.bin`), and reads `java.bin`, `kit.bin` and
    /// `gen.bin` (where present) back with them (`java.jsonl`, `kit.jsonl`, `gen.jsonl`). Returns the helper's counts (`name count` lines);
    /// panics with its stderr if it fails.
    pub fn generated(&self, seed: u64, per_message: usize, pairs: &[(PathBuf, PathBuf)]) -> String {
        let (seed, per) = (seed.to_string(), per_message.to_string());
        let mut args: Vec<&std::ffi::OsStr> = vec![seed.as_ref(), per.as_ref()];
        for (s, d) in pairs {
            args.push(s.as_os_str());
            args.push(d.as_os_str());
        }
        let out = self.run_class("GenParity", &args);
        assert!(
            out.status.success(),
            "the reference's generated Java codecs failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Runs `java/DtoInterop.java` over jobs (schema, directory, file names) in one JVM: per
    /// schema, generates and compiles the reference's Java DTOs, and per name reads
    /// `dir/NAME.bin` with them (`decodeFrom`) and writes each message again with them
    /// (`bytesWithHeader`) to `dir/NAME.refdto.bin`. Returns its `name messages failures` lines
    /// and its stderr; panics if it fails.
    pub fn dto_interop(&self, jobs: &[(PathBuf, PathBuf, Vec<String>)]) -> (String, String) {
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        for (s, d, names) in jobs {
            args.push(s.clone().into_os_string());
            args.push(d.clone().into_os_string());
            args.extend(names.iter().map(Into::into));
        }
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let out = self.run_class("DtoInterop", &refs);
        assert!(
            out.status.success(),
            "the reference's Java DTOs failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}
