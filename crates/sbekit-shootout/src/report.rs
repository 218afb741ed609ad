//! Summaries of a shootout: medians over the runs, ratios to the baseline (the first format,
//! normally sbekit SBE), the machine, a text table and JSON.

use crate::bench::{FormatRuns, Options, Outcome, RunFigures};
use crate::codec::Format;
use crate::data::InputStats;
use serde::Serialize;
use std::fmt::Write as _;
use std::time::Duration;

/// One direction (serialize or deserialize) of one format: medians over the runs.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct PhaseSummary {
    /// Median latency per format message, ns (clock overhead included).
    pub p50_ns: u64,
    /// 99th percentile, ns.
    pub p99_ns: u64,
    /// 99.9th percentile, ns.
    pub p999_ns: u64,
    /// Largest sample, ns.
    pub max_ns: u64,
    /// Mean of the samples, ns.
    pub mean_ns: f64,
    /// Sum of the per-message latencies, seconds.
    pub total_s: f64,
    /// Wall time of the throughput pass (no per-message clock), seconds.
    pub pass_s: f64,
    /// Throughput pass time per format message, ns.
    pub pass_ns_per_message: f64,
    /// IEX messages (trades and updates) per second in the throughput pass, millions.
    pub pass_mentries_per_s: f64,
}

/// Ratios of a format's figures to the baseline's: above 1 means slower (or larger).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Ratios {
    /// Serialize p50.
    pub serialize_p50: f64,
    /// Serialize p99.
    pub serialize_p99: f64,
    /// Serialize throughput-pass time.
    pub serialize_pass: f64,
    /// Deserialize p50.
    pub deserialize_p50: f64,
    /// Deserialize p99.
    pub deserialize_p99: f64,
    /// Deserialize throughput-pass time.
    pub deserialize_pass: f64,
    /// Bytes written.
    pub bytes: f64,
}

/// Figures of one run, for the JSON.
#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    /// Serialize figures of this run.
    pub serialize: PhaseSummary,
    /// Deserialize figures of this run.
    pub deserialize: PhaseSummary,
}

/// One row of the report.
#[derive(Debug, Clone, Serialize)]
pub struct FormatSummary {
    /// Short name (`--formats`).
    pub id: &'static str,
    /// Row label.
    pub label: &'static str,
    /// Framing and the allocations the format cannot avoid.
    pub notes: &'static str,
    /// Bytes written for the whole input (framing and padding included).
    pub bytes: u64,
    /// Bytes per format message.
    pub bytes_per_message: f64,
    /// Bytes per IEX trade or price level update.
    pub bytes_per_entry: f64,
    /// Format messages written and read per run.
    pub messages: u64,
    /// IEX trades and price level updates carried per run.
    pub entries: u64,
    /// Serialize medians.
    pub serialize: PhaseSummary,
    /// Deserialize medians.
    pub deserialize: PhaseSummary,
    /// Against the baseline.
    pub ratios: Ratios,
    /// Every run.
    pub runs: Vec<RunSummary>,
}

/// The machine the figures come from.
#[derive(Debug, Clone, Serialize)]
pub struct Machine {
    /// CPU model (from `/proc/cpuinfo` where available).
    pub cpu: String,
    /// Logical CPUs available to the process.
    pub cpus: usize,
    /// Operating system and architecture.
    pub os: String,
    /// Kernel release, where known.
    pub kernel: String,
    /// The compiler that built this binary.
    pub rustc: &'static str,
    /// `release` or `debug` (debug figures are meaningless).
    pub profile: &'static str,
    /// The CPU the measuring thread was pinned to, if any.
    pub pinned_cpu: Option<usize>,
}

impl Machine {
    /// Describes this machine.
    pub fn detect(pinned_cpu: Option<usize>) -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                (k.trim() == "model name").then(|| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".into());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "unknown".into());
        Machine {
            cpu,
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            kernel,
            rustc: env!("SHOOTOUT_RUSTC"),
            profile: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            },
            pinned_cpu,
        }
    }
}

