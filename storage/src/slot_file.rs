//! A small file kept as two checksummed copies ("slots") that are
//! rewritten in place: the Raft state files.
//!
//! Why: the state file used to be replaced through a temporary file and a
//! rename. Each write then made one inode and deleted another, and on
//! this machine's ext4 (no journal) the search for a free inode that
//! skips recently deleted ones (`recently_deleted`) was 13 % of a broker's
//! CPU samples while three brokers created 10,000 partitions; a durable
//! replace also cost two commits (the new file's contents, then the
//! rename), and a batch of them two `syncfs` (`write_batch.rs`).
//!
//! How: `<name>.0` and `<name>.1`, each a header (magic, sequence number,
//! length, CRC-32C of those and the payload) and the payload, written at
//! offset 0 over whatever the slot held (a longer old tail is ignored: the
//! header says where the payload ends). A write goes to the slot that does
//! not hold the newest durable copy; loading takes the valid slot with
//! the higher sequence number. An overwrite of a file's existing blocks is
//! made durable by one `fdatasync` (one `syncfs` for a whole batch), with
//! no new inode and no directory change after the first two writes.
//!
//! Invariant (**the newest durable copy is never overwritten**): a write
//! never targets the slot holding the newest copy known to be durable (the
//! one loaded at open counts as durable), so a crash in the middle of a
//! write (a torn slot, which its checksum rejects) leaves that copy whole.
//! A write that is not made durable (`durable` false) goes to the same
//! other slot, so it can only replace an earlier non-durable one.
//!
//! The first format, one plain `<name>` file replaced by rename, is read
//! when neither slot holds a valid copy (a partition from before this
//! change, or one whose first slot write a crash tore) and removed once a
//! slot holds a durable copy.

use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::error::{Result, StorageError};
use crate::file;

/// Marks a slot (and its format version).
const MAGIC: [u8; 4] = *b"TSS1";
/// Magic, sequence number (u64), payload length (u32), CRC-32C (u32).
const HEADER_BYTES: usize = 20;
/// The largest payload a slot may claim (a state file is a few hundred
/// bytes to a few KiB; a larger claim is damage, not a state).
pub const MAX_PAYLOAD_BYTES: usize = 16 << 20;

/// What one slot holds.
#[derive(Debug, PartialEq)]
enum Slot {
    Missing,
    /// Present but not a whole, checksummed copy (torn, or not ours).
    Invalid(String),
    Valid {
        seq: u64,
        payload: Vec<u8>,
    },
}

/// The two slots of one file and where its next write goes. Kept by the
/// file's single writer between writes.
#[derive(Debug)]
pub struct Slots {
    base: PathBuf,
    next_seq: u64,
    /// The slot holding the newest copy known to be durable.
    durable: Option<u8>,
    /// The slot written last (durably or not).
    last: Option<u8>,
    /// Whether a file in the first format may still be beside the slots.
    legacy: bool,
}

/// One write, prepared by [`Slots::prepare`]: write `bytes` at offset 0 of
/// `path` (see [`write_in_place`]), then report it with [`Slots::landed`].
#[derive(Debug)]
pub struct SlotWrite {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    slot: u8,
}

/// The path of slot `slot` of the file at `base`.
pub fn slot_path(base: &Path, slot: u8) -> PathBuf {
    let mut name = base.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{slot}"));
    base.with_file_name(name)
}

/// A slot's bytes: header and payload.
fn encode(path: &Path, seq: u64, payload: &[u8]) -> Result<Vec<u8>> {
    if payload.len() > MAX_PAYLOAD_BYTES {
        return Err(StorageError::CorruptFile {
            path: path.to_path_buf(),
            reason: format!(
                "a copy of {} bytes, over the {MAX_PAYLOAD_BYTES}-byte limit, was not written",
                payload.len()
            ),
        });
    }
    let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&seq.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    let crc = crc32c::crc32c_append(crc32c::crc32c(&out[4..16]), payload);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(payload);
    Ok(out)
}

