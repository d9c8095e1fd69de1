//! ShareFetch and ShareAcknowledge (KIP-932): a share consumer's reads and
//! acknowledgements. The share session lives on this connection's shard
//! ([`crate::share::session`]); each partition's acquisitions and
//! acknowledgements run on the shard owning it ([`crate::share::leader`]).
//! Acknowledgements in a request are applied (and durable) before its
//! fetch, so records a member releases can come back in the same answer.

use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use kafka_protocol::generated::share_acknowledge_response::{
    LeaderIdAndEpoch as AckLeader, PartitionData as AckPartitionData, ShareAcknowledgeTopicResponse,
};
use kafka_protocol::generated::share_fetch_response::{
    AcquiredRecords, LeaderIdAndEpoch, PartitionData, ShareFetchableTopicResponse,
};
use kafka_protocol::generated::{
    ShareAcknowledgeRequest, ShareAcknowledgeResponse, ShareFetchRequest, ShareFetchResponse,
};
use uuid::Uuid;

use crate::acl::{Authz, op};
use crate::shard::{Shard, owner_shard};
use crate::share::leader::{self, AckBatch, Fetched};
use crate::share::records::ShareKey;
use crate::share::session::{self, Opened};

/// Longest a share fetch waits, whatever the client asks.
const MAX_WAIT: Duration = Duration::from_secs(30);
/// Least time a fetch gives a share-partition to start (a fetch with no
/// wait still lets a quick state read finish).
const MIN_LOAD_WAIT: Duration = Duration::from_millis(100);
/// A waiting fetch looks again at least this often (lock expiries and
/// held-back records become available without new data).
const RECHECK: Duration = Duration::from_millis(100);

/// One partition's outcome: the acknowledgement's and the fetch's.
#[derive(Default)]
struct Outcome {
    ack: Option<(ErrorCode, String)>,
    fetch_error: Option<(ErrorCode, String)>,
    fetched: Option<Fetched>,
}

fn top_error(code: ErrorCode, message: &str) -> ShareFetchResponse {
    ShareFetchResponse {
        error_code: code.code(),
        error_message: Some(message.to_string()),
        ..Default::default()
    }
}

fn idle_limit(shard: &Shard, group: &str) -> Duration {
    let ms = crate::group_config::get_i64(&shard.metadata(), group, "share.session.timeout.ms");
    Duration::from_millis(ms.max(1) as u64)
}

/// Acknowledges one partition on its owner shard.
async fn ack_partition(
    shard: &Rc<Shard>,
    key: ShareKey,
    member: String,
    batches: Vec<AckBatch>,
) -> Result<(), (ErrorCode, String)> {
    let owner = owner_shard(key.topic_id, key.partition, shard.shard_count());
    shard
        .submit_to(owner, move |s| async move {
            leader::acknowledge(&s, key, member, batches).await
        })
        .await
        .unwrap_or(Err((ErrorCode::NotLeaderOrFollower, "shard gone".into())))
}

/// Checks a partition named by a request: known topic, partition in range,
/// the requester may read it.
fn check_partition(
    shard: &Shard,
    authz: &Authz<'_>,
    topic_id: Uuid,
    partition: i32,
) -> Result<(), (ErrorCode, String)> {
    let meta = shard.metadata();
    let Some(t) = meta.topic_by_id(&topic_id) else {
        return Err((ErrorCode::UnknownTopicId, "unknown topic id".into()));
    };
    if !authz.topic(op::READ, &t.name) {
        return Err((
            ErrorCode::TopicAuthorizationFailed,
            "Topic authorization failed.".into(),
        ));
    }
    if partition < 0 || partition >= t.partitions {
        return Err((
            ErrorCode::UnknownTopicOrPartition,
            "unknown partition".into(),
        ));
    }
    Ok(())
}

fn to_batches(batches: impl IntoIterator<Item = (i64, i64, Vec<i8>)>) -> Vec<AckBatch> {
    batches
        .into_iter()
        .map(|(first_offset, last_offset, types)| AckBatch {
            first_offset,
            last_offset,
            types,
        })
        .collect()
}