/// Everything a shootout measured.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// What was read.
    pub input: String,
    /// Counts over the input.
    pub input_stats: InputStats,
    /// Distinct symbols with trades or updates (last chunk).
    pub symbols: usize,
    /// Measured runs; figures are medians over them.
    pub runs: usize,
    /// Whether an untimed warm-up pass ran first.
    pub warmup: bool,
    /// Median cost of reading the clock twice, ns; every latency sample includes it.
    pub clock_overhead_ns: u64,
    /// The clock's resolution (smallest non-zero step seen), ns: latencies are quantized to it.
    pub clock_step_ns: u64,
    /// The format ratios are relative to.
    pub baseline: &'static str,
    /// Always `passed`: a failed gate aborts the run with an error.
    pub gate: &'static str,
    /// Wall time of the whole shootout, seconds.
    pub elapsed_s: f64,
    /// Where it ran.
    pub machine: Machine,
    /// One row per format, baseline first.
    pub formats: Vec<FormatSummary>,
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn phase(r: &RunFigures, serialize: bool) -> PhaseSummary {
    let (h, timed, pass) = if serialize {
        (&r.serialize, r.serialize_timed, r.serialize_pass)
    } else {
        (&r.deserialize, r.deserialize_timed, r.deserialize_pass)
    };
    let has = !h.is_empty();
    let q = |p: f64| if has { h.value_at_quantile(p) } else { 0 };
    PhaseSummary {
        p50_ns: q(0.5),
        p99_ns: q(0.99),
        p999_ns: q(0.999),
        max_ns: if has { h.max() } else { 0 },
        mean_ns: if has { h.mean() } else { 0.0 },
        total_s: secs(timed),
        pass_s: secs(pass),
        pass_ns_per_message: pass.as_nanos() as f64 / r.messages.max(1) as f64,
        pass_mentries_per_s: r.entries as f64 / secs(pass).max(1e-12) / 1e6,
    }
}

fn median_u64(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    match v.len() {
        0 => 0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2,
    }
}

