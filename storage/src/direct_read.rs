//! Consumers' reads of segment data: O_DIRECT into reused aligned buffers.
//!
//! Why not the page cache (as Kafka reads): the segments are written with
//! O_DIRECT, so a catch-up read never finds its data cached; a buffered
//! read then fills the page cache with bytes that are read once, and the
//! kernel copies them from there to the user buffer inside `io_uring_enter`
//! on the shard's own thread. Measured on this VM (benches/RESULTS.md,
//! "Catch-up reads"), each fresh page-cache page also costs a first touch
//! in the hypervisor, so after a few GB of reads a 1 GB catch-up read took
//! 2-2.5 CPU-seconds of the shard instead of 0.5, and the shard's other
//! partitions waited behind those copies. With O_DIRECT the device writes
//! straight into the buffer (no copy on the shard), and the buffers come
//! from a small per-thread pool, so their pages are faulted in once.
//!
//! Two things the page cache did that this module does itself: read-ahead
//! (a reader starts reading the next chunk after each read; see
//! [`DataReader::prefetch`]) and staying out of the writers' way (a
//! process-wide device budget that puts appends' writes and fdatasyncs
//! first; see [`ReadPermit`]).
//!
//! File systems without O_DIRECT (tmpfs), and `IoMode::Buffered`, read
//! through the page cache as before, with the kernel asked to read ahead.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use monoio::fs::File;

use crate::aligned::{ALIGN, AlignedBuf, align_down, align_up};
use crate::config::IoMode;
use crate::error::{Result, StorageError};

/// Buffers larger than this are not kept for reuse (a rare huge fetch
/// does not pin its memory in the pool).
const POOL_MAX_BUF_BYTES: usize = 4 << 20;
/// What one thread's pool may hold in total.
const POOL_MAX_BYTES: usize = 16 << 20;
/// The smallest buffer handed out: small reads share one size class.
const MIN_BUF_BYTES: usize = 64 << 10;
/// Results up to this size are copied out of the read buffer (see
/// [`DataReader::read_as`]).
const COPY_OUT_MAX_BYTES: usize = 32 << 10;
/// Above 1 MiB, size classes are multiples of this (not powers of two,
/// which would waste up to half of a buffer of a typical 1 MiB + slack
/// fetch read).
const CLASS_STEP_BYTES: usize = 256 << 10;

#[cfg(test)]
thread_local! {
    /// Device reads this thread started (tests only).
    static DEVICE_READS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Set by a test whose reads must not see the appends of the tests
    /// running beside it in the same process (the state is process-wide).
    static APPENDS_IGNORED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

thread_local! {
    static POOL: Arc<Mutex<Pool>> = Arc::new(Mutex::new(Pool { bufs: Vec::new(), bytes: 0 }));
}

/// Free read buffers of one thread (the one that allocated them).
///
/// A buffer goes back to the pool it came from, whichever thread drops it:
/// a partition's reads run on its shard, but the response that carries
/// them is sent, and dropped, by the shard that holds the connection. A
/// thread-local pool would then fill on one shard and stay empty on the
/// other, which would allocate (and zero, and fault in) every buffer anew.
/// The lock is taken twice per buffer of a megabyte or so, and is almost
/// never contended.
struct Pool {
    bufs: Vec<AlignedBuf>,
    bytes: usize,
}

/// The size class of a read of `n` bytes: the next power of two up to
/// 1 MiB (at least [`MIN_BUF_BYTES`]), then the next multiple of
/// [`CLASS_STEP_BYTES`].
fn class(n: usize) -> usize {
    if n <= 1 << 20 {
        n.max(MIN_BUF_BYTES).next_power_of_two()
    } else {
        n.div_ceil(CLASS_STEP_BYTES) * CLASS_STEP_BYTES
    }
}

/// The buffer a read of `n` bytes gets: a pooled size class, except that
/// a read smaller than [`MIN_BUF_BYTES`] gets exactly its blocks, outside
/// the pool (the result is copied out of it anyway), so that reading many
/// small cold partitions at once holds kilobytes each, not 64 KiB.
fn buf_size(n: usize) -> usize {
    if n < MIN_BUF_BYTES {
        align_up(n.max(1))
    } else {
        class(n)
    }
}

fn lock(pool: &Mutex<Pool>) -> std::sync::MutexGuard<'_, Pool> {
    // The pool holds only free buffers: after a panic elsewhere it is
    // still consistent.
    pool.lock().unwrap_or_else(|e| e.into_inner())
}

