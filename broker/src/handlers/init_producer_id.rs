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
    match crate::admin::allocate_producer_id(shard).await {
        Ok(id) => {
            resp.producer_id = id;
            resp.producer_epoch = 0;
        }
        Err(code) => resp.error_code = code.code(),
    }
    resp
}
