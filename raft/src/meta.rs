//! The per-partition Raft state file (`raft-state`): everything of Raft
//! that is not a log entry. Log entries live only in the partition log
//! (one write per record per replica, invariant 2); this file holds the
//! vote, the last known commit and apply points, the applied membership and
//! the anchors that map Raft indexes to Kafka offsets (see `index.rs`).
//!
//! It is small (a few hundred bytes) and replaced atomically (temporary
//! file, fsync, rename, fsync of the folder), so it is either the old or
//! the new version after a crash, never a mix.

use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::types::{GroupMembership, LogId, NodeId, StoredMembership, Term, Vote, log_id};

pub(crate) const FILE: &str = "raft-state";
const MAGIC: &str = "tidemark-raft-state 1";

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
    /// The last log id openraft asked to purge.
    pub purged: Option<LogId>,
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
        }
    }

    pub fn path(dir: &Path) -> PathBuf {
        dir.join(FILE)
    }

    /// Reads the state file; `Ok(None)` when there is none.
    pub fn load(dir: &Path) -> Result<Option<Self>, Error> {
        let path = Self::path(dir);
        match fs::read_to_string(&path) {
            Ok(s) => Self::decode(&s)
                .map(Some)
                .map_err(|e| Error::CorruptState(format!("{}: {e}", path.display()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::Io {
                op: "read",
                path,
                source: e,
            }),
        }
    }

    /// Replaces the state file atomically and durably.
    pub fn store(&self, dir: &Path) -> Result<(), Error> {
        let path = Self::path(dir);
        let tmp = dir.join(format!("{FILE}.tmp"));
        let io = |op: &'static str, p: &Path| {
            let p = p.to_path_buf();
            move |source| Error::Io {
                op,
                path: p,
                source,
            }
        };
        let mut f = fs::File::create(&tmp).map_err(io("create", &tmp))?;
        f.write_all(self.encode().as_bytes())
            .map_err(io("write", &tmp))?;
        f.sync_data().map_err(io("fdatasync", &tmp))?;
        drop(f);
        fs::rename(&tmp, &path).map_err(io("rename", &path))?;
        fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io("fsync", dir))?;
        Ok(())
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
            "membership {}",
            fmt_log_id(self.membership.log_id().as_ref())
        ));
        for c in self.membership.membership().get_joint_config() {
            s.push_str(" voters=");
            s.push_str(&join(c.iter()));
        }
        let learners: Vec<NodeId> = self.membership.membership().learner_ids().collect();
        s.push_str(" learners=");
        s.push_str(&join(learners.iter()));
        s.push('\n');
        s.push_str(&format!("first {} {}\n", self.first.0, self.first.1));
        for (t, i, o) in &self.epochs {
            s.push_str(&format!("epoch {t} {i} {o}\n"));
        }
        s.push_str(&format!("purged {}\n", fmt_log_id(self.purged.as_ref())));
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
                    let mut configs = Vec::new();
                    let mut nodes = BTreeSet::new();
                    for f in w {
                        if let Some(v) = f.strip_prefix("voters=") {
                            let set = parse_ids(v)?;
                            nodes.extend(set.iter().copied());
                            configs.push(set);
                        } else if let Some(v) = f.strip_prefix("learners=") {
                            nodes.extend(parse_ids(v)?);
                        }
                    }
                    let membership = if configs.is_empty() && nodes.is_empty() {
                        GroupMembership::default()
                    } else {
                        GroupMembership::new(configs, nodes).map_err(|e| e.to_string())?
                    };
                    m.membership = StoredMembership::new(id, membership);
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
        let s = m.encode();
        assert_eq!(Meta::decode(&s).unwrap(), m);
        assert!(
            Meta::decode(&s[..s.len() - 4]).is_err(),
            "truncated file refused"
        );
    }
}
