//! JoinGroup, SyncGroup, Heartbeat, LeaveGroup: the classic group
//! protocol. Each request is validated here, then runs on the shard that
//! coordinates its group ([`crate::groups`]); the state machine is in
//! [`crate::groups::group`]. This file only translates between wire
//! versions and the state machine.

use std::rc::Rc;
use std::time::{Duration, Instant};

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::leave_group_response::MemberResponse;
use kafka_protocol::generated::{
    HeartbeatRequest, HeartbeatResponse, JoinGroupRequest, JoinGroupResponse, LeaveGroupRequest,
    LeaveGroupResponse, SyncGroupRequest, SyncGroupResponse,
};

use crate::acl::{Authz, op};
use crate::groups::group::{
    Group, JoinParams, MAX_SESSION_TIMEOUT_MS, MIN_SESSION_TIMEOUT_MS, Outcome, sync_error,
};
use crate::groups::{self, coordinator, records};
use crate::shard::Shard;

fn join_error(code: ErrorCode, member_id: String) -> JoinGroupResponse {
    JoinGroupResponse {
        error_code: code.code(),
        generation_id: -1,
        member_id,
        protocol_name: None,
        ..Default::default()
    }
}

/// Makes a JoinGroup response encodable at `version`.
fn fit_join(mut r: JoinGroupResponse, version: i16) -> JoinGroupResponse {
    if version < 7 {
        r.protocol_type = None;
        r.protocol_name = Some(r.protocol_name.unwrap_or_default());
    }
    if version < 9 {
        r.skip_assignment = false;
    }
    if version < 5 {
        for m in &mut r.members {
            m.group_instance_id = None;
        }
    }
    r
}

fn fit_sync(mut r: SyncGroupResponse, version: i16) -> SyncGroupResponse {
    if version < 5 {
        r.protocol_type = None;
        r.protocol_name = None;
    }
    r
}

pub async fn join(
    shard: &Rc<Shard>,
    req: JoinGroupRequest,
    version: i16,
    client_id: String,
    client_host: String,
    authz: &Authz<'_>,
) -> JoinGroupResponse {
    let member_id = req.member_id.clone();
    let early = if !authz.group(op::READ, &req.group_id) {
        Some(ErrorCode::GroupAuthorizationFailed)
    } else if req.group_id.is_empty() {
        Some(ErrorCode::InvalidGroupId)
    } else if !(MIN_SESSION_TIMEOUT_MS..=MAX_SESSION_TIMEOUT_MS).contains(&req.session_timeout_ms) {
        Some(ErrorCode::InvalidSessionTimeout)
    } else if req.protocol_type.is_empty() || req.protocols.is_empty() {
        Some(ErrorCode::InconsistentGroupProtocol)
    } else {
        None
    };
    if let Some(code) = early {
        return fit_join(join_error(code, member_id), version);
    }
    let route = match groups::route(shard, &req.group_id).await {
        Ok(r) => r,
        Err(code) => return fit_join(join_error(code, member_id), version),
    };
    let r = shard
        .submit_to(route.shard, move |s| async move {
            join_on_owner(&s, req, version, client_id, client_host).await
        })
        .await
        .unwrap_or_else(|_| join_error(ErrorCode::CoordinatorNotAvailable, member_id));
    fit_join(r, version)
}

