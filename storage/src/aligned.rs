//! A page-aligned, growable byte buffer for O_DIRECT writes.
//!
//! O_DIRECT requires the user buffer, the file offset and the length to be
//! multiples of the logical block size. `Vec<u8>` gives no alignment
//! guarantee, so this is the one place that allocates by hand.

use std::alloc::{Layout, alloc_zeroed, dealloc, handle_alloc_error};
use std::ptr::NonNull;

/// Alignment and granularity of direct I/O: 4 KiB covers every block size
/// up to the page size on Linux.
pub const ALIGN: usize = 4096;

pub fn align_down(n: u64) -> u64 {
    n & !(ALIGN as u64 - 1)
}

pub fn align_up(n: usize) -> usize {
    (n + ALIGN - 1) & !(ALIGN - 1)
}

/// Owned, zero-initialised, `ALIGN`-aligned bytes with a length.
///
/// Invariants: `ptr` points to an allocation of `cap` bytes (a non-zero
/// multiple of `ALIGN`) with alignment `ALIGN`, all of it initialised
/// (allocated zeroed, and only ever written through safe slices);
/// `len <= cap`.
pub struct AlignedBuf {
    ptr: NonNull<u8>,
    len: usize,
    cap: usize,
}

impl AlignedBuf {
    pub fn with_capacity(cap: usize) -> Self {
        let cap = align_up(cap.max(1));
        let layout = Layout::from_size_align(cap, ALIGN).expect("aligned layout");
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc_zeroed(layout) };
        let ptr = NonNull::new(raw).unwrap_or_else(|| handle_alloc_error(layout));
        AlignedBuf { ptr, len: 0, cap }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `len <= cap` bytes are allocated and initialised.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The whole allocation, initialised (zeroed or written) by invariant.
    fn full_mut(&mut self) -> &mut [u8] {
        // SAFETY: `cap` bytes are allocated, initialised and uniquely owned.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.cap) }
    }

    fn reserve(&mut self, extra: usize) {
        let need = self.len + extra;
        if need <= self.cap {
            return;
        }
        let mut bigger = AlignedBuf::with_capacity(need.max(self.cap * 2));
        bigger.full_mut()[..self.len].copy_from_slice(self.as_slice());
        bigger.len = self.len;
        *self = bigger;
    }

    pub fn extend_from_slice(&mut self, data: &[u8]) {
        self.reserve(data.len());
        let len = self.len;
        self.full_mut()[len..len + data.len()].copy_from_slice(data);
        self.len += data.len();
    }

    /// Zeroes the bytes from `len` up to the next `ALIGN` boundary and
    /// returns that padded length (the length is unchanged): what an
    /// O_DIRECT write of this buffer must cover.
    pub fn pad_to_block(&mut self) -> usize {
        let padded = align_up(self.len);
        self.reserve(padded - self.len);
        let len = self.len;
        self.full_mut()[len..padded].fill(0);
        padded
    }

    /// Keeps only `self[from..]`, moved to the front.
    pub fn drain_front(&mut self, from: usize) {
        let len = self.len;
        self.full_mut().copy_within(from..len, 0);
        self.len = len - from;
    }

    /// A view of `self[..len]` (len may exceed `self.len()` up to the
    /// capacity, to cover padding) to hand to the kernel.
    pub fn into_write(self, len: usize) -> WriteView {
        assert!(len <= self.cap);
        WriteView { buf: self, len }
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        let layout = Layout::from_size_align(self.cap, ALIGN).expect("aligned layout");
        // SAFETY: allocated in `with_capacity` with this exact layout.
        unsafe { dealloc(self.ptr.as_ptr(), layout) }
    }
}

// SAFETY: an `AlignedBuf` uniquely owns its heap allocation (no shared
// pointer, no thread-local state), so moving it to another thread is as
// sound as moving a `Vec<u8>`. Needed because read buffers end up inside
// `Bytes` (which must be `Send`) that a response may drop on any thread.
unsafe impl Send for AlignedBuf {}

impl AlignedBuf {
    /// The allocation's size in bytes.
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Forgets the contents (the bytes stay initialised).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// A view of the whole capacity for an io_uring read into it (or,
    /// sliced, into the part after the current length); the kernel's byte
    /// count, added to the slice's start, becomes the length.
    pub fn into_read(self) -> ReadView {
        ReadView { buf: self }
    }
}

/// The buffer handed to an io_uring read (monoio owns it until the kernel
/// is done writing, then gives it back).
pub struct ReadView {
    buf: AlignedBuf,
}

impl ReadView {
    pub fn into_inner(self) -> AlignedBuf {
        self.buf
    }
}

// SAFETY: the pointers address the view's heap allocation, which does not
// move with the view and lives as long as it; `cap` bytes are allocated and
// initialised, so any prefix the kernel reports as read is initialised too.
unsafe impl monoio::buf::IoBuf for ReadView {
    fn read_ptr(&self) -> *const u8 {
        self.buf.ptr.as_ptr()
    }
    fn bytes_init(&self) -> usize {
        self.buf.len
    }
}

// SAFETY: as for `IoBuf` above; `set_init` only ever raises the length up
// to the capacity, and every byte below the capacity is initialised.
unsafe impl monoio::buf::IoBufMut for ReadView {
    fn write_ptr(&mut self) -> *mut u8 {
        self.buf.ptr.as_ptr()
    }
    fn bytes_total(&mut self) -> usize {
        self.buf.cap
    }
    unsafe fn set_init(&mut self, pos: usize) {
        if pos > self.buf.len {
            assert!(pos <= self.buf.cap);
            self.buf.len = pos;
        }
    }
}

/// The buffer handed to an io_uring write: monoio keeps it (not a borrow)
/// until the kernel is done with it, and gives it back.
pub struct WriteView {
    buf: AlignedBuf,
    len: usize,
}

impl WriteView {
    pub fn into_inner(self) -> AlignedBuf {
        self.buf
    }
}

// SAFETY: `read_ptr` points to `len <= cap` initialised bytes of a heap
// allocation that does not move when the `WriteView` moves, and stays alive
// for as long as the view (monoio owns the view while the kernel reads it).
unsafe impl monoio::buf::IoBuf for WriteView {
    fn read_ptr(&self) -> *const u8 {
        self.buf.ptr.as_ptr()
    }
    fn bytes_init(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_and_padded() {
        let mut b = AlignedBuf::with_capacity(10);
        assert_eq!(b.cap, ALIGN);
        b.extend_from_slice(&[7u8; 5000]);
        assert_eq!(b.ptr.as_ptr() as usize % ALIGN, 0);
        assert_eq!(b.len(), 5000);
        assert_eq!(b.pad_to_block(), 8192);
        b.drain_front(4096);
        assert_eq!(b.as_slice(), &[7u8; 904][..]);
        assert_eq!(align_down(8191), 4096);
    }
}
