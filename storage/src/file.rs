//! The file layer: segment writer (O_DIRECT with a rewritten partial tail
//! page, or buffered as a fallback), positional reads, and the small
//! metadata-file helpers (atomic replace, directory fsync).
//!
//! Data reads and writes go through monoio, which submits them to io_uring
//! (or, under its legacy driver, runs them inline). Rare metadata calls
//! (open, fallocate, ftruncate, rename, unlink) are plain syscalls: they
//! are cheap next to an fdatasync and keep this layer small.

use std::fs::OpenOptions;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

use bytes::Bytes;
use monoio::fs::File;

use crate::aligned::{AlignedBuf, align_down};
use crate::config::IoMode;
use crate::error::{Result, StorageError};

static WARNED_DIRECT: AtomicBool = AtomicBool::new(false);
static WARNED_URING: AtomicBool = AtomicBool::new(false);

/// Says once per process that io_uring is missing (monoio then runs file
/// I/O synchronously on its legacy driver: slower, same guarantees).
pub fn check_uring_once() {
    if !monoio::utils::detect_uring() && !WARNED_URING.swap(true, Ordering::Relaxed) {
        tracing::warn!("io_uring is not available; file I/O runs synchronously (legacy driver)");
    }
}

fn warn_buffered(path: &Path, why: &str) {
    if !WARNED_DIRECT.swap(true, Ordering::Relaxed) {
        tracing::warn!(
            path = %path.display(),
            "O_DIRECT is not available ({why}); using buffered I/O with the same fdatasync guarantees"
        );
    }
}

/// Opens (creating if asked) a data file for writing, O_DIRECT when the
/// mode and the file system allow. Returns the file and whether it is
/// direct. Warns once when the file system refuses O_DIRECT.
pub fn open_for_write(path: &Path, create: bool, mode: IoMode) -> Result<(std::fs::File, bool)> {
    let mut opts = OpenOptions::new();
    opts.read(true).write(true).create(create);
    let (f, direct) = open_data(&opts, path, mode)?;
    if mode == IoMode::Auto && !direct {
        warn_buffered(path, "open refused O_DIRECT");
    }
    Ok((f, direct))
}

/// Opens a data file with `opts`, adding O_DIRECT when `mode` is
/// [`IoMode::Auto`]; a file system that refuses O_DIRECT (EINVAL, as
/// tmpfs does) gets the same open without it. Returns the file and
/// whether it is direct. The one place that decides O_DIRECT, for the
/// segment writer and the consumers' [`crate::direct_read::DataReader`].
pub fn open_data(opts: &OpenOptions, path: &Path, mode: IoMode) -> Result<(std::fs::File, bool)> {
    if mode == IoMode::Auto {
        let mut direct = opts.clone();
        direct.custom_flags(libc::O_DIRECT);
        match direct.open(path) {
            Ok(f) => return Ok((f, true)),
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) => {}
            Err(e) => return Err(StorageError::io("open", path, e)),
        }
    }
    let f = opts
        .open(path)
        .map_err(|e| StorageError::io("open", path, e))?;
    Ok((f, false))
}

pub fn open_read(path: &Path) -> Result<Rc<File>> {
    let f = std::fs::File::open(path).map_err(|e| StorageError::io("open", path, e))?;
    let f = File::from_std(f).map_err(|e| StorageError::io("open", path, e))?;
    Ok(Rc::new(f))
}

pub fn file_len(path: &Path) -> Result<u64> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| StorageError::io("stat", path, e))
}

/// Reads `len` bytes at `pos` (fewer at end of file).
pub async fn read_at(file: &File, path: &Path, pos: u64, len: usize) -> Result<Bytes> {
    let mut buf: Vec<u8> = Vec::with_capacity(len);
    let mut done = 0;
    while done < len {
        let slice = monoio::buf::IoBufMut::slice_mut(buf, done..len);
        let (res, slice) = file.read_at(slice, pos + done as u64).await;
        buf = slice.into_inner();
        match res {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(StorageError::io("read", path, e)),
        }
    }
    buf.truncate(done);
    Ok(Bytes::from(buf))
}

