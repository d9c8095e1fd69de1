//! Fetch: read committed batches from each partition's owner shard, long
//! poll (up to `max_wait_ms`) until `min_bytes` are there, honour the
//! response and partition byte limits, and keep incremental fetch sessions.
//!
//! Follower fetching (KIP-392), as Kafka's `ReplicaManager`: a consumer
//! fetch of v11+ (which carries the client's rack) is served by any
//! replica, a follower reading up to its own high watermark; older ones
//! only by the leader. With `replica.selector.class` set to the rack-aware
//! selector, the leader answers a consumer in another replica's rack with
//! that replica as `preferred_read_replica`, no records, and at once.

use std::rc::Rc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use kafka_protocol::generated::fetch_response::{
    AbortedTransaction, FetchableTopicResponse, PartitionData,
};
use kafka_protocol::generated::{FetchRequest, FetchResponse};
use kafka_protocol::records::RecordBatch;
use tidemark_storage::AbortedTxn;
use uuid::Uuid;

use crate::cluster::read_replica::{ClientSite, preferred_read_replica};
use crate::fetch_session::{Session, SessionPartition};
use crate::shard::{Shard, owner_shard};

/// Longest a fetch may wait, whatever the client asks.
const MAX_WAIT: Duration = Duration::from_secs(30);

/// What one partition's owner reports back.
#[derive(Debug, Clone, Default)]
struct PartRead {
    error: Option<ErrorCode>,
    hw: i64,
    /// The last stable offset (-1 on error).
    lso: i64,
    log_start: i64,
    /// Whole batches from the fetch offset, in order.
    batches: Vec<Bytes>,
    /// read_committed: the aborted transactions meeting the data read.
    aborted: Vec<AbortedTxn>,
    /// KIP-392: the replica the consumer should read from instead (-1:
    /// none; then nothing was read).
    preferred: i32,
    /// Served by a follower (for the metrics).
    by_follower: bool,
}

impl PartRead {
    fn failed(code: ErrorCode) -> Self {
        PartRead {
            error: Some(code),
            hw: -1,
            lso: -1,
            log_start: -1,
            batches: Vec::new(),
            aborted: Vec::new(),
            preferred: -1,
            by_follower: false,
        }
    }
}

/// The offset after the last of `batches` (each one whole batch).
fn end_of(batches: &[Bytes]) -> Option<i64> {
    let last = batches.last()?;
    RecordBatch::new(last.clone()).ok().map(|b| b.next_offset())
}

/// A partition this fetch reads, resolved against the metadata.
struct Target {
    sp: SessionPartition,
    /// `None` when the topic or partition is unknown (the error to report).
    key: Result<(Uuid, i32), ErrorCode>,
}

/// Who asks, for the replica checks: `site` is set for Fetch v11+ (the
/// consumer's rack and listener), which followers serve as well.
/// Shared by the partition reads of one request (an `Arc`: each read
/// travels to its owner shard's thread).
#[derive(Clone)]
struct Asker {
    site: Option<std::sync::Arc<ClientSite>>,
}

/// Reads one partition on its owner shard: up to the high watermark, or
/// for read_committed up to the last stable offset (Kafka's upper bound
/// for that isolation level), with the aborted transactions meeting what
/// was read. On a follower only for a v11+ fetch, up to the follower's own
/// high watermark; on a leader with the rack-aware selector, possibly
/// nothing but the preferred read replica.
async fn read_partition(
    shard: &Rc<Shard>,
    key: (Uuid, i32),
    offset: i64,
    max_bytes: usize,
    leader_epoch: i32,
    read_committed: bool,
    asker: Asker,
) -> PartRead {
    let owner = owner_shard(key.0, key.1, shard.shard_count());
    let r = shard
        .submit_to(owner, move |s| async move {
            let Some(p) = s.partition(&key) else {
                return PartRead::failed(ErrorCode::NotLeaderOrFollower);
            };
            let leads = !s.is_cluster() || p.is_leader();
            if !leads && asker.site.is_none() {
                return PartRead::failed(ErrorCode::NotLeaderOrFollower);
            }
            let mut out = PartRead {
                error: None,
                hw: p.high_watermark(),
                lso: p.last_stable_offset(),
                log_start: p.log.log_start_offset(),
                batches: Vec::new(),
                aborted: Vec::new(),
                preferred: -1,
                by_follower: !leads,
            };
            if leader_epoch >= 0 && leader_epoch != p.leader_epoch() {
                out.error = Some(if leader_epoch > p.leader_epoch() {
                    ErrorCode::UnknownLeaderEpoch
                } else {
                    ErrorCode::FencedLeaderEpoch
                });
                return out;
            }
            if offset < out.log_start || offset > p.log.log_end_offset() {
                out.error = Some(ErrorCode::OffsetOutOfRange);
                return out;
            }
            if leads
                && s.is_cluster()
                && s.ctx.config.rack_aware_reads
                && let Some(site) = &asker.site
                && let Some(id) =
                    preferred_read_replica(&s.metadata(), s.ctx.config.node_id, &p, offset, site)
            {
                out.preferred = id;
                return out;
            }
            let upper = if read_committed { out.lso } else { out.hw };
            if offset >= upper {
                return out;
            }
            match p.read_until(offset, max_bytes.max(1), upper).await {
                Ok(r) => out.batches = r.batches,
                Err(e) => out.error = Some(crate::partition::storage_error_code(&e)),
            }
            if read_committed && let Some(end) = end_of(&out.batches) {
                out.aborted = p.aborted_transactions(offset, end);
            }
            out
        })
        .await;
    r.unwrap_or(PartRead::failed(ErrorCode::NotLeaderOrFollower))
}

