//! Share group administration shared by the admin APIs and DeleteGroups:
//! what the coordinator knows of a group, forgetting cached
//! share-partitions, deleting a group's share state.

use std::collections::BTreeSet;
use std::rc::Rc;

use kafka_protocol::ErrorCode;
use uuid::Uuid;

use super::coordinator as state;
use super::records::ShareKey;
use crate::groups::{self, coordinator};
use crate::shard::Shard;

/// What the coordinator knows of a share group.
pub struct GroupView {
    /// Whether the group is a share group here at all.
    pub exists: bool,
    pub members: usize,
    /// The partitions of the topics its members subscribe to.
    pub partitions: Vec<(Uuid, i32)>,
}

/// Looks the group up on its coordinator shard; `Err`: the group's error.
pub async fn view(shard: &Rc<Shard>, group: &str) -> Result<GroupView, ErrorCode> {
    let route = groups::route(shard, group).await?;
    let id = group.to_string();
    let (exists, other_type, members, partitions) = shard
        .submit_to(route.shard, move |_s| async move {
            let c = coordinator();
            let c = c.borrow();
            let other = c.consumer_groups.contains_key(&id)
                || c.groups.get(&id).is_some_and(|g| !g.members.is_empty());
            match c.share_groups.get(&id) {
                Some(g) => (
                    true,
                    other,
                    g.members.len(),
                    g.computed_for
                        .iter()
                        .flat_map(|(_, t, n)| (0..*n).map(move |p| (*t, p)))
                        .collect(),
                ),
                None => (false, other, 0, Vec::new()),
            }
        })
        .await
        .map_err(|_| ErrorCode::CoordinatorNotAvailable)?;
    if other_type {
        return Err(ErrorCode::GroupIdNotFound);
    }
    Ok(GroupView {
        exists,
        members,
        partitions,
    })
}

/// Drops this broker's cached share-partitions of `group` on every shard.
pub async fn forget_everywhere(shard: &Rc<Shard>, group: &str) {
    for target in 0..shard.shard_count() {
        let g = group.to_string();
        let _ = shard
            .submit_to(target, move |_s| async move {
                crate::share::leader::forget_group(&g)
            })
            .await;
    }
}

/// DeleteGroups of a share group (on any shard): refused while it has
/// members; otherwise its share-partitions' state and the group go.
pub async fn delete_group(shard: &Rc<Shard>, group: &str) -> Option<ErrorCode> {
    let v = match view(shard, group).await {
        Ok(v) => v,
        Err(_) => return None,
    };
    let mut keys: BTreeSet<(Uuid, i32)> = v.partitions.iter().copied().collect();
    keys.extend(
        state::group_keys(shard, group)
            .await
            .into_iter()
            .map(|k| (k.topic_id, k.partition)),
    );
    if !v.exists && keys.is_empty() {
        return None;
    }
    if v.members > 0 {
        return Some(ErrorCode::NonEmptyGroup);
    }
    for (topic_id, partition) in keys {
        let key = ShareKey {
            group_id: group.to_string(),
            topic_id,
            partition,
        };
        if let Err(code) = state::delete(shard, key).await {
            return Some(code);
        }
    }
    forget_everywhere(shard, group).await;
    if let Ok(route) = groups::route(shard, group).await {
        let g = group.to_string();
        let _ = shard
            .submit_to(route.shard, move |_s| async move {
                let c = coordinator();
                let mut c = c.borrow_mut();
                if c.share_groups.get(&g).is_some_and(|x| x.members.is_empty()) {
                    c.share_groups.remove(&g);
                }
            })
            .await;
    }
    Some(ErrorCode::None)
}
