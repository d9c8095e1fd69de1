//! Share groups (KIP-932): queues over topics. Many members read one
//! partition, each record is handed to one member at a time under an
//! acquisition lock, and is acknowledged (accepted, released for another
//! delivery, rejected), redelivered when its lock expires, and archived
//! (and dead-lettered, [`dlq`]) once delivered `share.delivery.count.limit`
//! times.
//!
//! | module | what |
//! |---|---|
//! | [`inflight`] | one share-partition's delivery state and its transitions, pure |
//! | [`leader`] | the share-partition leader: on the topic partition's owner shard, acquisition for ShareFetch, acknowledgements, lock expiry, persistence |
//! | [`coordinator`] | the share coordinator: the durable state in `__share_group_state` |
//! | [`records`] | `__share_group_state`'s records in Kafka's byte layout |
//! | [`session`] | share sessions (per member, on its connection's shard) |
//! | [`dlq`] | the dead-letter topic |
//! | [`admin`] | what a group's coordinator knows of it; deleting a group's state |
//!
//! Membership (ShareGroupHeartbeat) is the group coordinator's:
//! [`crate::groups::share_protocol`].

pub mod admin;
pub mod coordinator;
pub mod dlq;
pub mod inflight;
pub mod leader;
pub mod records;
pub mod remote_read;
pub mod session;

use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::shard::Shard;

/// How often share group members' sessions are checked.
const MEMBER_TICK: Duration = Duration::from_millis(500);

/// Per shard, at start-up: lock expiry and member session expiry.
pub fn start(shard: &Rc<Shard>) {
    monoio::spawn(leader::ticker(shard.clone()));
    monoio::spawn(member_ticker(shard.clone()));
}

/// Removes share group members silent for longer than their group's
/// `share.session.timeout.ms`.
async fn member_ticker(shard: Rc<Shard>) {
    loop {
        monoio::select! {
            _ = monoio::time::sleep(MEMBER_TICK) => {}
            _ = shard.stopping() => return,
        }
        let meta = shard.metadata();
        let c = crate::groups::coordinator();
        let mut c = c.borrow_mut();
        if c.share_groups.is_empty() {
            continue;
        }
        let topics = crate::groups::consumer_protocol::topics_of(&meta);
        let now = Instant::now();
        for g in c.share_groups.values_mut() {
            let ms = crate::group_config::get_i64(&meta, &g.id, "share.session.timeout.ms");
            let gone = g.expire(Duration::from_millis(ms.max(1) as u64), &topics, now);
            for m in gone {
                tracing::info!(group = %g.id, member = %m, "share group member expired");
            }
        }
    }
}
