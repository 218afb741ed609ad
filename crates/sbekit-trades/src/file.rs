//! The trade file format.
//!
//! ```text
//! offset  size  contents
//!      0     8  magic "SBETRADE"
//!      8     8  SBE message header (blockLength, templateId 1, schemaId 7, version)
//!     16    40  TradeFileHeader block: formatVersion, layout, recordSize, dataOffset,
//!               recordCount, timeMin, timeMax, recordsCrc32, headerCrc32
//!     56     8  zero
//!     64   ...  recordCount records of recordSize bytes (TradeLossless or TradeCompact
//!               blocks, no per-record header), ascending by time
//! ```
//!
//! All integers are little-endian. Records start on a 64-byte boundary, so with the 32-byte
//! compact layout every cache line holds exactly two records; 40-byte lossless records are
//! 8-byte aligned (8 records per 5 cache lines). `headerCrc32` is the CRC-32 (IEEE) of bytes
//! 0..64 with that field zeroed; `recordsCrc32` covers every record byte.
//!
//! [`TradeWriter`] writes a file atomically through [`sbekit_fs::AtomicFile`]: records go to a
//! hidden temporary file (`.NAME.XXXXXX.tmp`) in the same directory behind an all-zero header (written, checksummed and synced every 64 MiB by a
//! thread of its own, so parsing overlaps the kernel's copying and the disk); only when every
//! record is on disk is the header written, the file synced and renamed to `NAME`, and the
//! directory synced. A file cut short at any point before that has no magic (and is not at
//! `NAME`), so nothing accepts it as a trade file.

use crate::codec::{self, TradeFileHeaderDecoder, TradeFileHeaderEncoder};
use crate::error::{Error, Result};
use crate::trade::{
    Compact, LayoutKind, Lossless, RawTrade, RecordLayout, RecordView, Trade, HEADER_LENGTH,
};
use sbekit_fs::map_range;
use sbekit_fs::AtomicFile;
use std::fs::File;
use std::io::{Read, Write};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// The first 8 bytes of every trade file.
pub const MAGIC: &[u8; 8] = b"SBETRADE";
/// The file format version this code writes and reads.
pub const FORMAT_VERSION: u16 = 1;
/// Size of the header area; also where the first record starts.
pub const DATA_OFFSET: u64 = 64;
/// Bytes mapped at a time when scanning (rounded down to whole records).
pub const WINDOW_BYTES: usize = 16 << 20;

/// A trade file's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// File format version ([`FORMAT_VERSION`]).
    pub format_version: u16,
    /// Schema id of the records (7).
    pub schema_id: u16,
    /// Schema version the writer used.
    pub schema_version: u16,
    /// Record layout.
    pub layout: LayoutKind,
    /// Bytes per record.
    pub record_size: u16,
    /// Offset of the first record.
    pub data_offset: u16,
    /// Number of records.
    pub record_count: u64,
    /// Smallest time (0 when there are no records).
    pub time_min: u64,
    /// Largest time (0 when there are no records).
    pub time_max: u64,
    /// CRC-32 of all record bytes.
    pub records_crc32: u32,
}

impl Header {
    /// A header for `count` records of `layout` with the given time range and checksum.
    pub fn new(layout: LayoutKind, count: u64, time_min: u64, time_max: u64, crc: u32) -> Self {
        Header {
            format_version: FORMAT_VERSION,
            schema_id: codec::SCHEMA_ID,
            schema_version: codec::SCHEMA_VERSION,
            layout,
            record_size: layout.record_size() as u16,
            data_offset: DATA_OFFSET as u16,
            record_count: count,
            time_min,
            time_max,
            records_crc32: crc,
        }
    }

    /// File size the header implies.
    pub fn file_size(&self) -> u64 {
        u64::from(self.data_offset) + self.record_count * u64::from(self.record_size)
    }

    fn encode_with(&self, header_crc: u32) -> [u8; DATA_OFFSET as usize] {
        let mut out = [0u8; DATA_OFFSET as usize];
        out[..8].copy_from_slice(MAGIC);
        if let Ok(mut e) = TradeFileHeaderEncoder::new(&mut out[8..]) {
            e.format_version(self.format_version)
                .layout(self.layout.to_codec())
                .reserved(0)
                .record_size(self.record_size)
                .data_offset(self.data_offset)
                .record_count(self.record_count)
                .time_min(self.time_min)
                .time_max(self.time_max)
                .records_crc32(self.records_crc32)
                .header_crc32(header_crc);
            let _ = e.finish();
        }
        out
    }

