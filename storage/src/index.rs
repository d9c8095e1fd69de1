//! Sparse per-segment indexes: offset -> file position, and timestamp ->
//! offset. Kept in memory for the active segment; written once to
//! `.index` / `.timeindex` files when a segment is sealed and loaded on
//! demand afterwards (so memory does not grow with the log).
//!
//! File format: magic `TMIX`, the segment's byte length (so an index that
//! does not match its log is detected), entry count, entries as pairs of
//! big-endian i64, then a CRC-32C of everything before it. A file that
//! fails any check is rebuilt from the segment.

use std::path::Path;

use crate::error::{Result, StorageError};
use crate::file;

const MAGIC: &[u8; 4] = b"TMIX";

/// Both indexes of one segment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SegIndex {
    /// (batch base offset, file position), increasing in both.
    pub offsets: Vec<(i64, u64)>,
    /// (max timestamp so far, base offset of the batch holding it),
    /// increasing in both.
    pub times: Vec<(i64, i64)>,
    /// Bytes since the last offset entry.
    pub since_last: u64,
    /// Largest timestamp seen, and the base offset of its batch.
    pub max_ts: i64,
    pub max_ts_offset: i64,
    /// Largest timestamp recorded in `times`.
    last_time_entry: i64,
}

impl SegIndex {
    pub fn new() -> Self {
        SegIndex {
            max_ts: -1,
            max_ts_offset: -1,
            last_time_entry: -1,
            ..Default::default()
        }
    }

    /// Records a batch appended at `pos`.
    pub fn on_batch(&mut self, base: i64, pos: u64, size: u64, max_ts: i64, interval: u64) {
        if max_ts > self.max_ts {
            self.max_ts = max_ts;
            self.max_ts_offset = base;
        }
        if self.since_last >= interval || self.offsets.is_empty() {
            self.offsets.push((base, pos));
            self.since_last = 0;
            self.add_time_entry();
        }
        self.since_last += size;
    }

    fn add_time_entry(&mut self) {
        if self.max_ts > self.last_time_entry {
            self.times.push((self.max_ts, self.max_ts_offset));
            self.last_time_entry = self.max_ts;
        }
    }

    /// Adds the final time entry so the largest timestamp is indexed.
    pub fn finish(&mut self) {
        self.add_time_entry();
    }

    /// Position of the last indexed batch at or before `offset`.
    pub fn position_for(&self, offset: i64) -> (i64, u64) {
        let i = self.offsets.partition_point(|e| e.0 <= offset);
        if i == 0 {
            (i64::MIN, 0)
        } else {
            self.offsets[i - 1]
        }
    }

    /// Offset of the batch from which to scan for `ts`: the last entry
    /// whose timestamp is below `ts` marks batches that cannot qualify.
    pub fn offset_for_time(&self, ts: i64) -> Option<i64> {
        let i = self.times.partition_point(|e| e.0 < ts);
        if i == 0 {
            None
        } else {
            Some(self.times[i - 1].1)
        }
    }

    /// Drops entries at or after `offset` / `pos` (for truncation).
    pub fn truncate(&mut self, offset: i64, pos: u64) {
        self.offsets.retain(|e| e.0 < offset && e.1 < pos);
        self.times.retain(|e| e.1 < offset);
        self.last_time_entry = self.times.last().map_or(-1, |e| e.0);
        self.max_ts = self.last_time_entry;
        self.max_ts_offset = self.times.last().map_or(-1, |e| e.1);
        self.since_last = u64::MAX / 2;
    }

    pub fn heap_bytes(&self) -> usize {
        self.offsets.capacity() * 16 + self.times.capacity() * 16
    }
}

fn encode(log_len: u64, entries: impl ExactSizeIterator<Item = (i64, i64)>) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + entries.len() * 16 + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&log_len.to_be_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_be_bytes());
    for (a, b) in entries {
        out.extend_from_slice(&a.to_be_bytes());
        out.extend_from_slice(&b.to_be_bytes());
    }
    let crc = crc32c::crc32c(&out);
    out.extend_from_slice(&crc.to_be_bytes());
    out
}