async fn join_on_owner(
    s: &Rc<Shard>,
    req: JoinGroupRequest,
    version: i16,
    client_id: String,
    client_host: String,
) -> JoinGroupResponse {
    let delay = groups::initial_delay(s);
    // v0 has no rebalance timeout: Kafka uses the session timeout.
    let rebalance_timeout_ms = if version == 0 || req.rebalance_timeout_ms <= 0 {
        req.session_timeout_ms
    } else {
        req.rebalance_timeout_ms
    };
    let params = JoinParams {
        member_id: req.member_id.clone(),
        instance_id: req.group_instance_id.clone(),
        client_id,
        client_host,
        session_timeout_ms: req.session_timeout_ms,
        rebalance_timeout_ms,
        protocol_type: req.protocol_type.clone(),
        protocols: req
            .protocols
            .into_iter()
            .map(|p| (p.name, p.metadata))
            .collect(),
        require_known_member_id: version >= 4,
    };
    let outcome = {
        let c = coordinator();
        let mut c = c.borrow_mut();
        let g = c
            .groups
            .entry(req.group_id.clone())
            .or_insert_with(|| Group::new(req.group_id.clone(), delay));
        g.set_initial_delay(delay);
        g.max_size = s.metadata().settings.i32("group.max.size").max(1) as usize;
        g.join(params, Instant::now())
    };
    let rx = match outcome {
        Outcome::Now(r) => return r,
        Outcome::Wait(rx) => rx,
    };
    // The group answers within the rebalance timeout (plus the initial
    // delay); the bound only guards against a bug leaving a client hanging.
    let bound =
        Duration::from_millis(rebalance_timeout_ms.max(0) as u64) + delay + Duration::from_secs(5);
    // Shutdown does not wait for a parked join: the client is sent to
    // find the coordinator again.
    monoio::select! {
        r = monoio::time::timeout(bound, rx) => match r {
            Ok(Ok(r)) => r,
            // The group was dropped while the join waited: its
            // `__consumer_offsets` partition moved to another broker (as
            // Kafka's unload answers parked joins). The client finds the
            // new coordinator; REBALANCE_IN_PROGRESS here reached the
            // application as an error (librdkafka), seen when partition
            // leaders were balanced right after the topic was created.
            Ok(Err(_)) => join_error(ErrorCode::NotCoordinator, req.member_id),
            Err(_) => join_error(ErrorCode::RebalanceInProgress, req.member_id),
        },
        _ = s.stopping() => join_error(ErrorCode::NotCoordinator, req.member_id),
    }
}

pub async fn sync(
    shard: &Rc<Shard>,
    req: SyncGroupRequest,
    version: i16,
    authz: &Authz<'_>,
) -> SyncGroupResponse {
    if !authz.group(op::READ, &req.group_id) {
        return fit_sync(sync_error(ErrorCode::GroupAuthorizationFailed), version);
    }
    if req.group_id.is_empty() {
        return fit_sync(sync_error(ErrorCode::InvalidGroupId), version);
    }
    let route = match groups::route(shard, &req.group_id).await {
        Ok(r) => r,
        Err(code) => return fit_sync(sync_error(code), version),
    };
    let r = shard
        .submit_to(route.shard, move |s| async move {
            let now = Instant::now();
            let assignments = req
                .assignments
                .into_iter()
                .map(|a| (a.member_id, a.assignment))
                .collect();
            let (outcome, store) = {
                let c = coordinator();
                let mut c = c.borrow_mut();
                let Some(g) = c.groups.get_mut(&req.group_id) else {
                    return sync_error(ErrorCode::UnknownMemberId);
                };
                g.sync(
                    &req.member_id,
                    req.group_instance_id.as_deref(),
                    req.generation_id,
                    req.protocol_type.as_deref(),
                    req.protocol_name.as_deref(),
                    assignments,
                    now,
                )
            };
            if let Some(store) = store {
                // The leader's assignment: durable before anyone gets it.
                let rec = vec![(
                    records::group_key(&req.group_id),
                    Some(records::group_value(&store.value)),
                )];
                let stored = groups::append(&s, route, rec).await.map(|_| ());
                let c = coordinator();
                let mut c = c.borrow_mut();
                if let Some(g) = c.groups.get_mut(&req.group_id) {
                    g.complete_sync(store.generation, stored, Instant::now());
                }
            }
            match outcome {
                Outcome::Now(r) => r,
                Outcome::Wait(rx) => {
                    // Completed by the leader's sync, a new rebalance or
                    // the member's session expiring.
                    let bound = Duration::from_millis(MAX_SESSION_TIMEOUT_MS as u64);
                    monoio::select! {
                        r = monoio::time::timeout(bound, rx) => match r {
                            Ok(Ok(r)) => r,
                            // Dropped with its group (see join).
                            Ok(Err(_)) => sync_error(ErrorCode::NotCoordinator),
                            Err(_) => sync_error(ErrorCode::RebalanceInProgress),
                        },
                        _ = s.stopping() => sync_error(ErrorCode::NotCoordinator),
                    }
                }
            }
        })
        .await
        .unwrap_or_else(|_| sync_error(ErrorCode::CoordinatorNotAvailable));
    fit_sync(r, version)
}