pub async fn share_fetch(
    shard: &Rc<Shard>,
    req: ShareFetchRequest,
    _version: i16,
    authz: &Authz<'_>,
) -> ShareFetchResponse {
    let Some(group) = req.group_id.clone().filter(|g| !g.is_empty()) else {
        return top_error(ErrorCode::InvalidRequest, "GroupId can't be empty.");
    };
    let Some(member) = req.member_id.clone().filter(|m| !m.is_empty()) else {
        return top_error(ErrorCode::InvalidRequest, "MemberId can't be empty.");
    };
    if !authz.group(op::READ, &group) {
        return top_error(
            ErrorCode::GroupAuthorizationFailed,
            "Group authorization failed.",
        );
    }
    let has_acks = req.topics.iter().any(|t| {
        t.partitions
            .iter()
            .any(|p| !p.acknowledgement_batches.is_empty())
    });
    if req.share_session_epoch == 0 && has_acks {
        return top_error(
            ErrorCode::InvalidRequest,
            "Acknowledge data present on initial epoch.",
        );
    }
    // Requested partitions, merged (a topic may be listed twice).
    let mut requested: BTreeMap<(Uuid, i32), Vec<AckBatch>> = BTreeMap::new();
    let mut order: Vec<(Uuid, i32)> = Vec::new();
    for t in &req.topics {
        for p in &t.partitions {
            let k = (t.topic_id, p.partition_index);
            if !requested.contains_key(&k) {
                order.push(k);
            }
            requested.entry(k).or_default().extend(to_batches(
                p.acknowledgement_batches
                    .iter()
                    .map(|b| (b.first_offset, b.last_offset, b.acknowledge_types.clone())),
            ));
        }
    }
    let forget: Vec<(Uuid, i32)> = req
        .forgotten_topics_data
        .iter()
        .flat_map(|t| t.partitions.iter().map(move |p| (t.topic_id, *p)))
        .collect();
    let mut outcomes: BTreeMap<(Uuid, i32), Outcome> = BTreeMap::new();
    // Partitions the requester may not read never enter the session.
    let mut add = Vec::new();
    for k in &order {
        match check_partition(shard, authz, k.0, k.1) {
            Ok(()) => add.push(*k),
            Err(e) => {
                outcomes.entry(*k).or_default().fetch_error = Some(e);
            }
        }
    }
    let opened = match session::open(
        &group,
        &member,
        req.share_session_epoch,
        &add,
        &forget,
        idle_limit(shard, &group),
    ) {
        Ok(o) => o,
        Err(code) => {
            tracing::debug!(%group, %member, ?code, epoch = req.share_session_epoch, "share session refused");
            return top_error(code, code.message());
        }
    };
    // Acknowledgements first.
    let mut acks = Vec::new();
    for (k, batches) in &requested {
        if batches.is_empty() || outcomes.get(k).is_some_and(|o| o.fetch_error.is_some()) {
            continue;
        }
        let key = ShareKey {
            group_id: group.clone(),
            topic_id: k.0,
            partition: k.1,
        };
        let k = *k;
        let fut = ack_partition(shard, key, member.clone(), batches.clone());
        acks.push(async move { (k, fut.await) });
    }
    for (k, r) in futures_util::future::join_all(acks).await {
        outcomes.entry(k).or_default().ack = Some(match r {
            Ok(()) => (ErrorCode::None, String::new()),
            Err(e) => e,
        });
    }
    match &opened {
        Opened::New {
            replaced: Some(old),
        } => release(shard, &group, &member, old.clone()).await,
        Opened::Closed { partitions } => {
            release(shard, &group, &member, partitions.clone()).await;
        }
        _ => {}
    }
    let lock_ms =
        crate::group_config::get_i64(&shard.metadata(), &group, "share.record.lock.duration.ms");
    if !matches!(opened, Opened::Closed { .. }) && req.max_records != 0 {
        let parts = session::partitions(&group, &member);
        let new_session = matches!(opened, Opened::New { .. });
        fetch_all(
            shard,
            &group,
            &member,
            &req,
            &parts,
            new_session,
            &mut outcomes,
        )
        .await;
    }
    let mut resp = ShareFetchResponse {
        acquisition_lock_timeout_ms: lock_ms.clamp(0, i64::from(i32::MAX)) as i32,
        ..Default::default()
    };
    for (k, o) in outcomes {
        let (code, msg) = o.fetch_error.unwrap_or((ErrorCode::None, String::new()));
        let (ack_code, ack_msg) = o.ack.unwrap_or((ErrorCode::None, String::new()));
        let fetched = o.fetched.unwrap_or_default();
        let code = fetched.error.unwrap_or(code);
        if code != ErrorCode::None || ack_code != ErrorCode::None {
            tracing::debug!(%group, %member, partition = k.1, ?code, ?ack_code, epoch = req.share_session_epoch, "share fetch partition error");
        }
        let records = match fetched.batches.len() {
            0 => None,
            1 => fetched.batches.into_iter().next(),
            _ => {
                let mut v = Vec::with_capacity(fetched.batches.iter().map(|b| b.len()).sum());
                for b in &fetched.batches {
                    v.extend_from_slice(b);
                }
                Some(Bytes::from(v))
            }
        };
        let pd = PartitionData {
            partition_index: k.1,
            error_code: code.code(),
            error_message: (code != ErrorCode::None).then(|| {
                if msg.is_empty() {
                    code.message().to_string()
                } else {
                    msg
                }
            }),
            acknowledge_error_code: ack_code.code(),
            acknowledge_error_message: (ack_code != ErrorCode::None).then_some(ack_msg),
            current_leader: LeaderIdAndEpoch {
                leader_id: leader_id(shard, k),
                leader_epoch: shard.leader_epoch(&k),
                ..Default::default()
            },
            records: Some(records.unwrap_or_default()),
            acquired_records: fetched
                .acquired
                .iter()
                .map(|a| AcquiredRecords {
                    first_offset: a.first_offset,
                    last_offset: a.last_offset,
                    delivery_count: a.delivery_count.min(i16::MAX as u16) as i16,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        match resp.responses.last_mut().filter(|t| t.topic_id == k.0) {
            Some(t) => t.partitions.push(pd),
            None => resp.responses.push(ShareFetchableTopicResponse {
                topic_id: k.0,
                partitions: vec![pd],
                ..Default::default()
            }),
        }
    }
    resp
}

fn leader_id(shard: &Shard, k: (Uuid, i32)) -> i32 {
    if shard.is_cluster() {
        shard.leader_of(&k)
    } else {
        shard.ctx.config.node_id
    }
}

/// Releases what `member` holds on `partitions` (its session closed or
/// was replaced).
async fn release(shard: &Rc<Shard>, group: &str, member: &str, partitions: Vec<(Uuid, i32)>) {
    let mut by_owner: BTreeMap<usize, Vec<(Uuid, i32)>> = BTreeMap::new();
    for k in partitions {
        by_owner
            .entry(owner_shard(k.0, k.1, shard.shard_count()))
            .or_default()
            .push(k);
    }
    for (owner, parts) in by_owner {
        let (g, m) = (group.to_string(), member.to_string());
        let _ = shard
            .submit_to(owner, move |s| async move {
                leader::release_member(&s, &g, &m, &parts).await
            })
            .await;
    }
}

/// Acquires records for the member from its session's partitions, waiting
/// (up to MaxWaitMs) until there are some.
async fn fetch_all(
    shard: &Rc<Shard>,
    group: &str,
    member: &str,
    req: &ShareFetchRequest,
    parts: &[(Uuid, i32)],
    mut new_session: bool,
    outcomes: &mut BTreeMap<(Uuid, i32), Outcome>,
) {
    let wait = Duration::from_millis(req.max_wait_ms.max(0) as u64).min(MAX_WAIT);
    let deadline = Instant::now() + wait;
    let max_records = if req.max_records > 0 {
        req.max_records as usize
    } else {
        500
    };
    let max_bytes = req.max_bytes.max(1) as usize;
    // ShareAcquireMode (v2): 0 batch-optimized, 1 record-limit.
    let whole_batches = req.share_acquire_mode != 1;
    loop {
        let mut reads = Vec::new();
        for &k in parts {
            let key = ShareKey {
                group_id: group.to_string(),
                topic_id: k.0,
                partition: k.1,
            };
            let owner = owner_shard(k.0, k.1, shard.shard_count());
            let member = member.to_string();
            // A share-partition still starting may take the whole wait.
            let load_wait = deadline
                .saturating_duration_since(Instant::now())
                .max(MIN_LOAD_WAIT);
            let fut = shard.submit_to(owner, move |s| async move {
                let ask = leader::FetchAsk {
                    max_records,
                    whole_batches,
                    max_bytes,
                    new_session,
                    load_wait,
                };
                leader::fetch(&s, key, Rc::from(member.as_str()), ask).await
            });
            reads.push(async move { (k, fut.await) });
        }
        let results = futures_util::future::join_all(reads).await;
        new_session = false;
        let mut got = false;
        let mut records_left = max_records;
        for (k, r) in results {
            let f = r.unwrap_or_else(|_| Fetched {
                error: Some(ErrorCode::NotLeaderOrFollower),
                ..Default::default()
            });
            if f.error.is_some() || !f.acquired.is_empty() {
                got = true;
            }
            let n: i64 = f
                .acquired
                .iter()
                .map(|a| a.last_offset - a.first_offset + 1)
                .sum();
            records_left = records_left.saturating_sub(n.max(0) as usize);
            outcomes.entry(k).or_default().fetched = Some(f);
        }
        let _ = records_left;
        if got || parts.is_empty() || Instant::now() >= deadline || shard.is_stopping() {
            return;
        }
        // Wait for new data on any partition, records becoming available,
        // or the recheck interval.
        let left = deadline
            .saturating_duration_since(Instant::now())
            .min(RECHECK);
        let waits: Vec<_> = parts
            .iter()
            .map(|&k| {
                let owner = owner_shard(k.0, k.1, shard.shard_count());
                Box::pin(shard.submit_to(owner, move |s| async move {
                    let Some(p) = s.partition(&k) else { return };
                    let avail = leader::available();
                    monoio::select! {
                        _ = monoio::time::timeout(left, p.new_data.notified()) => {}
                        _ = avail.notified() => {}
                    }
                }))
            })
            .collect();
        monoio::select! {
            _ = futures_util::future::select_all(waits) => {},
            _ = shard.stopping() => {},
        }
    }
}

pub async fn share_acknowledge(
    shard: &Rc<Shard>,
    req: ShareAcknowledgeRequest,
    _version: i16,
    authz: &Authz<'_>,
) -> ShareAcknowledgeResponse {
    let err = |code: ErrorCode, message: &str| ShareAcknowledgeResponse {
        error_code: code.code(),
        error_message: Some(message.to_string()),
        ..Default::default()
    };
    let Some(group) = req.group_id.clone().filter(|g| !g.is_empty()) else {
        return err(ErrorCode::InvalidRequest, "GroupId can't be empty.");
    };
    let Some(member) = req.member_id.clone().filter(|m| !m.is_empty()) else {
        return err(ErrorCode::InvalidRequest, "MemberId can't be empty.");
    };
    if !authz.group(op::READ, &group) {
        return err(
            ErrorCode::GroupAuthorizationFailed,
            "Group authorization failed.",
        );
    }
    if req.share_session_epoch == 0 {
        return err(
            ErrorCode::InvalidShareSessionEpoch,
            "ShareAcknowledge cannot open a share session.",
        );
    }
    let opened = match session::open(
        &group,
        &member,
        req.share_session_epoch,
        &[],
        &[],
        idle_limit(shard, &group),
    ) {
        Ok(o) => o,
        Err(code) => return err(code, code.message()),
    };
    let mut requested: BTreeMap<(Uuid, i32), Vec<AckBatch>> = BTreeMap::new();
    for t in &req.topics {
        for p in &t.partitions {
            requested
                .entry((t.topic_id, p.partition_index))
                .or_default()
                .extend(to_batches(p.acknowledgement_batches.iter().map(|b| {
                    (b.first_offset, b.last_offset, b.acknowledge_types.clone())
                })));
        }
    }
    let mut futs = Vec::new();
    let mut results: BTreeMap<(Uuid, i32), (ErrorCode, String)> = BTreeMap::new();
    for (k, batches) in requested {
        if let Err(e) = check_partition(shard, authz, k.0, k.1) {
            results.insert(k, e);
            continue;
        }
        let key = ShareKey {
            group_id: group.clone(),
            topic_id: k.0,
            partition: k.1,
        };
        let fut = ack_partition(shard, key, member.clone(), batches);
        futs.push(async move { (k, fut.await) });
    }
    for (k, r) in futures_util::future::join_all(futs).await {
        results.insert(
            k,
            match r {
                Ok(()) => (ErrorCode::None, String::new()),
                Err(e) => e,
            },
        );
    }
    if let Opened::Closed { partitions } = opened {
        release(shard, &group, &member, partitions).await;
    }
    let lock_ms =
        crate::group_config::get_i64(&shard.metadata(), &group, "share.record.lock.duration.ms");
    let mut resp = ShareAcknowledgeResponse {
        acquisition_lock_timeout_ms: lock_ms.clamp(0, i64::from(i32::MAX)) as i32,
        ..Default::default()
    };
    for (k, (code, msg)) in results {
        let pd = AckPartitionData {
            partition_index: k.1,
            error_code: code.code(),
            error_message: (code != ErrorCode::None).then_some(msg),
            current_leader: AckLeader {
                leader_id: leader_id(shard, k),
                leader_epoch: shard.leader_epoch(&k),
                ..Default::default()
            },
            ..Default::default()
        };
        match resp.responses.last_mut().filter(|t| t.topic_id == k.0) {
            Some(t) => t.partitions.push(pd),
            None => resp.responses.push(ShareAcknowledgeTopicResponse {
                topic_id: k.0,
                partitions: vec![pd],
                ..Default::default()
            }),
        }
    }
    resp
}
