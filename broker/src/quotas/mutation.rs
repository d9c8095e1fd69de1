//! `controller_mutation_rate` (KIP-599, Kafka's
//! `ControllerMutationQuotaManager`): partitions created or deleted per
//! second by CreateTopics, CreatePartitions and DeleteTopics.
//!
//! Strict for the versions that know THROTTLING_QUOTA_EXCEEDED
//! (CreateTopics v6+, CreatePartitions v3+, DeleteTopics v5+): topic by
//! topic in request order, a topic is refused with that error while the
//! rate is above the quota, otherwise its partitions are recorded (which
//! may take the rate above it). Older versions are permissive: every
//! topic goes ahead, its partitions are recorded and the response carries
//! the throttle time. `validate_only` requests mutate nothing and are not
//! counted. The refused topics are taken out of the request before its
//! handler runs and answered by [`merge`].

use std::sync::Arc;

use kafka_protocol::generated::{
    create_partitions_response::CreatePartitionsTopicResult,
    create_topics_response::CreatableTopicResult, delete_topics_response::DeletableTopicResult,
};
use kafka_protocol::{ErrorCode, RequestBody, ResponseBody};
use uuid::Uuid;

use super::manager::{self, QuotaType};
use crate::metadata::ClusterMetadata;
use crate::shard::Shard;

const THROTTLED: &str = "The throttling quota has been exceeded.";

/// What [`check`] decided for one request.
pub struct Refused {
    /// Topics refused (name, id), in request order.
    topics: Vec<(Option<String>, Uuid)>,
    /// The throttle time to answer with.
    throttle_ms: i64,
}

/// Checks a mutating request against the client's quota (see the module
/// doc); `None` when it is not a mutation or no quota applies.
pub fn check(
    shard: &Shard,
    meta: &Arc<ClusterMetadata>,
    user: &str,
    client_id: &str,
    body: &mut RequestBody,
    version: i16,
) -> Option<Refused> {
    let quotas = &meta.client_quotas;
    super::resolve(quotas, QuotaType::ControllerMutation.key(), user, client_id)?;
    let q = &shard.ctx.quotas;
    let cfg = manager::controller_window_config(&meta.settings);
    let qt = QuotaType::ControllerMutation;
    let mut refused = Refused {
        topics: Vec::new(),
        throttle_ms: 0,
    };
    // One topic's partitions: strict refuses (false) or records.
    let admit = |strict: bool, partitions: i64, refused: &mut Refused| -> bool {
        if strict {
            let t = q.check_and_record_strict(quotas, cfg, qt, user, client_id, partitions as f64);
            if t > 0 {
                refused.throttle_ms = refused.throttle_ms.max(t);
                return false;
            }
            true
        } else {
            let t = q.record(quotas, cfg, qt, user, client_id, partitions as f64);
            refused.throttle_ms = refused.throttle_ms.max(t);
            true
        }
    };
    match body {
        RequestBody::CreateTopics(r) if !r.validate_only => {
            let strict = version >= 6;
            let default_partitions = meta.settings.i64("num.partitions");
            let mut kept = Vec::with_capacity(r.topics.len());
            for t in std::mem::take(&mut r.topics) {
                let partitions = if t.num_partitions > 0 {
                    t.num_partitions as i64
                } else if !t.assignments.is_empty() {
                    t.assignments.len() as i64
                } else {
                    default_partitions
                };
                if admit(strict, partitions, &mut refused) {
                    kept.push(t);
                } else {
                    refused.topics.push((Some(t.name), Uuid::nil()));
                }
            }
            r.topics = kept;
        }
        RequestBody::CreatePartitions(r) if !r.validate_only => {
            let strict = version >= 3;
            let mut kept = Vec::with_capacity(r.topics.len());
            for t in std::mem::take(&mut r.topics) {
                let now = meta.topic(&t.name).map_or(0, |m| m.partitions);
                let partitions = (t.count - now).max(0) as i64;
                if admit(strict, partitions, &mut refused) {
                    kept.push(t);
                } else {
                    refused.topics.push((Some(t.name), Uuid::nil()));
                }
            }
            r.topics = kept;
        }
        RequestBody::DeleteTopics(r) => {
            let strict = version >= 5;
            let partitions_of = |name: Option<&str>, id: &Uuid| -> i64 {
                let t = match name {
                    Some(n) => meta.topic(n),
                    None => meta.topic_by_id(id),
                };
                t.map_or(0, |t| t.partitions as i64)
            };
            if version >= 6 {
                let mut kept = Vec::with_capacity(r.topics.len());
                for t in std::mem::take(&mut r.topics) {
                    let p = partitions_of(t.name.as_deref(), &t.topic_id);
                    if admit(strict, p, &mut refused) {
                        kept.push(t);
                    } else {
                        refused.topics.push((t.name, t.topic_id));
                    }
                }
                r.topics = kept;
            } else {
                let mut kept = Vec::with_capacity(r.topic_names.len());
                for n in std::mem::take(&mut r.topic_names) {
                    let p = partitions_of(Some(&n), &Uuid::nil());
                    if admit(strict, p, &mut refused) {
                        kept.push(n);
                    } else {
                        refused.topics.push((Some(n), Uuid::nil()));
                    }
                }
                r.topic_names = kept;
            }
        }
        _ => return None,
    }
    Some(refused)
}

/// Adds the refused topics' THROTTLING_QUOTA_EXCEEDED results to the
/// handler's response; answers the throttle time.
pub fn merge(refused: Refused, response: Option<&mut ResponseBody>, _version: i16) -> i64 {
    let code = ErrorCode::ThrottlingQuotaExceeded.code();
    match response {
        Some(ResponseBody::CreateTopics(r)) => {
            for (name, _) in refused.topics {
                r.topics.push(CreatableTopicResult {
                    name: name.unwrap_or_default(),
                    error_code: code,
                    error_message: Some(THROTTLED.into()),
                    num_partitions: -1,
                    replication_factor: -1,
                    configs: None,
                    ..Default::default()
                });
            }
        }
        Some(ResponseBody::CreatePartitions(r)) => {
            for (name, _) in refused.topics {
                r.results.push(CreatePartitionsTopicResult {
                    name: name.unwrap_or_default(),
                    error_code: code,
                    error_message: Some(THROTTLED.into()),
                    ..Default::default()
                });
            }
        }
        Some(ResponseBody::DeleteTopics(r)) => {
            for (name, topic_id) in refused.topics {
                r.responses.push(DeletableTopicResult {
                    name,
                    topic_id,
                    error_code: code,
                    error_message: Some(THROTTLED.into()),
                    ..Default::default()
                });
            }
        }
        _ => {}
    }
    refused.throttle_ms
}
