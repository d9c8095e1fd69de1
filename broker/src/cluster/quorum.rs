//! The metadata quorum as Kafka's DescribeQuorum reports it: the
//! controller Raft group (Kafka's `__cluster_metadata` partition 0), its
//! leader and epoch, high watermark, and each voter's and observer's log
//! end offset and last fetch / caught-up times.
//!
//! Only the controller leader knows its followers' progress (as in
//! KRaft, where a broker forwards DescribeQuorum to the active
//! controller): a broker that does not lead the group asks the leader at
//! [`QUORUM_GROUP`](super::QUORUM_GROUP) and relays its answer, so the
//! Admin client, which sends the request to any broker, gets the same
//! answer everywhere. A single node (no `--seeds`) is its only voter and
//! leader; its metadata log is `metadata.log`, counted in changes.

use std::rc::Rc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use serde::{Deserialize, Serialize};
use tidemark_raft::QuorumView;

use crate::shard::Shard;
use crate::topics::ApiError;

/// How long a broker waits for the controller leader's answer.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(3);

/// One member of the quorum (Kafka's `ReplicaState`), timestamps in
/// milliseconds since the epoch on the leader's clock, -1 when unknown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub id: i32,
    pub voter: bool,
    pub log_end_offset: i64,
    pub last_fetch_ms: i64,
    pub last_caught_up_ms: i64,
}

/// The leader's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuorumReport {
    pub leader: i32,
    pub epoch: i32,
    pub high_watermark: i64,
    /// The leader first, then by id.
    pub members: Vec<Member>,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A wall-clock time `ago` before `now` (-1 when unknown).
fn at(now: i64, ago: Option<Duration>) -> i64 {
    ago.map_or(-1, |a| now - a.as_millis() as i64)
}

/// The report of a leader's view.
pub fn from_view(view: &QuorumView, now: i64) -> QuorumReport {
    QuorumReport {
        leader: view.leader as i32,
        epoch: i32::try_from(view.term).unwrap_or(i32::MAX),
        high_watermark: view.high_watermark,
        members: view
            .members
            .iter()
            .map(|m| Member {
                id: m.node as i32,
                voter: m.voter,
                log_end_offset: m.log_end_offset.unwrap_or(-1),
                last_fetch_ms: at(now, m.last_ack_ago),
                last_caught_up_ms: at(now, m.caught_up_ago),
            })
            .collect(),
    }
}

/// A single node: itself, leading the one epoch there is, with its
/// metadata log of `changes` changes fully written.
pub fn single_node(node: i32, changes: i64, now: i64) -> QuorumReport {
    QuorumReport {
        leader: node,
        // No election ever happens: the node leads the first epoch.
        epoch: 1,
        high_watermark: changes,
        members: vec![Member {
            id: node,
            voter: true,
            log_end_offset: changes,
            last_fetch_ms: now,
            last_caught_up_ms: now,
        }],
    }
}

/// The quorum as the controller leader sees it, asked from any shard:
/// here if this broker leads the controller group, else forwarded to the
/// leader. NOT_LEADER_OR_FOLLOWER (retriable) while there is no leader
/// or it cannot be reached.
pub async fn describe(shard: &Rc<Shard>) -> Result<QuorumReport, ApiError> {
    shard
        .submit_to(0, |s0| async move { describe_on_shard0(&s0).await })
        .await
        .unwrap_or_else(|_| {
            Err((
                ErrorCode::NotLeaderOrFollower,
                "broker is shutting down".into(),
            ))
        })
}

async fn describe_on_shard0(s0: &Rc<Shard>) -> Result<QuorumReport, ApiError> {
    if !s0.is_cluster() {
        let changes = s0.with_store(|st| st.changes()).unwrap_or(0);
        return Ok(single_node(
            s0.ctx.config.node_id,
            i64::try_from(changes).unwrap_or(i64::MAX),
            now_ms(),
        ));
    }
    let not_leader = |msg: String| (ErrorCode::NotLeaderOrFollower, msg);
    let Some(c) = s0.controller() else {
        return Err(not_leader("the controller is not running yet".into()));
    };
    if let Some(view) = c.quorum_view().await {
        return Ok(from_view(&view, now_ms()));
    }
    let Some(leader) = c.leader().filter(|l| *l != s0.ctx.config.node_id) else {
        return Err(not_leader("no controller leader is known yet".into()));
    };
    let Some(net) = s0.net() else {
        return Err(not_leader("not in cluster mode".into()));
    };
    let reply = super::call_group(
        &net,
        leader,
        super::QUORUM_GROUP,
        Bytes::new(),
        FORWARD_TIMEOUT,
    )
    .await
    .map_err(|e| not_leader(format!("controller leader {leader}: {e}")))?;
    serde_json::from_slice::<QuorumReport>(&reply)
        .map_err(|e| not_leader(format!("controller leader {leader} answered badly: {e}")))
}

/// Answers a peer's question at [`QUORUM_GROUP`](super::QUORUM_GROUP) (on
/// shard 0): the report, if this broker leads the controller group.
pub async fn serve(s0: &Rc<Shard>) -> Result<Bytes, String> {
    let c = s0
        .controller()
        .ok_or("the controller is not running here")?;
    let view = c
        .quorum_view()
        .await
        .ok_or("this broker does not lead the controller group")?;
    serde_json::to_vec(&from_view(&view, now_ms()))
        .map(Bytes::from)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tidemark_raft::MemberProgress;

    #[test]
    fn leader_view_to_report() {
        let view = QuorumView {
            leader: 2,
            term: 7,
            high_watermark: 40,
            members: vec![
                MemberProgress {
                    node: 2,
                    voter: true,
                    log_end_offset: Some(41),
                    last_ack_ago: Some(Duration::ZERO),
                    caught_up_ago: Some(Duration::ZERO),
                },
                MemberProgress {
                    node: 1,
                    voter: true,
                    log_end_offset: Some(40),
                    last_ack_ago: Some(Duration::from_millis(150)),
                    caught_up_ago: Some(Duration::from_millis(300)),
                },
                MemberProgress {
                    node: 4,
                    voter: false,
                    log_end_offset: None,
                    last_ack_ago: None,
                    caught_up_ago: None,
                },
            ],
        };
        let r = from_view(&view, 10_000);
        assert_eq!((r.leader, r.epoch, r.high_watermark), (2, 7, 40));
        assert_eq!(
            r.members[1],
            Member {
                id: 1,
                voter: true,
                log_end_offset: 40,
                last_fetch_ms: 9_850,
                last_caught_up_ms: 9_700
            }
        );
        assert_eq!(
            (
                r.members[2].log_end_offset,
                r.members[2].last_fetch_ms,
                r.members[2].voter
            ),
            (-1, -1, false)
        );
        // Round trip through the forwarding encoding.
        let back: QuorumReport = serde_json::from_slice(&serde_json::to_vec(&r).unwrap()).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn single_node_leads_itself() {
        let r = single_node(1, 5, 1000);
        assert_eq!((r.leader, r.high_watermark), (1, 5));
        assert_eq!(r.members.len(), 1);
        assert!(r.members[0].voter);
        assert_eq!(r.members[0].log_end_offset, 5);
    }
}