/// Asks the kernel to start reading `[pos, pos + len)` into the page
/// cache now, without waiting for it. Catch-up readers read a partition
/// sequentially, one fetch at a time, and the kernel's own readahead
/// window (128 KiB by default) is far smaller than a fetch: without this
/// every fetch waits for the device. A hint only: failures are ignored.
pub fn advise_willneed(file: &File, pos: u64, len: u64) {
    // SAFETY: posix_fadvise only reads its integer arguments; the
    // descriptor is owned by `file`, which is alive for the call, and a
    // bad range is reported as an error, never undefined behaviour.
    let _ = unsafe {
        libc::posix_fadvise(
            file.as_raw_fd(),
            pos as libc::off_t,
            len as libc::off_t,
            libc::POSIX_FADV_WILLNEED,
        )
    };
}

pub fn fsync_dir(dir: &Path) -> Result<()> {
    let d = std::fs::File::open(dir).map_err(|e| StorageError::io("open dir", dir, e))?;
    d.sync_all()
        .map_err(|e| StorageError::io("fsync dir", dir, e))
}

/// Replaces `path` with `data` atomically: temp file, fsync, rename,
/// directory fsync. A crash leaves either the old or the new contents.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<()> {
    let tmp = path.with_extension(match path.extension() {
        Some(e) => format!("{}.tmp", e.to_string_lossy()),
        None => "tmp".to_string(),
    });
    write_atomic_to(&tmp, path, data)
}

/// [`write_atomic`] through the temporary file `tmp` (beside `path`).
pub(crate) fn write_atomic_to(tmp: &Path, path: &Path, data: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut f = std::fs::File::create(tmp).map_err(|e| StorageError::io("create", tmp, e))?;
    f.write_all(data)
        .and_then(|_| f.sync_data())
        .map_err(|e| StorageError::io("write", tmp, e))?;
    std::fs::rename(tmp, path).map_err(|e| StorageError::io("rename", path, e))?;
    fsync_dir(path.parent().unwrap_or(Path::new(".")))
}

/// [`write_atomic`] unless the file already holds exactly `data` (or is
/// missing and `data` is what its absence means, `absent`): opening an
/// unchanged log writes nothing, so a restart of 50,000 partitions does
/// not pay two fsyncs per checkpoint per partition.
pub fn write_atomic_if_changed(path: &Path, data: &[u8], absent: Option<&[u8]>) -> Result<()> {
    match std::fs::read(path) {
        Ok(old) if old == data => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && absent == Some(data) => {
            return Ok(());
        }
        _ => {}
    }
    write_atomic(path, data)
}

/// Makes everything written to the file system holding `path` durable
/// (syncfs(2)): one call for a batch of new partitions whose files were
/// created without an fsync each. Write-back errors since the file was
/// opened are reported (Linux 5.8+).
pub fn sync_filesystem(path: &Path) -> Result<()> {
    let f = std::fs::File::open(path).map_err(|e| StorageError::io("open", path, e))?;
    sync_filesystem_of(&f, path)
}

/// [`sync_filesystem`] of the file system holding the open file `f`
/// (`path` names it in errors).
pub(crate) fn sync_filesystem_of(f: &std::fs::File, path: &Path) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let dev = f
        .metadata()
        .map_err(|e| StorageError::io("stat", path, e))?
        .dev();
    let ticket = {
        let mut t = syncfs_tickets();
        let e = t.entry(dev).or_default();
        e.0 += 1;
        e.0
    };
    // SAFETY: syncfs only reads the descriptor, owned by `f` and alive for
    // the call.
    let r = unsafe { libc::syncfs(f.as_raw_fd()) };
    if r != 0 {
        return Err(StorageError::io(
            "syncfs",
            path,
            std::io::Error::last_os_error(),
        ));
    }
    let mut t = syncfs_tickets();
    let e = t.entry(dev).or_default();
    e.1 = e.1.max(ticket);
    Ok(())
}

