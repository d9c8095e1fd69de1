//! The binary form of a group membership on the wire (an AppendEntries
//! entry that changes the voters). The partition log no longer stores
//! memberships (they live in `raft-state`, as text), so this codec is the
//! transport's own.

use bytes::{BufMut, Bytes, BytesMut};
use std::collections::BTreeSet;

use crate::error::Error;
use crate::types::{GroupMembership, NodeId};

const MEMBERSHIP_VERSION: i16 = 0;

/// `[version i16][config count u32]{[voter count u32][voter u64]*}*
/// [learner count u32][learner u64]*`
pub(crate) fn encode_membership(m: &GroupMembership) -> Bytes {
    let mut b = BytesMut::new();
    b.put_i16(MEMBERSHIP_VERSION);
    let configs = m.get_joint_config();
    b.put_u32(configs.len() as u32);
    for c in configs {
        b.put_u32(c.len() as u32);
        for id in c {
            b.put_u64(*id);
        }
    }
    let learners: Vec<NodeId> = m.learner_ids().collect();
    b.put_u32(learners.len() as u32);
    for id in learners {
        b.put_u64(id);
    }
    b.freeze()
}

pub(crate) fn decode_membership(mut v: &[u8]) -> Result<GroupMembership, Error> {
    fn take<const N: usize>(v: &mut &[u8]) -> Result<[u8; N], Error> {
        if v.len() < N {
            return Err(Error::CorruptState("membership record truncated".into()));
        }
        let (a, rest) = v.split_at(N);
        *v = rest;
        Ok(a.try_into().expect("N bytes"))
    }
    let version = i16::from_be_bytes(take::<2>(&mut v)?);
    if version != MEMBERSHIP_VERSION {
        return Err(Error::CorruptState(format!(
            "membership record version {version}"
        )));
    }
    let n = u32::from_be_bytes(take::<4>(&mut v)?) as usize;
    // Every count is checked against the bytes left before anything is
    // reserved (invariant 5).
    if n > v.len() / 4 {
        return Err(Error::CorruptState("membership config count".into()));
    }
    let mut configs = Vec::with_capacity(n);
    for _ in 0..n {
        let k = u32::from_be_bytes(take::<4>(&mut v)?) as usize;
        if k > v.len() / 8 {
            return Err(Error::CorruptState("membership voter count".into()));
        }
        let mut set = BTreeSet::new();
        for _ in 0..k {
            set.insert(u64::from_be_bytes(take::<8>(&mut v)?));
        }
        configs.push(set);
    }
    let k = u32::from_be_bytes(take::<4>(&mut v)?) as usize;
    if k > v.len() / 8 {
        return Err(Error::CorruptState("membership learner count".into()));
    }
    let mut nodes: BTreeSet<NodeId> = configs.iter().flatten().copied().collect();
    for _ in 0..k {
        nodes.insert(u64::from_be_bytes(take::<8>(&mut v)?));
    }
    GroupMembership::new(configs, nodes)
        .map_err(|e| Error::CorruptState(format!("membership: {e}")))
}
