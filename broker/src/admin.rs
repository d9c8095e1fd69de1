//! Runs one metadata command on whichever store this broker has: the
//! controller Raft log in a cluster, `metadata.json` on a single node.
//!
//! Handlers of admin APIs whose whole effect is a metadata change (users,
//! ACLs) call [`submit`] and are done: the change is durable and this
//! broker's shards read the new snapshot when it returns. Changes that
//! also open or reconfigure replicas (topics, configs) keep their own
//! paths in `topics.rs` and `handlers/configs.rs`.

use std::rc::Rc;

use kafka_protocol::ErrorCode;

use crate::metadata::{ApplyError, Command, Outcome};
use crate::shard::Shard;
use crate::topics::ApiError;

/// Applies `cmd` durably and publishes the result to every shard of this
/// broker; a refusal comes back as its Kafka error code and message.
pub async fn submit(shard: &Rc<Shard>, cmd: Command) -> Result<Outcome, ApiError> {
    if shard.is_cluster() {
        return crate::cluster::controller::submit(shard, cmd).await;
    }
    shard
        .submit_to(0, move |s0| async move {
            let _guard = s0.admin_lock.lock().await;
            let out = s0
                .with_store(|st| st.apply(&cmd))
                .ok_or((ErrorCode::NotController, "no metadata store".to_string()))?
                .map_err(|e| match e {
                    ApplyError::Refused(r) => (
                        ErrorCode::from_code(r.code).unwrap_or(ErrorCode::UnknownServerError),
                        r.message,
                    ),
                    ApplyError::Metadata(e) => (ErrorCode::KafkaStorageError, e.to_string()),
                })?;
            crate::topics::publish(&s0).await;
            Ok(out)
        })
        .await
        .unwrap_or_else(|_| {
            Err((
                ErrorCode::KafkaStorageError,
                "broker is shutting down".into(),
            ))
        })
}

/// A new producer id from the cluster's blocks (the controller, or the
/// single node's store), for idempotent and transactional producers.
/// KAFKA_STORAGE_ERROR when the store failed, COORDINATOR_NOT_AVAILABLE
/// when no store could be asked.
pub async fn allocate_producer_id(shard: &Rc<Shard>) -> Result<i64, ErrorCode> {
    let id = shard
        .submit_to(0, |s0| async move {
            match s0.controller() {
                Some(c) => Some(c.allocate_producer_id().await.map_err(|e| e.1)),
                None => s0.with_store(|st| st.allocate_producer_id().map_err(|e| e.to_string())),
            }
        })
        .await;
    match id {
        Ok(Some(Ok(id))) => Ok(id),
        Ok(Some(Err(e))) => {
            tracing::error!(error = %e, "cannot allocate a producer id");
            Err(ErrorCode::KafkaStorageError)
        }
        _ => Err(ErrorCode::CoordinatorNotAvailable),
    }
}
