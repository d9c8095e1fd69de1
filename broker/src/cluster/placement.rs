//! Replica placement: which brokers host each partition of a new topic.
//!
//! As Kafka's rack-aware assignment: brokers are listed alternating
//! between racks, partition `p` starts at position `start + p` of that
//! list (so preferred leaders, the first replicas, spread evenly), and
//! its other replicas are the next brokers on racks not used yet by the
//! partition (any unused broker once every rack is used).

use std::collections::{BTreeMap, BTreeSet};

/// Assigns `rf` replicas to each of `count` partitions numbered from
/// `first`, over `brokers` (id, rack). `start` rotates the list (the
/// caller picks it at random so topics do not all lead on one broker).
/// `None` if there are fewer brokers than `rf`.
pub fn assign(
    brokers: &[(i32, Option<String>)],
    first: i32,
    count: i32,
    rf: usize,
    start: usize,
) -> Option<Vec<Vec<i32>>> {
    if rf == 0 || brokers.len() < rf {
        return None;
    }
    let list = interleave_racks(brokers);
    let n = list.len();
    let rack_of: BTreeMap<i32, Option<&String>> =
        brokers.iter().map(|(id, r)| (*id, r.as_ref())).collect();
    let mut out = Vec::with_capacity(count.max(0) as usize);
    for p in first..first + count {
        let at = (start + p as usize) % n;
        let mut chosen = vec![list[at]];
        let mut racks: BTreeSet<Option<&String>> = BTreeSet::from([rack_of[&list[at]]]);
        // Distinct racks first, then anyone not chosen.
        for distinct in [true, false] {
            for k in 1..n {
                if chosen.len() == rf {
                    break;
                }
                let b = list[(at + k) % n];
                if chosen.contains(&b) || (distinct && racks.contains(&rack_of[&b])) {
                    continue;
                }
                chosen.push(b);
                racks.insert(rack_of[&b]);
            }
        }
        out.push(chosen);
    }
    Some(out)
}

/// The broker to take the replica at position `at` of `replicas` when its
/// broker is decommissioned: one of `candidates` (id, rack) not among
/// `replicas`, on a rack the other replicas do not use if there is one,
/// then with the fewest replicas (`load`), then the lowest id, so the
/// choice is deterministic (it is made while applying a controller
/// record). `None` if no candidate is left.
pub fn replacement(
    replicas: &[i32],
    at: usize,
    candidates: &[(i32, Option<String>)],
    racks: &BTreeMap<i32, Option<String>>,
    load: &BTreeMap<i32, usize>,
) -> Option<i32> {
    let used: BTreeSet<Option<&String>> = replicas
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at)
        .map(|(_, r)| racks.get(r).and_then(|x| x.as_ref()))
        .collect();
    candidates
        .iter()
        .filter(|(id, _)| !replicas.contains(id))
        .min_by_key(|(id, rack)| {
            (
                used.contains(&rack.as_ref()),
                load.get(id).copied().unwrap_or(0),
                *id,
            )
        })
        .map(|(id, _)| *id)
}

/// The broker ids, alternating between racks (racks in name order,
/// brokers by id within a rack; brokers without a rack form one group).
fn interleave_racks(brokers: &[(i32, Option<String>)]) -> Vec<i32> {
    let mut by_rack: BTreeMap<Option<&String>, Vec<i32>> = BTreeMap::new();
    for (id, rack) in brokers {
        by_rack.entry(rack.as_ref()).or_default().push(*id);
    }
    for ids in by_rack.values_mut() {
        ids.sort_unstable();
    }
    let mut out = Vec::with_capacity(brokers.len());
    let longest = by_rack.values().map(Vec::len).max().unwrap_or(0);
    for i in 0..longest {
        for ids in by_rack.values() {
            if let Some(id) = ids.get(i) {
                out.push(*id);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(id: i32, rack: &str) -> (i32, Option<String>) {
        (id, Some(rack.to_string()))
    }

    #[test]
    fn replicas_go_to_distinct_racks_and_leaders_spread() {
        let brokers = [
            b(1, "a"),
            b(2, "a"),
            b(3, "b"),
            b(4, "b"),
            b(5, "c"),
            b(6, "c"),
        ];
        let a = assign(&brokers, 0, 60, 3, 0).unwrap();
        let rack = |id: i32| brokers.iter().find(|x| x.0 == id).unwrap().1.clone();
        let mut leaders = BTreeMap::new();
        for r in &a {
            assert_eq!(r.len(), 3);
            let racks: BTreeSet<_> = r.iter().map(|&id| rack(id)).collect();
            assert_eq!(racks.len(), 3, "{r:?}");
            *leaders.entry(r[0]).or_insert(0) += 1;
        }
        assert_eq!(leaders.len(), 6);
        assert!(leaders.values().all(|&c| c == 10), "{leaders:?}");
    }

    #[test]
    fn a_replacement_prefers_an_unused_rack_then_the_least_loaded() {
        let brokers = [b(1, "a"), b(2, "a"), b(3, "b"), b(4, "c"), b(5, "c")];
        let racks: BTreeMap<i32, Option<String>> = brokers.iter().cloned().collect();
        let cands: Vec<_> = brokers.iter().filter(|x| x.0 != 1).cloned().collect();
        let load = BTreeMap::from([(2, 0), (3, 5), (4, 3), (5, 1)]);
        // Replacing broker 1 (rack a) in [1, 3]: rack b is used by 3, so
        // racks a (broker 2) and c are free; broker 2 has the least load.
        assert_eq!(replacement(&[1, 3], 0, &cands, &racks, &load), Some(2));
        // In [1, 2, 3] racks a and b are used: c, least loaded is 5.
        assert_eq!(replacement(&[1, 2, 3], 0, &cands, &racks, &load), Some(5));
        // Nobody left.
        assert_eq!(
            replacement(&[1, 2, 3, 4, 5], 0, &cands, &racks, &load),
            None
        );
    }

    #[test]
    fn fewer_racks_than_replicas_still_fills_and_too_few_brokers_fails() {
        let brokers = [b(1, "a"), b(2, "a"), b(3, "b")];
        let a = assign(&brokers, 0, 3, 3, 1).unwrap();
        for r in &a {
            let set: BTreeSet<_> = r.iter().collect();
            assert_eq!(set.len(), 3);
        }
        assert!(assign(&brokers, 0, 1, 4, 0).is_none());
        let plain = [(7, None), (8, None)];
        assert_eq!(
            assign(&plain, 2, 2, 2, 0).unwrap(),
            vec![vec![7, 8], vec![8, 7]]
        );
    }
}
