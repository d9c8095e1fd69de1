//! Share sessions (KIP-932): per member of a share group, the partitions
//! its ShareFetch requests read, kept on the shard whose connection the
//! member talks to, like fetch sessions. Epoch 0 opens a session (a
//! member's earlier session is replaced), -1 closes it, anything else
//! must be the session's next epoch: a request that repeats or skips one
//! gets INVALID_SHARE_SESSION_EPOCH, one without a session
//! SHARE_SESSION_NOT_FOUND, and the client starts over at 0.
//!
//! At most [`MAX_SESSIONS`] sessions per shard; one idle longer than its
//! group's `share.session.timeout.ms` is dropped when room is needed (its
//! member's records return when their locks expire).

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use kafka_protocol::ErrorCode;
use uuid::Uuid;

/// Share sessions one shard keeps (Kafka's `group.share.max.share.sessions`
/// default is 2000 per broker).
pub const MAX_SESSIONS: usize = 2000;

#[derive(Debug, Clone)]
pub struct Session {
    pub epoch: i32,
    /// The partitions read, in the order they were added.
    pub partitions: Vec<(Uuid, i32)>,
    last_used: Instant,
    idle_limit: Duration,
}

thread_local! {
    static SESSIONS: RefCell<HashMap<(String, String), Session>> = RefCell::new(HashMap::new());
}

/// The epoch after `e` (wrapping past i32::MAX to 1, as Kafka's).
pub fn next_epoch(e: i32) -> i32 {
    if e == i32::MAX { 1 } else { e + 1 }
}

/// What a request's epoch did to the member's session.
#[derive(Debug)]
pub enum Opened {
    /// A new session; the partitions of the session it replaced, if any.
    New { replaced: Option<Vec<(Uuid, i32)>> },
    /// The session went on at its next epoch.
    Continued,
    /// The session was closed (epoch -1); its partitions.
    Closed { partitions: Vec<(Uuid, i32)> },
}

/// Applies a request's session epoch, adding `add` and removing `forget`.
pub fn open(
    group: &str,
    member: &str,
    epoch: i32,
    add: &[(Uuid, i32)],
    forget: &[(Uuid, i32)],
    idle_limit: Duration,
) -> Result<Opened, ErrorCode> {
    SESSIONS.with(|s| {
        let mut s = s.borrow_mut();
        let k = (group.to_string(), member.to_string());
        let now = Instant::now();
        match epoch {
            0 => {
                if !s.contains_key(&k) && s.len() >= MAX_SESSIONS {
                    s.retain(|_, v| now.duration_since(v.last_used) < v.idle_limit);
                    if s.len() >= MAX_SESSIONS {
                        return Err(ErrorCode::ShareSessionLimitReached);
                    }
                }
                let mut partitions: Vec<(Uuid, i32)> = Vec::new();
                for tp in add {
                    if !partitions.contains(tp) {
                        partitions.push(*tp);
                    }
                }
                let old = s.insert(
                    k,
                    Session {
                        epoch: 1,
                        partitions,
                        last_used: now,
                        idle_limit,
                    },
                );
                Ok(Opened::New {
                    replaced: old.map(|o| o.partitions),
                })
            }
            -1 => match s.remove(&k) {
                Some(old) => Ok(Opened::Closed {
                    partitions: old.partitions,
                }),
                None => Err(ErrorCode::ShareSessionNotFound),
            },
            e => {
                let Some(sess) = s.get_mut(&k) else {
                    return Err(ErrorCode::ShareSessionNotFound);
                };
                if sess.epoch != e {
                    return Err(ErrorCode::InvalidShareSessionEpoch);
                }
                sess.epoch = next_epoch(e);
                sess.last_used = now;
                for tp in add {
                    if !sess.partitions.contains(tp) {
                        sess.partitions.push(*tp);
                    }
                }
                sess.partitions.retain(|tp| !forget.contains(tp));
                Ok(Opened::Continued)
            }
        }
    })
}

/// The session's partitions.
pub fn partitions(group: &str, member: &str) -> Vec<(Uuid, i32)> {
    SESSIONS.with(|s| {
        s.borrow()
            .get(&(group.to_string(), member.to_string()))
            .map(|x| x.partitions.clone())
            .unwrap_or_default()
    })
}

/// Sessions open on this shard (for tests and describe).
pub fn count() -> usize {
    SESSIONS.with(|s| s.borrow().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epochs_must_follow_each_other() {
        let t = Uuid::new_v4();
        let idle = Duration::from_secs(45);
        assert!(matches!(
            open("g", "m", 5, &[], &[], idle),
            Err(ErrorCode::ShareSessionNotFound)
        ));
        assert!(matches!(
            open("g", "m", 0, &[(t, 0)], &[], idle),
            Ok(Opened::New { replaced: None })
        ));
        assert!(matches!(
            open("g", "m", 2, &[], &[], idle),
            Err(ErrorCode::InvalidShareSessionEpoch)
        ));
        assert!(matches!(
            open("g", "m", 1, &[(t, 1)], &[], idle),
            Ok(Opened::Continued)
        ));
        assert_eq!(partitions("g", "m"), vec![(t, 0), (t, 1)]);
        assert!(matches!(
            open("g", "m", 2, &[], &[(t, 0)], idle),
            Ok(Opened::Continued)
        ));
        assert_eq!(partitions("g", "m"), vec![(t, 1)]);
        match open("g", "m", -1, &[], &[], idle) {
            Ok(Opened::Closed { partitions }) => assert_eq!(partitions, vec![(t, 1)]),
            other => panic!("{other:?}"),
        }
        assert_eq!(next_epoch(i32::MAX), 1);
    }
}
