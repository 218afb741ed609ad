//! Streams of messages: splitting a byte stream into messages and decoding them one by one in
//! bounded memory.
//!
//! [`MessageStream`] reads from any [`Read`] through a buffer that holds at most about two of the
//! largest allowed messages, so files far larger than memory stream in constant memory.

use crate::decode::{DecodeError, NoopVisitor, Visitor};
use crate::plan::{Decoder, MessageHeader};
use sbekit_ir::ByteOrder;
use std::fmt;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::str::FromStr;

/// How messages are delimited in a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// Messages back to back, each starting with its SBE message header; a message's length is
    /// found by walking it. A bad message cannot be skipped.
    Sbe,
    /// Each message preceded by its length (excluding the prefix) as a little-endian `u16`.
    U16Le,
    /// Each message preceded by its length (excluding the prefix) as a little-endian `u32`.
    U32Le,
    /// The FIX Simple Open Framing Header: a big-endian `u32` message length that includes the
    /// 6-byte header, then a big-endian `u16` encoding type: `0xEB50` for little-endian SBE 1.0,
    /// `0x5BE0` for big-endian SBE 1.0.
    Sofh,
}

/// SOFH encoding type of little-endian SBE 1.0.
pub const SOFH_SBE_LITTLE_ENDIAN: u16 = 0xEB50;
/// SOFH encoding type of big-endian SBE 1.0.
pub const SOFH_SBE_BIG_ENDIAN: u16 = 0x5BE0;

impl Framing {
    /// Bytes in front of each message.
    pub fn prefix_length(self) -> usize {
        match self {
            Framing::Sbe => 0,
            Framing::U16Le => 2,
            Framing::U32Le => 4,
            Framing::Sofh => 6,
        }
    }

    /// Writes the framing prefix of a `message_length`-byte message for a schema of byte order
    /// `order` (handy for tests and tools that write streams). Lengths that do not fit the
    /// prefix are an error.
    pub fn write_prefix(
        self,
        out: &mut Vec<u8>,
        message_length: usize,
        order: ByteOrder,
    ) -> io::Result<()> {
        let too_long =
            || io::Error::new(io::ErrorKind::InvalidInput, "message too long for framing");
        match self {
            Framing::Sbe => {}
            Framing::U16Le => out.extend_from_slice(
                &u16::try_from(message_length)
                    .map_err(|_| too_long())?
                    .to_le_bytes(),
            ),
            Framing::U32Le => out.extend_from_slice(
                &u32::try_from(message_length)
                    .map_err(|_| too_long())?
                    .to_le_bytes(),
            ),
            Framing::Sofh => {
                let total = message_length.checked_add(6).ok_or_else(too_long)?;
                out.extend_from_slice(&u32::try_from(total).map_err(|_| too_long())?.to_be_bytes());
                let ty = match order {
                    ByteOrder::LittleEndian => SOFH_SBE_LITTLE_ENDIAN,
                    ByteOrder::BigEndian => SOFH_SBE_BIG_ENDIAN,
                };
                out.extend_from_slice(&ty.to_be_bytes());
            }
        }
        Ok(())
    }
}

impl FromStr for Framing {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "sbe" => Ok(Framing::Sbe),
            "u16le" => Ok(Framing::U16Le),
            "u32le" => Ok(Framing::U32Le),
            "sofh" => Ok(Framing::Sofh),
            other => Err(format!(
                "unknown framing '{other}' (expected sbe, u16le, u32le or sofh)"
            )),
        }
    }
}

/// One message read from a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageInfo {
    /// 0-based index of the message in the stream (all templates counted).
    pub index: u64,
    /// Stream offset of the message's frame (its framing prefix, if any).
    pub offset: u64,
    /// Frame length in bytes, prefix included.
    pub length: usize,
    /// The message header.
    pub header: MessageHeader,
    /// False if the message was skipped by the template filter (the visitor did not see it).
    pub decoded: bool,
    /// Bytes after the message inside its length-prefixed frame (padding some venues add, e.g.
    /// to a multiple of 8); 0 for back-to-back messages. See [`MessageStream::strict_frames`].
    pub padding: usize,
}