/// A buffer of at least `n` bytes ([`buf_size`]), from this thread's pool
/// when one of its class is free, with the pool it goes back to.
fn take(n: usize) -> Pooled {
    let cap = buf_size(n);
    let home = POOL.with(Arc::clone);
    let reused = {
        let mut p = lock(&home);
        p.bufs.iter().position(|b| b.capacity() == cap).map(|i| {
            let b = p.bufs.swap_remove(i);
            p.bytes -= b.capacity();
            b
        })
    };
    Pooled {
        buf: Some(reused.unwrap_or_else(|| AlignedBuf::with_capacity(cap))),
        home,
    }
}

/// A read buffer, owned by the `Bytes` a direct read returns; given back
/// to its home pool (when that has room) once the last slice is dropped.
struct Pooled {
    buf: Option<AlignedBuf>,
    home: Arc<Mutex<Pool>>,
}

impl Pooled {
    fn buf(&mut self) -> AlignedBuf {
        self.buf.take().expect("buffer present until dropped")
    }
}

impl AsRef<[u8]> for Pooled {
    fn as_ref(&self) -> &[u8] {
        self.buf.as_ref().map_or(&[], |b| b.as_slice())
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        let Some(mut buf) = self.buf.take() else {
            return;
        };
        let cap = buf.capacity();
        if cap > POOL_MAX_BUF_BYTES || class(cap) != cap {
            return;
        }
        buf.clear();
        let mut p = lock(&self.home);
        if p.bytes + cap <= POOL_MAX_BYTES {
            p.bytes += cap;
            p.bufs.push(buf);
        }
    }
}

/// What one thread may hold in read-ahead buffers at once: beyond it,
/// catch-up readers read without read-ahead (still correct, just waiting
/// for the device on each fetch).
const READ_AHEAD_MAX_BYTES: usize = 32 << 20;

