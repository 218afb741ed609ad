//! Reader for IEX market data captures: pcap and pcap-ng files (plain or gzip), Ethernet with
//! VLAN tags, IPv4, UDP, IEX-TP segments, and typed zero-copy views of the DEEP 1.0, TOPS 1.6 /
//! 1.5 and DEEP+ messages; plus [`synth`], a deterministic generator of realistic DEEP captures.
//!
//! # Entry points
//! - [`Capture::open`] maps a file (or inflates a `.gz`, detected by magic bytes) and gives
//!   [`Capture::segments`] (each IEX-TP segment with its header and its messages) and
//!   [`Capture::messages`] (all messages, flat). Both are zero-copy and allocate nothing per
//!   message. The fastest loop is the nested one: `for seg in capture.segments(..)? { for m in
//!   seg?.messages() { .. } }`, which also gives each message its segment's header fields.
//! - [`open_stream`] reads a capture of any size (gzip included) with bounded memory, segment by
//!   segment.
//! - [`Segments::new`] / [`Message::parse`] work on any byte slice.
//! - [`stats::Stats`] gathers the counts `sbekit iex stats` prints.
//! - [`synth::generate`] writes a synthetic DEEP pcap-ng capture.
//!
//! ```
//! use sbekit_iex::{synth, Capture, Message, ReadOptions};
//! let mut bytes = Vec::new();
//! let cfg = synth::SynthConfig { messages: 1_000, ..synth::SynthConfig::default() };
//! synth::generate(&cfg, &mut bytes).unwrap();
//! let capture = Capture::from_vec(bytes);
//! let mut trades = 0;
//! for msg in capture.messages(ReadOptions::default()).unwrap() {
//!     if let Message::TradeReport(t) = msg.unwrap() {
//!         assert!(t.price().raw() > 0);
//!         trades += 1;
//!     }
//! }
//! assert!(trades > 0);
//! ```
//!
//! Decoders never panic: malformed input gives an [`Error`] naming the byte offset, after every
//! message before it was delivered.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod error;
pub mod msg;
pub mod report;
pub mod stats;
pub mod synth;
pub mod tp;

pub use error::{Error, IexErrorKind};
pub use msg::{Message, Price, Symbol};
/// Link, network and transport layers, from the shared capture layer.
pub use sbekit_capture::net;
/// The capture containers (pcap, pcap-ng), from the shared capture layer.
pub use sbekit_capture::pcap as capture;
pub use sbekit_capture::{sniff, CaptureFormat, Packet, PacketReader, Sniffed, StreamPacketReader};
pub use tp::{
    FrameCounters, MessageIter, Messages, Protocol, ReadOptions, Segment, Segments, StreamSegments,
};

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

enum Bytes {
    Mapped(sbekit_fs::Mmap),
    Owned(Vec<u8>),
}

/// A whole capture in memory: memory-mapped, or inflated from gzip.
pub struct Capture {
    bytes: Bytes,
}

impl Capture {
    /// Opens a capture file. A gzip file (detected by its magic bytes, not its name) is inflated
    /// into memory; anything else is memory-mapped. For gzip files larger than memory use
    /// [`open_stream`].
    pub fn open(path: impl AsRef<Path>) -> io::Result<Capture> {
        let mut file = File::open(path.as_ref())?;
        let mut head = [0u8; 2];
        let n = read_up_to(&mut file, &mut head)?;
        if n == 2 && sniff(&head) == Sniffed::Gzip {
            let file = File::open(path.as_ref())?;
            let mut out = Vec::new();
            flate2::read::MultiGzDecoder::new(BufReader::with_capacity(1 << 16, file))
                .read_to_end(&mut out)?;
            return Ok(Capture::from_vec(out));
        }
        if file.metadata()?.len() == 0 {
            return Ok(Capture::from_vec(Vec::new()));
        }
        Ok(Capture {
            bytes: Bytes::Mapped(sbekit_fs::map(&file)?),
        })
    }

    /// Wraps capture bytes already in memory.
    pub fn from_vec(bytes: Vec<u8>) -> Capture {
        Capture {
            bytes: Bytes::Owned(bytes),
        }
    }

    /// The (uncompressed) capture bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }

    /// Iterates the IEX-TP segments, heartbeats included.
    pub fn segments(&self, opts: ReadOptions) -> Result<Segments<'_>, Error> {
        Segments::new(self.bytes(), opts)
    }

    /// Iterates all messages of all segments.
    pub fn messages(&self, opts: ReadOptions) -> Result<Messages<'_>, Error> {
        Ok(self.segments(opts)?.messages())
    }
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A boxed byte source for [`open_stream`].
pub type DynRead = Box<dyn Read + Send>;

/// Opens a capture for streaming with bounded memory; gzip is detected by magic bytes and
/// inflated on the fly (multi-member streams included).
pub fn open_stream(
    path: impl AsRef<Path>,
    opts: ReadOptions,
) -> Result<StreamSegments<DynRead>, Error> {
    let file = File::open(path.as_ref()).map_err(io_error)?;
    Ok(stream_from_reader(file, opts)?.0)
}

/// Like [`open_stream`] for any reader (a file, a pipe, a counting wrapper...). Returns the
/// segment reader and whether the input was gzip.
pub fn stream_from_reader<R: Read + Send + 'static>(
    input: R,
    opts: ReadOptions,
) -> Result<(StreamSegments<DynRead>, bool), Error> {
    use std::io::BufRead;
    let mut buffered = BufReader::with_capacity(1 << 16, input);
    // Peek at the magic without consuming it.
    let head = buffered.fill_buf().map_err(io_error)?;
    let gzip = head.len() >= 2 && sniff(head) == Sniffed::Gzip;
    let input: DynRead = if gzip {
        Box::new(flate2::read::MultiGzDecoder::new(buffered))
    } else {
        Box::new(buffered)
    };
    Ok((StreamSegments::new(input, opts)?, gzip))
}

fn io_error(e: io::Error) -> Error {
    Error::new(0, IexErrorKind::Io(e.to_string()))
}
