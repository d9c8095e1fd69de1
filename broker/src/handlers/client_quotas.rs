//! DescribeClientQuotas and AlterClientQuotas (KIP-546): the quotas kept
//! in the cluster metadata (`quotas/`).
//!
//! As Kafka's KRaft broker and controller: Describe reads this broker's
//! snapshot (`ClientQuotasImage.describe`: the filter's errors as the
//! top-level error), DESCRIBE_CONFIGS on the CLUSTER resource or
//! CLUSTER_AUTHORIZATION_FAILED; Alter is checked entity by entity
//! (`ClientQuotaControlManager`: INVALID_REQUEST with Kafka's messages),
//! ALTER_CONFIGS on the CLUSTER or every entity
//! CLUSTER_AUTHORIZATION_FAILED, and the accepted entities are one
//! `Command::AlterClientQuotas` through `admin::submit` (none with
//! `validate_only`).

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::{
    AlterClientQuotasRequest, AlterClientQuotasResponse, DescribeClientQuotasRequest,
    DescribeClientQuotasResponse, alter_client_quotas_response as alter_resp,
    describe_client_quotas_response as describe_resp,
};

use crate::acl::{Authz, op};
use crate::metadata::Command;
use crate::quotas::{self, Component, QuotaEntity, RequestedAlteration};
use crate::shard::Shard;

const CLUSTER_DENIED: &str = "Cluster authorization failed.";

pub fn describe(
    shard: &Rc<Shard>,
    req: DescribeClientQuotasRequest,
    authz: &Authz<'_>,
) -> DescribeClientQuotasResponse {
    if !authz.cluster(op::DESCRIBE_CONFIGS) {
        return DescribeClientQuotasResponse {
            error_code: ErrorCode::ClusterAuthorizationFailed.code(),
            error_message: Some(CLUSTER_DENIED.into()),
            entries: None,
            ..Default::default()
        };
    }
    let components: Vec<Component> = req
        .components
        .into_iter()
        .map(|c| Component {
            entity_type: c.entity_type,
            match_type: c.match_type,
            match_: c.match_,
        })
        .collect();
    let meta = shard.metadata();
    match quotas::describe(&meta.client_quotas, &components, req.strict) {
        Ok(found) => DescribeClientQuotasResponse {
            entries: Some(
                found
                    .into_iter()
                    .map(|(entity, values)| describe_resp::EntryData {
                        entity: entity
                            .0
                            .into_iter()
                            .map(|(t, n)| describe_resp::EntityData {
                                entity_type: t,
                                entity_name: n,
                                ..Default::default()
                            })
                            .collect(),
                        values: values
                            .into_iter()
                            .map(|(k, v)| describe_resp::ValueData {
                                key: k,
                                value: v,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
            ),
            ..Default::default()
        },
        Err((code, message)) => DescribeClientQuotasResponse {
            error_code: code.code(),
            error_message: Some(message),
            entries: None,
            ..Default::default()
        },
    }
}

fn entity_data(e: &QuotaEntity) -> Vec<alter_resp::EntityData> {
    e.0.iter()
        .map(|(t, n)| alter_resp::EntityData {
            entity_type: t.clone(),
            entity_name: n.clone(),
            ..Default::default()
        })
        .collect()
}

pub async fn alter(
    shard: &Rc<Shard>,
    req: AlterClientQuotasRequest,
    authz: &Authz<'_>,
) -> AlterClientQuotasResponse {
    let entries: Vec<RequestedAlteration> = req
        .entries
        .into_iter()
        .map(|e| RequestedAlteration {
            entity: QuotaEntity::new(e.entity.into_iter().map(|d| (d.entity_type, d.entity_name))),
            ops: e
                .ops
                .into_iter()
                .map(|o| (o.key, (!o.remove).then_some(o.value)))
                .collect(),
        })
        .collect();
    if !authz.cluster(op::ALTER_CONFIGS) {
        let mut seen: Vec<QuotaEntity> = Vec::new();
        for e in entries {
            if !seen.contains(&e.entity) {
                seen.push(e.entity);
            }
        }
        return AlterClientQuotasResponse {
            entries: seen
                .iter()
                .map(|e| alter_resp::EntryData {
                    error_code: ErrorCode::ClusterAuthorizationFailed.code(),
                    error_message: Some(CLUSTER_DENIED.into()),
                    entity: entity_data(e),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
    }
    let (results, accepted) = quotas::validate(entries);
    // The whole request is one metadata record; if it cannot be stored,
    // every entity that was to change gets the store's error.
    let stored = if req.validate_only || accepted.is_empty() {
        Ok(())
    } else {
        crate::admin::submit(
            shard,
            Command::AlterClientQuotas {
                alterations: accepted,
            },
        )
        .await
        .map(|_| ())
    };
    AlterClientQuotasResponse {
        entries: results
            .into_iter()
            .map(|(entity, r)| {
                let r = r.and_then(|()| stored.clone());
                let (code, message) = match r {
                    Ok(()) => (ErrorCode::None, None),
                    Err((code, message)) => (code, Some(message)),
                };
                alter_resp::EntryData {
                    error_code: code.code(),
                    error_message: message,
                    entity: entity_data(&entity),
                    ..Default::default()
                }
            })
            .collect(),
        ..Default::default()
    }
}
