//! The per-partition Raft state file (`raft-state`): everything of Raft
//! that is not a Kafka record batch. Data entries live only in the
//! partition log (one write per record per replica, invariant 2); this
//! file holds the vote, the last known commit and apply points, the
//! applied membership, the anchors that map Raft indexes to Kafka offsets
//! (see `index.rs`), the purge point, and openraft's own entries (blank
//! and membership entries: a few per election or voter change, kept out
//! of the Kafka offset space, see `lib.rs`).
//!
//! It is small (a few hundred bytes) and kept as two checksummed copies
//! written in place in turn (`tidemark_storage::slot_file`: `raft-state.0`
//! and `raft-state.1`; a write never lands on the newest durable copy), so
//! after a crash it is the old or the new version, never a mix. The first
//! format, one `raft-state` file replaced by rename, is still read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use tidemark_storage::StorageError;
use tidemark_storage::slot_file::Slots;

use crate::error::Error;
use crate::types::{GroupMembership, LogId, NodeId, Payload, StoredMembership, Term, Vote, log_id};

pub(crate) const FILE: &str = "raft-state";
/// Version 2: openraft's blank and membership entries moved from the log
/// (control batches) to this file. A version 1 file is refused.
const MAGIC: &str = "tidemark-raft-state 2";

/// An openraft entry that is not a Kafka batch (a leader's blank entry or
/// a membership), stored here rather than in the partition log.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SideEntry {
    pub log_id: LogId,
    /// The log end offset when it was appended: it sits between the data
    /// batches ending at or before this offset and those starting at it.
    pub offset: i64,
    /// `Blank` or `Membership`, never `Normal`.
    pub payload: Payload,
}

/// The persisted Raft state of one partition replica.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Meta {
    pub vote: Option<Vote>,
    /// Last known commit point. Not fsynced on every change (openraft only
    /// needs it as a hint: a lower value after a crash is safe).
    pub committed: Option<LogId>,
    /// Last applied entry and the Kafka offset after it (the high
    /// watermark at that point): an anchor for recovery.
    pub applied: Option<(LogId, i64)>,
    /// The membership in force at `applied`.
    pub membership: StoredMembership,
    /// Raft index and Kafka offset of the first batch of the log.
    pub first: (u64, i64),
    /// The first entry of each term: (term, index, offset).
    pub epochs: Vec<(Term, u64, i64)>,
    /// The last log id openraft asked to purge: entries up to it are no
    /// longer Raft's (only Kafka data, which retention and compaction may
    /// remove); `first` is the entry after it.
    pub purged: Option<LogId>,
    /// openraft's non-data entries from `first` on, by index.
    pub side: BTreeMap<u64, SideEntry>,
    /// The last snapshot: its last log id and the membership then. The
    /// snapshot's data is the partition log itself, so this is all of it.
    pub snapshot: Option<(LogId, StoredMembership)>,
}

impl Meta {
    pub fn fresh(log_start: i64) -> Self {
        Meta {
            vote: None,
            committed: None,
            applied: None,
            membership: StoredMembership::default(),
            first: (0, log_start),
            epochs: Vec::new(),
            purged: None,
            side: BTreeMap::new(),
            snapshot: None,
        }
    }