thread_local! {
    static AHEAD_BYTES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Read-ahead bytes counted against [`READ_AHEAD_MAX_BYTES`] until dropped
/// (when its read is used, or when the read finishes after its reader
/// stopped waiting for it).
struct AheadTicket(usize);

impl AheadTicket {
    fn take(bytes: usize) -> Option<AheadTicket> {
        AHEAD_BYTES.with(|a| {
            let now = a.get();
            (now + bytes <= READ_AHEAD_MAX_BYTES).then(|| {
                a.set(now + bytes);
                AheadTicket(bytes)
            })
        })
    }
}

impl Drop for AheadTicket {
    fn drop(&mut self) {
        let _ = AHEAD_BYTES.try_with(|a| a.set(a.get().saturating_sub(self.0)));
    }
}

/// Bytes of direct reads the process keeps in flight on the device at
/// most while no append is being written (a read larger than this runs
/// alone).
const DISK_READ_INFLIGHT_MAX_BYTES: usize = 8 << 20;
/// How often a read waiting for the device budget looks again.
const DISK_READ_RETRY_US: u64 = 500;

/// Direct-read bytes in flight on the device, all shards together (they
/// share the device).
static READ_BYTES_IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
/// Appends being written or fdatasynced, all shards together.
static WRITES_IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
/// How long after an append's write or fdatasync ended the device still
/// counts as written to (see [`ReadPermit`]). Why not only while one is in
/// flight: a live producer's appends come milliseconds apart, and in the
/// gaps the catch-up reads took the whole [`DISK_READ_INFLIGHT_MAX_BYTES`]
/// (and their read-ahead), so the next append's write and fdatasync queued
/// behind up to 8 MiB of reads. Measured (benches/RESULTS.md, "Isolation
/// scenario (b)"), a live pair's publish-ack p50 beside a catch-up reader
/// went from 4.2-4.8 ms to 2.9 with this window alone. One second covers
/// any producer that appends at least once a second.
const WRITTEN_RECENTLY_MS: u64 = 1_000;
/// While the device counts as written to, a read goes to it in steps of at
/// most this many bytes, so that an append's write or fdatasync waits
/// behind one step (~0.25 ms at this VM's ~1 GB/s) rather than a whole
/// fetch's read (1 MiB and more): with it the pair's p50 went to 2.0 ms
/// (solo 1.4) and its p99 from 8-12 ms to 4.5-6.1 ms.
const READ_STEP_WHILE_WRITTEN_BYTES: usize = 256 << 10;

/// When an append's write or fdatasync last ended, on [`clock_us`]'s clock
/// (0: none yet).
static LAST_WRITE_END_US: AtomicU64 = AtomicU64::new(0);

/// Microseconds since this process first asked, never 0.
fn clock_us() -> u64 {
    static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    EPOCH
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_micros() as u64
        + 1
}

/// Whether appends use the device now or (for a consumer's read) did
/// within [`WRITTEN_RECENTLY_MS`].
fn device_written(class: ReadClass) -> bool {
    #[cfg(test)]
    if APPENDS_IGNORED.with(|i| i.get()) {
        return false;
    }
    WRITES_IN_FLIGHT.load(Ordering::Acquire) > 0
        || (class == ReadClass::Consumer
            && written_recently(LAST_WRITE_END_US.load(Ordering::Acquire), clock_us()))
}

/// Whether a write that ended at `last_end_us` (0: none) is recent at
/// `now_us`.
fn written_recently(last_end_us: u64, now_us: u64) -> bool {
    last_end_us != 0 && now_us.saturating_sub(last_end_us) < WRITTEN_RECENTLY_MS * 1_000
}

/// Where the next device read ends, of a read of `want` bytes with `done`
/// read (see [`READ_STEP_WHILE_WRITTEN_BYTES`]).
fn step_end(done: usize, want: usize, written: bool) -> usize {
    if written {
        (done + READ_STEP_WHILE_WRITTEN_BYTES).min(want)
    } else {
        want
    }
}

/// Whose read it is: the device budget yields to appends differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadClass {
    /// A consumer's fetch (or anything else that can wait): steps aside
    /// for appends for [`WRITTEN_RECENTLY_MS`] after one, in
    /// [`READ_STEP_WHILE_WRITTEN_BYTES`] steps.
    Consumer,
    /// The leader reading its log for a follower behind the tail cache,
    /// and the replica's own start-up and reset reads: yields only while
    /// an append is in flight, in whole reads. Why: a restarted follower
    /// missing 2 GB, under a produce load of 49 MiB/s on three brokers,
    /// did not catch up in 73 s with the consumer's rule (each 256 KiB
    /// step queued behind the appends' writes on the device), against
    /// 18-26 s with this one in 3 of 3 runs
    /// (benches/load/followercatchup.py): a follower that never catches
    /// up is a lost copy of every acknowledged record.
    Replication,
}

/// The device budget's rule (see [`ReadPermit`]): whether a read of
/// `bytes` (a read-ahead if `ahead`) may start with `in_flight` bytes of
/// reads running.
fn may_start(written: bool, in_flight: usize, bytes: usize, ahead: bool) -> bool {
    let fits = !written && in_flight + bytes <= DISK_READ_INFLIGHT_MAX_BYTES;
    fits || (in_flight == 0 && !ahead)
}

/// Marks an append's write or fdatasync as in flight for its lifetime;
/// catch-up reads make way for it (see [`ReadPermit`]).
pub(crate) struct WriteInFlight(());

impl WriteInFlight {
    pub(crate) fn start() -> WriteInFlight {
        WRITES_IN_FLIGHT.fetch_add(1, Ordering::AcqRel);
        WriteInFlight(())
    }
}

