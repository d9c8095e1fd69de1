//! [`GroupConsumer`]: a member of a classic consumer group (JoinGroup,
//! SyncGroup, Heartbeat, LeaveGroup, protocol type "consumer", the range
//! assignor), reading its partitions with a [`Fetcher`] from the committed
//! offsets (else `auto_offset_reset`). Heartbeats run on a background
//! thread so a slow caller between polls does not lose the membership;
//! rebalances happen inside `poll`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bytes::{BufMut, Bytes, BytesMut};
use kafka_protocol::generated::consumer_protocol_assignment::TopicPartition as AssignedTopic;
use kafka_protocol::generated::join_group_request::JoinGroupRequestProtocol;
use kafka_protocol::generated::leave_group_request::MemberIdentity;
use kafka_protocol::generated::sync_group_request::SyncGroupRequestAssignment;
use kafka_protocol::generated::{
    ConsumerProtocolAssignment, ConsumerProtocolSubscription, HeartbeatRequest, JoinGroupRequest,
    LeaveGroupRequest, SyncGroupRequest,
};
use kafka_protocol::{ApiKey, Encoder, ErrorCode, Message};

use super::fetcher::{ConsumedRecord, Fetcher, FetcherConfig, OffsetReset, StartOffset};
use crate::admin::{decode_assignment, decode_subscription};
use crate::client::{Client, Route};
use crate::conn::Conn;
use crate::error::Error;

/// Group membership settings (Kafka's consumer names in the docs).
#[derive(Debug, Clone)]
pub struct GroupConfig {
    pub group_id: String,
    /// `session.timeout.ms`: the coordinator drops a silent member then.
    pub session_timeout_ms: u64,
    /// `max.poll.interval.ms` as the rebalance timeout: how long a join may take.
    pub rebalance_timeout_ms: u64,
    /// `heartbeat.interval.ms`.
    pub heartbeat_interval_ms: u64,
    /// `group.instance.id` (static membership).
    pub instance_id: Option<String>,
    /// `enable.auto.commit` with `auto.commit.interval.ms`.
    pub auto_commit: bool,
    pub auto_commit_interval_ms: u64,
    /// Fetch settings, including `auto_offset_reset` for partitions
    /// without a committed offset.
    pub fetch: FetcherConfig,
}

impl GroupConfig {
    pub fn new(group_id: impl Into<String>) -> Self {
        GroupConfig {
            group_id: group_id.into(),
            session_timeout_ms: 45_000,
            rebalance_timeout_ms: 60_000,
            heartbeat_interval_ms: 3_000,
            instance_id: None,
            auto_commit: false,
            auto_commit_interval_ms: 5_000,
            fetch: FetcherConfig::default(),
        }
    }
}

#[derive(Debug, Clone, Default)]
struct Member {
    member_id: String,
    generation: i32,
    /// Set by the heartbeat thread (or a failed commit): rejoin in poll.
    rejoin: bool,
    /// Joined and synced at least once with the current subscription.
    active: bool,
}

/// A classic consumer group member.
pub struct GroupConsumer {
    client: Client,
    cfg: GroupConfig,
    topics: Vec<String>,
    fetcher: Fetcher,
    member: Arc<Mutex<Member>>,
    stop: Arc<AtomicBool>,
    heartbeat: Option<JoinHandle<()>>,
    last_commit: Instant,
    /// This member's own connection to the coordinator for JoinGroup and
    /// SyncGroup, which the coordinator holds for up to the rebalance
    /// timeout: brokers answer a connection's requests in order, so on a
    /// shared connection a parked join would hold back every other
    /// member's heartbeats (and with them the rebalance it waits for).
    join_conn: Option<(i32, Arc<Conn>)>,
}

/// A connection of the caller's own to the group's coordinator (not the
/// client's shared one), reused while the coordinator stays the same.
fn private_coordinator_conn(
    client: &Client,
    group: &str,
    slot: &mut Option<(i32, Arc<Conn>)>,
) -> Result<Arc<Conn>, Error> {
    let node = client.group_coordinator(group)?;
    if let Some((n, c)) = slot
        && *n == node
        && !c.is_dead()
    {
        return Ok(c.clone());
    }
    let c = client.connect_node(node)?;
    *slot = Some((node, c.clone()));
    Ok(c)
}