fn median_f64(mut v: Vec<f64>) -> f64 {
    v.sort_unstable_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn median_phase(v: &[PhaseSummary]) -> PhaseSummary {
    let u = |f: fn(&PhaseSummary) -> u64| median_u64(v.iter().map(f).collect());
    let d = |f: fn(&PhaseSummary) -> f64| median_f64(v.iter().map(f).collect());
    PhaseSummary {
        p50_ns: u(|p| p.p50_ns),
        p99_ns: u(|p| p.p99_ns),
        p999_ns: u(|p| p.p999_ns),
        max_ns: u(|p| p.max_ns),
        mean_ns: d(|p| p.mean_ns),
        total_s: d(|p| p.total_s),
        pass_s: d(|p| p.pass_s),
        pass_ns_per_message: d(|p| p.pass_ns_per_message),
        pass_mentries_per_s: d(|p| p.pass_mentries_per_s),
    }
}

fn format_summary(f: &FormatRuns) -> FormatSummary {
    let runs: Vec<RunSummary> = f
        .runs
        .iter()
        .map(|r| RunSummary {
            serialize: phase(r, true),
            deserialize: phase(r, false),
        })
        .collect();
    let first = &f.runs[0];
    let ser: Vec<_> = runs.iter().map(|r| r.serialize).collect();
    let de: Vec<_> = runs.iter().map(|r| r.deserialize).collect();
    FormatSummary {
        id: f.format.id(),
        label: f.format.label(),
        notes: f.format.notes(),
        bytes: first.bytes,
        bytes_per_message: first.bytes as f64 / first.messages.max(1) as f64,
        bytes_per_entry: first.bytes as f64 / first.entries.max(1) as f64,
        messages: first.messages,
        entries: first.entries,
        serialize: median_phase(&ser),
        deserialize: median_phase(&de),
        ratios: Ratios::default(),
        runs,
    }
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

impl Summary {
    /// Summarizes an outcome.
    pub fn new(
        input: String,
        opts: &Options,
        outcome: &Outcome,
        pinned_cpu: Option<usize>,
    ) -> Summary {
        let mut formats: Vec<FormatSummary> = outcome.formats.iter().map(format_summary).collect();
        if let Some(base) = formats.first().cloned() {
            for f in &mut formats {
                let (s, d, bs, bd) = (
                    &f.serialize,
                    &f.deserialize,
                    &base.serialize,
                    &base.deserialize,
                );
                f.ratios = Ratios {
                    serialize_p50: ratio(s.p50_ns as f64, bs.p50_ns as f64),
                    serialize_p99: ratio(s.p99_ns as f64, bs.p99_ns as f64),
                    serialize_pass: ratio(s.pass_s, bs.pass_s),
                    deserialize_p50: ratio(d.p50_ns as f64, bd.p50_ns as f64),
                    deserialize_p99: ratio(d.p99_ns as f64, bd.p99_ns as f64),
                    deserialize_pass: ratio(d.pass_s, bd.pass_s),
                    bytes: ratio(f.bytes as f64, base.bytes as f64),
                };
            }
        }
        Summary {
            input,
            input_stats: outcome.input,
            symbols: outcome.symbols,
            runs: opts.runs,
            warmup: opts.warmup,
            clock_overhead_ns: outcome.clock_overhead_ns,
            clock_step_ns: outcome.clock_step_ns,
            baseline: outcome.formats.first().map_or("", |f| f.format.label()),
            gate: "passed",
            elapsed_s: secs(outcome.elapsed),
            machine: Machine::detect(pinned_cpu),
            formats,
        }
    }

    /// The row of a format, if it ran.
    pub fn get(&self, f: Format) -> Option<&FormatSummary> {
        self.formats.iter().find(|s| s.id == f.id())
    }

    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// The report as text tables.
    pub fn to_table(&self) -> String {
        let mut s = String::new();
        let st = &self.input_stats;
        let _ = writeln!(s, "Input: {}", self.input);
        let _ = writeln!(
            s,
            "  {} IEX messages in {} segments; {} format messages carrying {} trades and {} price \
             level updates of {} symbols",
            st.iex_messages, st.segments, st.batches, st.trades, st.quotes, self.symbols
        );
        let _ = writeln!(
            s,
            "Machine: {} ({} CPUs), {}, rustc {}, {} build{}",
            self.machine.cpu,
            self.machine.cpus,
            self.machine.os,
            self.machine.rustc.trim_start_matches("rustc "),
            self.machine.profile,
            self.machine
                .pinned_cpu
                .map_or(String::new(), |c| format!(", pinned to CPU {c}"))
        );
        let _ = writeln!(
            s,
            "Medians of {} run(s){}; latencies are per format message and include ~{} ns of \
             clock overhead (clock step {} ns); ratios are to {} (x > 1: slower/larger). \
             Correctness gate: {}.",
            self.runs,
            if self.warmup { " after a warm-up" } else { "" },
            self.clock_overhead_ns,
            self.clock_step_ns,
            self.baseline,
            self.gate
        );
        for (title, ser) in [
            ("Serialize", true),
            ("Deserialize (read + aggregate)", false),
        ] {
            let _ = writeln!(s);
            let _ = writeln!(
                s,
                "{title}\n{:<32} {:>9} {:>7} {:>7} {:>7} {:>8} {:>8} {:>8} {:>9} {:>8} {:>8}",
                "format",
                "bytes/msg",
                "p50 ns",
                "p99",
                "p99.9",
                "max",
                "total s",
                "ns/msg",
                "M msg/s",
                "p50 x",
                "thru x"
            );
            for f in &self.formats {
                let p = if ser { &f.serialize } else { &f.deserialize };
                let (r50, rpass) = if ser {
                    (f.ratios.serialize_p50, f.ratios.serialize_pass)
                } else {
                    (f.ratios.deserialize_p50, f.ratios.deserialize_pass)
                };
                let _ = writeln!(
                    s,
                    "{:<32} {:>9.1} {:>7} {:>7} {:>7} {:>8} {:>8.3} {:>8.1} {:>9.1} {:>7.2}x {:>7.2}x",
                    f.label,
                    f.bytes_per_message,
                    p.p50_ns,
                    p.p99_ns,
                    p.p999_ns,
                    p.max_ns,
                    p.total_s,
                    p.pass_ns_per_message,
                    p.pass_mentries_per_s,
                    r50,
                    rpass
                );
            }
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "bytes/msg: per format message (one per IEX-TP segment). total s: sum of the timed \
             messages. ns/msg and M msg/s (IEX messages per second): the throughput pass, \
             without per-message clocks."
        );
        s
    }
}