/// Per file system (device id): how many [`sync_filesystem`] calls have
/// started, and the highest started one that has completed.
fn syncfs_tickets() -> std::sync::MutexGuard<'static, std::collections::HashMap<u64, (u64, u64)>> {
    static TICKETS: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<u64, (u64, u64)>>,
    > = std::sync::OnceLock::new();
    TICKETS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// A mark taken when files are created on the file system of `path`
/// without an fsync: [`synced_since`] later says whether a
/// [`sync_filesystem`] that started after the mark has completed (then
/// those files are durable and need no fsync of their own).
pub(crate) fn sync_mark(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let dev = std::fs::metadata(path).ok()?.dev();
    let started = syncfs_tickets().get(&dev).map_or(0, |e| e.0);
    Some((dev, started + 1))
}

/// See [`sync_mark`].
pub(crate) fn synced_since(mark: Option<(u64, u64)>) -> bool {
    mark.is_some_and(|(dev, need)| syncfs_tickets().get(&dev).is_some_and(|e| e.1 >= need))
}

/// How much of a deleted segment's file a [`Removal`] gives back per
/// step, and how long its caller waits between steps.
pub const DELETE_STEP_BYTES: u64 = 32 << 20;
pub const DELETE_STEP_PAUSE_US: u64 = 5_000;

/// The suffix of a segment file being removed by a [`Removal`];
/// `Log::open` removes any it finds (a crash cut the removal short).
pub const DELETING_SUFFIX: &str = ".deleted";

/// A segment file being removed a step at a time: renamed to
/// `<name>.deleted`, cut from its end by [`DELETE_STEP_BYTES`] per
/// `ftruncate` (the caller waits [`DELETE_STEP_PAUSE_US`] between steps,
/// asynchronously, so no thread is held), then unlinked.
///
/// Why: one unlink of a GiB has the file system free it all at once (every
/// block bitmap and group descriptor it touches, and with online discard
/// one large discard), and other partitions' fdatasyncs queue behind it.
/// Measured in benches/RESULTS.md, "Isolation scenario (a)": a steady
/// tenant's publish-ack p99 in the window of a retention pass over 6 GiB
/// of a bursting tenant's segments. RocksDB's `DeleteScheduler` truncates
/// files in chunks for the same reason.
///
/// Readers are safe: the segment left the log's map before its removal
/// starts, and a truncate waits for direct reads in flight on the file.
pub struct Removal {
    file: std::fs::File,
    path: PathBuf,
    left: u64,
    step_bytes: u64,
}

impl Removal {
    /// Starts removing `path`: a file of at most two steps (or none) is
    /// unlinked at once (None); a larger one is renamed and returned.
    ///
    /// Two steps: burstbench.py's 64 MiB segments, freed in steps, did not
    /// lower the steady tenant's p99 (61.7-69.7 ms against 56.7-63.7 ms
    /// unlinked at once, two runs each), while 1 GiB ones did (above).
    pub fn start(path: &Path) -> Result<Option<Removal>> {
        Self::start_in_steps(path, DELETE_STEP_BYTES)
    }

    fn start_in_steps(path: &Path, step_bytes: u64) -> Result<Option<Removal>> {
        assert!(step_bytes > 0, "a removal step must free something");
        let len = match std::fs::metadata(path) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(StorageError::io("stat", path, e)),
        };
        if len <= 2 * step_bytes {
            remove_if_exists(path)?;
            return Ok(None);
        }
        let doomed = PathBuf::from(format!("{}{DELETING_SUFFIX}", path.display()));
        std::fs::rename(path, &doomed).map_err(|e| StorageError::io("rename", path, e))?;
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&doomed)
            .map_err(|e| StorageError::io("open", &doomed, e))?;
        Ok(Some(Removal {
            file,
            path: doomed,
            left: len,
            step_bytes,
        }))
    }

    /// Frees one step (blocking: call it on a helper thread); the last
    /// step unlinks the file. Returns whether the removal is done.
    pub fn step(&mut self) -> Result<bool> {
        if self.left <= self.step_bytes {
            remove_if_exists(&self.path)?;
            return Ok(true);
        }
        self.left -= self.step_bytes;
        self.file
            .set_len(self.left)
            .map_err(|e| StorageError::io("ftruncate", &self.path, e))?;
        Ok(false)
    }
}