const PROTOCOL_TYPE: &str = "consumer";
const ASSIGNOR: &str = "range";

fn encode_versioned<M: Message>(m: &M, version: i16) -> Result<Bytes, Error> {
    let mut e = Encoder::new();
    m.encode(&mut e, version)?;
    let body = e.to_bytes();
    let mut b = BytesMut::with_capacity(2 + body.len());
    b.put_i16(version);
    b.put_slice(&body);
    Ok(b.freeze())
}

/// Kafka's RangeAssignor: per topic, members subscribed to it sorted by
/// id; each gets `partitions / members` consecutive partitions, the first
/// `partitions % members` one more.
pub fn range_assign(
    members: &[(String, Vec<String>)],
    partitions: &BTreeMap<String, i32>,
) -> BTreeMap<String, Vec<(String, i32)>> {
    let mut out: BTreeMap<String, Vec<(String, i32)>> = members
        .iter()
        .map(|(m, _)| (m.clone(), Vec::new()))
        .collect();
    for (topic, &n) in partitions {
        let mut subs: Vec<&String> = members
            .iter()
            .filter(|(_, ts)| ts.contains(topic))
            .map(|(m, _)| m)
            .collect();
        subs.sort();
        if subs.is_empty() || n <= 0 {
            continue;
        }
        let per = n / subs.len() as i32;
        let extra = n % subs.len() as i32;
        let mut next = 0;
        for (i, m) in subs.into_iter().enumerate() {
            let count = per + i32::from((i as i32) < extra);
            let list = out.entry(m.clone()).or_default();
            for p in next..next + count {
                list.push((topic.clone(), p));
            }
            next += count;
        }
    }
    out
}

