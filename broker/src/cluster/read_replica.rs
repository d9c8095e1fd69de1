//! Follower fetching (KIP-392): which replica a consumer should read a
//! partition from, chosen by the partition's leader.
//!
//! Kafka's `replica.selector.class` names a Java class; Tidemark loads
//! none, so the setting accepts the two classes Kafka ships and means what
//! they do: `RackAwareReplicaSelector` sends a consumer that names its rack
//! (`client.rack`, Fetch v11+) to a replica in that rack, `LeaderSelector`
//! (and the default, no selector) keeps every read on the leader.
//!
//! Invariants:
//! - Only the leader chooses, and only among replicas that can serve the
//!   consumer's offset now: in sync, known to hold the fetch offset (its
//!   acknowledged log end reaches it), alive (not fenced) and reachable on
//!   the consumer's listener. A replica that falls behind afterwards
//!   answers the consumer OFFSET_OUT_OF_RANGE or nothing, and the client
//!   goes back to the leader (Kafka's clients clear the preferred replica
//!   on any error from it).
//! - A follower never serves past its own high watermark, which is never
//!   past what the leader committed (the follower's Raft apply point).

use std::collections::BTreeMap;

use crate::metadata::ClusterMetadata;
use crate::partition::Partition;

/// What the consumer told about itself (Fetch v11+), for the selector.
#[derive(Debug, Clone)]
pub struct ClientSite {
    /// `client.rack`; empty when the consumer has none.
    pub rack: String,
    /// The listener the consumer came in on (the preferred replica must
    /// have an address there, or the client could not reach it).
    pub listener: String,
}

/// A replica the selector may pick: its broker, rack and how far its log
/// is known to reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub id: i32,
    pub rack: Option<String>,
    pub end_offset: i64,
}

/// Kafka's `RackAwareReplicaSelector.select`: the leader unless some
/// candidate is in the client's rack; the leader if it is one of those;
/// else the one whose log reaches furthest (ties: the lowest id, so the
/// choice is stable between fetches).
pub fn choose(client_rack: &str, leader: &Candidate, followers: &[Candidate]) -> i32 {
    if client_rack.is_empty() || leader.rack.as_deref() == Some(client_rack) {
        return leader.id;
    }
    followers
        .iter()
        .filter(|c| c.rack.as_deref() == Some(client_rack))
        .max_by(|a, b| a.end_offset.cmp(&b.end_offset).then(b.id.cmp(&a.id)))
        .map_or(leader.id, |c| c.id)
}

/// On the leader `node_id` of `p`: the replica the consumer at `site`
/// should read `fetch_offset` from, when it is not this broker (`None`:
/// read here).
///
/// Called for every partition of every v11+ consumer fetch the leader
/// serves while the selector is on, so the metadata answers the common
/// cases (no client rack, the leader in it, no replica in it) before the
/// Raft group's follower positions and in-sync set are looked at.
pub fn preferred_read_replica(
    meta: &ClusterMetadata,
    node_id: i32,
    p: &Partition,
    fetch_offset: i64,
    site: &ClientSite,
) -> Option<i32> {
    let rack_of = |id: i32| meta.brokers.get(&id).and_then(|b| b.rack.as_deref());
    if site.rack.is_empty() || rack_of(node_id) == Some(site.rack.as_str()) {
        return None;
    }
    let reachable = |id: i32| {
        meta.brokers.get(&id).is_some_and(|b| {
            !b.fenced
                && (b.listeners.is_empty() || b.listeners.iter().any(|e| e.name == site.listener))
        })
    };
    let replicas = meta
        .topic_by_id(&p.topic_id)?
        .replicas
        .get(usize::try_from(p.index).ok()?)?;
    let in_rack: Vec<i32> = replicas
        .iter()
        .copied()
        .filter(|&id| id != node_id && rack_of(id) == Some(site.rack.as_str()) && reachable(id))
        .collect();
    if in_rack.is_empty() {
        return None;
    }
    // Why a follower in the consumer's rack is passed over is logged at
    // debug level: a consumer reading from the leader where a follower was
    // expected is otherwise hard to explain after the fact.
    let Some(ends): Option<BTreeMap<i32, i64>> = p.follower_end_offsets() else {
        tracing::debug!(topic = %p.topic, partition = p.index, "follower fetch: read from the leader: follower positions unknown");
        return None;
    };
    let Some(isr) = p.in_sync_replicas(super::leadership::REPLICA_LAG_MAX) else {
        tracing::debug!(topic = %p.topic, partition = p.index, "follower fetch: read from the leader: in-sync set unknown");
        return None;
    };
    let leader = Candidate {
        id: node_id,
        rack: rack_of(node_id).map(str::to_string),
        end_offset: p.log.log_end_offset(),
    };
    let followers: Vec<Candidate> = in_rack
        .iter()
        .copied()
        .filter(|id| isr.contains(id))
        .filter_map(|id| {
            let end = *ends.get(&id)?;
            (end >= fetch_offset).then(|| Candidate {
                id,
                rack: Some(site.rack.clone()),
                end_offset: end,
            })
        })
        .collect();
    if followers.is_empty() {
        tracing::debug!(
            topic = %p.topic,
            partition = p.index,
            rack = %site.rack,
            ?in_rack,
            ?isr,
            ?ends,
            fetch_offset,
            "follower fetch: read from the leader: no follower in the rack is in sync and at the fetch offset"
        );
    }
    let chosen = choose(&site.rack, &leader, &followers);
    (chosen != node_id).then_some(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(id: i32, rack: Option<&str>, end: i64) -> Candidate {
        Candidate {
            id,
            rack: rack.map(str::to_string),
            end_offset: end,
        }
    }

    #[test]
    fn no_client_rack_or_leader_in_it_reads_the_leader() {
        let leader = c(1, Some("a"), 10);
        let f = [c(2, Some("b"), 10), c(3, Some("c"), 10)];
        assert_eq!(choose("", &leader, &f), 1);
        assert_eq!(choose("a", &leader, &f), 1);
        // No replica in the client's rack: the leader.
        assert_eq!(choose("z", &leader, &f), 1);
    }

    #[test]
    fn a_follower_in_the_clients_rack_furthest_ahead_wins() {
        let leader = c(1, Some("a"), 10);
        let f = [c(2, Some("b"), 8), c(4, Some("b"), 9), c(3, Some("c"), 10)];
        assert_eq!(choose("b", &leader, &f), 4);
        assert_eq!(choose("c", &leader, &f), 3);
        // Ties go to the lowest id, so the answer is stable.
        let f = [c(5, Some("b"), 9), c(4, Some("b"), 9)];
        assert_eq!(choose("b", &leader, &f), 4);
        // A broker without a rack never matches.
        let f = [c(2, None, 10)];
        assert_eq!(choose("b", &leader, &f), 1);
    }
}