pub fn remove_if_exists(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(StorageError::io("unlink", path, e)),
    }
}

/// A segment file opened for writing by [`SegmentWriter::open_file`].
pub struct OpenedSegment {
    file: std::fs::File,
    /// Where its valid data ends.
    len: u64,
    /// How far it is allocated.
    allocated: u64,
    /// Its partial tail block (bytes from the last block boundary to `len`).
    tail: Vec<u8>,
}

/// The writer of the active segment.
///
/// It keeps in memory the bytes from the last block boundary at or below
/// the durable end (`buf_pos`) up to the logical end: each flush writes
/// that whole block-aligned range, so the partial tail block is rewritten
/// in place with its old bytes plus the new ones, zero-padded. The padding
/// reads back as a zero batch length, which recovery treats as the end.
pub struct SegmentWriter {
    pub base: i64,
    pub path: PathBuf,
    file: Rc<File>,
    raw_fd: i32,
    /// File position of `buf[0]`; always block aligned.
    buf_pos: u64,
    buf: Option<AlignedBuf>,
    /// Logical bytes written to the file (not counting padding).
    written: u64,
    /// Whether a write happened since the last sync.
    dirty: bool,
    /// Bytes preallocated so far, and the most to preallocate (the
    /// segment size; 0 disables preallocation).
    allocated: u64,
    prealloc_limit: u64,
}

/// Segments are not preallocated until their data passes this size: an
/// empty or nearly idle partition costs the blocks it holds (a broker with
/// 50,000 partitions cannot reserve 1 MiB for each), while a partition
/// being written reserves [`PREALLOC_MAX_STEP`] at a time ahead of its
/// data (sealing cuts it).
///
/// Why preallocate at all (Kafka's `preallocate` is off by default):
/// measured on the ext4/virtio disk here, 16 KiB O_DIRECT appends into
/// space reserved by small steps cost ~40 us more each (p50 ~230 against
/// ~190 us, 4000 appends; 8 MiB steps were as slow as doubling) than into
/// space from 64 MiB steps, which match a file reserved in one call (what
/// the raw baseline in benches/benches/storage_append.rs writes into).
/// The first MiB of a segment is appended without it: that is where the
/// partitions that are rarely written stay.
pub const PREALLOC_AFTER: u64 = 1 << 20;
pub const PREALLOC_MAX_STEP: u64 = 64 << 20;

/// How far to preallocate so that `end` bytes fit, given what is
/// allocated and the limit (`allocated` when nothing is to be reserved).
fn next_allocation(end: u64, allocated: u64, limit: u64) -> u64 {
    if end <= PREALLOC_AFTER {
        return allocated;
    }
    (end.max(allocated) + PREALLOC_MAX_STEP).min(limit.max(end))
}

impl SegmentWriter {
    /// Opens the segment at `path` whose valid data ends at `len`, cutting
    /// anything after it (a torn tail, or zero padding) and preallocating.
    ///
    /// With `sync_now` the cut (and the preallocation) is made durable
    /// before it returns; without it, the next flush's fdatasync covers
    /// it (used when reopening a parked writer, whose file holds nothing
    /// past `len` but block padding, which reads as the end anyway).
    pub async fn open(
        base: i64,
        path: PathBuf,
        len: u64,
        create: bool,
        mode: IoMode,
        preallocate: u64,
        sync_now: bool,
    ) -> Result<SegmentWriter> {
        let opened = Self::open_file(&path, len, create, mode, preallocate)?;
        Self::from_opened(base, path, opened, preallocate, sync_now).await
    }