impl GroupConsumer {
    /// A member of `cfg.group_id`; it joins on the first `poll` after
    /// [`GroupConsumer::subscribe`].
    pub fn new(client: Client, cfg: GroupConfig) -> Result<GroupConsumer, Error> {
        if cfg.group_id.is_empty() {
            return Err(Error::Config("a group consumer needs a group id".into()));
        }
        let fetcher = Fetcher::new(client.clone(), cfg.fetch.clone());
        let member = Arc::new(Mutex::new(Member {
            generation: -1,
            ..Default::default()
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let heartbeat = {
            let (client, member, stop) = (client.clone(), member.clone(), stop.clone());
            let (group, instance, interval) = (
                cfg.group_id.clone(),
                cfg.instance_id.clone(),
                cfg.heartbeat_interval_ms,
            );
            std::thread::Builder::new()
                .name(format!("tmk-heartbeat-{group}"))
                .spawn(move || heartbeat_loop(&client, &group, instance, interval, &member, &stop))
                .map_err(|e| Error::Io {
                    broker: "heartbeat thread".into(),
                    source: e,
                })?
        };
        Ok(GroupConsumer {
            client,
            cfg,
            topics: Vec::new(),
            fetcher,
            member,
            stop,
            heartbeat: Some(heartbeat),
            last_commit: Instant::now(),
            join_conn: None,
        })
    }

    /// Sets the subscribed topics; the group rebalances on the next poll.
    pub fn subscribe(&mut self, topics: Vec<String>) -> Result<(), Error> {
        self.topics = topics;
        self.topics.sort();
        self.topics.dedup();
        if let Ok(mut m) = self.member.lock() {
            m.rejoin = true;
        }
        Ok(())
    }

    /// This member's partitions.
    pub fn assignment(&self) -> Vec<(String, i32)> {
        self.fetcher.assignment()
    }

    pub fn member_id(&self) -> String {
        self.member
            .lock()
            .map(|m| m.member_id.clone())
            .unwrap_or_default()
    }

    pub fn generation(&self) -> i32 {
        self.member.lock().map(|m| m.generation).unwrap_or(-1)
    }

    /// Joins or rejoins when needed, then fetches (at most `timeout_ms`).
    pub fn poll(&mut self, timeout_ms: u64) -> Result<Vec<ConsumedRecord>, Error> {
        let deadline = Instant::now() + Duration::from_millis(timeout_ms);
        let rejoin = self
            .member
            .lock()
            .map(|m| m.rejoin || !m.active)
            .unwrap_or(true);
        if rejoin && !self.topics.is_empty() {
            if self.cfg.auto_commit && !self.fetcher.assignment().is_empty() {
                let _ = self.commit();
            }
            self.join()?;
        }
        if self.cfg.auto_commit
            && self.last_commit.elapsed() >= Duration::from_millis(self.cfg.auto_commit_interval_ms)
            && let Err(e) = self.commit()
        {
            tracing::debug!(error = %e, "auto commit failed");
        }
        let left = deadline
            .saturating_duration_since(Instant::now())
            .as_millis() as u64;
        self.fetcher.poll(left)
    }

    /// Commits the current positions of every assigned partition.
    pub fn commit(&mut self) -> Result<(), Error> {
        let offsets: Vec<(String, i32, i64)> = self
            .fetcher
            .positions()
            .into_iter()
            .filter_map(|((t, p), pos)| pos.map(|o| (t, p, o)))
            .collect();
        self.commit_offsets(&offsets)
    }

    /// Commits given offsets (the next offset to read, as Kafka's).
    pub fn commit_offsets(&mut self, offsets: &[(String, i32, i64)]) -> Result<(), Error> {
        if offsets.is_empty() {
            return Ok(());
        }
        let (member_id, generation) = self
            .member
            .lock()
            .map(|m| (m.member_id.clone(), m.generation))
            .unwrap_or_default();
        let results =
            self.client
                .offset_commit_as(&self.cfg.group_id, generation, &member_id, offsets)?;
        self.last_commit = Instant::now();
        for (_, r) in results {
            if let Err(e) = r {
                if matches!(
                    e.kafka_code(),
                    Some(
                        ErrorCode::RebalanceInProgress
                            | ErrorCode::IllegalGeneration
                            | ErrorCode::UnknownMemberId
                    )
                ) && let Ok(mut m) = self.member.lock()
                {
                    m.rejoin = true;
                }
                return Err(e);
            }
        }
        Ok(())
    }

    fn join(&mut self) -> Result<(), Error> {
        let group = self.cfg.group_id.clone();
        let subscription = encode_versioned(
            &ConsumerProtocolSubscription {
                topics: self.topics.clone(),
                ..Default::default()
            },
            0,
        )?;
        let join_timeout_ms =
            self.cfg.rebalance_timeout_ms + self.client.config().request_timeout_ms;
        let mut attempt = 0u32;
        let max_attempts = self.client.config().retries + 3;
        loop {
            attempt += 1;
            if attempt > max_attempts {
                return Err(Error::Timeout {
                    what: format!("joining group {group}"),
                    after_ms: join_timeout_ms,
                });
            }
            let member_id = self
                .member
                .lock()
                .map(|m| m.member_id.clone())
                .unwrap_or_default();
            let conn = match private_coordinator_conn(&self.client, &group, &mut self.join_conn) {
                Ok(c) => c,
                Err(e) if e.is_retriable() => {
                    self.client.backoff(attempt);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let v = conn.version_for(ApiKey::JoinGroup)?;
            let req = JoinGroupRequest {
                group_id: group.clone(),
                session_timeout_ms: self.cfg.session_timeout_ms.min(i32::MAX as u64) as i32,
                rebalance_timeout_ms: self.cfg.rebalance_timeout_ms.min(i32::MAX as u64) as i32,
                member_id: member_id.clone(),
                group_instance_id: if v >= 5 {
                    self.cfg.instance_id.clone()
                } else {
                    None
                },
                protocol_type: PROTOCOL_TYPE.into(),
                protocols: vec![JoinGroupRequestProtocol {
                    name: ASSIGNOR.into(),
                    metadata: subscription.clone(),
                    ..Default::default()
                }],
                ..Default::default()
            };
            let resp = match conn.request(&req, v, join_timeout_ms) {
                Ok(r) => r,
                Err(e) if e.is_retriable() => {
                    self.client.backoff(attempt);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let code =
                ErrorCode::from_code(resp.error_code).unwrap_or(ErrorCode::UnknownServerError);
            match code {
                ErrorCode::None => {}
                ErrorCode::MemberIdRequired => {
                    if let Ok(mut m) = self.member.lock() {
                        m.member_id = resp.member_id.clone();
                    }
                    continue;
                }
                ErrorCode::UnknownMemberId => {
                    if let Ok(mut m) = self.member.lock() {
                        m.member_id.clear();
                    }
                    continue;
                }
                ErrorCode::NotCoordinator | ErrorCode::CoordinatorNotAvailable => {
                    self.join_conn = None;
                    self.client.forget_group_coordinator(&group);
                    self.client.backoff(attempt);
                    continue;
                }
                c if c.is_retriable() || c == ErrorCode::RebalanceInProgress => {
                    self.client.backoff(attempt);
                    continue;
                }
                _ => {
                    Error::check(resp.error_code, None, format!("joining group {group}"))?;
                }
            }
            let my_id = resp.member_id.clone();
            let generation = resp.generation_id;
            let assignments = if resp.leader == my_id {
                self.leader_assign(&resp.members)?
            } else {
                Vec::new()
            };
            let sv = conn.version_for(ApiKey::SyncGroup)?;
            let sync = SyncGroupRequest {
                group_id: group.clone(),
                generation_id: generation,
                member_id: my_id.clone(),
                group_instance_id: if sv >= 3 {
                    self.cfg.instance_id.clone()
                } else {
                    None
                },
                protocol_type: if sv >= 5 {
                    Some(PROTOCOL_TYPE.into())
                } else {
                    None
                },
                protocol_name: if sv >= 5 { Some(ASSIGNOR.into()) } else { None },
                assignments,
                ..Default::default()
            };
            let sresp = match conn.request(&sync, sv, join_timeout_ms) {
                Ok(r) => r,
                Err(e) if e.is_retriable() => {
                    self.client.backoff(attempt);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let scode =
                ErrorCode::from_code(sresp.error_code).unwrap_or(ErrorCode::UnknownServerError);
            match scode {
                ErrorCode::None => {}
                ErrorCode::RebalanceInProgress | ErrorCode::IllegalGeneration => continue,
                ErrorCode::UnknownMemberId => {
                    if let Ok(mut m) = self.member.lock() {
                        m.member_id.clear();
                    }
                    continue;
                }
                ErrorCode::NotCoordinator | ErrorCode::CoordinatorNotAvailable => {
                    self.join_conn = None;
                    self.client.forget_group_coordinator(&group);
                    self.client.backoff(attempt);
                    continue;
                }
                c if c.is_retriable() => {
                    self.client.backoff(attempt);
                    continue;
                }
                _ => Error::check(sresp.error_code, None, format!("syncing group {group}"))?,
            }
            let assigned: Vec<(String, i32)> = if sresp.assignment.is_empty() {
                Vec::new()
            } else {
                decode_assignment(&sresp.assignment)
                    .ok_or_else(|| {
                        Error::Protocol(format!("undecodable assignment from group {group}"))
                    })?
                    .assigned_partitions
                    .into_iter()
                    .flat_map(|t| {
                        let topic = t.topic;
                        t.partitions.into_iter().map(move |p| (topic.clone(), p))
                    })
                    .collect()
            };
            if let Ok(mut m) = self.member.lock() {
                m.member_id = my_id;
                m.generation = generation;
                m.rejoin = false;
                m.active = true;
            }
            self.start_from_committed(assigned)?;
            return Ok(());
        }
    }

    /// The leader's part of a rebalance: range-assign every member's
    /// subscription.
    fn leader_assign(
        &self,
        members: &[kafka_protocol::generated::join_group_response::JoinGroupResponseMember],
    ) -> Result<Vec<SyncGroupRequestAssignment>, Error> {
        let subs: Vec<(String, Vec<String>)> = members
            .iter()
            .map(|m| {
                (
                    m.member_id.clone(),
                    decode_subscription(&m.metadata)
                        .map(|s| s.topics)
                        .unwrap_or_default(),
                )
            })
            .collect();
        let mut all: Vec<String> = subs.iter().flat_map(|(_, t)| t.iter().cloned()).collect();
        all.sort();
        all.dedup();
        let mut counts = BTreeMap::new();
        for t in all {
            match self.client.topic(&t) {
                Ok(info) => {
                    counts.insert(t, info.partitions.len() as i32);
                }
                Err(e) => tracing::warn!(topic = t, error = %e, "subscribed topic not assignable"),
            }
        }
        let plan = range_assign(&subs, &counts);
        plan.into_iter()
            .map(|(member, parts)| {
                let mut by_topic: BTreeMap<String, Vec<i32>> = BTreeMap::new();
                for (t, p) in parts {
                    by_topic.entry(t).or_default().push(p);
                }
                let a = ConsumerProtocolAssignment {
                    assigned_partitions: by_topic
                        .into_iter()
                        .map(|(topic, partitions)| AssignedTopic {
                            topic,
                            partitions,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                };
                Ok(SyncGroupRequestAssignment {
                    member_id: member,
                    assignment: encode_versioned(&a, 0)?,
                    ..Default::default()
                })
            })
            .collect()
    }

    /// Positions from the committed offsets, else `auto_offset_reset`.
    fn start_from_committed(&mut self, assigned: Vec<(String, i32)>) -> Result<(), Error> {
        let mut by_topic: BTreeMap<String, Vec<i32>> = BTreeMap::new();
        for (t, p) in &assigned {
            by_topic.entry(t.clone()).or_default().push(*p);
        }
        let q: Vec<(String, Vec<i32>)> = by_topic.into_iter().collect();
        let committed: BTreeMap<(String, i32), i64> = if q.is_empty() {
            BTreeMap::new()
        } else {
            self.client
                .offset_fetch(&self.cfg.group_id, Some(&q))?
                .into_iter()
                .filter_map(|(tp, r)| r.ok().map(|c| (tp, c.offset)))
                .collect()
        };
        let mut starts = Vec::new();
        for (t, p) in assigned {
            let start = match committed.get(&(t.clone(), p)) {
                Some(&o) if o >= 0 => StartOffset::Offset(o),
                _ => match self.cfg.fetch.auto_offset_reset {
                    OffsetReset::Earliest => StartOffset::Earliest,
                    OffsetReset::Latest => StartOffset::Latest,
                    OffsetReset::None => {
                        return Err(Error::Kafka {
                            code: ErrorCode::OffsetOutOfRange,
                            message: Some("no committed offset and auto.offset.reset=none".into()),
                            context: format!("group {}, {t}/{p}", self.cfg.group_id),
                        });
                    }
                },
            };
            starts.push((t, p, start));
        }
        self.fetcher.assign_only(starts)
    }

    /// Commits (if auto-commit is on), leaves the group, stops heartbeats.
    pub fn close(mut self) -> Result<(), Error> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> Result<(), Error> {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.heartbeat.take() {
            let _ = h.join();
        }
        let mut result = Ok(());
        let (member_id, active) = self
            .member
            .lock()
            .map(|m| (m.member_id.clone(), m.active))
            .unwrap_or_default();
        if active && !member_id.is_empty() {
            if self.cfg.auto_commit {
                result = self.commit();
            }
            let route = Route::GroupCoordinator(self.cfg.group_id.clone());
            let r = self.client.resolve(&route).and_then(|conn| {
                // v3+ names the leaving members in a list; before, one member id.
                let v = conn.version_for(ApiKey::LeaveGroup)?;
                let mut req = LeaveGroupRequest {
                    group_id: self.cfg.group_id.clone(),
                    ..Default::default()
                };
                if v >= 3 {
                    req.members = vec![MemberIdentity {
                        member_id,
                        group_instance_id: self.cfg.instance_id.clone(),
                        ..Default::default()
                    }];
                } else {
                    req.member_id = member_id;
                }
                self.client.send_to_version(route.clone(), req, v)
            });
            if let Ok(mut m) = self.member.lock() {
                m.active = false;
            }
            if result.is_ok() {
                result = r.and_then(|r| {
                    Error::check(
                        r.error_code,
                        None,
                        format!("leaving group {}", self.cfg.group_id),
                    )
                });
            }
        }
        result
    }
}

impl Drop for GroupConsumer {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

fn heartbeat_loop(
    client: &Client,
    group: &str,
    instance: Option<String>,
    interval_ms: u64,
    member: &Mutex<Member>,
    stop: &AtomicBool,
) {
    let interval = Duration::from_millis(interval_ms.max(10));
    let mut next = Instant::now() + interval;
    let mut conn: Option<(i32, Arc<Conn>)> = None;
    while !stop.load(Ordering::SeqCst) {
        if Instant::now() < next {
            std::thread::sleep(Duration::from_millis(20).min(interval));
            continue;
        }
        next = Instant::now() + interval;
        let (member_id, generation, active) = match member.lock() {
            Ok(m) => (m.member_id.clone(), m.generation, m.active && !m.rejoin),
            Err(_) => return,
        };
        if !active {
            continue;
        }
        let r = private_coordinator_conn(client, group, &mut conn).and_then(|c| {
            let v = c.version_for(ApiKey::Heartbeat)?;
            c.request(
                &HeartbeatRequest {
                    group_id: group.to_string(),
                    generation_id: generation,
                    member_id,
                    group_instance_id: if v >= 3 { instance.clone() } else { None },
                    ..Default::default()
                },
                v,
                client.config().request_timeout_ms,
            )
        });
        if let Ok(r) = &r
            && matches!(
                ErrorCode::from_code(r.error_code),
                Some(ErrorCode::NotCoordinator | ErrorCode::CoordinatorNotAvailable)
            )
        {
            client.forget_group_coordinator(group);
            conn = None;
        }
        let code = match r {
            Ok(r) => ErrorCode::from_code(r.error_code).unwrap_or(ErrorCode::UnknownServerError),
            Err(e) => {
                tracing::debug!(group, error = %e, "heartbeat failed");
                continue;
            }
        };
        let Ok(mut m) = member.lock() else { return };
        // An answer about a generation the member has already left (it
        // rejoined while this heartbeat was in flight) says nothing about
        // the current one; acting on it would start a needless rebalance.
        if m.generation != generation || m.rejoin {
            continue;
        }
        match code {
            ErrorCode::None => {}
            ErrorCode::RebalanceInProgress | ErrorCode::IllegalGeneration => {
                m.rejoin = true;
            }
            ErrorCode::UnknownMemberId | ErrorCode::FencedInstanceId => {
                m.rejoin = true;
                m.member_id.clear();
                m.generation = -1;
            }
            c => tracing::debug!(group, error = c.name(), "heartbeat error"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_assignor_matches_kafka() {
        let members = vec![
            ("b".to_string(), vec!["t".to_string(), "u".to_string()]),
            ("a".to_string(), vec!["t".to_string()]),
        ];
        let counts: BTreeMap<String, i32> = [("t".to_string(), 5), ("u".to_string(), 2)]
            .into_iter()
            .collect();
        let plan = range_assign(&members, &counts);
        assert_eq!(
            plan["a"],
            vec![
                ("t".to_string(), 0),
                ("t".to_string(), 1),
                ("t".to_string(), 2)
            ]
        );
        assert_eq!(
            plan["b"],
            vec![
                ("t".to_string(), 3),
                ("t".to_string(), 4),
                ("u".to_string(), 0),
                ("u".to_string(), 1)
            ]
        );
    }

    #[test]
    fn consumer_protocol_round_trip() {
        let s = ConsumerProtocolSubscription {
            topics: vec!["x".into()],
            ..Default::default()
        };
        let b = encode_versioned(&s, 0).unwrap();
        assert_eq!(
            decode_subscription(&b).unwrap().topics,
            vec!["x".to_string()]
        );
        assert!(decode_assignment(&Bytes::from_static(&[0])).is_none());
    }
}