/// Reads a slot's bytes (a stale tail past the payload is ignored).
fn decode(bytes: &[u8]) -> Slot {
    if bytes.len() < HEADER_BYTES {
        return Slot::Invalid(format!("{} bytes, shorter than a header", bytes.len()));
    }
    if bytes[..4] != MAGIC {
        return Slot::Invalid("no slot header".into());
    }
    let seq = u64::from_le_bytes(bytes[4..12].try_into().expect("8 bytes"));
    let len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let crc = u32::from_le_bytes(bytes[16..20].try_into().expect("4 bytes"));
    if len > MAX_PAYLOAD_BYTES || HEADER_BYTES + len > bytes.len() {
        return Slot::Invalid(format!(
            "claims {len} bytes of payload, {} present",
            bytes.len() - HEADER_BYTES
        ));
    }
    let payload = &bytes[HEADER_BYTES..HEADER_BYTES + len];
    if crc32c::crc32c_append(crc32c::crc32c(&bytes[4..16]), payload) != crc {
        return Slot::Invalid("checksum mismatch (a torn write)".into());
    }
    Slot::Valid {
        seq,
        payload: payload.to_vec(),
    }
}

fn read_slot(path: &Path) -> Result<Slot> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(decode(&bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Slot::Missing),
        Err(e) => Err(StorageError::io("read", path, e)),
    }
}

impl Slots {
    /// Reads the file at `base`: the payload of its newest valid copy
    /// (`None` when it has none, as for a new file). Fails when slots are
    /// present but none is valid and no first-format file is left.
    pub fn load(base: &Path) -> Result<(Slots, Option<Vec<u8>>)> {
        let read = [
            read_slot(&slot_path(base, 0))?,
            read_slot(&slot_path(base, 1))?,
        ];
        let newest = read
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s {
                Slot::Valid { seq, .. } => Some((*seq, i as u8)),
                _ => None,
            })
            .max();
        let [r0, r1] = read;
        if let Some((seq, slot)) = newest {
            let payload = match if slot == 0 { r0 } else { r1 } {
                Slot::Valid { payload, .. } => payload,
                _ => unreachable!("the newest slot is valid"),
            };
            let legacy = base.exists();
            return Ok((
                Slots {
                    base: base.to_path_buf(),
                    next_seq: seq + 1,
                    durable: Some(slot),
                    last: Some(slot),
                    legacy,
                },
                Some(payload),
            ));
        }
        let fresh = Slots {
            base: base.to_path_buf(),
            next_seq: 1,
            durable: None,
            last: None,
            legacy: false,
        };
        match std::fs::read(base) {
            Ok(payload) => {
                return Ok((
                    Slots {
                        legacy: true,
                        ..fresh
                    },
                    Some(payload),
                ));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(StorageError::io("read", base, e)),
        }
        for (i, s) in [r0, r1].into_iter().enumerate() {
            if let Slot::Invalid(reason) = s {
                return Err(StorageError::CorruptFile {
                    path: slot_path(base, i as u8),
                    reason,
                });
            }
        }
        Ok((fresh, None))
    }

    /// Slots for a file started afresh over whatever is at `base` (copies
    /// that [`Self::load`] refused, which the caller chose to give up).
    pub fn afresh(base: &Path) -> Slots {
        Slots {
            base: base.to_path_buf(),
            next_seq: 1,
            durable: None,
            last: None,
            legacy: base.exists(),
        }
    }

    /// The next write of `payload`: into the slot that does not hold the
    /// newest durable copy. While no copy is known to be durable (only
    /// writes without `durable` so far, which the caller may have made
    /// durable by other means, such as one `syncfs` for a batch of new
    /// partitions), the slots alternate, so a write never lands on the
    /// copy written just before it.
    pub fn prepare(&mut self, payload: &[u8]) -> Result<SlotWrite> {
        let slot = match (self.durable, self.last) {
            (Some(d), _) => 1 - d,
            (None, Some(l)) => 1 - l,
            (None, None) => 0,
        };
        let path = slot_path(&self.base, slot);
        let bytes = encode(&path, self.next_seq, payload)?;
        self.next_seq += 1;
        Ok(SlotWrite { path, bytes, slot })
    }