    /// The blocking half of [`Self::open`] (open or create, cut at `len`,
    /// preallocate, read the partial tail block back), which
    /// [`crate::fs_pool`] can run off the shard's thread.
    pub fn open_file(
        path: &Path,
        len: u64,
        create: bool,
        mode: IoMode,
        preallocate: u64,
    ) -> Result<OpenedSegment> {
        let (file, _direct) = open_for_write(path, create, mode)?;
        file.set_len(len)
            .map_err(|e| StorageError::io("ftruncate", path, e))?;
        let mut allocated = len;
        if preallocate > len {
            let want = next_allocation(len, 0, preallocate);
            if want > len && fallocate(file.as_raw_fd(), want) {
                allocated = want;
            } else {
                tracing::debug!(path = %path.display(), "fallocate unsupported; not preallocating");
            }
        }
        let buf_pos = align_down(len);
        let mut tail = Vec::new();
        if len > buf_pos {
            // Reload the partial tail block so the next write rewrites it whole.
            // Through a buffered descriptor: an O_DIRECT read of a partial
            // block would be refused. At most one block, once per open.
            use std::os::unix::fs::FileExt;
            tail = vec![0u8; (len - buf_pos) as usize];
            std::fs::File::open(path)
                .and_then(|f| f.read_exact_at(&mut tail, buf_pos))
                .map_err(|e| StorageError::io("read tail block", path, e))?;
        }
        Ok(OpenedSegment {
            file,
            len,
            allocated,
            tail,
        })
    }

    /// The blocking open of a new, empty segment at `path` made from the
    /// spare file `spare` (`crate::spare`): renamed into place and written
    /// over from the start. Its old bytes stay past what is written (see
    /// the invariants in `spare.rs`); its whole length counts as allocated.
    pub fn open_recycled(spare: &Path, path: &Path, mode: IoMode) -> Result<OpenedSegment> {
        std::fs::rename(spare, path).map_err(|e| StorageError::io("rename", spare, e))?;
        let (file, _direct) = open_for_write(path, false, mode)?;
        let allocated = file
            .metadata()
            .map_err(|e| StorageError::io("stat", path, e))?
            .len();
        Ok(OpenedSegment {
            file,
            len: 0,
            allocated,
            tail: Vec::new(),
        })
    }

    /// The writer over a file [`Self::open_file`] opened.
    pub async fn from_opened(
        base: i64,
        path: PathBuf,
        opened: OpenedSegment,
        preallocate: u64,
        sync_now: bool,
    ) -> Result<SegmentWriter> {
        let OpenedSegment {
            file: std_file,
            len,
            allocated,
            tail,
        } = opened;
        let raw_fd = std_file.as_raw_fd();
        let file =
            Rc::new(File::from_std(std_file).map_err(|e| StorageError::io("open", &path, e))?);
        let buf_pos = align_down(len);
        // Small at first: it grows with the batches written, and an idle
        // partition should cost little (a thousand of them share a budget).
        let mut buf = AlignedBuf::with_capacity(16 * 1024);
        buf.extend_from_slice(&tail);
        let mut w = SegmentWriter {
            base,
            path,
            file,
            raw_fd,
            buf_pos,
            buf: Some(buf),
            written: len,
            dirty: true,
            allocated,
            prealloc_limit: preallocate,
        };
        // Make the cut (and the preallocation) durable before new data.
        if sync_now {
            w.sync().await?;
        }
        Ok(w)
    }

