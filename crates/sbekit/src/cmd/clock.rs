//! What a long command reports of its own cost: the wall time since it started (opening its
//! inputs to its last byte durable), the CPU time and the peak resident memory of the process,
//! so that a user comparing tools reads the whole cost, not a loop's.

use std::sync::OnceLock;
use std::time::Instant;

static PROCESS_START: OnceLock<Instant> = OnceLock::new();

/// Notes when the process started its work: `main` calls it first.
pub fn mark_process_start() {
    let _ = PROCESS_START.set(Instant::now());
}

/// Started when the command started (see [`mark_process_start`]).
pub struct CommandClock {
    start: Instant,
}

impl CommandClock {
    /// The clock of the whole command: from [`mark_process_start`] (or now, where it was not
    /// called), so that parsing the schema and opening the inputs count too.
    pub fn whole_command() -> CommandClock {
        CommandClock {
            start: *PROCESS_START.get_or_init(Instant::now),
        }
    }

    /// Seconds since the start.
    pub fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// `X.XXX s (Y.YYY s CPU, peak RSS Z MiB)`; without the parenthesis where the process's
    /// usage cannot be read (`/proc` is Linux's).
    pub fn report(&self) -> String {
        let wall = self.seconds();
        match (cpu_seconds(), peak_rss_bytes()) {
            (Some(cpu), Some(rss)) => format!(
                "{wall:.3} s ({cpu:.3} s CPU, peak RSS {} MiB)",
                rss.div_ceil(1 << 20)
            ),
            _ => format!("{wall:.3} s"),
        }
    }
}

/// User plus system CPU seconds of this process so far (`/proc/self/stat`, fields 14 and 15,
/// in clock ticks of 1/100 s: Linux's USER_HZ on every architecture it supports).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    // `rest` starts at field 3: fields 14 and 15 are its 12th and 13th.
    Some((ticks(11)? + ticks(12)?) as f64 / 100.0)
}

/// The process's peak resident set (`VmHWM` of `/proc/self/status`).
fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_is_read_on_linux() {
        let c = CommandClock::whole_command();
        // Some CPU time to count.
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        assert!(x != 1);
        if cfg!(target_os = "linux") {
            assert!(cpu_seconds().is_some_and(|s| s > 0.0));
            assert!(peak_rss_bytes().is_some_and(|b| b > 1 << 20));
            assert!(c.report().contains("s CPU, peak RSS"), "{}", c.report());
        }
        assert!(c.seconds() > 0.0);
    }
}
