//! A whole stream of messages into partitioned files, in bounded memory.

use super::*;
use sbekit_otf::framing::{MessageInfo, MessageSink, MessageStream, StreamError};
use sbekit_otf::MessageHeader;
use std::ops::ControlFlow;

/// What exporting one SBE stream did.
#[derive(Debug, Default)]
pub struct StreamExport {
    /// Messages decoded into tables.
    pub decoded: u64,
    /// Bad messages (each reported through `on_error`).
    pub errors: u64,
    /// Bytes read.
    pub bytes: u64,
}

/// How [`export_stream`] reads its input.
#[derive(Debug, Clone, Copy)]
pub struct StreamOptions {
    /// How messages are delimited.
    pub framing: sbekit_otf::framing::Framing,
    /// Largest message accepted.
    pub max_message: usize,
    /// Bytes after a message inside its frame are an error rather than padding.
    pub strict_frames: bool,
    /// Go on after a bad frame where the framing allows it.
    pub keep_going: bool,
    /// Only this template.
    pub template: Option<u64>,
}

/// Decodes every message of `input` into `cols` and writes full batches to `out` under
/// `type=<message name>` (after `partition`, e.g. `[("input", "a")]`), in bounded memory.
/// `decoder` (the OTF plan of the same layout) splits back-to-back messages. Bad messages are
/// passed to `on_error`; the stream stops at the first unless `keep_going`.
#[allow(clippy::too_many_arguments)]
pub fn export_stream<R: std::io::Read>(
    input: R,
    decoder: &sbekit_otf::Decoder,
    cols: &mut SbeColumns,
    opts: StreamOptions,
    partition: &[(&str, &str)],
    out: &mut crate::sink::PartitionedWriter,
    progress: &mut dyn FnMut(u64),
    on_error: &mut dyn FnMut(&sbekit_otf::framing::StreamError),
) -> Result<StreamExport, Error> {
    let mut stream =
        MessageStream::new(input, opts.framing, opts.max_message).strict_frames(opts.strict_frames);
    let mut sink = Exporting {
        cols,
        out,
        partition,
        progress,
        on_error,
        failure: None,
    };
    let run = stream
        .run(decoder, opts.template, opts.keep_going, &mut sink)
        .map_err(|e| Error::Io {
            path: "input".into(),
            source: e,
        })?;
    if let Some(e) = sink.failure.take() {
        return Err(e);
    }
    sink.write(true)?;
    (sink.progress)(run.bytes);
    Ok(StreamExport {
        decoded: run.decoded,
        errors: run.failed,
        bytes: run.bytes,
    })
}

/// The export's part of the shared stream loop: messages into the tables, full batches out.
struct Exporting<'a, 'p> {
    cols: &'a mut SbeColumns,
    out: &'a mut crate::sink::PartitionedWriter,
    partition: &'a [(&'p str, &'p str)],
    progress: &'a mut dyn FnMut(u64),
    on_error: &'a mut dyn FnMut(&StreamError),
    /// A write that failed: the run stops and the export reports it.
    failure: Option<Error>,
}

impl Exporting<'_, '_> {
    /// Writes the batches that are full (all of them when `flush`) under `type=<message>`.
    fn write(&mut self, flush: bool) -> Result<(), Error> {
        if flush {
            self.cols.flush()?;
        }
        for (name, batch) in self.cols.drain()? {
            let mut p: Vec<(&str, &str)> = self.partition.to_vec();
            p.push(("type", &name));
            self.out.write(&p, &name, &batch)?;
        }
        Ok(())
    }
}

impl MessageSink for Exporting<'_, '_> {
    fn decode(
        &mut self,
        bytes: &[u8],
        _header: &MessageHeader,
        offset: u64,
    ) -> Result<usize, DecodeError> {
        self.cols.append(bytes, offset, None)
    }

    fn decoded(&mut self, info: &MessageInfo) -> ControlFlow<()> {
        if self.cols.has_full() {
            if let Err(e) = self.write(false) {
                self.failure = Some(e);
                return ControlFlow::Break(());
            }
            (self.progress)(info.offset.saturating_add(info.length as u64));
        }
        ControlFlow::Continue(())
    }

    fn failed(&mut self, error: &StreamError, _resumes: bool) {
        (self.on_error)(error);
    }
}