    /// The base path of the state file's slots (and of its first format).
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(FILE)
    }

    /// Reads the state file: its slots (kept for the writes that follow)
    /// and the newest state, `None` when there is none.
    pub fn load(dir: &Path) -> Result<(Slots, Option<Self>), Error> {
        let (slots, text) = load_text(dir)?;
        let meta = text
            .map(|t| {
                Self::decode(&t)
                    .map_err(|e| Error::CorruptState(format!("{}: {e}", Self::path(dir).display())))
            })
            .transpose()?;
        Ok((slots, meta))
    }

    /// Writes the state into `slots` on this thread, durably with
    /// `durable`; without, a crash before the caller makes the file
    /// system durable (one syncfs for a batch of new partitions, say) may
    /// lose this write, and the copy before it is read instead.
    pub fn store(&self, slots: &mut Slots, durable: bool) -> Result<(), Error> {
        Ok(slots.write_now(self.encode().as_bytes(), durable)?)
    }

    pub fn encode(&self) -> String {
        let mut s = String::with_capacity(256);
        s.push_str(MAGIC);
        s.push('\n');
        match &self.vote {
            Some(v) => s.push_str(&format!(
                "vote {} {} {}\n",
                v.leader_id.term,
                v.leader_id.voted_for,
                u8::from(v.committed)
            )),
            None => s.push_str("vote -\n"),
        }
        s.push_str(&format!(
            "committed {}\n",
            fmt_log_id(self.committed.as_ref())
        ));
        match &self.applied {
            Some((id, next)) => s.push_str(&format!("applied {} {next}\n", fmt_log_id(Some(id)))),
            None => s.push_str("applied -\n"),
        }
        s.push_str(&format!(
            "membership {}{}\n",
            fmt_log_id(self.membership.log_id().as_ref()),
            fmt_membership(self.membership.membership())
        ));
        s.push_str(&format!("first {} {}\n", self.first.0, self.first.1));
        for (t, i, o) in &self.epochs {
            s.push_str(&format!("epoch {t} {i} {o}\n"));
        }
        s.push_str(&format!("purged {}\n", fmt_log_id(self.purged.as_ref())));
        for e in self.side.values() {
            let what = match &e.payload {
                Payload::Membership(m) => format!("membership{}", fmt_membership(m)),
                _ => "blank".into(),
            };
            s.push_str(&format!(
                "entry {} {} {what}\n",
                fmt_log_id(Some(&e.log_id)),
                e.offset
            ));
        }
        if let Some((id, m)) = &self.snapshot {
            s.push_str(&format!(
                "snapshot {} {}{}\n",
                fmt_log_id(Some(id)),
                fmt_log_id(m.log_id().as_ref()),
                fmt_membership(m.membership())
            ));
        }
        s.push_str("end\n");
        s
    }

    pub fn decode(s: &str) -> Result<Self, String> {
        let mut lines = s.lines();
        if lines.next() != Some(MAGIC) {
            return Err("not a tidemark raft state file (or an unknown version)".into());
        }
        let mut m = Meta::fresh(0);
        let mut ended = false;
        for line in lines {
            let mut w = line.split(' ');
            let num = |w: Option<&str>| -> Result<u64, String> {
                w.ok_or("missing field")?
                    .parse::<u64>()
                    .map_err(|e| format!("{line:?}: {e}"))
            };
            let inum = |w: Option<&str>| -> Result<i64, String> {
                w.ok_or("missing field")?
                    .parse::<i64>()
                    .map_err(|e| format!("{line:?}: {e}"))
            };
            match w.next() {
                Some("vote") => {
                    let mut peek = w.clone();
                    if peek.next() == Some("-") {
                        continue;
                    }
                    let term = num(w.next())?;
                    let node = num(w.next())?;
                    let committed = num(w.next())? == 1;
                    let mut v = Vote::new(term, node);
                    v.committed = committed;
                    m.vote = Some(v);
                }
                Some("committed") => m.committed = parse_log_id(&mut w)?,
                Some("applied") => {
                    m.applied = match parse_log_id(&mut w)? {
                        Some(id) => Some((id, inum(w.next())?)),
                        None => None,
                    }
                }
                Some("membership") => {
                    let id = parse_log_id(&mut w)?;
                    m.membership = StoredMembership::new(id, parse_membership(w)?);
                }
                Some("entry") => {
                    let id = parse_log_id(&mut w)?.ok_or("entry without a log id")?;
                    let offset = inum(w.next())?;
                    let payload = match w.next() {
                        Some("blank") => Payload::Blank,
                        Some("membership") => Payload::Membership(parse_membership(w)?),
                        other => return Err(format!("entry kind {other:?}")),
                    };
                    let e = SideEntry {
                        log_id: id,
                        offset,
                        payload,
                    };
                    if m.side.insert(id.index, e).is_some() {
                        return Err(format!("two entries at index {}", id.index));
                    }
                }
                Some("snapshot") => {
                    let id = parse_log_id(&mut w)?.ok_or("snapshot without a log id")?;
                    let mid = parse_log_id(&mut w)?;
                    m.snapshot = Some((id, StoredMembership::new(mid, parse_membership(w)?)));
                }
                Some("first") => m.first = (num(w.next())?, inum(w.next())?),
                Some("epoch") => m
                    .epochs
                    .push((num(w.next())?, num(w.next())?, inum(w.next())?)),
                Some("purged") => m.purged = parse_log_id(&mut w)?,
                Some("end") => ended = true,
                Some("") | None => {}
                Some(other) => return Err(format!("unknown line {other:?}")),
            }
        }
        if !ended {
            return Err("truncated".into());
        }
        Ok(m)
    }
}

fn fmt_log_id(id: Option<&LogId>) -> String {
    match id {
        Some(id) => format!("{} {}", id.leader_id.term, id.index),
        None => "-".into(),
    }
}

fn parse_log_id<'a>(w: &mut impl Iterator<Item = &'a str>) -> Result<Option<LogId>, String> {
    let t = w.next().ok_or("missing log id")?;
    if t == "-" {
        return Ok(None);
    }
    let term: u64 = t.parse().map_err(|e| format!("term {t:?}: {e}"))?;
    let i = w.next().ok_or("missing index")?;
    let index: u64 = i.parse().map_err(|e| format!("index {i:?}: {e}"))?;
    Ok(Some(log_id(term, index)))
}

