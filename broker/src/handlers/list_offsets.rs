//! ListOffsets: earliest, latest, by timestamp, and max timestamp.

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::list_offsets_response::{
    ListOffsetsPartitionResponse, ListOffsetsTopicResponse,
};
use kafka_protocol::generated::{ListOffsetsRequest, ListOffsetsResponse};
use kafka_protocol::records::{RecordBatch, TimestampType};
use uuid::Uuid;

use crate::partition::{Partition, storage_error_code};
use crate::shard::{Shard, owner_shard};

pub const LATEST: i64 = -1;
pub const EARLIEST: i64 = -2;
pub const MAX_TIMESTAMP: i64 = -3;
pub const EARLIEST_LOCAL: i64 = -4;
pub const LATEST_TIERED: i64 = -5;

/// The record with the largest timestamp below the high watermark, as
/// `(timestamp, offset)`. Scans the log: kept simple until the storage
/// layer tracks it per segment.
async fn max_timestamp(p: &Partition) -> Result<Option<(i64, i64)>, ErrorCode> {
    let hw = p.high_watermark();
    let mut offset = p.log.log_start_offset();
    let mut best: Option<(i64, RecordBatch)> = None;
    while offset < hw {
        let r = p
            .read(offset, 1 << 20)
            .await
            .map_err(|e| storage_error_code(&e))?;
        if r.batches.is_empty() {
            break;
        }
        for bytes in r.batches {
            let b = RecordBatch::new(bytes).map_err(|_| ErrorCode::CorruptMessage)?;
            if best.as_ref().is_none_or(|(ts, _)| b.max_timestamp() > *ts) {
                best = Some((b.max_timestamp(), b.clone()));
            }
        }
        offset = r.next_offset;
    }
    let Some((ts, batch)) = best else {
        return Ok(None);
    };
    if batch.timestamp_type() == TimestampType::LogAppendTime {
        return Ok(Some((ts, batch.last_offset())));
    }
    let records = batch
        .decompressed_records(64 << 20)
        .map_err(|_| ErrorCode::CorruptMessage)?;
    for r in records {
        let r = r.map_err(|_| ErrorCode::CorruptMessage)?;
        if r.timestamp() == ts {
            return Ok(Some((ts, r.offset())));
        }
    }
    Ok(Some((ts, batch.last_offset())))
}

/// One partition's answer. read_committed (isolation level 1) answers the
/// last stable offset for LATEST and never an offset at or past it (Kafka's
/// `lastFetchableOffset`); read_uncommitted the high watermark.
async fn lookup(
    shard: &Rc<Shard>,
    key: (Uuid, i32),
    timestamp: i64,
    leader_epoch: i32,
    read_committed: bool,
) -> ListOffsetsPartitionResponse {
    let owner = owner_shard(key.0, key.1, shard.shard_count());
    let r = shard
        .submit_to(owner, move |s| async move {
            let mut out = ListOffsetsPartitionResponse {
                partition_index: key.1,
                timestamp: -1,
                offset: -1,
                leader_epoch: -1,
                ..Default::default()
            };
            let Some(p) = s.led_partition(&key) else {
                out.error_code = ErrorCode::NotLeaderOrFollower.code();
                return out;
            };
            if leader_epoch >= 0 && leader_epoch != p.leader_epoch() {
                out.error_code = if leader_epoch > p.leader_epoch() {
                    ErrorCode::UnknownLeaderEpoch.code()
                } else {
                    ErrorCode::FencedLeaderEpoch.code()
                };
                return out;
            }
            let fetchable = if read_committed {
                p.last_stable_offset()
            } else {
                p.high_watermark()
            };
            let found: Result<Option<(i64, i64)>, ErrorCode> = match timestamp {
                LATEST => Ok(Some((-1, fetchable))),
                EARLIEST | EARLIEST_LOCAL => Ok(Some((-1, p.log.log_start_offset()))),
                LATEST_TIERED => Ok(Some((-1, -1))),
                MAX_TIMESTAMP => max_timestamp(&p)
                    .await
                    .map(|f| f.filter(|&(_, offset)| offset < fetchable)),
                ts if ts >= 0 => match p.log.offset_for_timestamp(ts).await {
                    Ok(Some((offset, found_ts))) if offset < fetchable => {
                        Ok(Some((found_ts, offset)))
                    }
                    Ok(_) => Ok(None),
                    Err(e) => Err(storage_error_code(&e)),
                },
                _ => Err(ErrorCode::InvalidRequest),
            };
            match found {
                Ok(Some((ts, offset))) => {
                    out.timestamp = ts;
                    out.offset = offset;
                    out.leader_epoch = p.leader_epoch();
                }
                Ok(None) => {}
                Err(code) => out.error_code = code.code(),
            }
            out
        })
        .await;
    r.unwrap_or_else(|_| ListOffsetsPartitionResponse {
        partition_index: key.1,
        error_code: ErrorCode::NotLeaderOrFollower.code(),
        timestamp: -1,
        offset: -1,
        leader_epoch: -1,
        ..Default::default()
    })
}

pub async fn handle(
    shard: &Rc<Shard>,
    req: ListOffsetsRequest,
    _version: i16,
    authz: &crate::acl::Authz<'_>,
) -> ListOffsetsResponse {
    let meta = shard.metadata();
    let read_committed = req.isolation_level == 1;
    let mut topics = Vec::with_capacity(req.topics.len());
    for t in req.topics {
        let mut tr = ListOffsetsTopicResponse {
            name: t.name.clone(),
            ..Default::default()
        };
        let allowed = authz.topic(crate::acl::op::DESCRIBE, &t.name);
        let futs = t.partitions.iter().map(|p| {
            let topic = meta.topic(&t.name).filter(|_| allowed);
            let idx = p.partition_index;
            let ts = p.timestamp;
            let epoch = p.current_leader_epoch;
            async move {
                match topic {
                    Some(tm) if idx >= 0 && idx < tm.partitions => {
                        lookup(shard, (tm.id, idx), ts, epoch, read_committed).await
                    }
                    _ => ListOffsetsPartitionResponse {
                        partition_index: idx,
                        error_code: if allowed {
                            ErrorCode::UnknownTopicOrPartition.code()
                        } else {
                            ErrorCode::TopicAuthorizationFailed.code()
                        },
                        timestamp: -1,
                        offset: -1,
                        leader_epoch: -1,
                        ..Default::default()
                    },
                }
            }
        });
        tr.partitions = futures_util::future::join_all(futs).await;
        topics.push(tr);
    }
    ListOffsetsResponse {
        topics,
        ..Default::default()
    }
}
