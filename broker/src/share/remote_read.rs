//! Reads of a partition at its leader, wherever that is, for share
//! groups: the dead-letter fence's read-back ([`super::dlq::scan`]) and
//! the high watermark behind a share-partition's lag when the partition
//! is led by another broker (DescribeShareGroupOffsets). A peer is asked
//! over the node-to-node transport with a one-partition Fetch by topic id
//! ([`crate::cluster::SHARE_READ_GROUP`]), answered by [`serve`].
//!
//! Every read first waits (bounded) for a new leader's high watermark to
//! cover its whole log (an entry of its term commits): what the last
//! leader acknowledged is committed, but a new leader's high watermark
//! may still be below it, and a read-back that stopped there would miss
//! a dead letter.

use std::rc::Rc;
use std::time::Duration;

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use kafka_protocol::Message;
use uuid::Uuid;

use crate::shard::{Shard, owner_shard};

/// The most one read returns.
pub const MAX_READ_BYTES: usize = 1 << 20;
/// How long a read waits for a new leader's high watermark to cover its
/// whole log.
const CAUGHT_UP_WAIT: Duration = Duration::from_secs(5);
/// The Fetch version of reads between brokers (by topic id).
const RPC_VERSION: i16 = 13;

/// One read of a partition.
pub struct Chunk {
    /// Concatenated batches.
    pub records: Bytes,
    pub high_watermark: i64,
    pub log_start_offset: i64,
}

/// The high watermark of `tp` at its leader.
pub async fn high_watermark(
    shard: &Rc<Shard>,
    tp: (Uuid, i32),
) -> Result<i64, (ErrorCode, String)> {
    Ok(read(shard, tp, 0, 0).await?.high_watermark)
}

/// Reads `tp` from `from` (at most `max_bytes`, up to [`MAX_READ_BYTES`];
/// 0: only its offsets), at its leader.
pub async fn read(
    shard: &Rc<Shard>,
    tp: (Uuid, i32),
    from: i64,
    max_bytes: usize,
) -> Result<Chunk, (ErrorCode, String)> {
    let max_bytes = max_bytes.min(MAX_READ_BYTES);
    if shard.is_cluster() {
        let leader = shard.leader_of(&tp);
        if leader < 0 {
            return Err((
                ErrorCode::NotLeaderOrFollower,
                format!("partition {} of topic id {} has no leader", tp.1, tp.0),
            ));
        }
        if leader != shard.ctx.config.node_id {
            return read_peer(shard, leader, tp, from, max_bytes).await;
        }
    }
    let owner = owner_shard(tp.0, tp.1, shard.shard_count());
    shard
        .submit_to(owner, move |s| async move {
            read_here(&s, tp, from, max_bytes).await
        })
        .await
        .unwrap_or(Err(ErrorCode::NotLeaderOrFollower))
        .map_err(|c| {
            (
                c,
                format!("reading partition {} at its leader: {}", tp.1, c.message()),
            )
        })
}

/// [`read`] on the shard owning the partition, on its leader.
async fn read_here(
    s: &Rc<Shard>,
    tp: (Uuid, i32),
    from: i64,
    max_bytes: usize,
) -> Result<Chunk, ErrorCode> {
    let dp = s.led_partition(&tp).ok_or(ErrorCode::NotLeaderOrFollower)?;
    let end = dp.log.log_end_offset();
    let waited = std::time::Instant::now();
    while dp.high_watermark() < end {
        if waited.elapsed() > CAUGHT_UP_WAIT {
            return Err(ErrorCode::OffsetNotAvailable);
        }
        monoio::time::sleep(Duration::from_millis(5)).await;
    }
    let high_watermark = dp.high_watermark();
    let log_start_offset = dp.log.log_start_offset();
    let from = from.max(log_start_offset);
    let mut records = bytes::BytesMut::new();
    if max_bytes > 0 && from < high_watermark {
        let r = dp
            .read(from, max_bytes)
            .await
            .map_err(|e| crate::partition::storage_error_code(&e))?;
        for b in r.batches {
            records.extend_from_slice(&b);
        }
    }
    Ok(Chunk {
        records: records.freeze(),
        high_watermark,
        log_start_offset,
    })
}