    /// The 64 header bytes, with the header checksum filled in.
    pub fn encode(&self) -> [u8; DATA_OFFSET as usize] {
        let crc = crc32fast::hash(&self.encode_with(0));
        self.encode_with(crc)
    }

    /// Reads and checks the 64 header bytes; the error says what is wrong.
    pub fn decode(bytes: &[u8]) -> std::result::Result<Self, String> {
        let Some(bytes) = bytes.first_chunk::<{ DATA_OFFSET as usize }>() else {
            return Err(format!(
                "too short to be a trade file ({} bytes; the header alone is {DATA_OFFSET})",
                bytes.len()
            ));
        };
        if &bytes[..8] != MAGIC {
            if bytes.iter().all(|&b| b == 0) {
                return Err("incomplete trade file: the header was never written \
                            (an interrupted conversion?)"
                    .into());
            }
            return Err(format!(
                "not an sbekit trade file (starts with {:?}, expected \"SBETRADE\")",
                String::from_utf8_lossy(&bytes[..8])
            ));
        }
        let d = TradeFileHeaderDecoder::decode(&bytes[8..])
            .map_err(|e| format!("bad header message: {e}"))?;
        // The checksum over the raw bytes with the checksum field zeroed (the generated
        // encoder leaves every other byte of the block as it is).
        let mut zeroed = *bytes;
        if let Ok(mut e) = TradeFileHeaderEncoder::new(&mut zeroed[8..]) {
            e.header_crc32(0);
        }
        zeroed[8..8 + HEADER_LENGTH].copy_from_slice(&bytes[8..8 + HEADER_LENGTH]);
        let crc = crc32fast::hash(&zeroed);
        if crc != d.header_crc32() {
            return Err(format!(
                "header checksum mismatch (stored {:#010x}, computed {crc:#010x}): the header \
                 is corrupt",
                d.header_crc32()
            ));
        }
        let h = Header {
            format_version: d.format_version(),
            schema_id: codec::SCHEMA_ID,
            schema_version: u16::try_from(d.acting_version()).unwrap_or(u16::MAX),
            layout: LayoutKind::from_codec(d.layout()).unwrap_or_default(),
            record_size: d.record_size(),
            data_offset: d.data_offset(),
            record_count: d.record_count(),
            time_min: d.time_min(),
            time_max: d.time_max(),
            records_crc32: d.records_crc32(),
        };
        if h.format_version != FORMAT_VERSION {
            return Err(format!(
                "file format version {} is not supported (this sbekit reads version {FORMAT_VERSION})",
                h.format_version
            ));
        }
        let Some(layout) = LayoutKind::from_codec(d.layout()) else {
            return Err(format!(
                "unknown record layout code {}",
                d.layout().to_raw()
            ));
        };
        if usize::from(h.record_size) != layout.record_size() {
            return Err(format!(
                "record size {} does not match the {layout} layout ({} bytes)",
                h.record_size,
                layout.record_size()
            ));
        }
        if u64::from(h.data_offset) < DATA_OFFSET || h.data_offset % 64 != 0 {
            return Err(format!(
                "data offset {} is not a multiple of 64 at or after {DATA_OFFSET}",
                h.data_offset
            ));
        }
        if (h.record_count > 0 && h.time_min > h.time_max)
            || (h.record_count == 0 && (h.time_min, h.time_max) != (0, 0))
        {
            return Err(format!(
                "time range {}..{} is impossible for {} records",
                h.time_min, h.time_max, h.record_count
            ));
        }
        if h.record_count > (u64::MAX - DATA_OFFSET) / u64::from(h.record_size) {
            return Err(format!("record count {} is impossible", h.record_count));
        }
        Ok(h)
    }
}

/// Why a trade was not written.
#[derive(Debug)]
pub enum PushError {
    /// The trade cannot be stored (out of time order, or not representable in the layout).
    Reject(String),
    /// Writing failed.
    Io(Error),
}

/// Writes a trade file atomically (see the module documentation).
pub struct TradeWriter {
    path: PathBuf,
    tmp: PathBuf,
    bg: Option<Background>,
    layout: LayoutKind,
    buf: Vec<u8>,
    count: u64,
    time_min: u64,
    time_max: u64,
    bytes: u64,
}

const WRITE_CHUNK: usize = 1 << 20;
/// Record buffers queued for the writing thread (bounds memory to a few MiB).
const QUEUE: usize = 4;
/// The writing thread syncs the data every this many bytes, so the disk works while the
/// parser does and the final sync has little left to wait for.
const SYNC_EVERY: u64 = 64 << 20;