    /// A second descriptor of the segment file, for a call that runs on a
    /// helper thread (`fs_pool`): the writer, and its descriptor, may be
    /// dropped while that call still runs.
    fn dup_file(&self) -> Result<std::fs::File> {
        // SAFETY: `raw_fd` is the descriptor of `self.file`, which stays
        // open as long as `self` lives; it is only borrowed here, for the
        // duration of the dup.
        let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(self.raw_fd) };
        fd.try_clone_to_owned()
            .map(std::fs::File::from)
            .map_err(|e| StorageError::io("dup", &self.path, e))
    }

    /// Logical size: bytes written plus bytes buffered.
    pub fn len(&self) -> u64 {
        self.buf_pos + self.buf.as_ref().map_or(0, |b| b.len() as u64)
    }

    pub fn written(&self) -> u64 {
        self.written
    }

    pub fn push(&mut self, data: &[u8]) {
        self.buf
            .as_mut()
            .expect("writer buffer present")
            .extend_from_slice(data);
    }

    /// Writes everything buffered (block-aligned, padded) to the file.
    pub async fn write_out(&mut self) -> Result<()> {
        let end = self.len();
        if end == self.written {
            return Ok(());
        }
        if self.prealloc_limit > 0 && end > self.allocated {
            // Grow the preallocation ahead of the data, in steps.
            let want = next_allocation(end, self.allocated, self.prealloc_limit);
            if want <= self.allocated {
                // Not yet worth reserving (see PREALLOC_AFTER).
            } else {
                // Off the shard: under a heavy writer a fallocate waits for
                // the file system's journal (`fs_pool`).
                let file = self.dup_file()?;
                if crate::fs_pool::run(move || Ok(fallocate(file.as_raw_fd(), want))).await? {
                    self.allocated = want;
                } else {
                    self.prealloc_limit = 0;
                }
            }
        }
        let mut buf = self.buf.take().expect("writer buffer present");
        let padded = buf.pad_to_block();
        let _writing = crate::direct_read::WriteInFlight::start();
        let (res, view) = self
            .file
            .write_all_at(buf.into_write(padded), self.buf_pos)
            .await;
        let mut buf = view.into_inner();
        if let Err(e) = res {
            self.buf = Some(buf);
            return Err(StorageError::io("write", &self.path, e));
        }
        // Keep the partial last block for the next rewrite.
        let new_pos = align_down(end);
        buf.drain_front((new_pos - self.buf_pos) as usize);
        self.buf_pos = new_pos;
        self.buf = Some(buf);
        self.written = end;
        self.dirty = true;
        Ok(())
    }

    pub async fn sync(&mut self) -> Result<()> {
        if !self.dirty {
            return Ok(());
        }
        let started = std::time::Instant::now();
        let _writing = crate::direct_read::WriteInFlight::start();
        self.file
            .sync_data()
            .await
            .map_err(|e| StorageError::io("fdatasync", &self.path, e))?;
        crate::sync_stats::record_sync(started.elapsed());
        self.dirty = false;
        Ok(())
    }

    /// Seals the segment: flushes, then cuts the file to its logical size
    /// (dropping preallocation and padding, so a sealed segment's length is
    /// exactly its data) and syncs.
    pub async fn seal(mut self) -> Result<u64> {
        self.write_out().await?;
        let len = self.written;
        // Cuts the preallocated tail: frees extents, which can wait for the
        // file system's journal, so off the shard (`fs_pool`).
        let file = self.dup_file()?;
        let path = self.path.clone();
        crate::fs_pool::run(move || {
            file.set_len(len)
                .map_err(|e| StorageError::io("ftruncate", &path, e))
        })
        .await?;
        self.dirty = true;
        self.sync().await?;
        Ok(len)
    }
}

/// How a scan of a segment file ended.
#[derive(Debug)]
pub enum ScanEnd {
    /// All `len` bytes were whole, valid batches.
    Clean,
    /// Bytes from `position` on are not a valid batch.
    Invalid { position: u64, reason: String },
}

