//! The measuring harness: per-message latency passes into HDR histograms, a throughput pass
//! without per-message timers, warm-up, repeated runs, and the correctness gate.

use crate::agg::{Aggregates, Mismatch};
use crate::codec::{dispatch, AnyCodec, Codec, CodecError, Format};
use crate::data::{for_each_chunk, Chunk, Input, InputError, InputStats};
use hdrhistogram::Histogram;
use std::time::{Duration, Instant};

/// What to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The formats, in report order; ratios are against the first.
    pub formats: Vec<Format>,
    /// Measured repetitions (medians over them are reported); at least 1.
    pub runs: usize,
    /// One untimed pass per format before measuring.
    pub warmup: bool,
    /// Stop reading the input after this many IEX messages.
    pub limit: Option<u64>,
    /// Entries held in memory at once; larger inputs are processed chunk by chunk.
    pub chunk_entries: usize,
    /// Record per-message latencies (otherwise only the throughput pass runs; this is how the
    /// tests exercise every format quickly).
    pub latency: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            formats: Format::ALL.to_vec(),
            runs: 5,
            warmup: true,
            limit: None,
            chunk_entries: 2_000_000,
            latency: true,
        }
    }
}

/// Why a shootout failed.
#[derive(Debug, thiserror::Error)]
pub enum ShootoutError {
    /// The input could not be read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A format failed to write or read a message.
    #[error("{format}: {error}")]
    Codec {
        /// The format.
        format: Format,
        /// What went wrong.
        error: CodecError,
    },
    /// A format's aggregates differ from those computed from the IEX messages.
    #[error("correctness gate failed for {format} ({pass} pass, run {run}): {mismatch}")]
    Gate {
        /// The format.
        format: Format,
        /// `latency` or `throughput`.
        pass: &'static str,
        /// Run number (0 is the warm-up when enabled, then 1..).
        run: usize,
        /// The first difference.
        mismatch: Box<Mismatch>,
    },
    /// The options make no sense.
    #[error("{0}")]
    Usage(String),
}

/// Histogram bounds: 1 ns to 10 s, 3 significant digits. Larger samples (a preempted thread)
/// are clamped to the top.
fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 10_000_000_000, 3).expect("valid histogram bounds")
}

/// Figures of one format in one run, summed over the chunks.
#[derive(Debug, Clone)]
pub struct RunFigures {
    /// Per-message serialize latency (ns).
    pub serialize: Histogram<u64>,
    /// Per-message deserialize latency (ns).
    pub deserialize: Histogram<u64>,
    /// Sum of the per-message serialize latencies.
    pub serialize_timed: Duration,
    /// Sum of the per-message deserialize latencies.
    pub deserialize_timed: Duration,
    /// Wall time of the throughput pass, serializing.
    pub serialize_pass: Duration,
    /// Wall time of the throughput pass, deserializing.
    pub deserialize_pass: Duration,
    /// Bytes written (framing and padding included).
    pub bytes: u64,
    /// Messages written (one per segment with trades or price level updates).
    pub messages: u64,
    /// IEX trades and price level updates carried.
    pub entries: u64,
}

impl RunFigures {
    fn new() -> Self {
        RunFigures {
            serialize: histogram(),
            deserialize: histogram(),
            serialize_timed: Duration::ZERO,
            deserialize_timed: Duration::ZERO,
            serialize_pass: Duration::ZERO,
            deserialize_pass: Duration::ZERO,
            bytes: 0,
            messages: 0,
            entries: 0,
        }
    }
}

/// All runs of one format.
#[derive(Debug, Clone)]
pub struct FormatRuns {
    /// The format.
    pub format: Format,
    /// One entry per measured run.
    pub runs: Vec<RunFigures>,
}

/// The raw outcome of a shootout (the gate passed for every format and run).
#[derive(Debug, Clone)]
pub struct Outcome {
    /// What was read.
    pub input: InputStats,
    /// Per format, per run.
    pub formats: Vec<FormatRuns>,
    /// Median cost of a pair of clock reads, which every latency sample includes.
    pub clock_overhead_ns: u64,
    /// Smallest non-zero difference of two clock reads seen: the clock's resolution.
    pub clock_step_ns: u64,
    /// Symbols in the aggregates (of the last chunk).
    pub symbols: usize,
    /// Wall time of the whole shootout.
    pub elapsed: Duration,
}