/// An error reading a stream.
#[derive(Debug)]
pub enum StreamError {
    /// Reading the input failed.
    Io(io::Error),
    /// A message or its frame is bad.
    Message {
        /// Index of the message in the stream.
        index: u64,
        /// Stream offset of the message's frame.
        offset: u64,
        /// What is wrong; a [`DecodeError`]'s offset is rebased to the stream.
        error: MessageError,
        /// True if the stream can go on after the bad frame (length-prefixed framings).
        resumable: bool,
    },
}

/// What is wrong with one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MessageError {
    /// The message does not decode; the offset is from the start of the stream.
    Decode(DecodeError),
    /// The frame is bad.
    Frame(String),
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Io(e) => write!(f, "read error: {e}"),
            StreamError::Message {
                index,
                offset,
                error,
                ..
            } => {
                write!(f, "message {index} (frame at byte {offset}): ")?;
                match error {
                    MessageError::Decode(e) => write!(f, "{e}"),
                    MessageError::Frame(m) => write!(f, "{m}"),
                }
            }
        }
    }
}

impl std::error::Error for StreamError {}

impl From<io::Error> for StreamError {
    fn from(e: io::Error) -> Self {
        StreamError::Io(e)
    }
}

/// What a stream run ([`MessageStream::run`]) does with each message: the one decode loop of
/// `sbekit decode` (JSON and `--to`), the Arrow export and the Python package.
pub trait MessageSink {
    /// Decodes one message: `bytes` runs from its header to the end of its frame, `offset` is
    /// its position in the stream. Returns the message's length, as [`Decoder::decode`] does.
    fn decode(
        &mut self,
        bytes: &[u8],
        header: &MessageHeader,
        offset: u64,
    ) -> Result<usize, DecodeError>;

    /// Called after each message that [`MessageSink::decode`] took, or that the template filter
    /// skipped (`info.decoded` false). `Break` ends the run early (a closed output, a failed
    /// write the sink keeps to report).
    fn decoded(&mut self, info: &MessageInfo) -> ControlFlow<()> {
        let _ = info;
        ControlFlow::Continue(())
    }

    /// Called for a bad message, whatever [`MessageSink::decode`] may have done with it;
    /// `resumes` says whether the run goes on past it.
    fn failed(&mut self, error: &StreamError, resumes: bool) {
        let _ = (error, resumes);
    }
}

/// What a [`MessageStream::run`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunReport {
    /// Messages decoded (those the template filter skipped are not counted).
    pub decoded: u64,
    /// Bad messages (each reported through [`MessageSink::failed`]).
    pub failed: u64,
    /// Frames that held bytes after their message (padding), and those bytes.
    pub padded_frames: u64,
    /// Padding bytes skipped in all.
    pub padding: u64,
    /// Stream bytes consumed.
    pub bytes: u64,
    /// Why the run ended.
    pub end: RunEnd,
}

/// Why a [`MessageStream::run`] ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RunEnd {
    /// The input ended.
    #[default]
    Input,
    /// A bad message, without `keep_going`.
    BadMessage,
    /// A bad message the framing cannot resynchronise after (back-to-back messages), even
    /// with `keep_going`.
    CannotResume,
    /// The sink asked to stop.
    Sink,
}

/// Decodes a stream of framed messages one at a time, in bounded memory.
#[derive(Debug)]
pub struct MessageStream<R> {
    reader: R,
    framing: Framing,
    max_message: usize,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    /// Stream offset of `buf[start]`.
    offset: u64,
    index: u64,
    /// Set after an error the stream cannot recover from.
    stopped: bool,
    /// Trailing bytes inside a frame are an error rather than padding.
    strict_frames: bool,
}

/// Default limit on one message's size (16 MiB).
pub const DEFAULT_MAX_MESSAGE: usize = 16 << 20;

