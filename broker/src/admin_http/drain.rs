//! `/v1/brokers/{id}/maintenance` (PUT turns it on, DELETE off, GET the
//! progress) and `/v1/brokers/{id}/decommission` (PUT starts it, DELETE
//! stops it while the broker is still registered, GET the progress): the
//! operations the Kafka protocol has no API for (`cluster::drain`). Asked of any broker: the change goes through the
//! controller, and the status is what that broker's shard 0 sees.

use std::rc::Rc;
use std::sync::mpsc;
use std::time::Duration;

use kafka_protocol::ErrorCode;
use serde_json::json;

use super::Admin;
use super::routes::{Reply, json_reply};
use crate::cluster::drain;
use crate::shard::{Job, Shard};
use crate::topics::ApiError;

/// How long a change waits for the controller (a commit, or a
/// forwarding to the controller leader and its commit).
const CHANGE_TIMEOUT_MS: u64 = 30_000;

/// Which of the two resources.
#[derive(Clone, Copy)]
pub enum Resource {
    Maintenance,
    Decommission,
}

/// Answers `method /v1/brokers/{id}/{resource}`.
pub fn route(admin: &Admin, method: &str, id: &str, resource: Resource) -> Reply {
    let Ok(node) = id.parse::<i32>() else {
        return json_reply(
            400,
            json!({ "error": format!("{id:?} is not a broker id") }),
        );
    };
    let done = |r: Result<(), ApiError>| match r {
        Ok(()) => json_reply(200, json!({ "node_id": node })),
        Err(e) => refusal(e),
    };
    match (resource, method) {
        (Resource::Maintenance, "GET" | "HEAD") => {
            status(admin, move |s| drain::maintenance_status(&s, node))
        }
        (Resource::Maintenance, "PUT") => done(change(admin, move |s| {
            Box::pin(async move { drain::set_maintenance(&s, node, true).await })
        })),
        (Resource::Maintenance, "DELETE") => done(change(admin, move |s| {
            Box::pin(async move { drain::set_maintenance(&s, node, false).await })
        })),
        (Resource::Decommission, "GET" | "HEAD") => {
            status(admin, move |s| drain::decommission_status(&s, node))
        }
        (Resource::Decommission, "PUT") => done(change(admin, move |s| {
            Box::pin(async move { drain::decommission(&s, node).await })
        })),
        (Resource::Decommission, "DELETE") => done(change(admin, move |s| {
            Box::pin(async move { drain::recommission(&s, node).await })
        })),
        _ => json_reply(
            405,
            json!({ "error": format!("{method} is not allowed here") }),
        ),
    }
}

/// A refusal as an HTTP status: an unknown broker is 404, a controller
/// that cannot be reached (or a broker stopping) 503, anything else the
/// request's fault (400); the body names the Kafka error and says why.
fn refusal((code, message): ApiError) -> Reply {
    let status = match code {
        ErrorCode::BrokerIdNotRegistered => 404,
        ErrorCode::NotController
        | ErrorCode::RequestTimedOut
        | ErrorCode::KafkaStorageError
        | ErrorCode::CoordinatorNotAvailable => 503,
        _ => 400,
    };
    json_reply(status, json!({ "error": message, "code": code.name() }))
}

/// Runs `f` on shard 0 and waits (bounded) for its answer.
fn on_shard0<T: Send + 'static>(
    admin: &Admin,
    timeout_ms: u64,
    f: impl FnOnce(Rc<Shard>) -> std::pin::Pin<Box<dyn Future<Output = T>>> + Send + 'static,
) -> Result<T, ApiError> {
    let (tx, rx) = mpsc::sync_channel(1);
    let job: Job = Box::new(move |s| {
        Box::pin(async move {
            let _ = tx.send(f(s).await);
        })
    });
    admin.peers[0].send(job).map_err(|_| {
        (
            ErrorCode::KafkaStorageError,
            "the broker is shutting down".to_string(),
        )
    })?;
    rx.recv_timeout(Duration::from_millis(timeout_ms))
        .map_err(|_| {
            (
                ErrorCode::RequestTimedOut,
                format!("no answer within {timeout_ms} ms"),
            )
        })
}

fn change(
    admin: &Admin,
    f: impl FnOnce(Rc<Shard>) -> std::pin::Pin<Box<dyn Future<Output = Result<(), ApiError>>>>
    + Send
    + 'static,
) -> Result<(), ApiError> {
    on_shard0(admin, CHANGE_TIMEOUT_MS, f)?
}

fn status<T: serde::Serialize + Send + 'static>(
    admin: &Admin,
    f: impl FnOnce(Rc<Shard>) -> Result<T, ApiError> + Send + 'static,
) -> Reply {
    let r = on_shard0(admin, super::GATHER_TIMEOUT_MS, move |s| {
        Box::pin(async move { f(s) })
    });
    match r.and_then(|x| x) {
        Ok(v) => json_reply(200, json!(v)),
        Err(e) => refusal(e),
    }
}