/// A thread that checksums and writes record buffers, in order.
struct Background {
    tx: Option<SyncSender<Vec<u8>>>,
    free: Receiver<Vec<u8>>,
    handle: Option<JoinHandle<Result<(AtomicFile, u32)>>>,
}

impl Background {
    fn spawn(mut file: AtomicFile, tmp: PathBuf) -> Self {
        let (tx, rx) = sync_channel::<Vec<u8>>(QUEUE);
        let (free_tx, free) = channel::<Vec<u8>>();
        // The thread owns the file: if it fails, dropping it there removes the temporary file.
        let handle = std::thread::spawn(move || -> Result<(AtomicFile, u32)> {
            let mut crc = crc32fast::Hasher::new();
            let mut unsynced = 0u64;
            for mut v in rx {
                let records = v.get(HEADER_LENGTH..).unwrap_or(&[]);
                crc.update(records);
                file.write_all(records).map_err(|e| Error::io(&tmp, e))?;
                unsynced += records.len() as u64;
                if unsynced >= SYNC_EVERY {
                    file.file().sync_data().map_err(|e| Error::io(&tmp, e))?;
                    unsynced = 0;
                }
                v.truncate(HEADER_LENGTH);
                let _ = free_tx.send(v);
            }
            Ok((file, crc.finalize()))
        });
        Background {
            tx: Some(tx),
            free,
            handle: Some(handle),
        }
    }

    /// Stops the thread; its file and checksum, or its error.
    fn join(&mut self) -> Result<(AtomicFile, u32)> {
        self.tx = None;
        match self.handle.take().map(JoinHandle::join) {
            Some(Ok(r)) => r,
            _ => Err(Error::Invalid("the writing thread failed".into())),
        }
    }
}

/// The writer's buffer: records after [`HEADER_LENGTH`] bytes of slack that
/// [`RecordLayout::append`] borrows.
fn with_slack() -> Vec<u8> {
    let mut v = Vec::with_capacity(HEADER_LENGTH + WRITE_CHUNK + 64);
    v.resize(HEADER_LENGTH, 0);
    v
}

impl TradeWriter {
    /// Starts a file that will appear at `path` when [`Self::finish`] succeeds.
    pub fn create(path: &Path, layout: LayoutKind) -> Result<Self> {
        let mut file = AtomicFile::create(path).map_err(|e| Error::io(path, e))?;
        let tmp = file.temp_path().to_path_buf();
        file.write_all(&[0u8; DATA_OFFSET as usize])
            .map_err(|e| Error::io(&tmp, e))?;
        Ok(TradeWriter {
            path: path.to_path_buf(),
            bg: Some(Background::spawn(file, tmp.clone())),
            tmp,
            layout,
            buf: with_slack(),
            count: 0,
            time_min: 0,
            time_max: 0,
            bytes: DATA_OFFSET,
        })
    }

    /// The temporary file records go to until [`Self::finish`].
    pub fn temp_path(&self) -> &Path {
        &self.tmp
    }

    /// Records written so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Bytes written so far (header area included).
    pub fn bytes(&self) -> u64 {
        self.bytes + (self.buf.len() - HEADER_LENGTH) as u64
    }

    /// Appends one trade. Trades must come in non-decreasing time order.
    #[inline]
    pub fn push(&mut self, t: &Trade) -> std::result::Result<(), PushError> {
        self.push_raw(&RawTrade::from(t))
    }

    /// Appends one trade given with raw codes (see [`RawTrade`]).
    #[inline]
    pub fn push_raw(&mut self, t: &RawTrade) -> std::result::Result<(), PushError> {
        if self.count > 0 && t.time < self.time_max {
            return Err(PushError::Reject(format!(
                "time {} is before the previous row's {} (rows must be in time order)",
                t.time, self.time_max
            )));
        }
        let r = match self.layout {
            LayoutKind::Lossless => Lossless::append(t, &mut self.buf),
            LayoutKind::Compact => Compact::append(t, &mut self.buf),
        };
        if let Err(e) = r {
            return Err(PushError::Reject(e.0));
        }
        if self.count == 0 {
            self.time_min = t.time;
        }
        self.time_max = t.time;
        self.count += 1;
        if self.buf.len() >= WRITE_CHUNK + HEADER_LENGTH {
            self.flush_buf().map_err(PushError::Io)?;
        }
        Ok(())
    }

