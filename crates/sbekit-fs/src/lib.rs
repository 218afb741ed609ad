//! Files the project writes and maps, done one way.
//!
//! - [`write()`] and [`AtomicFile`]: every file sbekit writes appears whole or not at all. The
//!   bytes go to a hidden temporary file in the target's directory (`.NAME.XXXXXX.tmp`: the same
//!   file system, so the rename is atomic; the leading dot makes Arrow/Parquet engines and
//!   directory listings skip it), the file is synced, renamed over the target and the directory
//!   is synced so the rename itself survives a crash. Until the rename the target keeps its old
//!   content; a writer dropped without [`AtomicFile::commit`], or one whose commit fails,
//!   removes its temporary file.
//! - [`GeneratedFile`] and [`write_tree`]: the files a code generator makes, written into a
//!   directory the same way by every generator.
//! - [`map`] and [`map_range`]: read-only memory maps, the one place with `unsafe` code;
//!   [`release`] hands pages of such a map that were read back to the kernel.

#![warn(missing_docs)]

pub use memmap2::Mmap;
use memmap2::MmapOptions;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// Writes `bytes` to `path` atomically (see [`AtomicFile`]).
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes)?;
    f.commit()
}

/// One generated file: a path relative to the output directory and its text (what every
/// code generator returns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Path inside the output directory (`include/baseline/messages.hpp`, `src/messages.ts`).
    pub path: PathBuf,
    /// File contents.
    pub text: String,
}

/// Writes `files` under `dir`, creating directories as needed, each file atomically
/// ([`write()`]): a failed run leaves no temporary file, and every file present is either its
/// old content or the whole new one. An error names the file.
pub fn write_tree(dir: &Path, files: &[GeneratedFile]) -> io::Result<()> {
    for f in files {
        let path = dir.join(&f.path);
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(named)?;
        }
        write(&path, f.text.as_bytes()).map_err(named)?;
    }
    Ok(())
}

/// A file being written that appears at its target path only when [`commit`](Self::commit)
/// succeeds.
///
/// Writes are unbuffered; wrap it in a [`std::io::BufWriter`] and take it back with
/// `into_inner` before committing. Dropping it uncommitted removes the temporary file.
#[derive(Debug)]
pub struct AtomicFile {
    tmp: NamedTempFile,
    target: PathBuf,
}

impl AtomicFile {
    /// Starts a file that will appear at `path`. The temporary file is created in `path`'s
    /// directory, which must exist and be writable; an error names no path (callers do).
    pub fn create(path: &Path) -> io::Result<Self> {
        let name = path.file_name().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "the output path names no file")
        })?;
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let prefix = format!(".{}.", name.to_string_lossy());
        let mut b = tempfile::Builder::new();
        b.prefix(&prefix).suffix(".tmp");
        // tempfile creates files 0600; ask for 0666 so the umask decides, as File::create does.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            b.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let tmp = b.tempfile_in(dir)?;
        Ok(AtomicFile {
            tmp,
            target: path.to_path_buf(),
        })
    }

    /// The path the file will have once committed.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The temporary file's path (it holds the bytes until the commit).
    pub fn temp_path(&self) -> &Path {
        self.tmp.path()
    }

    /// The open temporary file, for positioned writes and reads.
    pub fn file(&self) -> &File {
        self.tmp.as_file()
    }

    /// The open temporary file, mutably.
    pub fn file_mut(&mut self) -> &mut File {
        self.tmp.as_file_mut()
    }

    /// Syncs the file, renames it over the target and syncs the directory. On error the
    /// temporary file is removed and the target is left as it was (unless the error came from
    /// the directory sync, after the rename).
    pub fn commit(self) -> io::Result<()> {
        let AtomicFile { tmp, target } = self;
        tmp.as_file().sync_all()?;
        tmp.persist(&target).map_err(|e| e.error)?;
        sync_parent(&target)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tmp.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.tmp.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.tmp.flush()
    }
}

/// Makes a rename in `path`'s directory durable.
fn sync_parent(path: &Path) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    // Other platforms cannot open a directory as a file; their renames are what they are.
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Maps all of `file` read-only.
pub fn map(file: &File) -> io::Result<Mmap> {
    map_with(file, MmapOptions::new())
}

/// Maps `len` bytes of `file` from `offset` read-only (any offset: `memmap2` handles the page
/// alignment). `populate` asks the kernel to fault every page in up front (`MAP_POPULATE` on
/// Linux), much cheaper than one fault per page when the file is in the page cache. `len` must
/// not be zero.
pub fn map_range(file: &File, offset: u64, len: usize, populate: bool) -> io::Result<Mmap> {
    let mut opts = MmapOptions::new();
    opts.offset(offset).len(len);
    if populate {
        opts.populate();
    }
    map_with(file, opts)
}

/// Lets the kernel drop the resident pages of `len` bytes of `map` from `offset` (any
/// offset: `memmap2` aligns it to the page), so that a long sequential read of a big file does
/// not keep the whole file in the process's resident set. The bytes stay readable: a page
/// touched again is read back from the file (the page cache, usually).
#[allow(unsafe_code)]
pub fn release(map: &Mmap, offset: usize, len: usize) -> io::Result<()> {
    if len == 0 || offset >= map.len() {
        return Ok(());
    }
    let len = len.min(map.len() - offset);
    // SAFETY: the map is a read-only file mapping made by `map_with` (never written, so it
    // holds no anonymous copy-on-write pages): MADV_DONTNEED only unmaps its pages, and any
    // later access faults them in again with the file's bytes, so no `&[u8]` into the map
    // sees its contents change (what memmap2's `unsafe` guards against: anonymous or written
    // private pages that would read back as zeros).
    unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, offset, len) }
}

#[allow(unsafe_code)]
fn map_with(file: &File, opts: MmapOptions) -> io::Result<Mmap> {
    // SAFETY: the map is read-only and private to this process, and every user reads it only
    // as plain bytes through bounds-checked decoders that accept any byte values, so no
    // invariant depends on the contents. What memmap2 cannot rule out is another process
    // truncating or rewriting the file while it is mapped (a SIGBUS, or bytes changing under a
    // `&[u8]`). sbekit never modifies a file in place (it writes whole files through
    // `AtomicFile`), and captures are written once and then only read: that takes an outside
    // writer acting against the documented contract, the accepted price of zero-copy reading.
    unsafe { opts.map(file) }
}