    /// Records that `w` was written, durably or not. After the first
    /// durable copy in a slot, the first-format file is removed (not
    /// durably: should the removal be lost, the valid slot still wins).
    pub fn landed(&mut self, w: &SlotWrite, durable: bool) {
        self.last = Some(w.slot);
        if !durable {
            return;
        }
        self.durable = Some(w.slot);
        if std::mem::take(&mut self.legacy) {
            let _ = std::fs::remove_file(&self.base);
        }
    }

    /// Writes `payload` now, on this thread: [`Self::prepare`],
    /// [`write_in_place`] and [`Self::landed`].
    pub fn write_now(&mut self, payload: &[u8], durable: bool) -> Result<()> {
        let w = self.prepare(payload)?;
        write_in_place(&w.path, &w.bytes, durable)?;
        self.landed(&w, durable);
        Ok(())
    }
}

/// Writes `data` at offset 0 of `path`, creating it if needed; with
/// `durable`, fdatasync (and, for a new file, an fsync of its folder).
pub fn write_in_place(path: &Path, data: &[u8], durable: bool) -> Result<()> {
    let (f, created) = open_slot(path)?;
    f.write_all_at(data, 0)
        .map_err(|e| StorageError::io("write", path, e))?;
    if durable {
        f.sync_data()
            .map_err(|e| StorageError::io("fdatasync", path, e))?;
        if created {
            file::fsync_dir(path.parent().unwrap_or(Path::new(".")))?;
        }
    }
    Ok(())
}