impl Drop for WriteInFlight {
    fn drop(&mut self) {
        LAST_WRITE_END_US.store(clock_us(), Ordering::Release);
        WRITES_IN_FLIGHT.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A disk read's place on the device, held while the read runs. Its size
/// is the read's buffer (its size class), so the budget also bounds the
/// memory that reads in flight hold: a wide fetch over many cold
/// partitions reads a budget's worth at a time.
///
/// The catch-up readers' budget, writes first: appends' fdatasyncs queue
/// behind reads on the same device, and a producer's ack waits for its
/// fdatasync. Measured (benches/RESULTS.md, "Catch-up reads: O_DIRECT"),
/// a reader whose reads (and read-ahead) kept the device busy took the
/// live producers' ack p50 from 0.8 to 13-31 ms. So while any append is
/// in flight, or one ended within [`WRITTEN_RECENTLY_MS`], a read starts
/// only if no other read is (progress for the readers, at most one read
/// ahead of a write), it goes to the device in steps of
/// [`READ_STEP_WHILE_WRITTEN_BYTES`], and no read-ahead starts; with no
/// append for that long, reads share [`DISK_READ_INFLIGHT_MAX_BYTES`]
/// (see [`may_start`]). The window and the steps are for consumers'
/// reads; replication's ([`ReadClass::Replication`]) yield only while an
/// append is in flight. The price is the catch-up consumers' speed while
/// producers write: 300-360 MiB/s instead of 630-650 on this VM. Tail
/// reads come from memory and never take a permit.
struct ReadPermit {
    bytes: usize,
}

impl ReadPermit {
    /// Takes `bytes` of the device if the rule above allows it now.
    fn try_take(bytes: usize, ahead: bool, class: ReadClass) -> Option<ReadPermit> {
        let written = device_written(class);
        let mut now = READ_BYTES_IN_FLIGHT.load(Ordering::Acquire);
        loop {
            if !may_start(written, now, bytes, ahead) {
                return None;
            }
            match READ_BYTES_IN_FLIGHT.compare_exchange_weak(
                now,
                now + bytes,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some(ReadPermit { bytes }),
                Err(seen) => now = seen,
            }
        }
    }

    /// Waits until the rule above lets a read of `bytes` start.
    async fn take(bytes: usize, class: ReadClass) -> ReadPermit {
        loop {
            if let Some(p) = ReadPermit::try_take(bytes, false, class) {
                return p;
            }
            // Reads and writes end on any shard: look again shortly.
            monoio::time::sleep(std::time::Duration::from_micros(DISK_READ_RETRY_US)).await;
        }
    }
}

impl Drop for ReadPermit {
    fn drop(&mut self) {
        READ_BYTES_IN_FLIGHT.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

/// A read of `[start, start + want)` started before anyone asked for it.
/// Only `[start, valid_end)` may be served from it: the bytes after were
/// not written yet when it was read (the active segment grows behind it).
struct Ahead {
    start: u64,
    want: usize,
    valid_end: u64,
    task: monoio::task::JoinHandle<(std::io::Result<(Pooled, usize)>, AheadTicket)>,
}

/// Reads up to `want` bytes at the block-aligned `start` into a pooled
/// buffer; returns it with the number of bytes read (fewer at the end of
/// the file).
async fn read_blocks(
    file: &File,
    start: u64,
    want: usize,
    class: ReadClass,
) -> std::io::Result<(Pooled, usize)> {
    let mut pooled = take(want);
    let mut buf = pooled.buf();
    let mut done = 0usize;
    // A short read means the end of the file (a regular file returns no
    // short read otherwise); an unaligned count ends the loop too, since
    // the next O_DIRECT read could not start there.
    while done < want && done.is_multiple_of(ALIGN) {
        let stepped = class == ReadClass::Consumer && device_written(class);
        let end = step_end(done, want, stepped);
        #[cfg(test)]
        DEVICE_READS.with(|n| n.set(n.get() + 1));
        let view = monoio::buf::IoBufMut::slice_mut(buf.into_read(), done..end);
        let (res, view) = file.read_at(view, start + done as u64).await;
        buf = view.into_inner().into_inner();
        match res {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                pooled.buf = Some(buf);
                return Err(e);
            }
        }
    }
    pooled.buf = Some(buf);
    Ok((pooled, done))
}

/// A segment file opened for consumers' reads.
///
/// A direct reader remembers where its last read ended ([`Self::cursor`]),
/// so a consumer that continues from there starts at that exact batch
/// boundary, where [`Self::prefetch`] has already started reading.
pub struct DataReader {
    file: Rc<File>,
    direct: bool,
    cursor: std::cell::Cell<Option<(i64, u64)>>,
    ahead: RefCell<Option<Ahead>>,
}

impl DataReader {
    /// Opens `path` for reading: O_DIRECT when `mode` and the file system
    /// allow it, else buffered.
    pub fn open(path: &Path, mode: IoMode) -> Result<Rc<DataReader>> {
        let mut opts = std::fs::OpenOptions::new();
        opts.read(true);
        let (f, direct) = crate::file::open_data(&opts, path, mode)?;
        let file = File::from_std(f).map_err(|e| StorageError::io("open", path, e))?;
        Ok(Rc::new(DataReader {
            file: Rc::new(file),
            direct,
            cursor: std::cell::Cell::new(None),
            ahead: RefCell::new(None),
        }))
    }

    /// Whether reads bypass the page cache.
    #[cfg(test)]
    fn is_direct(&self) -> bool {
        self.direct
    }

    /// Where the last read ended: the offset after its last batch and that
    /// batch's end in the file (a batch boundary).
    pub fn cursor(&self) -> Option<(i64, u64)> {
        self.cursor.get()
    }

    /// Records where a read ended (see [`Self::cursor`]).
    pub fn set_cursor(&self, next_offset: i64, pos: u64) {
        self.cursor.set(Some((next_offset, pos)));
    }

    /// Reads `len` bytes at `pos` (fewer at the end of the file), as a
    /// consumer's read (the tests' shorthand; the log passes its class).
    #[cfg(test)]
    pub async fn read(&self, path: &Path, pos: u64, len: usize) -> Result<Bytes> {
        self.read_as(path, pos, len, ReadClass::Consumer).await
    }

    /// [`Self::read`] for `class` (see [`ReadClass`]).
    pub async fn read_as(
        &self,
        path: &Path,
        pos: u64,
        len: usize,
        class: ReadClass,
    ) -> Result<Bytes> {
        if !self.direct {
            return crate::file::read_at(&self.file, path, pos, len).await;
        }
        // O_DIRECT wants the offset, the length and the buffer aligned:
        // read the enclosing blocks and hand out the asked-for part.
        let start = align_down(pos);
        let skip = (pos - start) as usize;
        let want = align_up(skip + len);
        let ahead = self.ahead.borrow_mut().take();
        let read = match ahead {
            Some(a) if a.start == start && a.want >= want && pos + len as u64 <= a.valid_end => {
                let (r, ticket) = a.task.await;
                drop(ticket);
                r
            }
            // Not where this read starts (another reader of the segment,
            // or a rewind): left to finish on its own.
            _ => {
                let _permit = ReadPermit::take(buf_size(want), class).await;
                read_blocks(&self.file, start, want, class).await
            }
        };
        let (buf, done) = read.map_err(|e| StorageError::io("read", path, e))?;
        let end = done.min(skip + len);
        if end <= skip {
            return Ok(Bytes::new());
        }
        if end - skip <= COPY_OUT_MAX_BYTES {
            // A small result gets its own allocation and the buffer goes
            // back at once: a wide fetch over many cold, small partitions
            // would otherwise hold a whole pooled buffer per partition.
            return Ok(Bytes::copy_from_slice(&buf.as_ref()[skip..end]));
        }
        Ok(Bytes::from_owner(buf).slice(skip..end))
    }

    /// Starts reading `[pos, pos + len)` now, for the read that will most
    /// likely come next: a direct reader reads it into a buffer that the
    /// next [`Self::read_as`] at `pos` takes (within the thread's read-ahead
    /// budget, under `class`'s device rule); a buffered one asks the kernel
    /// to fill its page cache.
    ///
    /// `pos + len` must not pass the bytes already on disk: a later read
    /// is served from this one only inside that range.
    pub fn prefetch(&self, pos: u64, len: u64, class: ReadClass) {
        if !self.direct {
            crate::file::advise_willneed(&self.file, pos, len);
            return;
        }
        let start = align_down(pos);
        let want = align_up((pos - start) as usize + len as usize);
        let Some(ticket) = AheadTicket::take(buf_size(want)) else {
            return;
        };
        // Only within the device budget: a read-ahead never waits.
        let Some(permit) = ReadPermit::try_take(buf_size(want), true, class) else {
            return;
        };
        let file = self.file.clone();
        let task = monoio::spawn(async move {
            let r = read_blocks(&file, start, want, class).await;
            drop(permit);
            (r, ticket)
        });
        // A read-ahead nobody took is replaced (it finishes on its own).
        *self.ahead.borrow_mut() = Some(Ahead {
            start,
            want,
            valid_end: pos + len,
            task,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `f` on a monoio runtime with timers (a read may wait for the
    /// device budget, which sleeps).
    fn run<F: std::future::Future>(f: F) -> F::Output {
        monoio::RuntimeBuilder::<monoio::FusionDriver>::new()
            .enable_timer()
            .build()
            .expect("runtime")
            .block_on(f)
    }

    fn pattern(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 + i / 4096) as u8).collect()
    }

    #[test]
    fn while_appends_write_reads_go_one_at_a_time_and_never_ahead() {
        const MIB: usize = 1 << 20;
        // Nothing written lately: reads share the budget, and one larger
        // than it runs alone.
        assert!(may_start(false, 0, MIB, true));
        assert!(may_start(false, 7 * MIB, MIB, false));
        assert!(!may_start(false, 7 * MIB + 1, MIB, true));
        assert!(may_start(false, 0, 20 * MIB, false));
        assert!(!may_start(false, MIB, 20 * MIB, false));
        // Written to: one read at a time, no read-ahead.
        assert!(may_start(true, 0, MIB, false));
        assert!(!may_start(true, 0, MIB, true));
        assert!(!may_start(true, 4096, 4096, false));
    }

    #[test]
    fn the_device_counts_as_written_for_a_while_after_the_last_append() {
        assert!(!written_recently(0, 5));
        let end = 10_000_000;
        assert!(written_recently(end, end));
        assert!(written_recently(end, end + WRITTEN_RECENTLY_MS * 1_000 - 1));
        assert!(!written_recently(end, end + WRITTEN_RECENTLY_MS * 1_000));
        // A clock read before the store (another thread) is not later.
        assert!(written_recently(end, end - 3));
        assert_eq!(step_end(0, 3 << 20, false), 3 << 20);
        assert_eq!(step_end(0, 3 << 20, true), READ_STEP_WHILE_WRITTEN_BYTES);
        assert_eq!(step_end((3 << 20) - 4096, 3 << 20, true), 3 << 20);
    }

    #[test]
    fn a_read_while_an_append_writes_goes_in_steps_with_the_exact_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("seg.log");
        let data = pattern((1 << 20) + 300_000);
        std::fs::write(&path, &data).unwrap();
        run(async {
            let r = DataReader::open(&path, IoMode::Auto).unwrap();
            if !r.is_direct() {
                return; // a file system without O_DIRECT: no device reads
            }
            let counted_read = |pos: u64, len: usize| {
                let r = r.clone();
                let path = path.clone();
                async move {
                    let before = DEVICE_READS.with(|n| n.get());
                    let got = r.read(&path, pos, len).await.unwrap();
                    (got, DEVICE_READS.with(|n| n.get()) - before)
                }
            };
            let writing = WriteInFlight::start();
            let (got, reads) = counted_read(777, data.len() - 777).await;
            assert_eq!(&got[..], &data[777..]);
            // 1.29 MiB in steps of 256 KiB: six device reads.
            let steps = (data.len() - 1).div_ceil(READ_STEP_WHILE_WRITTEN_BYTES);
            assert!(reads >= steps, "{reads} device reads, expected {steps}");
            drop(writing);
            assert!(device_written(ReadClass::Consumer), "recently written");
            // A replication read yields only while an append is in flight,
            // and goes in whole reads.
            let before = DEVICE_READS.with(|n| n.get());
            let writing = WriteInFlight::start();
            let got = r
                .read_as(&path, 777, data.len() - 777, ReadClass::Replication)
                .await
                .unwrap();
            assert_eq!(&got[..], &data[777..]);
            assert_eq!(DEVICE_READS.with(|n| n.get()) - before, 1, "one whole read");
            drop(writing);
        });
    }

    #[test]
    fn small_reads_get_their_blocks_outside_the_pool_and_a_copy() {
        assert_eq!(buf_size(1), 4096);
        assert_eq!(buf_size(5000), 8192);
        assert_eq!(buf_size(64 << 10), 64 << 10);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("seg.log");
        let data = pattern(100_000);
        std::fs::write(&path, &data).unwrap();
        run(async {
            let r = DataReader::open(&path, IoMode::Auto).unwrap();
            let before = POOL.with(|p| lock(p).bytes);
            let got = r.read(&path, 10, 300).await.unwrap();
            assert_eq!(&got[..], &data[10..310]);
            drop(got);
            // Not pooled: nothing came back to the pool.
            assert_eq!(POOL.with(|p| lock(p).bytes), before);
        });
    }

    #[test]
    fn size_classes_are_powers_of_two_up_to_1_mib_then_steps_of_256_kib() {
        assert_eq!(class(1), 64 << 10);
        assert_eq!(class(64 << 10), 64 << 10);
        assert_eq!(class((64 << 10) + 1), 128 << 10);
        assert_eq!(class((1 << 20) + (68 << 10)), (1 << 20) + (256 << 10));
        assert_eq!(class(5 << 20), 5 << 20);
    }

    #[test]
    fn direct_reads_return_the_exact_bytes_at_unaligned_offsets_and_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("seg.log");
        // Not a multiple of the block size: the last block is partial.
        let data = pattern(3 * 4096 + 1234);
        std::fs::write(&path, &data).unwrap();
        run(async {
            for mode in [IoMode::Auto, IoMode::Buffered] {
                let r = DataReader::open(&path, mode).unwrap();
                for (pos, len) in [
                    (0u64, 10usize),
                    (1, 4096),
                    (4095, 2),
                    (5000, 9000),
                    (12000, 100_000),
                    (data.len() as u64 - 1, 5),
                    (data.len() as u64, 5),
                ] {
                    let got = r.read(&path, pos, len).await.unwrap();
                    let from = (pos as usize).min(data.len());
                    let to = (from + len).min(data.len());
                    assert_eq!(&got[..], &data[from..to], "{mode:?} at {pos} for {len}");
                }
            }
        });
    }

    #[test]
    fn dropped_reads_give_their_buffer_back_to_the_pool() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("seg.log");
        std::fs::write(&path, pattern(200_000)).unwrap();
        run(async {
            let r = DataReader::open(&path, IoMode::Auto).unwrap();
            if !r.is_direct() {
                return; // a file system without O_DIRECT: nothing pooled
            }
            let before = POOL.with(|p| lock(p).bytes);
            let a = r.read(&path, 100, 150_000).await.unwrap();
            let slice = a.slice(10..20);
            drop(a);
            // A slice still holds the buffer.
            assert_eq!(POOL.with(|p| lock(p).bytes), before);
            drop(slice);
            assert_eq!(POOL.with(|p| lock(p).bytes), before + (256 << 10));
            // The next read of that class takes it again.
            let b = r.read(&path, 0, 140_000).await.unwrap();
            assert_eq!(POOL.with(|p| lock(p).bytes), before);
            drop(b);
        });
    }

    #[test]
    fn a_read_ahead_is_taken_by_the_read_it_was_for_and_released_otherwise() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("seg.log");
        let data = pattern(1 << 20);
        std::fs::write(&path, &data).unwrap();
        APPENDS_IGNORED.with(|i| i.set(true));
        run(async {
            let r = DataReader::open(&path, IoMode::Auto).unwrap();
            if !r.is_direct() {
                return;
            }
            // Taken by the read at its position.
            r.prefetch(5000, 70_000, ReadClass::Consumer);
            assert!(r.ahead.borrow().is_some());
            assert!(AHEAD_BYTES.with(|a| a.get()) > 0);
            let got = r.read(&path, 5000, 70_000).await.unwrap();
            assert_eq!(&got[..], &data[5000..75_000]);
            assert!(r.ahead.borrow().is_none());
            assert_eq!(AHEAD_BYTES.with(|a| a.get()), 0);
            // A read that goes past what was on disk when the read-ahead
            // started (the file grew since) does not use it.
            std::fs::write(&path, vec![0u8; data.len()]).unwrap();
            r.prefetch(4096, 100, ReadClass::Consumer);
            monoio::time::sleep(std::time::Duration::from_millis(50)).await;
            std::fs::write(&path, &data).unwrap();
            let got = r.read(&path, 4096, 2000).await.unwrap();
            assert_eq!(&got[..], &data[4096..6096]);
            // A read elsewhere reads for itself; the read-ahead finishes
            // on its own and gives its budget back.
            r.prefetch(200_000, 10_000, ReadClass::Consumer);
            let got = r.read(&path, 900_000, 200_000).await.unwrap();
            assert_eq!(&got[..], &data[900_000..]);
            for _ in 0..100 {
                if AHEAD_BYTES.with(|a| a.get()) == 0 {
                    break;
                }
                monoio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            assert_eq!(AHEAD_BYTES.with(|a| a.get()), 0);
            // Beyond the budget, no read-ahead is started.
            let _held = AheadTicket::take(READ_AHEAD_MAX_BYTES).unwrap();
            r.prefetch(0, 4096, ReadClass::Consumer);
            assert!(r.ahead.borrow().is_none());
        });
    }
}
