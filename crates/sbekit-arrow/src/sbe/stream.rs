//! A whole stream of messages into partitioned files, in bounded memory.

use super::*;

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
    use sbekit_otf::framing::{MessageStream, StreamError};
    let mut stream =
        MessageStream::new(input, opts.framing, opts.max_message).strict_frames(opts.strict_frames);
    let mut report = StreamExport::default();
    let write = |cols: &mut SbeColumns,
                 out: &mut crate::sink::PartitionedWriter,
                 flush: bool|
     -> Result<(), Error> {
        if flush {
            cols.flush()?;
        }
        for (name, batch) in cols.drain()? {
            let mut p: Vec<(&str, &str)> = partition.to_vec();
            p.push(("type", &name));
            out.write(&p, &name, &batch)?;
        }
        Ok(())
    };
    loop {
        let r = stream.next_with(decoder, opts.template, |bytes, _, offset| {
            cols.append(bytes, offset, None)
        });
        match r {
            Ok(Some(info)) => {
                report.decoded += u64::from(info.decoded);
                if cols.has_full() {
                    write(cols, out, false)?;
                    progress(stream.offset());
                }
            }
            Ok(None) => break,
            Err(StreamError::Io(e)) => {
                return Err(Error::Io {
                    path: "input".into(),
                    source: e,
                })
            }
            Err(e @ StreamError::Message { resumable, .. }) => {
                report.errors += 1;
                on_error(&e);
                if !opts.keep_going || !resumable {
                    break;
                }
            }
        }
    }
    write(cols, out, true)?;
    report.bytes = stream.offset();
    progress(report.bytes);
    Ok(report)
}