pub async fn heartbeat(
    shard: &Rc<Shard>,
    req: HeartbeatRequest,
    authz: &Authz<'_>,
) -> HeartbeatResponse {
    let code = if !authz.group(op::READ, &req.group_id) {
        ErrorCode::GroupAuthorizationFailed
    } else if req.group_id.is_empty() {
        ErrorCode::InvalidGroupId
    } else {
        match groups::route(shard, &req.group_id).await {
            Err(code) => code,
            Ok(route) => shard
                .submit_to(route.shard, move |_s| async move {
                    let c = coordinator();
                    let mut c = c.borrow_mut();
                    match c.groups.get_mut(&req.group_id) {
                        None => ErrorCode::UnknownMemberId,
                        Some(g) => g.heartbeat(
                            &req.member_id,
                            req.group_instance_id.as_deref(),
                            req.generation_id,
                            Instant::now(),
                        ),
                    }
                })
                .await
                .unwrap_or(ErrorCode::CoordinatorNotAvailable),
        }
    };
    HeartbeatResponse {
        error_code: code.code(),
        ..Default::default()
    }
}

/// LeaveGroup: one member (v0–2) or a batch of members, static ones
/// possibly by instance id only (v3+).
pub async fn leave(
    shard: &Rc<Shard>,
    req: LeaveGroupRequest,
    version: i16,
    authz: &Authz<'_>,
) -> LeaveGroupResponse {
    let batch: Vec<(String, Option<String>)> = if version >= 3 {
        req.members
            .iter()
            .map(|m| (m.member_id.clone(), m.group_instance_id.clone()))
            .collect()
    } else {
        vec![(req.member_id.clone(), None)]
    };
    let outcome: Result<Vec<ErrorCode>, ErrorCode> = if !authz.group(op::READ, &req.group_id) {
        Err(ErrorCode::GroupAuthorizationFailed)
    } else if req.group_id.is_empty() {
        Err(ErrorCode::InvalidGroupId)
    } else {
        match groups::route(shard, &req.group_id).await {
            Err(code) => Err(code),
            Ok(route) => {
                let group_id = req.group_id.clone();
                let batch = batch.clone();
                shard
                    .submit_to(route.shard, move |_s| async move {
                        let c = coordinator();
                        let mut c = c.borrow_mut();
                        let Some(g) = c.groups.get_mut(&group_id) else {
                            return Err(ErrorCode::UnknownMemberId);
                        };
                        let now = Instant::now();
                        Ok(batch
                            .iter()
                            .map(|(m, i)| g.leave(m, i.as_deref(), now))
                            .collect())
                    })
                    .await
                    .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
            }
        }
    };
    let mut resp = LeaveGroupResponse::default();
    match outcome {
        Err(code) => resp.error_code = code.code(),
        Ok(codes) if version >= 3 => {
            resp.members = batch
                .into_iter()
                .zip(codes)
                .map(|((member_id, group_instance_id), code)| MemberResponse {
                    member_id,
                    group_instance_id,
                    error_code: code.code(),
                    ..Default::default()
                })
                .collect();
        }
        Ok(codes) => {
            resp.error_code = codes.first().copied().unwrap_or(ErrorCode::None).code();
        }
    }
    resp
}