    /// Hands the buffered records to the writing thread.
    fn flush_buf(&mut self) -> Result<()> {
        let Some(bg) = self.bg.as_mut() else {
            return Ok(());
        };
        let next = bg.free.try_recv().unwrap_or_else(|_| with_slack());
        let full = std::mem::replace(&mut self.buf, next);
        self.bytes += (full.len() - HEADER_LENGTH) as u64;
        let sent = bg.tx.as_ref().map(|tx| tx.send(full).is_ok());
        if sent != Some(true) {
            // The thread stopped: it has an error to tell.
            let err = bg.join().err();
            self.bg = None;
            return Err(err.unwrap_or_else(|| Error::Invalid("the writing thread stopped".into())));
        }
        Ok(())
    }

    /// Writes the header, syncs and renames the file into place; returns the header.
    pub fn finish(mut self) -> Result<Header> {
        self.flush_buf()?;
        let mut bg = self
            .bg
            .take()
            .ok_or_else(|| Error::Invalid("trade writer already finished".into()))?;
        let joined = bg.join();
        // On any failure below, dropping `file` removes the temporary file.
        let (file, crc) = joined?;
        let header = Header::new(self.layout, self.count, self.time_min, self.time_max, crc);
        let io = |e| Error::io(&self.tmp, e);
        // The records reach the disk before the header that makes the file valid.
        file.file().sync_data().map_err(io)?;
        file.file().write_all_at(&header.encode(), 0).map_err(io)?;
        file.commit().map_err(|e| Error::io(&self.path, e))?;
        Ok(header)
    }
}

impl Drop for TradeWriter {
    fn drop(&mut self) {
        // Joining hands back the temporary file, which is removed as it drops.
        if let Some(mut bg) = self.bg.take() {
            let _ = bg.join();
        }
    }
}

/// An open trade file whose header and size have been checked (not yet its checksum: see
/// [`verify`]).
#[derive(Debug)]
pub struct TradeFile {
    path: PathBuf,
    file: File,
    header: Header,
}

impl TradeFile {
    /// Opens `path`, checking the header and that the file size matches it.
    pub fn open(path: &Path) -> Result<Self> {
        let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        let mut head = Vec::with_capacity(DATA_OFFSET as usize);
        (&mut file)
            .take(DATA_OFFSET)
            .read_to_end(&mut head)
            .map_err(|e| Error::io(path, e))?;
        let header = Header::decode(&head).map_err(|r| Error::bad_file(path, r))?;
        let want = header.file_size();
        if len < want {
            return Err(Error::bad_file(
                path,
                format!(
                    "truncated: the header promises {} records ({want} bytes) but the file has \
                     {len} bytes ({} whole records)",
                    header.record_count,
                    (len.saturating_sub(u64::from(header.data_offset)))
                        / u64::from(header.record_size)
                ),
            ));
        }
        if len > want {
            return Err(Error::bad_file(
                path,
                format!(
                    "{} unexpected bytes after the {} records the header promises",
                    len - want,
                    header.record_count
                ),
            ));
        }
        Ok(TradeFile {
            path: path.to_path_buf(),
            file,
            header,
        })
    }

    /// The checked header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of records.
    pub fn len(&self) -> u64 {
        self.header.record_count
    }

    /// True when the file holds no records.
    pub fn is_empty(&self) -> bool {
        self.header.record_count == 0
    }

    fn record_offset(&self, i: u64) -> u64 {
        u64::from(self.header.data_offset) + i * u64::from(self.header.record_size)
    }

    /// Maps the records in `range` a window at a time and calls `f(bytes, n)` for each window:
    /// `bytes` starts [`HEADER_LENGTH`] bytes before the window's first record and holds its
    /// `n` records (the form [`RecordLayout::view`] reads; see [`records`]).
    pub fn scan<E: From<Error>>(
        &self,
        range: Range<u64>,
        mut f: impl FnMut(&[u8], usize) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        let size = usize::from(self.header.record_size);
        let per = (WINDOW_BYTES / size).max(1) as u64;
        let end = range.end.min(self.len());
        let mut i = range.start;
        while i < end {
            let n = per.min(end - i);
            let start = self.record_offset(i) - HEADER_LENGTH as u64;
            let len = HEADER_LENGTH + n as usize * size;
            let map =
                map_range(&self.file, start, len, true).map_err(|e| Error::io(&self.path, e))?;
            f(&map, n as usize)?;
            i += n;
        }
        Ok(())
    }

