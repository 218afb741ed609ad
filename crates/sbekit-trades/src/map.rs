//! Read-only memory maps of parts of a file: the crate's only `unsafe` code.

use memmap2::{Mmap, MmapOptions};
use std::fs::File;
use std::io;

/// Maps `len` bytes of `file` starting at `offset` read-only (any offset: the page alignment
/// is handled by `memmap2`). `populate` asks the kernel to fault all pages in up front
/// (`MAP_POPULATE` on Linux), which is much cheaper than one fault per page when the file is
/// in the page cache. `len` must not be zero.
#[allow(unsafe_code)]
pub fn map_range(file: &File, offset: u64, len: usize, populate: bool) -> io::Result<Mmap> {
    let mut opts = MmapOptions::new();
    opts.offset(offset).len(len);
    if populate {
        opts.populate();
    }
    // SAFETY: the mapping is read-only and private to this process, and it is only ever read
    // as plain bytes: every decoder over it is bounds-checked and accepts any byte values, so
    // no invariant depends on the contents. What memmap2 cannot rule out is another process
    // truncating or rewriting the file while it is mapped (a SIGBUS, or bytes changing under
    // a `&[u8]`). Trade files are only ever created whole (written to a temporary file and
    // renamed into place) and never modified in place by sbekit, so that takes an outside
    // writer acting against the documented contract.
    unsafe { opts.map(file) }
}