/// Progress events, for a progress bar.
pub trait Progress {
    /// A chunk was loaded; `steps` passes follow for it.
    fn chunk(&mut self, index: u64, steps: u64);
    /// One pass (a format in a run) is done.
    fn step(&mut self, format: Format, run: usize);
}

/// Ignores progress.
pub struct NoProgress;

impl Progress for NoProgress {
    fn chunk(&mut self, _: u64, _: u64) {}
    fn step(&mut self, _: Format, _: usize) {}
}

/// A zeroed byte buffer aligned to 16 bytes (Cap'n Proto and rkyv read in place only from
/// aligned memory); formats that need it pad message starts relative to it.
struct OutBuf {
    words: Vec<u128>,
}

impl OutBuf {
    fn ensure(&mut self, bytes: usize) {
        let words = bytes.div_ceil(16);
        if self.words.len() < words {
            self.words = vec![0u128; words];
        }
    }
    fn bytes(&mut self) -> &mut [u8] {
        bytemuck::cast_slice_mut(&mut self.words)
    }
}

/// Room for what any format writes for a chunk: the largest (FlatBuffers) needs about 50 bytes
/// per message and 80 per entry; a format that runs out reports it as an error.
fn capacity_for(chunk: &Chunk) -> usize {
    chunk.entries.len() * 128 + chunk.batches.len() * 128 + (1 << 20)
}

/// Runs the shootout.
pub fn run(
    input: &Input,
    opts: &Options,
    progress: &mut dyn Progress,
) -> Result<Outcome, ShootoutError> {
    if opts.formats.is_empty() {
        return Err(ShootoutError::Usage("no formats selected".into()));
    }
    if opts.runs == 0 {
        return Err(ShootoutError::Usage("--runs must be at least 1".into()));
    }
    let started = Instant::now();
    // quanta reads the TSC where it is invariant (and falls back to the OS clock elsewhere).
    let clock = quanta::Clock::new();
    let (clock_overhead_ns, clock_step_ns) = clock_overhead(&clock);
    let mut codecs: Vec<AnyCodec> = opts.formats.iter().map(|&f| AnyCodec::new(f)).collect();
    let mut figures: Vec<FormatRuns> = opts
        .formats
        .iter()
        .map(|&format| FormatRuns {
            format,
            runs: (0..opts.runs).map(|_| RunFigures::new()).collect(),
        })
        .collect();
    let mut buf = OutBuf { words: Vec::new() };
    let mut agg = Aggregates::new();
    let mut chunk_index = 0u64;
    let mut symbols = 0;
    let input_stats = for_each_chunk(input, opts.limit, opts.chunk_entries, |chunk| {
        let warm = opts.warmup && chunk_index == 0;
        let steps = (opts.runs + usize::from(warm)) * opts.formats.len();
        progress.chunk(chunk_index, steps as u64);
        buf.ensure(capacity_for(chunk));
        let out = buf.bytes();
        if warm {
            for (codec, fr) in codecs.iter_mut().zip(&figures) {
                let mut scratch = RunFigures::new();
                let mut pass = Pass {
                    format: fr.format,
                    run: 0,
                    chunk,
                    out: &mut *out,
                    agg: &mut agg,
                    fig: &mut scratch,
                    clock: &clock,
                };
                dispatch!(codec, c => pass.measure(c, false))?;
                progress.step(fr.format, 0);
            }
        }
        for run in 0..opts.runs {
            for (codec, fr) in codecs.iter_mut().zip(figures.iter_mut()) {
                let mut pass = Pass {
                    format: fr.format,
                    run: run + 1,
                    chunk,
                    out: &mut *out,
                    agg: &mut agg,
                    fig: &mut fr.runs[run],
                    clock: &clock,
                };
                dispatch!(codec, c => pass.measure(c, opts.latency))?;
                progress.step(fr.format, run + 1);
            }
        }
        symbols = chunk.expected.len();
        chunk_index += 1;
        Ok::<(), ShootoutError>(())
    })?;
    Ok(Outcome {
        input: input_stats,
        formats: figures,
        clock_overhead_ns,
        clock_step_ns,
        symbols,
        elapsed: started.elapsed(),
    })
}

/// One format over one chunk in one run.
struct Pass<'a> {
    format: Format,
    run: usize,
    chunk: &'a Chunk,
    out: &'a mut [u8],
    agg: &'a mut Aggregates,
    fig: &'a mut RunFigures,
    clock: &'a quanta::Clock,
}