fn decode(data: &[u8], log_len: u64) -> Option<Vec<(i64, i64)>> {
    if data.len() < 20 || &data[..4] != MAGIC {
        return None;
    }
    let (body, crc) = data.split_at(data.len() - 4);
    if crc32c::crc32c(body).to_be_bytes() != crc {
        return None;
    }
    if u64::from_be_bytes(body[4..12].try_into().ok()?) != log_len {
        return None;
    }
    let n = u32::from_be_bytes(body[12..16].try_into().ok()?) as usize;
    let entries = &body[16..];
    if entries.len() != n * 16 {
        return None;
    }
    let v: Vec<(i64, i64)> = entries
        .chunks_exact(16)
        .map(|c| {
            (
                i64::from_be_bytes(c[..8].try_into().unwrap_or_default()),
                i64::from_be_bytes(c[8..].try_into().unwrap_or_default()),
            )
        })
        .collect();
    let sorted = v.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1);
    sorted.then_some(v)
}

/// Writes both index files of a sealed segment (atomically each).
pub fn write_files(
    index: &SegIndex,
    log_len: u64,
    offset_path: &Path,
    time_path: &Path,
) -> Result<()> {
    let offs = encode(log_len, index.offsets.iter().map(|&(o, p)| (o, p as i64)));
    file::write_atomic(offset_path, &offs)?;
    let times = encode(log_len, index.times.iter().copied());
    file::write_atomic(time_path, &times)
}

/// Loads both index files, or `None` if either is missing, damaged or
/// does not match a log of `log_len` bytes.
pub fn read_files(log_len: u64, offset_path: &Path, time_path: &Path) -> Result<Option<SegIndex>> {
    let read = |p: &Path| match std::fs::read(p) {
        Ok(d) => Ok(Some(d)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(StorageError::io("read", p, e)),
    };
    let (Some(o), Some(t)) = (read(offset_path)?, read(time_path)?) else {
        return Ok(None);
    };
    let (Some(offs), Some(times)) = (decode(&o, log_len), decode(&t, log_len)) else {
        tracing::warn!(path = %offset_path.display(), "damaged index; rebuilding it from the segment");
        return Ok(None);
    };
    if offs.iter().any(|e| e.1 < 0 || e.1 as u64 >= log_len.max(1)) {
        return Ok(None);
    }
    let mut idx = SegIndex::new();
    idx.offsets = offs.into_iter().map(|(o, p)| (o, p as u64)).collect();
    idx.times = times;
    if let Some(&(ts, off)) = idx.times.last() {
        idx.max_ts = ts;
        idx.max_ts_offset = off;
        idx.last_time_entry = ts;
    }
    Ok(Some(idx))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damage() {
        let dir = tempfile::tempdir().unwrap();
        let (o, t) = (dir.path().join("a.index"), dir.path().join("a.timeindex"));
        let mut idx = SegIndex::new();
        for i in 0..100u64 {
            idx.on_batch(i as i64 * 10, i * 1000, 1000, 5 + i as i64, 4096);
        }
        idx.finish();
        write_files(&idx, 100_000, &o, &t).unwrap();
        let back = read_files(100_000, &o, &t).unwrap().unwrap();
        assert_eq!(back.offsets, idx.offsets);
        assert_eq!(back.times, idx.times);
        assert_eq!(back.max_ts, 104);
        assert!(
            read_files(99_999, &o, &t).unwrap().is_none(),
            "size mismatch"
        );
        let mut data = std::fs::read(&o).unwrap();
        data[20] ^= 1;
        std::fs::write(&o, data).unwrap();
        assert!(read_files(100_000, &o, &t).unwrap().is_none(), "bad crc");
        assert_eq!(idx.position_for(55), (50, 5000));
        assert_eq!(idx.position_for(-1), (i64::MIN, 0));
    }
}
