//! Incremental fetch sessions (KIP-227): a consumer names its partitions
//! once, then each Fetch carries only what changed, and the broker answers
//! only for partitions whose data or offsets changed.
//!
//! Sessions belong to the shard that serves the connection. A client that
//! reconnects to another shard presents an id this shard does not know and
//! gets FETCH_SESSION_ID_NOT_FOUND, on which every client falls back to a
//! full fetch, as the protocol intends.

use std::collections::HashMap;

use uuid::Uuid;

/// Kafka's default of `max.incremental.fetch.session.cache.slots`: the
/// most sessions the broker keeps. Each shard keeps its share (the
/// setting divided among the shards, rounded up); past it the least
/// recently used is evicted.
pub const MAX_SESSIONS: usize = 1000;

/// One shard's share of `max.incremental.fetch.session.cache.slots`
/// (read-only, as in Kafka): 0 with 0 slots, when no session is kept.
pub fn shard_slots(settings: &crate::settings::Settings, shards: usize) -> usize {
    let slots =
        usize::try_from(settings.i64("max.incremental.fetch.session.cache.slots")).unwrap_or(0);
    slots.div_ceil(shards.max(1))
}

/// A partition in a session, as the client last asked for it and as the
/// broker last described it.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionPartition {
    pub topic: String,
    pub topic_id: Uuid,
    pub partition: i32,
    pub fetch_offset: i64,
    pub max_bytes: i32,
    pub current_leader_epoch: i32,
    /// What the last response said (to decide whether to send it again).
    pub last_hw: i64,
    pub last_lso: i64,
    pub last_log_start: i64,
}

#[derive(Debug, Clone)]
pub struct Session {
    /// The epoch the next request must carry.
    pub next_epoch: i32,
    /// Partitions in the order they were added (responses keep it).
    pub partitions: Vec<SessionPartition>,
    last_used: u64,
}

impl Session {
    pub fn new(partitions: Vec<SessionPartition>) -> Self {
        Session {
            next_epoch: 1,
            partitions,
            last_used: 0,
        }
    }

    /// Adds or updates `p` (keyed by topic id, or name when ids are nil).
    pub fn upsert(&mut self, p: SessionPartition) {
        match self
            .partitions
            .iter_mut()
            .find(|x| same(x, &p.topic, p.topic_id, p.partition))
        {
            Some(x) => {
                x.fetch_offset = p.fetch_offset;
                x.max_bytes = p.max_bytes;
                x.current_leader_epoch = p.current_leader_epoch;
            }
            None => self.partitions.push(p),
        }
    }

    pub fn forget(&mut self, topic: &str, topic_id: Uuid, partition: i32) {
        self.partitions
            .retain(|x| !same(x, topic, topic_id, partition));
    }
}

fn same(x: &SessionPartition, topic: &str, topic_id: Uuid, partition: i32) -> bool {
    x.partition == partition
        && if topic_id.is_nil() {
            x.topic == topic
        } else {
            x.topic_id == topic_id
        }
}

/// One shard's sessions.
#[derive(Debug, Default)]
pub struct FetchSessions {
    sessions: HashMap<i32, Session>,
    next_id: i32,
    clock: u64,
}

impl FetchSessions {
    /// Stores a new session and returns its id, evicting the least
    /// recently used past `slots`; with no slots none is kept and the id
    /// is 0 (Kafka's INVALID_SESSION_ID: the client goes on with full
    /// fetches).
    pub fn create(&mut self, mut s: Session, shard: usize, slots: usize) -> i32 {
        if slots == 0 {
            return 0;
        }
        while self.sessions.len() >= slots
            && let Some((&oldest, _)) = self.sessions.iter().min_by_key(|(_, s)| s.last_used)
        {
            self.sessions.remove(&oldest);
        }
        // Ids carry the shard in their low bits so they differ across shards.
        loop {
            self.next_id = self.next_id.wrapping_add(1) & 0x00ff_ffff;
            let id = (self.next_id << 7) | (shard as i32 & 0x7f);
            if id > 0 && !self.sessions.contains_key(&id) {
                self.clock += 1;
                s.last_used = self.clock;
                self.sessions.insert(id, s);
                return id;
            }
        }
    }

    pub fn take(&mut self, id: i32) -> Option<Session> {
        self.sessions.remove(&id)
    }

    pub fn put_back(&mut self, id: i32, mut s: Session) {
        self.clock += 1;
        s.last_used = self.clock;
        self.sessions.insert(id, s);
    }

    pub fn remove(&mut self, id: i32) {
        self.sessions.remove(&id);
    }

    pub fn contains(&self, id: i32) -> bool {
        self.sessions.contains_key(&id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(topic: &str, partition: i32) -> SessionPartition {
        SessionPartition {
            topic: topic.into(),
            topic_id: Uuid::nil(),
            partition,
            fetch_offset: 0,
            max_bytes: 1,
            current_leader_epoch: -1,
            last_hw: -1,
            last_lso: -1,
            last_log_start: -1,
        }
    }

    #[test]
    fn sessions_track_partitions_and_evict() {
        let mut s = Session::new(vec![p("a", 0)]);
        let mut q = p("a", 0);
        q.fetch_offset = 5;
        s.upsert(q);
        s.upsert(p("a", 1));
        assert_eq!(s.partitions.len(), 2);
        assert_eq!(s.partitions[0].fetch_offset, 5);
        s.forget("a", Uuid::nil(), 0);
        assert_eq!(s.partitions.len(), 1);

        let mut all = FetchSessions::default();
        let first = all.create(Session::new(vec![]), 3, MAX_SESSIONS);
        assert_eq!(first & 0x7f, 3);
        for _ in 0..MAX_SESSIONS {
            all.create(Session::new(vec![]), 3, MAX_SESSIONS);
        }
        assert!(
            !all.contains(first),
            "the least recently used session is evicted"
        );
        // Fewer slots (the setting lowered) evict down to them; none: no
        // session at all.
        let kept = all.create(Session::new(vec![]), 3, 2);
        assert_eq!(all.sessions.len(), 2);
        assert!(all.contains(kept));
        assert_eq!(all.create(Session::new(vec![]), 3, 0), 0);
    }
}
