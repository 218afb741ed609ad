//! Running a built conformance program, and the small process helpers every builder uses.

use crate::Error;
use std::process::{Command, Stdio};

/// What a conformance program printed for one schema's messages: the JSON lines, then the
/// re-encoded frames.
pub type Outputs = (Vec<u8>, Vec<u8>);

/// What a program that runs every schema in one process wrote into `io`: per schema (named as
/// in `names`), `<name>.json` and `<name>.reencode`.
pub(crate) fn read_outputs(io: &std::path::Path, names: &[String]) -> Result<Vec<Outputs>, Error> {
    names
        .iter()
        .map(|n| {
            Ok((
                std::fs::read(io.join(format!("{n}.json")))?,
                std::fs::read(io.join(format!("{n}.reencode")))?,
            ))
        })
        .collect()
}

/// A built conformance program.
pub(crate) struct Program {
    /// Command and leading arguments.
    pub(crate) cmd: Vec<String>,
    /// One program for several schemas: the schema's index follows the mode.
    pub(crate) multi: bool,
    /// Per schema, arguments after the mode (TypeScript: the module path).
    pub(crate) extra: Vec<Vec<String>>,
    /// Run the modes through owned values (`json-owned`, `reencode-owned`).
    pub(crate) owned: bool,
}

impl Program {
    /// Runs `json` and `reencode` over each schema's framed messages (`inputs[i]` for schema
    /// `i`): per schema, the JSON lines and the re-encoded frames.
    pub(crate) fn run_each(&self, inputs: &[Vec<u8>]) -> Result<Vec<Outputs>, Error> {
        let (json, reencode) = if self.owned {
            ("json-owned", "reencode-owned")
        } else {
            ("json", "reencode")
        };
        let mut v = Vec::with_capacity(inputs.len());
        for (i, input) in inputs.iter().enumerate() {
            v.push((self.run(json, i, input)?, self.run(reencode, i, input)?));
        }
        Ok(v)
    }

    /// Runs the program ([`Program::run_each`]) once per view (`true`: through the owned
    /// values): per view, what `run_each` gives.
    pub(crate) fn run_views(
        mut self,
        views: &[bool],
        inputs: &[Vec<u8>],
    ) -> Result<Vec<Vec<Outputs>>, Error> {
        let mut all = Vec::new();
        for &owned in views {
            self.owned = owned;
            all.push(self.run_each(inputs)?);
        }
        Ok(all)
    }

    fn run(&self, mode: &str, schema: usize, input: &[u8]) -> Result<Vec<u8>, Error> {
        use std::io::Write;
        let mut c = Command::new(&self.cmd[0]);
        c.args(&self.cmd[1..]).arg(mode);
        if self.multi {
            c.arg(schema.to_string());
        }
        if let Some(e) = self.extra.get(schema) {
            c.args(e);
        }
        let mut child = c
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::Build(format!("running {}: {e}", self.cmd[0])))?;
        let mut stdin = child.stdin.take();
        let data = input.to_vec();
        let feeder = std::thread::spawn(move || {
            if let Some(s) = stdin.as_mut() {
                let _ = s.write_all(&data);
            }
        });
        let out = child.wait_with_output()?;
        let _ = feeder.join();
        if !out.status.success() {
            return Err(Error::Build(format!(
                "the conformance program failed ({}) in mode {mode}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )));
        }
        Ok(out.stdout)
    }
}

/// True when `cmd arg` runs and exits 0.
pub(crate) fn tool_works(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `Ok` when a build step succeeded, else its stderr (cut to 8,000 bytes) as a build error.
pub(crate) fn check(out: std::process::Output, what: &str) -> Result<(), Error> {
    if out.status.success() {
        Ok(())
    } else {
        let mut msg = String::from_utf8_lossy(&out.stderr).to_string();
        msg.truncate(8000);
        Err(Error::Build(format!("{what} failed:\n{msg}")))
    }
}
