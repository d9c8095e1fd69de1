//! InitProducerId. Without a transactional id: a fresh producer id at
//! epoch 0 (idempotent producers). With one: the transaction coordinator
//! (`handlers::txn::init_producer_id`).

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::{InitProducerIdRequest, InitProducerIdResponse};

use crate::shard::Shard;

pub async fn handle(
    shard: &Rc<Shard>,
    req: InitProducerIdRequest,
    version: i16,
    authz: &crate::acl::Authz<'_>,
) -> InitProducerIdResponse {
    if let Some(id) = req.transactional_id.clone() {
        return super::txn::init_producer_id(shard, req, version, id, authz).await;
    }
    use crate::acl::{op, resource};
    let mut resp = InitProducerIdResponse {
        producer_id: -1,
        producer_epoch: -1,
        ..Default::default()
    };
    // KIP-679: an idempotent producer needs IDEMPOTENT_WRITE on the
    // cluster or WRITE on some topic.
    if !authz.cluster(op::IDEMPOTENT_WRITE) && !authz.any(op::WRITE, resource::TOPIC) {
        resp.error_code = ErrorCode::ClusterAuthorizationFailed.code();
        return resp;
    }
    let id = shard
        .submit_to(0, |s0| async move {
            match s0.controller() {
                Some(c) => Some(c.allocate_producer_id().await.map_err(|e| e.1)),
                None => s0.with_store(|st| st.allocate_producer_id().map_err(|e| e.to_string())),
            }
        })
        .await;
    match id {
        Ok(Some(Ok(id))) => {
            resp.producer_id = id;
            resp.producer_epoch = 0;
        }
        Ok(Some(Err(e))) => {
            tracing::error!(error = %e, "cannot allocate a producer id");
            resp.error_code = ErrorCode::KafkaStorageError.code();
        }
        _ => resp.error_code = ErrorCode::CoordinatorNotAvailable.code(),
    }
    resp
}
