//! Share groups' membership (KIP-932): members join, heartbeat and leave
//! with ShareGroupHeartbeat; the coordinator assigns partitions so that
//! every subscribed partition has at least one member and every member
//! at least one partition when there are enough, and several members
//! share a partition when there are more members than partitions (the
//! records of a partition are then split between them by the
//! share-partition leader, [`crate::share::leader`]). Share groups have
//! no revocation phase: a new assignment holds at once.
//!
//! Membership is kept in memory on the coordinator's shard: after a
//! coordinator change or restart, members find themselves unknown
//! (UNKNOWN_MEMBER_ID) and join again with epoch 0, which the share
//! consumer does on its own. What must survive, the delivery state, is
//! durable in `__share_group_state` ([`crate::share::coordinator`]).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use kafka_protocol::ErrorCode;
use uuid::Uuid;

use super::consumer_protocol::{Refusal, TopicInfo};

/// A member's assignment: topic id -> partitions.
pub type ShareAssignment = BTreeMap<Uuid, BTreeSet<i32>>;

#[derive(Debug, Clone)]
pub struct ShareMember {
    pub id: String,
    pub epoch: i32,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub subscribed: BTreeSet<String>,
    pub assignment: ShareAssignment,
    pub last_seen: Instant,
}

#[derive(Debug, Clone)]
pub struct ShareGroup {
    pub id: String,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    pub members: BTreeMap<String, ShareMember>,
    /// The subscribed topics' (name, id, partition count) the current
    /// assignment was computed from.
    pub computed_for: Vec<(String, Uuid, i32)>,
    /// Partitions whose share-partition was started (initialized) for
    /// the group since this coordinator loaded it.
    pub initialized: BTreeSet<(Uuid, i32)>,
}

/// What a heartbeat asks.
#[derive(Debug, Clone)]
pub struct ShareHeartbeat {
    pub member_id: String,
    pub epoch: i32,
    pub rack_id: Option<String>,
    pub topic_names: Option<Vec<String>>,
    pub client_id: String,
    pub client_host: String,
}

/// What a heartbeat is answered.
#[derive(Debug, Clone)]
pub struct ShareHeartbeatOutcome {
    pub member_id: String,
    pub epoch: i32,
    /// Sent when the member's assignment changed (or on joining).
    pub assignment: Option<ShareAssignment>,
}

fn refusal(code: ErrorCode, message: String) -> Refusal {
    Refusal { code, message }
}

impl ShareGroup {
    pub fn new(id: String) -> Self {
        ShareGroup {
            id,
            group_epoch: 0,
            assignment_epoch: 0,
            members: BTreeMap::new(),
            computed_for: Vec::new(),
            initialized: BTreeSet::new(),
        }
    }