    /// Reads record `i` with an ordinary read (for lookups, not for scans).
    pub fn trade_at(&self, i: u64) -> Result<Trade> {
        if i >= self.len() {
            return Err(Error::Invalid(format!("record {i} is past the end")));
        }
        let size = usize::from(self.header.record_size);
        let mut buf = vec![0u8; HEADER_LENGTH + size];
        self.file
            .read_exact_at(&mut buf[HEADER_LENGTH..], self.record_offset(i))
            .map_err(|e| Error::io(&self.path, e))?;
        let t = match self.header.layout {
            LayoutKind::Lossless => Lossless::view(&buf).map(|v| v.trade()),
            LayoutKind::Compact => Compact::view(&buf).map(|v| v.trade()),
        };
        t.ok_or_else(|| Error::Invalid(format!("record {i} could not be read")))
    }

    /// Index of the first record with time at or after `t` (records are in time order).
    pub fn lower_bound(&self, t: u64) -> Result<u64> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.trade_at(mid)?.time < t {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }
}

/// The `n` records at the start of a window that [`TradeFile::scan`] passes, as views of
/// layout `L`.
#[inline]
pub fn records<L: RecordLayout>(bytes: &[u8], n: usize) -> impl Iterator<Item = L::View<'_>> {
    // `n` may come from a file header: never loop past what `bytes` can hold.
    let n = n.min(bytes.len() / L::SIZE.max(1) + 1);
    (0..n).filter_map(move |i| {
        let at = i * L::SIZE;
        bytes
            .get(at..at + HEADER_LENGTH + L::SIZE)
            .and_then(L::view)
    })
}

/// What [`verify`] found in a good file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifyReport {
    /// The file's header.
    pub header: Header,
    /// Records checked.
    pub records: u64,
}

fn scan_verify<L: RecordLayout>(f: &TradeFile) -> Result<(u32, u64, u64)> {
    let mut crc = crc32fast::Hasher::new();
    let (mut min, mut max, mut idx) = (0u64, 0u64, 0u64);
    let mut last = 0u64;
    let mut problem: Option<String> = None;
    f.scan(0..f.len(), |bytes, n| -> Result<()> {
        crc.update(&bytes[HEADER_LENGTH..]);
        if problem.is_some() {
            return Ok(());
        }
        for v in records::<L>(bytes, n) {
            let t = v.trade();
            let bad =
                |what: &str, raw: u8| Some(format!("record {idx} has unknown {what} code {raw}"));
            if t.exchange.name().is_none() {
                problem = bad("exchange", t.exchange.to_raw());
            } else if t.base.name().is_none() {
                problem = bad("currency", t.base.to_raw());
            } else if t.quote.name().is_none() {
                problem = bad("currency", t.quote.to_raw());
            } else if t.side.name().is_none() {
                problem = bad("side", t.side.to_raw());
            } else if idx > 0 && t.time < last {
                problem = Some(format!(
                    "record {idx} goes back in time ({} < {last})",
                    t.time
                ));
            }
            if problem.is_some() {
                break;
            }
            if idx == 0 {
                min = t.time;
            }
            last = t.time;
            max = t.time;
            idx += 1;
        }
        Ok(())
    })?;
    let got = crc.finalize();
    let h = f.header();
    if got != h.records_crc32 {
        return Err(Error::bad_file(
            f.path(),
            format!(
                "checksum mismatch: records hash to {got:#010x}, the header says {:#010x} \
                 (the records are corrupt)",
                h.records_crc32
            ),
        ));
    }
    if let Some(p) = problem {
        return Err(Error::bad_file(f.path(), p));
    }
    Ok((got, min, max))
}

/// Checks a trade file completely: header, size, the records' checksum, that every record
/// decodes to known codes, time order, and the time range in the header.
pub fn verify(path: &Path) -> Result<VerifyReport> {
    let f = TradeFile::open(path)?;
    let (_, min, max) = match f.header().layout {
        LayoutKind::Lossless => scan_verify::<Lossless>(&f)?,
        LayoutKind::Compact => scan_verify::<Compact>(&f)?,
    };
    let h = *f.header();
    if (min, max) != (h.time_min, h.time_max) {
        return Err(Error::bad_file(
            path,
            format!(
                "time range in the header ({}..{}) differs from the records' ({min}..{max})",
                h.time_min, h.time_max
            ),
        ));
    }
    Ok(VerifyReport {
        header: h,
        records: f.len(),
    })
}