impl Pass<'_> {
    fn codec_err(&self, error: CodecError) -> ShootoutError {
        ShootoutError::Codec {
            format: self.format,
            error,
        }
    }

    fn gate(&self, pass: &'static str) -> Result<(), ShootoutError> {
        match self.agg.diff(&self.chunk.expected) {
            None => Ok(()),
            Some(mismatch) => Err(ShootoutError::Gate {
                format: self.format,
                pass,
                run: self.run,
                mismatch: Box::new(mismatch),
            }),
        }
    }

    /// The latency pass (when `latency`), then the throughput pass; the gate after each read.
    fn measure<C: Codec>(&mut self, c: &mut C, latency: bool) -> Result<(), ShootoutError> {
        let chunk = self.chunk;
        let mut end = None;
        if latency {
            let mut pos = 0;
            for b in &chunk.batches {
                let entries = chunk.entries_of(b);
                let t0 = self.clock.raw();
                let r = c.serialize(b.sequence, entries, self.out, pos);
                let t1 = self.clock.raw();
                pos = r.map_err(|e| self.codec_err(e))?;
                let dt = self.clock.delta_as_nanos(t0, t1);
                self.fig.serialize.saturating_record(dt);
                self.fig.serialize_timed += Duration::from_nanos(dt);
            }
            end = Some(pos);
            c.prepare_read(self.out, pos)
                .map_err(|e| self.codec_err(e))?;
            self.agg.clear();
            let mut pos = 0;
            while pos < end.unwrap_or(0) {
                let t0 = self.clock.raw();
                let r = c.deserialize(self.out, pos, self.agg);
                let t1 = self.clock.raw();
                pos = r.map_err(|e| self.codec_err(e))?;
                let dt = self.clock.delta_as_nanos(t0, t1);
                self.fig.deserialize.saturating_record(dt);
                self.fig.deserialize_timed += Duration::from_nanos(dt);
            }
            self.gate("latency")?;
        }

        // Throughput: the same work with one clock read per pass.
        let t0 = Instant::now();
        let mut pos = 0;
        for b in &chunk.batches {
            pos = c
                .serialize(b.sequence, chunk.entries_of(b), self.out, pos)
                .map_err(|e| self.codec_err(e))?;
        }
        self.fig.serialize_pass += t0.elapsed();
        if end.is_some_and(|e| e != pos) {
            return Err(self.codec_err(CodecError(format!(
                "wrote {pos} bytes in the throughput pass but {} in the latency pass",
                end.unwrap_or(0)
            ))));
        }
        let written = pos;
        c.prepare_read(self.out, written)
            .map_err(|e| self.codec_err(e))?;
        self.agg.clear();
        let t0 = Instant::now();
        let mut pos = 0;
        while pos < written {
            pos = c
                .deserialize(self.out, pos, self.agg)
                .map_err(|e| self.codec_err(e))?;
        }
        self.fig.deserialize_pass += t0.elapsed();
        self.gate("throughput")?;
        self.fig.bytes += written as u64;
        self.fig.messages += chunk.batches.len() as u64;
        self.fig.entries += chunk.entries.len() as u64;
        Ok(())
    }
}

/// Median duration of two back-to-back clock reads, and the smallest non-zero step the clock
/// showed, in ns.
fn clock_overhead(clock: &quanta::Clock) -> (u64, u64) {
    let mut h = histogram();
    let mut step = u64::MAX;
    for _ in 0..100_000 {
        let t0 = clock.raw();
        let t1 = clock.raw();
        let d = clock.delta_as_nanos(t0, t1);
        h.saturating_record(d);
        if d > 0 {
            step = step.min(d);
        }
    }
    (
        h.value_at_quantile(0.5),
        if step == u64::MAX { 0 } else { step },
    )
}

/// Pins the calling thread to `cpu` (for `--pin`).
pub fn pin_to_cpu(cpu: usize) -> Result<(), ShootoutError> {
    let ids = core_affinity::get_core_ids().unwrap_or_default();
    let Some(id) = ids.into_iter().find(|c| c.id == cpu) else {
        return Err(ShootoutError::Usage(format!(
            "--pin {cpu}: no such CPU available to this process"
        )));
    };
    if core_affinity::set_for_current(id) {
        Ok(())
    } else {
        Err(ShootoutError::Usage(format!(
            "--pin {cpu}: the operating system refused"
        )))
    }
}