/// Reads a segment file from the start, batch by batch, in bounded chunks,
/// checking each batch's length and CRC-32C. Calls `f(position, batch)`
/// for every valid batch; `f` returning `Err(reason)` marks the batch
/// invalid (used for offset-order checks).
pub async fn scan_segment(
    file: &File,
    path: &Path,
    len: u64,
    max_batch: usize,
    mut f: impl FnMut(u64, &kafka_protocol::records::RecordBatch) -> std::result::Result<(), String>,
) -> Result<ScanEnd> {
    use kafka_protocol::records::RecordBatches;
    // Start small and grow: most active segments of an idle broker hold a
    // few KiB, and a 1 MiB buffer per partition read at start-up was kept
    // by the allocator (fragmented by the small allocations made between
    // two opens): 1 MB of resident memory per partition after a restart.
    const FIRST_CHUNK: usize = 64 << 10;
    const CHUNK: usize = 1 << 20;
    let mut pos = 0u64;
    let mut want = FIRST_CHUNK;
    while pos < len {
        let n = want.min((len - pos) as usize);
        let chunk = read_at(file, path, pos, n).await?;
        let mut it = RecordBatches::new(chunk.clone());
        let mut consumed = 0usize;
        let mut need_more = None;
        for item in it.by_ref() {
            match item {
                Ok(b) => {
                    if let Err(e) = b.verify_crc() {
                        return Ok(ScanEnd::Invalid {
                            position: pos + consumed as u64,
                            reason: e.to_string(),
                        });
                    }
                    if let Err(reason) = f(pos + consumed as u64, &b) {
                        return Ok(ScanEnd::Invalid {
                            position: pos + consumed as u64,
                            reason,
                        });
                    }
                    consumed += b.size();
                }
                Err(kafka_protocol::records::RecordError::PartialBatch { needed, .. })
                    if (chunk.len() as u64) < len - pos && needed <= max_batch =>
                {
                    need_more = Some(needed);
                    break;
                }
                Err(e) => {
                    return Ok(ScanEnd::Invalid {
                        position: pos + consumed as u64,
                        reason: e.to_string(),
                    });
                }
            }
        }
        if consumed == 0 && need_more.is_none() && chunk.is_empty() {
            return Ok(ScanEnd::Invalid {
                position: pos,
                reason: "file shorter than expected".into(),
            });
        }
        pos += consumed as u64;
        want = need_more.map_or((want * 2).min(CHUNK), |n| n.max((want * 2).min(CHUNK)));
    }
    Ok(ScanEnd::Clean)
}

/// Preallocates `len` bytes of `fd` (mode 0: the file grows to `len`).
/// Returns false where the file system cannot.
fn fallocate(fd: std::os::fd::RawFd, len: u64) -> bool {
    // SAFETY: a plain syscall on a descriptor the caller owns; no memory
    // is passed.
    unsafe { libc::fallocate(fd, 0, 0, len as libc::off_t) == 0 }
}

#[cfg(test)]
mod remove_tests {
    use super::*;

    #[test]
    fn a_file_removed_in_steps_leaves_nothing_behind() {
        let dir = std::env::temp_dir().join(format!("tm-remove-steps-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("00000000000000000000.log");
        let f = std::fs::File::create(&path).unwrap();
        f.set_len((10 << 20) + 1).unwrap();
        drop(f);
        let mut r = Removal::start_in_steps(&path, 1 << 20)
            .unwrap()
            .expect("larger than a step");
        assert!(!path.exists(), "renamed at once");
        let mut steps = 0;
        while !r.step().unwrap() {
            steps += 1;
            assert!(steps <= 10, "one step per MiB");
        }
        assert_eq!(steps, 10);
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(left.is_empty(), "left behind: {left:?}");
        // Gone already, and a file of two steps: both end at once.
        assert!(Removal::start_in_steps(&path, 1 << 20).unwrap().is_none());
        std::fs::File::create(&path)
            .unwrap()
            .set_len(2 << 20)
            .unwrap();
        assert!(Removal::start_in_steps(&path, 1 << 20).unwrap().is_none());
        assert!(!path.exists());
        std::fs::remove_dir(&dir).unwrap();
    }
}

#[cfg(test)]
mod prealloc_tests {
    use super::*;

    #[test]
    fn preallocation_grows_in_steps_up_to_the_segment_size() {
        let gib = 1 << 30;
        // Small segments are not preallocated at all.
        assert_eq!(next_allocation(0, 0, gib), 0);
        assert_eq!(next_allocation(PREALLOC_AFTER, 0, gib), 0);
        assert_eq!(
            next_allocation(PREALLOC_AFTER + 1, 0, gib),
            PREALLOC_AFTER + 1 + PREALLOC_MAX_STEP
        );
        let big = 500 << 20;
        assert_eq!(next_allocation(big, big - 1, gib), big + PREALLOC_MAX_STEP);
        assert_eq!(next_allocation(gib - 10, gib - 20, gib), gib);
        // Data past the limit (a batch larger than the segment) still fits.
        assert_eq!(next_allocation(gib + 5, gib, gib), gib + 5);
    }
}