impl<R: Read> MessageStream<R> {
    /// A stream over `reader`; messages (frames) longer than `max_message` bytes are errors.
    pub fn new(reader: R, framing: Framing, max_message: usize) -> Self {
        MessageStream {
            reader,
            framing,
            max_message: max_message.max(16),
            buf: Vec::new(),
            start: 0,
            end: 0,
            eof: false,
            offset: 0,
            index: 0,
            stopped: false,
            strict_frames: false,
        }
    }

    /// With `strict`, a length-prefixed frame holding more bytes than its message is an error;
    /// by default the extra bytes are padding, skipped and reported in [`MessageInfo::padding`].
    pub fn strict_frames(mut self, strict: bool) -> Self {
        self.strict_frames = strict;
        self
    }

    /// Stream offset of the next unread byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Runs the stream to its end, every message through `sink`. A bad message is reported to
    /// the sink and ends the run, unless `keep_going` and the framing can skip the bad frame
    /// (length-prefixed framings can; back-to-back messages cannot). Only a read error of the
    /// input is an `Err`; everything about the messages is in the report.
    pub fn run<S: MessageSink>(
        &mut self,
        decoder: &Decoder,
        template: Option<u64>,
        keep_going: bool,
        sink: &mut S,
    ) -> io::Result<RunReport> {
        let mut report = RunReport::default();
        loop {
            let next = self.next_with(decoder, template, |bytes, header, offset| {
                sink.decode(bytes, header, offset)
            });
            match next {
                Ok(Some(info)) => {
                    report.decoded += u64::from(info.decoded);
                    if info.padding > 0 {
                        report.padded_frames += 1;
                        report.padding += info.padding as u64;
                    }
                    if sink.decoded(&info).is_break() {
                        report.end = RunEnd::Sink;
                        break;
                    }
                }
                Ok(None) => break,
                Err(StreamError::Io(e)) => return Err(e),
                Err(e @ StreamError::Message { resumable, .. }) => {
                    report.failed += 1;
                    let resumes = keep_going && resumable;
                    sink.failed(&e, resumes);
                    if !resumes {
                        report.end = if keep_going {
                            RunEnd::CannotResume
                        } else {
                            RunEnd::BadMessage
                        };
                        break;
                    }
                }
            }
        }
        report.bytes = self.offset;
        Ok(report)
    }

    fn available(&self) -> usize {
        self.end - self.start
    }

    /// Buffers at least `want` bytes unless the input ends first.
    fn fill(&mut self, want: usize) -> io::Result<()> {
        if self.available() >= want || self.eof {
            return Ok(());
        }
        if self.buf.len() - self.start < want {
            // Move the unread tail to the front; it is shorter than `want`, so copying costs at
            // most one byte per byte consumed since the last move.
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            let size = want.saturating_mul(2).max(1 << 20);
            if self.buf.len() < size {
                self.buf.resize(size, 0);
            }
        }
        while self.available() < want {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.available());
        self.start += n;
        self.offset += n as u64;
    }