/// [`read`] at a peer: a one-partition Fetch by topic id.
async fn read_peer(
    shard: &Rc<Shard>,
    leader: i32,
    tp: (Uuid, i32),
    from: i64,
    max_bytes: usize,
) -> Result<Chunk, (ErrorCode, String)> {
    use kafka_protocol::generated::fetch_request::{FetchPartition, FetchTopic};
    use kafka_protocol::generated::{FetchRequest, FetchResponse};
    let net = shard.net().ok_or((
        ErrorCode::NotLeaderOrFollower,
        "not in cluster mode".to_string(),
    ))?;
    let req = FetchRequest {
        replica_id: -1,
        max_bytes: max_bytes as i32,
        topics: vec![FetchTopic {
            topic_id: tp.0,
            partitions: vec![FetchPartition {
                partition: tp.1,
                fetch_offset: from,
                partition_max_bytes: max_bytes as i32,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let body = req
        .encode_to_bytes(RPC_VERSION)
        .map_err(|e| (ErrorCode::UnknownServerError, e.to_string()))?;
    let reply = crate::cluster::call_group(
        &net,
        leader,
        crate::cluster::SHARE_READ_GROUP,
        body,
        CAUGHT_UP_WAIT + Duration::from_secs(10),
    )
    .await
    .map_err(|e| {
        (
            ErrorCode::NotLeaderOrFollower,
            format!("read from broker {leader}: {e}"),
        )
    })?;
    let resp = FetchResponse::decode_exact(reply, RPC_VERSION)
        .map_err(|e| (ErrorCode::UnknownServerError, e.to_string()))?;
    let p = resp
        .responses
        .into_iter()
        .flat_map(|t| t.partitions)
        .next()
        .ok_or((
            ErrorCode::UnknownServerError,
            format!("read from broker {leader}: an empty answer"),
        ))?;
    if p.error_code != 0 {
        let code = ErrorCode::from_code(p.error_code).unwrap_or(ErrorCode::UnknownServerError);
        return Err((code, format!("read at broker {leader}: {}", code.message())));
    }
    Ok(Chunk {
        records: p.records.unwrap_or_default(),
        high_watermark: p.high_watermark,
        log_start_offset: p.log_start_offset,
    })
}

/// A peer's read of a partition this broker leads (a one-partition Fetch
/// by topic id), on shard 0.
pub async fn serve(shard: &Rc<Shard>, body: Bytes) -> Result<Bytes, String> {
    use kafka_protocol::generated::fetch_response::{FetchableTopicResponse, PartitionData};
    use kafka_protocol::generated::{FetchRequest, FetchResponse};
    let req = FetchRequest::decode_exact(body, RPC_VERSION).map_err(|e| e.to_string())?;
    let (topic_id, p) = req
        .topics
        .first()
        .and_then(|t| t.partitions.first().map(|p| (t.topic_id, p)))
        .ok_or("a read names no partition")?;
    let (partition, from) = (p.partition, p.fetch_offset);
    let max_bytes = usize::try_from(p.partition_max_bytes)
        .unwrap_or(0)
        .min(MAX_READ_BYTES);
    let exists = shard
        .metadata()
        .topic_by_id(&topic_id)
        .is_some_and(|t| partition >= 0 && partition < t.partitions);
    let mut out = PartitionData {
        partition_index: partition,
        ..Default::default()
    };
    if !exists {
        out.error_code = ErrorCode::UnknownTopicOrPartition.code();
    } else {
        let tp = (topic_id, partition);
        let owner = owner_shard(topic_id, partition, shard.shard_count());
        let r = shard
            .submit_to(owner, move |s| async move {
                read_here(&s, tp, from, max_bytes).await
            })
            .await
            .unwrap_or(Err(ErrorCode::NotLeaderOrFollower));
        match r {
            Ok(c) => {
                out.high_watermark = c.high_watermark;
                out.log_start_offset = c.log_start_offset;
                out.records = Some(c.records);
            }
            Err(code) => out.error_code = code.code(),
        }
    }
    let resp = FetchResponse {
        responses: vec![FetchableTopicResponse {
            topic_id,
            partitions: vec![out],
            ..Default::default()
        }],
        ..Default::default()
    };
    resp.encode_to_bytes(RPC_VERSION).map_err(|e| e.to_string())
}