/// Waits on the owner shard until the partition's high watermark (for
/// read_committed: its last stable offset, which moves only when the high
/// watermark does, so the same wake-ups serve) passes `known` (what the
/// last read saw), the deadline comes, or the broker begins to shut down.
async fn wait_for_data(
    shard: &Rc<Shard>,
    key: (Uuid, i32),
    known: i64,
    deadline: Instant,
    read_committed: bool,
) {
    let owner = owner_shard(key.0, key.1, shard.shard_count());
    let _ = shard
        .submit_to(owner, move |s| async move {
            let Some(p) = s.partition(&key) else { return };
            let visible = || {
                if read_committed {
                    p.last_stable_offset()
                } else {
                    p.high_watermark()
                }
            };
            loop {
                let notified = p.new_data.notified();
                if visible() > known || Instant::now() >= deadline || s.is_stopping() {
                    return;
                }
                let left = deadline.saturating_duration_since(Instant::now());
                monoio::select! {
                    r = monoio::time::timeout(left, notified) => if r.is_err() { return },
                    _ = s.stopping() => return,
                }
            }
        })
        .await;
}

pub async fn handle(
    shard: &Rc<Shard>,
    req: FetchRequest,
    version: i16,
    listener: &str,
    authz: &crate::acl::Authz<'_>,
) -> FetchResponse {
    let meta = shard.metadata();
    // Fetch v11+ carries the client's rack: Kafka's "client metadata",
    // with which followers serve the fetch too.
    let asker = Asker {
        site: (version >= 11).then(|| {
            std::sync::Arc::new(ClientSite {
                rack: req.rack_id.clone(),
                listener: listener.to_string(),
            })
        }),
    };
    let by_id = version >= 13;
    let read_committed = req.isolation_level == 1;
    let to_sp =
        |topic: &str,
         topic_id: Uuid,
         p: &kafka_protocol::generated::fetch_request::FetchPartition| SessionPartition {
            topic: topic.to_string(),
            topic_id,
            partition: p.partition,
            fetch_offset: p.fetch_offset,
            max_bytes: p.partition_max_bytes,
            current_leader_epoch: p.current_leader_epoch,
            last_hw: -1,
            last_lso: -1,
            last_log_start: -1,
        };
    let requested: Vec<SessionPartition> = req
        .topics
        .iter()
        .flat_map(|t| t.partitions.iter().map(move |p| (t, p)))
        .map(|(t, p)| {
            let name = if by_id {
                meta.topic_by_id(&t.topic_id)
                    .map(|m| m.name.clone())
                    .unwrap_or_default()
            } else {
                t.topic.clone()
            };
            to_sp(&name, t.topic_id, p)
        })
        .collect();

    // Sessions (v7+): decide the partitions to read and whether to answer
    // incrementally.
    let mut resp = FetchResponse::default();
    let mut session: Option<(i32, Session)> = None;
    let mut incremental = false;
    let parts: Vec<SessionPartition> = if req.session_id == 0 {
        if req.session_epoch == 0 && version >= 7 {
            session = Some((0, Session::new(requested.clone())));
        }
        requested
    } else {
        let mut sessions = shard.fetch_sessions.borrow_mut();
        match req.session_epoch {
            -1 => {
                sessions.remove(req.session_id);
                requested
            }
            0 => {
                sessions.remove(req.session_id);
                session = Some((0, Session::new(requested.clone())));
                requested
            }
            epoch => match sessions.take(req.session_id) {
                None => {
                    resp.error_code = ErrorCode::FetchSessionIdNotFound.code();
                    return resp;
                }
                Some(s) if s.next_epoch != epoch => {
                    sessions.put_back(req.session_id, s);
                    resp.error_code = ErrorCode::InvalidFetchSessionEpoch.code();
                    return resp;
                }
                Some(mut s) => {
                    for sp in requested {
                        s.upsert(sp);
                    }
                    for f in &req.forgotten_topics_data {
                        let name = if by_id {
                            meta.topic_by_id(&f.topic_id)
                                .map(|m| m.name.clone())
                                .unwrap_or_default()
                        } else {
                            f.topic.clone()
                        };
                        for &p in &f.partitions {
                            s.forget(&name, f.topic_id, p);
                        }
                    }
                    incremental = true;
                    let parts = s.partitions.clone();
                    session = Some((req.session_id, s));
                    parts
                }
            },
        }
    };

    let targets: Vec<Target> = parts
        .into_iter()
        .map(|sp| {
            let topic = if by_id {
                meta.topic_by_id(&sp.topic_id)
            } else {
                meta.topic(&sp.topic)
            };
            let read = |name: &str| authz.topic(crate::acl::op::READ, name);
            let key = match topic {
                // READ is checked before existence when asked by name.
                _ if !by_id && !read(&sp.topic) => Err(ErrorCode::TopicAuthorizationFailed),
                Some(t) if !read(&t.name) => Err(ErrorCode::TopicAuthorizationFailed),
                None if by_id => Err(ErrorCode::UnknownTopicId),
                None => Err(ErrorCode::UnknownTopicOrPartition),
                Some(t) if sp.partition < 0 || sp.partition >= t.partitions => {
                    Err(ErrorCode::UnknownTopicOrPartition)
                }
                Some(t) => Ok((t.id, sp.partition)),
            };
            Target { sp, key }
        })
        .collect();

    let wait = Duration::from_millis(req.max_wait_ms.max(0) as u64).min(MAX_WAIT);
    let deadline = Instant::now() + wait;
    // Kafka's bound: the request's max_bytes (v3+) and the broker's
    // `fetch.max.bytes` (read-only); the first batch goes out whole even
    // past it (KIP-74).
    let broker_max = shard.ctx.fetch_max_bytes;
    let max_bytes = if version >= 3 {
        (req.max_bytes.max(0) as usize).min(broker_max)
    } else {
        broker_max
    };
    let min_bytes = req.min_bytes.max(0) as usize;
    let reads = loop {
        let futs = targets.iter().map(|t| async {
            match t.key {
                // Each partition alone is bounded by both limits.
                Ok(key) => {
                    let limit = (t.sp.max_bytes.max(0) as usize).min(max_bytes);
                    read_partition(
                        shard,
                        key,
                        t.sp.fetch_offset,
                        limit,
                        t.sp.current_leader_epoch,
                        read_committed,
                        asker.clone(),
                    )
                    .await
                }
                Err(code) => PartRead::failed(code),
            }
        });
        let mut reads: Vec<PartRead> = futures_util::future::join_all(futs).await;
        // The response byte limit, over partitions in order: whole batches
        // while they fit, except that the first batch of the response is
        // always sent (so a consumer can pass a batch larger than the limit).
        let mut total = 0usize;
        for r in &mut reads {
            let mut kept = 0;
            for b in &r.batches {
                if total > 0 && total + b.len() > max_bytes {
                    break;
                }
                total += b.len();
                kept += 1;
            }
            if kept < r.batches.len() {
                r.batches.truncate(kept);
                // Only the transactions meeting what is still sent.
                match end_of(&r.batches) {
                    Some(end) => r.aborted.retain(|a| a.first_offset < end),
                    None => r.aborted.clear(),
                }
            }
        }
        // A redirection to a preferred replica is answered at once, as an
        // error is (Kafka's `hasPreferredReadReplica`).
        let has_error = reads.iter().any(|r| r.error.is_some() || r.preferred >= 0);
        if total >= min_bytes.max(1)
            || has_error
            || Instant::now() >= deadline
            || shard.is_stopping()
            || targets.is_empty()
        {
            break reads;
        }
        // Long poll: until any partition's high watermark moves past what
        // this read saw, or the deadline, or shutdown.
        let waits: Vec<_> = targets
            .iter()
            .zip(&reads)
            .filter_map(|(t, r)| {
                t.key.ok().map(|k| {
                    let seen = if read_committed { r.lso } else { r.hw };
                    Box::pin(wait_for_data(
                        shard,
                        k,
                        seen.max(t.sp.fetch_offset),
                        deadline,
                        read_committed,
                    ))
                })
            })
            .collect();
        if waits.is_empty() {
            break reads;
        }
        monoio::select! {
            _ = futures_util::future::select_all(waits) => {},
            _ = shard.stopping() => {},
        }
    };

    // Assemble the response, in the order partitions were asked for.
    let mut updated_parts = Vec::with_capacity(targets.len());
    for (t, r) in targets.iter().zip(reads) {
        // Kafka answers the last stable offset at either isolation level.
        let lso = r.lso;
        let records = match r.batches.len() {
            0 => None,
            1 => r.batches.into_iter().next(),
            _ => {
                // Batches from the memory tail are separate buffers; a
                // Fetch response field is one.
                let mut v = Vec::with_capacity(r.batches.iter().map(|b| b.len()).sum());
                for b in &r.batches {
                    v.extend_from_slice(b);
                }
                Some(Bytes::from(v))
            }
        };
        if let Some(b) = records
            .as_ref()
            .filter(|_| shard.ctx.config.metrics_enabled)
        {
            let (n, bytes) = crate::metrics::record::batch_counts(b);
            crate::metrics::record::fetched(&t.sp.topic, n, bytes);
        }
        if shard.ctx.config.metrics_enabled {
            if r.preferred >= 0 {
                crate::metrics::record::read_replica_redirect();
            } else if r.by_follower && r.error.is_none() {
                crate::metrics::record::follower_read();
            }
        }
        let changed = !incremental
            || r.error.is_some()
            || r.preferred >= 0
            || records.is_some()
            || r.hw != t.sp.last_hw
            || lso != t.sp.last_lso
            || r.log_start != t.sp.last_log_start;
        let mut sp = t.sp.clone();
        sp.last_hw = r.hw;
        sp.last_lso = lso;
        sp.last_log_start = r.log_start;
        updated_parts.push(sp);
        if !changed {
            continue;
        }
        let pd = PartitionData {
            partition_index: t.sp.partition,
            error_code: r.error.map(|e| e.code()).unwrap_or(0),
            high_watermark: r.hw,
            last_stable_offset: lso,
            log_start_offset: r.log_start,
            aborted_transactions: if read_committed {
                Some(
                    r.aborted
                        .iter()
                        .map(|a| AbortedTransaction {
                            producer_id: a.producer_id,
                            first_offset: a.first_offset,
                            ..Default::default()
                        })
                        .collect(),
                )
            } else {
                None
            },
            preferred_read_replica: r.preferred,
            records: Some(records.unwrap_or_default()),
            ..Default::default()
        };
        let same_topic = |x: &&mut FetchableTopicResponse| {
            if by_id {
                x.topic_id == t.sp.topic_id
            } else {
                x.topic == t.sp.topic
            }
        };
        match resp.responses.last_mut().filter(|x| same_topic(x)) {
            Some(tr) => tr.partitions.push(pd),
            None => resp.responses.push(FetchableTopicResponse {
                topic: if by_id {
                    String::new()
                } else {
                    t.sp.topic.clone()
                },
                topic_id: if by_id { t.sp.topic_id } else { Uuid::nil() },
                partitions: vec![pd],
                ..Default::default()
            }),
        }
    }

    if let Some((id, mut s)) = session {
        s.partitions = updated_parts;
        s.next_epoch = if id == 0 {
            1
        } else {
            s.next_epoch.wrapping_add(1).max(1)
        };
        let mut sessions = shard.fetch_sessions.borrow_mut();
        resp.session_id = if id == 0 {
            let slots =
                crate::fetch_session::shard_slots(&shard.metadata().settings, shard.shard_count());
            sessions.create(s, shard.id, slots)
        } else {
            sessions.put_back(id, s);
            id
        };
    }
    resp
}