    /// Skips `n` bytes, including bytes not yet buffered; returns false if the input ends first.
    fn skip(&mut self, n: u64) -> io::Result<bool> {
        let buffered = (self.available() as u64).min(n);
        self.consume(buffered as usize);
        let mut left = n - buffered;
        let mut scratch = [0u8; 8192];
        while left > 0 {
            let chunk = scratch
                .len()
                .min(usize::try_from(left).unwrap_or(usize::MAX));
            match self.reader.read(&mut scratch[..chunk]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(k) => {
                    left -= k as u64;
                    self.offset += k as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }

    fn fail(&mut self, error: MessageError, resumable: bool, offset: u64) -> StreamError {
        let index = self.index;
        self.index += 1;
        if !resumable {
            self.stopped = true;
        }
        StreamError::Message {
            index,
            offset,
            error,
            resumable,
        }
    }

    /// Decodes the next message into `visitor`, unless `template` is given and the message has
    /// another template id (then it is skipped, unseen by the visitor).
    ///
    /// Returns `Ok(None)` at the end of the stream. After an error whose `resumable` is true the
    /// next call goes on with the following frame; after any other error the stream ends.
    pub fn next_message<V: Visitor>(
        &mut self,
        decoder: &Decoder,
        template: Option<u64>,
        visitor: &mut V,
    ) -> Result<Option<MessageInfo>, StreamError> {
        self.next_with(decoder, template, |bytes, _, _| {
            decoder.decode(bytes, visitor)
        })
    }

    /// Like [`Self::next_message`], with the caller's own decoder: `decode(bytes, header,
    /// offset)` gets the message's bytes (header first, up to the end of its frame; for
    /// back-to-back messages exactly the message, found by a validating walk of `decoder`),
    /// its header and its stream offset, and returns the message's length. Columnar decoders
    /// (sbekit-arrow) use it to write columns straight from the bytes.
    pub fn next_with<F>(
        &mut self,
        decoder: &Decoder,
        template: Option<u64>,
        mut decode: F,
    ) -> Result<Option<MessageInfo>, StreamError>
    where
        F: FnMut(&[u8], &MessageHeader, u64) -> Result<usize, DecodeError>,
    {
        if self.stopped {
            return Ok(None);
        }
        let frame_offset = self.offset;
        let prefix = self.framing.prefix_length();
        self.fill(prefix.max(1))?;
        if self.available() == 0 {
            return Ok(None);
        }
        if self.available() < prefix {
            let msg = format!("stream ends inside a {prefix}-byte framing prefix");
            return Err(self.fail(MessageError::Frame(msg), false, frame_offset));
        }
        // In bounds: `prefix` bytes are buffered (checked above), and `p` has exactly the
        // framing's prefix length, which each arm below reads.
        let p = &self.buf[self.start..self.start + prefix];
        let payload_len: u64 = match self.framing {
            Framing::Sbe => 0,
            Framing::U16Le => u64::from(u16::from_le_bytes([p[0], p[1]])),
            Framing::U32Le => u64::from(u32::from_le_bytes([p[0], p[1], p[2], p[3]])),
            Framing::Sofh => {
                let total = u64::from(u32::from_be_bytes([p[0], p[1], p[2], p[3]]));
                let ty = u16::from_be_bytes([p[4], p[5]]);
                if total < 6 {
                    let msg = format!("SOFH message length {total} is shorter than the header");
                    return Err(self.fail(MessageError::Frame(msg), false, frame_offset));
                }
                let expected = match decoder.byte_order() {
                    ByteOrder::LittleEndian => SOFH_SBE_LITTLE_ENDIAN,
                    ByteOrder::BigEndian => SOFH_SBE_BIG_ENDIAN,
                };
                if ty != expected {
                    let msg = format!(
                        "SOFH encoding type {ty:#06x} is not this schema's ({expected:#06x})"
                    );
                    return self.skip_bad_frame(msg, frame_offset, total);
                }
                total - 6
            }
        };
        if self.framing == Framing::Sbe {
            return self.next_unframed(decoder, template, &mut decode, frame_offset);
        }
        let frame_len = prefix as u64 + payload_len;
        if payload_len > self.max_message as u64 {
            let msg = format!(
                "frame of {payload_len} bytes exceeds the {}-byte message limit",
                self.max_message
            );
            return self.skip_bad_frame(msg, frame_offset, frame_len);
        }
        let frame_len = frame_len as usize;
        self.fill(frame_len)?;
        if self.available() < frame_len {
            let msg = format!(
                "stream ends inside a {frame_len}-byte frame ({} bytes left)",
                self.available()
            );
            return Err(self.fail(MessageError::Frame(msg), false, frame_offset));
        }
        let payload = &self.buf[self.start + prefix..self.start + frame_len];
        let message_offset = frame_offset + prefix as u64;
        let result = decode_one(decoder, payload, template, message_offset, &mut decode);
        self.consume(frame_len);
        match result {
            Ok((header, used, decoded)) => {
                let padding = if decoded {
                    (payload_len as usize).saturating_sub(used)
                } else {
                    0
                };
                if decoded && (used as u64 > payload_len || (self.strict_frames && padding > 0)) {
                    let msg = format!(
                        "frame holds {} bytes but its message has {used}",
                        payload_len
                    );
                    return Err(self.fail(MessageError::Frame(msg), true, frame_offset));
                }
                let info = MessageInfo {
                    index: self.index,
                    offset: frame_offset,
                    length: frame_len,
                    header,
                    decoded,
                    padding,
                };
                self.index += 1;
                Ok(Some(info))
            }
            Err(e) => Err(self.fail(
                MessageError::Decode(rebase(e, message_offset)),
                true,
                frame_offset,
            )),
        }
    }

    fn skip_bad_frame(
        &mut self,
        msg: String,
        frame_offset: u64,
        frame_len: u64,
    ) -> Result<Option<MessageInfo>, StreamError> {
        let complete = self.skip(frame_len)?;
        Err(self.fail(MessageError::Frame(msg), complete, frame_offset))
    }

    fn next_unframed<F>(
        &mut self,
        decoder: &Decoder,
        template: Option<u64>,
        decode: &mut F,
        frame_offset: u64,
    ) -> Result<Option<MessageInfo>, StreamError>
    where
        F: FnMut(&[u8], &MessageHeader, u64) -> Result<usize, DecodeError>,
    {
        // Find the message's length with a cheap validating walk, reading more input while the
        // walk runs out of bytes, then decode the exact bytes with the caller's visitor.
        let mut want = decoder.header().length.max(1);
        let length = loop {
            self.fill(want)?;
            let window = &self.buf[self.start..self.end];
            match decoder.decode(window, &mut NoopVisitor) {
                Ok(len) => break len,
                Err(e) if e.is_truncation() && !self.eof && self.available() < self.max_message => {
                    want = self
                        .available()
                        .saturating_mul(2)
                        .max(4096)
                        .min(self.max_message);
                }
                Err(e) => {
                    let e = if e.is_truncation() && self.available() >= self.max_message {
                        MessageError::Frame(format!(
                            "message exceeds the {}-byte message limit",
                            self.max_message
                        ))
                    } else {
                        MessageError::Decode(rebase(e, frame_offset))
                    };
                    return Err(self.fail(e, false, frame_offset));
                }
            }
        };
        let message = &self.buf[self.start..self.start + length];
        let result = decode_one(decoder, message, template, frame_offset, decode);
        self.consume(length);
        match result {
            Ok((header, _, decoded)) => {
                let info = MessageInfo {
                    index: self.index,
                    offset: frame_offset,
                    length,
                    header,
                    decoded,
                    padding: 0,
                };
                self.index += 1;
                Ok(Some(info))
            }
            // Unreachable in practice: the same bytes just decoded.
            Err(e) => Err(self.fail(
                MessageError::Decode(rebase(e, frame_offset)),
                false,
                frame_offset,
            )),
        }
    }
}

/// Decodes one message (or only its header, when filtered out): (header, length, decoded).
fn decode_one<F>(
    decoder: &Decoder,
    bytes: &[u8],
    template: Option<u64>,
    offset: u64,
    decode: &mut F,
) -> Result<(MessageHeader, usize, bool), DecodeError>
where
    F: FnMut(&[u8], &MessageHeader, u64) -> Result<usize, DecodeError>,
{
    let header = decoder.read_header(bytes)?;
    if template.is_some_and(|t| t != header.template_id) {
        return Ok((header, bytes.len(), false));
    }
    let len = decode(bytes, &header, offset)?;
    Ok((header, len, true))
}

fn rebase(mut e: DecodeError, base: u64) -> DecodeError {
    e.offset = usize::try_from(base)
        .ok()
        .and_then(|b| b.checked_add(e.offset))
        .unwrap_or(usize::MAX);
    e
}