/// Opens `path` for writing, creating it if missing; whether it was made.
pub(crate) fn open_slot(path: &Path) -> Result<(std::fs::File, bool)> {
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(f) => Ok((f, true)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map(|f| (f, false))
            .map_err(|e| StorageError::io("open", path, e)),
        Err(e) => Err(StorageError::io("create", path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(base: &Path) -> (Slots, Option<Vec<u8>>) {
        Slots::load(base).expect("load")
    }

    impl Slots {
        fn prepare_ok(&mut self, payload: &[u8]) -> SlotWrite {
            self.prepare(payload).expect("prepared")
        }
    }

    #[test]
    fn each_write_is_read_back_and_the_slots_alternate() {
        let dir = tempfile::tempdir().expect("dir");
        let base = dir.path().join("state");
        let (mut s, none) = load(&base);
        assert_eq!(none, None);
        let mut used = Vec::new();
        for i in 0..5u32 {
            let w = s.prepare_ok(format!("v{i}").as_bytes());
            used.push(w.slot);
            write_in_place(&w.path, &w.bytes, true).expect("write");
            s.landed(&w, true);
            assert_eq!(load(&base).1.as_deref(), Some(format!("v{i}").as_bytes()));
        }
        assert_eq!(used, [0, 1, 0, 1, 0]);
    }

    #[test]
    fn a_shorter_copy_over_a_longer_one_reads_back_without_the_old_tail() {
        let dir = tempfile::tempdir().expect("dir");
        let base = dir.path().join("state");
        let (mut s, _) = load(&base);
        s.write_now(&[b'x'; 5000], true).expect("long");
        s.write_now(b"other", true).expect("other slot");
        s.write_now(b"short", true).expect("over the long one");
        assert_eq!(load(&base).1.as_deref(), Some(&b"short"[..]));
    }

    #[test]
    fn a_torn_write_leaves_the_newest_durable_copy() {
        let dir = tempfile::tempdir().expect("dir");
        let base = dir.path().join("state");
        let (mut s, _) = load(&base);
        s.write_now(b"durable one", true).expect("one");
        s.write_now(b"durable two", true).expect("two");
        // A crash in the middle of the third write: half of its bytes.
        let w = s.prepare_ok(b"the third, never finished");
        assert_ne!(
            w.path,
            slot_path(&base, 1),
            "never over the newest durable copy"
        );
        std::fs::write(&w.path, &w.bytes[..w.bytes.len() / 2]).expect("torn");
        assert_eq!(load(&base).1.as_deref(), Some(&b"durable two"[..]));
        // A flipped payload byte is caught too.
        let mut bad = w.bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        std::fs::write(&w.path, &bad).expect("flipped");
        assert_eq!(load(&base).1.as_deref(), Some(&b"durable two"[..]));
    }

    #[test]
    fn writes_that_are_not_durable_never_replace_the_durable_copy() {
        let dir = tempfile::tempdir().expect("dir");
        let base = dir.path().join("state");
        let (mut s, _) = load(&base);
        s.write_now(b"durable", true).expect("durable");
        s.write_now(b"lazy 1", false).expect("lazy");
        s.write_now(b"lazy 2", false).expect("lazy");
        // Both lazy writes went to the other slot: tearing it keeps the
        // durable copy.
        let other = slot_path(&base, 1);
        assert_eq!(load(&base).1.as_deref(), Some(&b"lazy 2"[..]));
        std::fs::write(&other, b"TSS1 torn").expect("torn");
        assert_eq!(load(&base).1.as_deref(), Some(&b"durable"[..]));
    }

    #[test]
    fn before_any_durable_write_the_slots_alternate() {
        let dir = tempfile::tempdir().expect("dir");
        let base = dir.path().join("state");
        let (mut s, _) = load(&base);
        // Made durable by the caller's own syncfs, say.
        s.write_now(b"lazy", false).expect("lazy");
        let w = s.prepare_ok(b"durable");
        assert_eq!(w.slot, 1, "not over the copy written just before");
        std::fs::write(&w.path, &w.bytes[..4]).expect("torn");
        assert_eq!(load(&base).1.as_deref(), Some(&b"lazy"[..]));
    }

    #[test]
    fn after_a_reload_the_next_write_spares_the_loaded_copy() {
        let dir = tempfile::tempdir().expect("dir");
        let base = dir.path().join("state");
        let (mut s, _) = load(&base);
        s.write_now(b"a", true).expect("a");
        s.write_now(b"b", true).expect("b");
        s.write_now(b"c", true).expect("c"); // slot 0
        let (mut s, got) = load(&base);
        assert_eq!(got.as_deref(), Some(&b"c"[..]));
        let w = s.prepare_ok(b"d");
        assert_eq!(w.slot, 1);
    }

    #[test]
    fn a_first_format_file_is_read_and_removed_after_the_first_durable_slot() {
        let dir = tempfile::tempdir().expect("dir");
        let base = dir.path().join("state");
        std::fs::write(&base, b"old format").expect("legacy");
        let (mut s, got) = load(&base);
        assert_eq!(got.as_deref(), Some(&b"old format"[..]));
        // A torn first slot write falls back to the old file.
        let w = s.prepare_ok(b"new");
        std::fs::write(&w.path, &w.bytes[..3]).expect("torn");
        assert_eq!(load(&base).1.as_deref(), Some(&b"old format"[..]));
        write_in_place(&w.path, &w.bytes, true).expect("whole");
        s.landed(&w, true);
        assert!(!base.exists(), "the old file is removed");
        assert_eq!(load(&base).1.as_deref(), Some(&b"new"[..]));
    }

    #[test]
    fn a_copy_over_the_size_limit_is_refused_not_written() {
        let dir = tempfile::tempdir().expect("dir");
        let base = dir.path().join("state");
        let (mut s, _) = load(&base);
        s.write_now(b"kept", true).expect("kept");
        let big = vec![b'x'; MAX_PAYLOAD_BYTES + 1];
        assert!(matches!(
            s.write_now(&big, true),
            Err(StorageError::CorruptFile { .. })
        ));
        assert_eq!(load(&base).1.as_deref(), Some(&b"kept"[..]));
    }

    #[test]
    fn slots_without_any_valid_copy_are_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let base = dir.path().join("state");
        std::fs::write(slot_path(&base, 0), b"garbage").expect("garbage");
        match Slots::load(&base) {
            Err(StorageError::CorruptFile { path, .. }) => assert_eq!(path, slot_path(&base, 0)),
            other => panic!("accepted: {other:?}"),
        }
    }
}
