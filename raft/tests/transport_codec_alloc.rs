//! Invariant 5 for the transport codec, measured: decoding hostile frames
//! never makes a single allocation larger than the frame itself (a
//! counting allocator records the largest request).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use bytes::{BufMut, Bytes, BytesMut};
use tidemark_raft::transport::codec::{MAX_ENTRIES, decode_frame};

struct Counting;

// Per thread: the test harness runs tests on parallel threads.
thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
    static ON: Cell<bool> = const { Cell::new(false) };
}

fn note(size: usize) {
    if ON.get() {
        LARGEST.set(LARGEST.get().max(size));
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        note(l.size());
        // SAFETY: forwarded as is to the system allocator.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: forwarded as is to the system allocator.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        note(new);
        // SAFETY: forwarded as is to the system allocator.
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static A: Counting = Counting;

fn header(kind: u8) -> BytesMut {
    let mut b = BytesMut::new();
    b.put_u8(kind);
    b.put_u64(1);
    b.put_u128(0);
    b.put_i32(0);
    b
}

/// An append request: vote, no prev, no commit, `count`, then `blanks`
/// blank entries.
fn append(count: u32, blanks: usize) -> Bytes {
    let mut b = header(2);
    b.put_u64(1);
    b.put_u64(1);
    b.put_u8(1);
    b.put_u8(0);
    b.put_u8(0);
    b.put_u32(count);
    for i in 0..blanks {
        b.put_u64(1);
        b.put_u64(i as u64 + 1);
        b.put_u8(0);
    }
    b.freeze()
}

fn largest_while_decoding(f: Bytes) -> (usize, bool) {
    LARGEST.set(0);
    ON.set(true);
    let ok = decode_frame(f).is_ok();
    ON.set(false);
    (LARGEST.get(), ok)
}

#[test]
fn hostile_counts_allocate_at_most_the_frame() {
    // Counts the bytes cannot hold.
    for count in [u32::MAX, 1 << 20, 1000] {
        let f = append(count, 10);
        let len = f.len();
        let (largest, ok) = largest_while_decoding(f);
        assert!(!ok);
        assert!(largest <= len, "count {count}: {largest} > {len}");
    }
    // A plausible count (the bytes could hold that many blanks) whose
    // first entry is invalid: the up-front reservation is what counts.
    let mut b = BytesMut::from(&append(10_000, 0)[..]);
    b.put_u64(1);
    b.put_u64(1);
    b.put_u8(9);
    b.put_slice(&vec![0u8; 10_000 * 17]);
    let f = b.freeze();
    let len = f.len();
    let (largest, ok) = largest_while_decoding(f);
    assert!(!ok);
    assert!(largest <= len, "plausible count: {largest} > {len}");
    // A batch length past the end.
    let mut b = BytesMut::from(&append(1, 0)[..]);
    b.put_u64(1);
    b.put_u64(1);
    b.put_u8(1);
    b.put_u32(u32::MAX);
    b.put_slice(&[0; 32]);
    let f = b.freeze();
    let len = f.len();
    let (largest, ok) = largest_while_decoding(f);
    assert!(!ok);
    assert!(largest <= len, "{largest} > {len}");
    // An error message length past the end.
    let mut b = header(0xff);
    b.put_u16(1);
    b.put_u16(u16::MAX);
    b.put_slice(b"short");
    let f = b.freeze();
    let len = f.len();
    let (largest, ok) = largest_while_decoding(f);
    assert!(!ok);
    assert!(largest <= len, "{largest} > {len}");
}

#[test]
fn a_frame_full_of_blanks_reserves_no_more_than_its_size_up_front() {
    // Valid: the decoded entries are larger than their 17 wire bytes, so
    // the vector grows with what is decoded, and the count is capped.
    let n = 10_000;
    let f = append(n as u32, n);
    let len = f.len();
    let (largest, ok) = largest_while_decoding(f);
    assert!(ok);
    // Growth by doubling: at most twice the decoded entries' size.
    let entry = std::mem::size_of::<tidemark_raft::Entry>();
    assert!(largest <= 2 * n * entry, "{largest}");
    eprintln!("{n} blanks: frame {len} B, largest allocation {largest} B ({entry} B per entry)");
    // Over the cap: refused whatever the bytes.
    let f = append(MAX_ENTRIES as u32 + 1, MAX_ENTRIES + 1);
    assert!(decode_frame(f).is_err());
}