/// ` voters=1,2,3[ voters=...] learners=4`
fn fmt_membership(m: &GroupMembership) -> String {
    let mut s = String::new();
    for c in m.get_joint_config() {
        s.push_str(" voters=");
        s.push_str(&join(c.iter()));
    }
    let learners: Vec<NodeId> = m.learner_ids().collect();
    s.push_str(" learners=");
    s.push_str(&join(learners.iter()));
    s
}

fn parse_membership<'a>(w: impl Iterator<Item = &'a str>) -> Result<GroupMembership, String> {
    let mut configs = Vec::new();
    let mut nodes = BTreeSet::new();
    for f in w {
        if let Some(v) = f.strip_prefix("voters=") {
            let set = parse_ids(v)?;
            nodes.extend(set.iter().copied());
            configs.push(set);
        } else if let Some(v) = f.strip_prefix("learners=") {
            nodes.extend(parse_ids(v)?);
        } else {
            return Err(format!("membership field {f:?}"));
        }
    }
    if configs.is_empty() && nodes.is_empty() {
        Ok(GroupMembership::default())
    } else {
        GroupMembership::new(configs, nodes).map_err(|e| e.to_string())
    }
}

fn join<'a>(ids: impl Iterator<Item = &'a NodeId>) -> String {
    ids.map(|i| i.to_string()).collect::<Vec<_>>().join(",")
}

fn parse_ids(s: &str) -> Result<BTreeSet<NodeId>, String> {
    if s.is_empty() {
        return Ok(BTreeSet::new());
    }
    s.split(',')
        .map(|x| x.parse::<u64>().map_err(|e| format!("node id {x:?}: {e}")))
        .collect()
}

/// The state file's text as a closed replica left it (its newest copy),
/// for tools and tests that inspect it; `None` when there is none.
pub fn read_state_text(dir: &Path) -> Result<Option<String>, Error> {
    Ok(load_text(dir)?.1)
}

/// The state file's slots and its newest copy as text; a file with no
/// whole copy, or one that is not text, is `CorruptState`.
fn load_text(dir: &Path) -> Result<(Slots, Option<String>), Error> {
    let path = Meta::path(dir);
    let (slots, payload) = Slots::load(&path).map_err(|e| match e {
        StorageError::CorruptFile { path, reason } => {
            Error::CorruptState(format!("{}: {reason}", path.display()))
        }
        e => Error::Storage(e),
    })?;
    let text = payload
        .map(|p| {
            String::from_utf8(p)
                .map_err(|e| Error::CorruptState(format!("{}: {e}", path.display())))
        })
        .transpose()?;
    Ok((slots, text))
}

/// Makes `text` the state file of the closed replica in `dir` (a new,
/// durable newest copy), for tools and tests that repair or damage it.
pub fn write_state_text(dir: &Path, text: &str) -> Result<(), Error> {
    let (mut slots, _) = match Slots::load(&Meta::path(dir)) {
        Ok(x) => x,
        Err(StorageError::CorruptFile { .. }) => (Slots::afresh(&Meta::path(dir)), None),
        Err(e) => return Err(e.into()),
    };
    Ok(slots.write_now(text.as_bytes(), true)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut m = Meta::fresh(5);
        let mut v = Vote::new(7, 2);
        v.committed = true;
        m.vote = Some(v);
        m.committed = Some(log_id(7, 41));
        m.applied = Some((log_id(7, 40), 1234));
        let mem = GroupMembership::new(
            vec![BTreeSet::from([1, 2, 3])],
            BTreeSet::from([1u64, 2, 3, 4]),
        )
        .unwrap();
        m.membership = StoredMembership::new(Some(log_id(1, 0)), mem);
        m.epochs = vec![(0, 0, 5), (1, 1, 6), (7, 30, 900)];
        m.purged = Some(log_id(1, 3));
        m.side.insert(
            4,
            SideEntry {
                log_id: log_id(2, 4),
                offset: 17,
                payload: Payload::Blank,
            },
        );
        m.side.insert(
            5,
            SideEntry {
                log_id: log_id(2, 5),
                offset: 17,
                payload: Payload::Membership(m.membership.membership().clone()),
            },
        );
        m.snapshot = Some((log_id(7, 40), m.membership.clone()));
        let s = m.encode();
        assert_eq!(Meta::decode(&s).unwrap(), m);
        assert!(
            Meta::decode(&s[..s.len() - 4]).is_err(),
            "truncated file refused"
        );
        assert!(Meta::decode(&s.replace("state 2", "state 1")).is_err());
        for bad in [
            "entry 2 4 17 what",
            "entry 2 4 x blank",
            "entry - 17 blank",
            "snapshot 7",
            "membership - voters=1,x learners=",
            "membership - voters=1 other=2",
        ] {
            let t = s.replace("end\n", &format!("{bad}\nend\n"));
            assert!(Meta::decode(&t).is_err(), "{bad:?} refused");
        }
        let dup = s.replace("end\n", "entry 2 4 17 blank\nend\n");
        assert!(Meta::decode(&dup).is_err(), "duplicate index refused");
    }
}
