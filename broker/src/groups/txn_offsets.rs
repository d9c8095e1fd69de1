//! Offsets committed inside a transaction (TxnOffsetCommit), as Kafka's
//! group coordinator keeps them: written to the group's
//! `__consumer_offsets` partition at once, as a transactional batch of the
//! producer (so the partition's last stable offset holds back until the
//! transaction ends), kept aside per producer id, and applied to the group
//! only when the commit marker reaches that partition (dropped on abort).
//! Until then OffsetFetch answers the previous offset, or
//! UNSTABLE_OFFSET_COMMIT when the client asked `require_stable`.
//!
//! Ordering: a pending offset is applied with the log offset of its own
//! record, so a plain commit written after it (and applied first) is not
//! overwritten when the transaction commits, and one written before it is
//! (Kafka's `completePendingTxnOffsetCommit`).

use std::rc::Rc;
use std::time::Duration;

use kafka_protocol::ErrorCode;
use kafka_protocol::records::{NewRecord, RecordBatchBuilder};

use super::records::{self, OffsetValue};
use super::{Route, coordinator};
use crate::groups::group::Group;
use crate::partition::now_ms;
use crate::shard::Shard;

/// One offset awaiting its transaction's end.
#[derive(Debug, Clone)]
pub struct PendingOffset {
    /// The `__consumer_offsets` partition holding its record.
    pub partition: i32,
    pub group: String,
    pub topic: String,
    pub topic_partition: i32,
    pub value: OffsetValue,
    /// Where its record is in the log.
    pub log_offset: i64,
}

/// Who commits, as TxnOffsetCommit names it.
pub struct TxnCommitter {
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub member_id: String,
    pub generation: i32,
}

/// Kafka's group checks of a transactional commit: a named member must
/// be in the group and a given generation (or KIP-848 member epoch) must
/// be its current one; without either, any group accepts it.
fn validate(group_id: &str, who: &TxnCommitter) -> Result<(), ErrorCode> {
    let c = coordinator();
    let c = c.borrow();
    let classic = c.groups.get(group_id).filter(|g| !g.members.is_empty());
    if let Some(g) = classic {
        if !who.member_id.is_empty() && g.member(&who.member_id).is_none() {
            return Err(ErrorCode::UnknownMemberId);
        }
        if who.generation >= 0 && who.generation != g.generation {
            return Err(ErrorCode::IllegalGeneration);
        }
        return Ok(());
    }
    if let Some(cg) = c.consumer_groups.get(group_id) {
        if !who.member_id.is_empty() {
            let m = cg
                .members
                .get(&who.member_id)
                .ok_or(ErrorCode::UnknownMemberId)?;
            if who.generation >= 0 && who.generation != m.epoch {
                return Err(ErrorCode::IllegalGeneration);
            }
        }
        return Ok(());
    }
    if !who.member_id.is_empty() {
        return Err(ErrorCode::UnknownMemberId);
    }
    Ok(())
}

/// On the group's owner shard: writes the offsets as the producer's
/// transactional batch and keeps them pending.
pub async fn commit(
    s: &Rc<Shard>,
    route: Route,
    group_id: String,
    who: TxnCommitter,
    items: Vec<(String, i32, OffsetValue)>,
) -> Result<(), ErrorCode> {
    validate(&group_id, &who)?;
    let part = s
        .partition(&(route.topic_id, route.partition))
        .ok_or(ErrorCode::NotCoordinator)?;
    let now = now_ms();
    let mut b = RecordBatchBuilder::new()
        .producer(who.producer_id, who.producer_epoch, 0)
        .transactional(true);
    for (t, p, v) in &items {
        b.push(NewRecord {
            key: Some(records::offset_key(&group_id, t, *p)),
            value: Some(records::offset_value(v)),
            headers: Vec::new(),
            timestamp: now,
        });
    }
    let batch = b.build().map_err(|e| {
        tracing::error!(error = %e, "cannot build a transactional offsets batch");
        ErrorCode::UnknownServerError
    })?;
    let info = part
        .append_coordinator(batch, Duration::from_secs(30))
        .await
        .map_err(|e| match e.code {
            ErrorCode::InvalidProducerEpoch | ErrorCode::ProducerFenced => e.code,
            ErrorCode::MessageTooLarge | ErrorCode::RecordListTooLarge => {
                ErrorCode::InvalidCommitOffsetSize
            }
            ErrorCode::NotLeaderOrFollower => ErrorCode::NotCoordinator,
            _ => ErrorCode::CoordinatorNotAvailable,
        })?;
    let c = coordinator();
    let mut c = c.borrow_mut();
    let pending = c.pending_txn_offsets.entry(who.producer_id).or_default();
    for (i, (topic, topic_partition, value)) in items.into_iter().enumerate() {
        pending.push(PendingOffset {
            partition: route.partition,
            group: group_id.clone(),
            topic,
            topic_partition,
            value,
            log_offset: info.base_offset + i as i64,
        });
    }
    Ok(())
}

/// Applies (commit) or drops (abort) the offsets producer `pid` committed
/// in `__consumer_offsets` partition `partition`: its marker there is
/// durable. Runs on that partition's owner shard.
pub fn complete(partition: i32, pid: i64, commit: bool, delay: Duration) {
    let c = coordinator();
    let mut c = c.borrow_mut();
    let Some(all) = c.pending_txn_offsets.remove(&pid) else {
        return;
    };
    let (settled, rest): (Vec<_>, Vec<_>) = all.into_iter().partition(|o| o.partition == partition);
    if !rest.is_empty() {
        c.pending_txn_offsets.insert(pid, rest);
    }
    if !commit {
        return;
    }
    for o in settled {
        c.groups
            .entry(o.group.clone())
            .or_insert_with(|| Group::new(o.group.clone(), delay))
            .apply_offset(o.topic, o.topic_partition, Some(o.value), o.log_offset);
    }
}

/// Whether a transaction's offset for the group's partition is pending
/// (OffsetFetch with `require_stable`).
pub fn is_pending(group: &str, topic: &str, partition: i32) -> bool {
    coordinator()
        .borrow()
        .pending_txn_offsets
        .values()
        .flatten()
        .any(|o| o.group == group && o.topic == topic && o.topic_partition == partition)
}

/// Forgets the pending offsets of `__consumer_offsets` partition
/// `partition` (this broker no longer leads it).
pub fn unload(partition: i32) {
    let c = coordinator();
    let mut c = c.borrow_mut();
    for v in c.pending_txn_offsets.values_mut() {
        v.retain(|o| o.partition != partition);
    }
    c.pending_txn_offsets.retain(|_, v| !v.is_empty());
}