    /// Kafka's share group states: Empty, Stable (no reconciliation
    /// phase), Dead once deleted.
    pub fn state_name(&self) -> &'static str {
        if self.members.is_empty() {
            "Empty"
        } else {
            "Stable"
        }
    }

    /// Every topic any member subscribes to, as it is in the metadata now.
    fn subscription_view(&self, topics: &[TopicInfo]) -> Vec<(String, Uuid, i32)> {
        let names: BTreeSet<&String> = self.members.values().flat_map(|m| &m.subscribed).collect();
        let mut v: Vec<(String, Uuid, i32)> = topics
            .iter()
            .filter(|t| names.contains(&t.name))
            .map(|t| (t.name.clone(), t.id, t.partitions))
            .collect();
        v.sort();
        v
    }

    pub fn heartbeat(
        &mut self,
        hb: ShareHeartbeat,
        topics: &[TopicInfo],
        max_size: usize,
        now: Instant,
    ) -> Result<ShareHeartbeatOutcome, Refusal> {
        let mut changed = false;
        match hb.epoch {
            -1 => {
                if self.members.remove(&hb.member_id).is_some() {
                    self.group_epoch += 1;
                    self.reassign(topics);
                }
                return Ok(ShareHeartbeatOutcome {
                    member_id: hb.member_id,
                    epoch: -1,
                    assignment: None,
                });
            }
            0 => {
                if !self.members.contains_key(&hb.member_id) && self.members.len() >= max_size {
                    return Err(refusal(
                        ErrorCode::GroupMaxSizeReached,
                        format!("The share group has reached its maximum size of {max_size}."),
                    ));
                }
                let Some(names) = hb.topic_names.clone() else {
                    return Err(refusal(
                        ErrorCode::InvalidRequest,
                        "SubscribedTopicNames must be set in first request.".into(),
                    ));
                };
                let m = ShareMember {
                    id: hb.member_id.clone(),
                    epoch: 0,
                    rack_id: hb.rack_id.clone(),
                    client_id: hb.client_id.clone(),
                    client_host: hb.client_host.clone(),
                    subscribed: names.into_iter().collect(),
                    assignment: ShareAssignment::new(),
                    last_seen: now,
                };
                self.members.insert(hb.member_id.clone(), m);
                changed = true;
            }
            e => {
                let Some(m) = self.members.get_mut(&hb.member_id) else {
                    return Err(refusal(
                        ErrorCode::UnknownMemberId,
                        format!(
                            "Member {} is not a member of group {}.",
                            hb.member_id, self.id
                        ),
                    ));
                };
                if e != m.epoch {
                    return Err(refusal(
                        ErrorCode::FencedMemberEpoch,
                        format!(
                            "The share group member has a smaller member epoch ({e}) than the one known by the group coordinator ({}). The member must abandon all its partitions and rejoin.",
                            m.epoch
                        ),
                    ));
                }
                m.last_seen = now;
                if let Some(names) = hb.topic_names.clone() {
                    let names: BTreeSet<String> = names.into_iter().collect();
                    if names != m.subscribed {
                        m.subscribed = names;
                        changed = true;
                    }
                }
                if hb.rack_id.is_some() {
                    m.rack_id = hb.rack_id.clone();
                }
            }
        }
        // Topics created, deleted or grown change the assignment too.
        if changed || self.subscription_view(topics) != self.computed_for {
            self.group_epoch += 1;
            self.reassign(topics);
        }
        let m = self
            .members
            .get_mut(&hb.member_id)
            .expect("the member was just found or added");
        let assignment = if m.epoch != self.group_epoch || hb.epoch == 0 {
            m.epoch = self.group_epoch;
            Some(m.assignment.clone())
        } else {
            None
        };
        Ok(ShareHeartbeatOutcome {
            member_id: hb.member_id,
            epoch: m.epoch,
            assignment,
        })
    }

    /// The assigned partitions not started yet, now marked started.
    pub fn take_uninitialized(&mut self) -> Vec<(Uuid, i32)> {
        let mut out = Vec::new();
        for (_, id, partitions) in &self.computed_for {
            for p in 0..*partitions {
                if self.initialized.insert((*id, p)) {
                    out.push((*id, p));
                }
            }
        }
        out
    }

    /// Removes members silent longer than `timeout`; returns their ids.
    pub fn expire(&mut self, timeout: Duration, topics: &[TopicInfo], now: Instant) -> Vec<String> {
        let gone: Vec<String> = self
            .members
            .values()
            .filter(|m| now.duration_since(m.last_seen) > timeout)
            .map(|m| m.id.clone())
            .collect();
        if !gone.is_empty() {
            for id in &gone {
                self.members.remove(id);
            }
            self.group_epoch += 1;
            self.reassign(topics);
        }
        gone
    }

    /// Computes every member's assignment from the subscriptions: per
    /// topic, its partitions and its subscribers (by member id) are
    /// paired round robin over max(partitions, subscribers) slots, so
    /// each partition has a member, each member a partition when there
    /// are enough, and extra members share partitions evenly.
    fn reassign(&mut self, topics: &[TopicInfo]) {
        self.computed_for = self.subscription_view(topics);
        for m in self.members.values_mut() {
            m.assignment.clear();
        }
        for (name, id, partitions) in self.computed_for.clone() {
            if partitions <= 0 {
                continue;
            }
            let subscribers: Vec<String> = self
                .members
                .values()
                .filter(|m| m.subscribed.contains(&name))
                .map(|m| m.id.clone())
                .collect();
            if subscribers.is_empty() {
                continue;
            }
            let slots = (partitions as usize).max(subscribers.len());
            // Rotate by topic so one member does not get every topic's
            // first partition.
            let rot = (id.as_u128() % subscribers.len() as u128) as usize;
            for i in 0..slots {
                let p = (i % partitions as usize) as i32;
                let who = &subscribers[(i + rot) % subscribers.len()];
                if let Some(m) = self.members.get_mut(who) {
                    m.assignment.entry(id).or_default().insert(p);
                }
            }
        }
        self.assignment_epoch = self.group_epoch;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topic(name: &str, partitions: i32) -> TopicInfo {
        TopicInfo {
            name: name.into(),
            id: Uuid::from_u128(name.len() as u128 * 7 + 3),
            partitions,
        }
    }

    fn join(
        g: &mut ShareGroup,
        id: &str,
        topics: &[TopicInfo],
        names: &[&str],
    ) -> ShareHeartbeatOutcome {
        g.heartbeat(
            ShareHeartbeat {
                member_id: id.into(),
                epoch: 0,
                rack_id: None,
                topic_names: Some(names.iter().map(|s| s.to_string()).collect()),
                client_id: "c".into(),
                client_host: "/127.0.0.1".into(),
            },
            topics,
            100,
            Instant::now(),
        )
        .unwrap()
    }

    #[test]
    fn more_members_than_partitions_share_them() {
        let topics = vec![topic("t", 2)];
        let mut g = ShareGroup::new("g".into());
        for m in ["a", "b", "c", "d", "e"] {
            join(&mut g, m, &topics, &["t"]);
        }
        let mut count = BTreeMap::new();
        for m in g.members.values() {
            let ps = &m.assignment[&topics[0].id];
            assert_eq!(ps.len(), 1, "every member gets one partition");
            for p in ps {
                *count.entry(*p).or_insert(0) += 1;
            }
        }
        assert_eq!(count.len(), 2);
        assert!(count.values().all(|&n| n == 2 || n == 3));
    }

    #[test]
    fn fewer_members_split_partitions_and_epochs_fence() {
        let topics = vec![topic("t", 6)];
        let mut g = ShareGroup::new("g".into());
        let a = join(&mut g, "a", &topics, &["t"]);
        assert_eq!(a.assignment.unwrap()[&topics[0].id].len(), 6);
        join(&mut g, "b", &topics, &["t"]);
        let all: BTreeSet<i32> = g
            .members
            .values()
            .flat_map(|m| m.assignment[&topics[0].id].clone())
            .collect();
        assert_eq!(all.len(), 6);
        assert!(
            g.members
                .values()
                .all(|m| m.assignment[&topics[0].id].len() == 3)
        );
        // a's old epoch is fenced; its current one gets the new assignment.
        let stale = g.heartbeat(
            ShareHeartbeat {
                member_id: "a".into(),
                epoch: a.epoch + 5,
                rack_id: None,
                topic_names: None,
                client_id: "c".into(),
                client_host: "h".into(),
            },
            &topics,
            100,
            Instant::now(),
        );
        assert_eq!(stale.unwrap_err().code, ErrorCode::FencedMemberEpoch);
        let hb = |g: &mut ShareGroup, epoch: i32| {
            g.heartbeat(
                ShareHeartbeat {
                    member_id: "a".into(),
                    epoch,
                    rack_id: None,
                    topic_names: None,
                    client_id: "c".into(),
                    client_host: "h".into(),
                },
                &topics,
                100,
                Instant::now(),
            )
            .unwrap()
        };
        // a learns of b's arrival: a new epoch and its halved assignment.
        let cur = g.members["a"].epoch;
        let moved = hb(&mut g, cur);
        assert_eq!(moved.epoch, g.group_epoch);
        assert_eq!(moved.assignment.unwrap()[&topics[0].id].len(), 3);
        let again = hb(&mut g, moved.epoch);
        assert!(
            again.assignment.is_none(),
            "unchanged assignment is not resent"
        );
    }

    #[test]
    fn expiry_and_leaving_reassign() {
        let topics = vec![topic("t", 2)];
        let mut g = ShareGroup::new("g".into());
        join(&mut g, "a", &topics, &["t"]);
        join(&mut g, "b", &topics, &["t"]);
        let later = Instant::now() + Duration::from_secs(10);
        let gone = g.expire(Duration::from_secs(5), &topics, later);
        assert_eq!(gone.len(), 2);
        assert_eq!(g.state_name(), "Empty");
    }
}
