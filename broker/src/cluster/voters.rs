//! Which brokers vote in the controller group once a voter leaves it.
//!
//! The controller group starts with the `--seeds` as voters; every other
//! broker is a learner (it receives the metadata log but does not vote).
//! A decommissioned voter must stop voting before it is removed from the
//! cluster: otherwise the quorum keeps counting a broker that is about to
//! be switched off, and one more failure takes the controller down.
//!
//! The leaving voter is replaced by a learner when one can take its place
//! (registered, unfenced, neither in maintenance nor being decommissioned
//! itself, and caught up with the log), so the quorum keeps its size and
//! its tolerance of failures. Among those, a broker in the leaving
//! voter's rack comes first (the voters' spread over zones stays as the
//! operator laid it out), then one in the rack with the fewest voters,
//! then the lowest id. A fit learner not seen caught up lately (a new
//! leader has not heard from it yet) is waited for rather than passed
//! over. With no fit learner at all the group shrinks by one voter; the
//! last voter cannot leave until another broker can take its place.

use std::collections::{BTreeMap, BTreeSet};

use crate::metadata::BrokerMeta;

/// What to do next to take a voter out of the controller group.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// Make these the voters.
    Voters(BTreeSet<i32>),
    /// A learner could take the leaving voter's place but has not been
    /// seen caught up lately (a new leader has not heard from it yet):
    /// ask again shortly rather than shrink the group.
    WaitForCatchUp,
    /// `leaving` is the only voter and no learner can take its place.
    OnlyVoter,
}

/// The next step to take `leaving` out of `voters`. `caught_up(n)`:
/// learner `n` holds the log as of a moment ago (the leader's view).
pub fn without(
    brokers: &BTreeMap<i32, BrokerMeta>,
    voters: &BTreeSet<i32>,
    learners: &BTreeSet<i32>,
    leaving: i32,
    caught_up: impl Fn(i32) -> bool,
) -> Next {
    let mut kept: BTreeSet<i32> = voters.iter().copied().filter(|v| *v != leaving).collect();
    let rack_of = |n: i32| brokers.get(&n).and_then(|b| b.rack.clone());
    let leaving_rack = rack_of(leaving);
    let mut voters_per_rack: BTreeMap<Option<String>, usize> = BTreeMap::new();
    for v in &kept {
        *voters_per_rack.entry(rack_of(*v)).or_default() += 1;
    }
    let fit: Vec<i32> = learners
        .iter()
        .copied()
        .filter(|n| *n != leaving && !kept.contains(n))
        .filter(|n| {
            brokers
                .get(n)
                .is_some_and(|b| !b.fenced && !b.maintenance && !b.decommissioning)
        })
        .collect();
    let replacement = fit
        .iter()
        .copied()
        .filter(|n| caught_up(*n))
        .min_by_key(|n| {
            let rack = rack_of(*n);
            (
                rack != leaving_rack,
                voters_per_rack.get(&rack).copied().unwrap_or(0),
                *n,
            )
        });
    match replacement {
        Some(r) => {
            kept.insert(r);
            Next::Voters(kept)
        }
        None if !fit.is_empty() => Next::WaitForCatchUp,
        None if kept.is_empty() => Next::OnlyVoter,
        None => Next::Voters(kept),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn broker(id: i32, rack: &str) -> BrokerMeta {
        BrokerMeta {
            id,
            host: "127.0.0.1".into(),
            port: 9000 + id as u16,
            rack: (!rack.is_empty()).then(|| rack.to_string()),
            rpc_addr: String::new(),
            fenced: false,
            listeners: Vec::new(),
            maintenance: false,
            decommissioning: false,
            incarnation: 0,
        }
    }

    fn meta(brokers: Vec<BrokerMeta>) -> BTreeMap<i32, BrokerMeta> {
        brokers.into_iter().map(|b| (b.id, b)).collect()
    }

    fn set(ids: &[i32]) -> BTreeSet<i32> {
        ids.iter().copied().collect()
    }

    #[test]
    fn a_caught_up_learner_takes_the_leaving_voters_place() {
        let m = meta(vec![
            broker(1, ""),
            broker(2, ""),
            broker(3, ""),
            broker(4, ""),
        ]);
        let got = without(&m, &set(&[1, 2, 3]), &set(&[4]), 3, |_| true);
        assert_eq!(got, Next::Voters(set(&[1, 2, 4])));
    }

    #[test]
    fn the_leaving_voters_rack_comes_first_then_the_emptiest_rack() {
        let m = meta(vec![
            broker(1, "a"),
            broker(2, "b"),
            broker(3, "c"),
            broker(4, "a"),
            broker(5, "c"),
            broker(6, "d"),
        ]);
        let learners = set(&[4, 5, 6]);
        assert_eq!(
            without(&m, &set(&[1, 2, 3]), &learners, 3, |_| true),
            Next::Voters(set(&[1, 2, 5]))
        );
        // Rack c has no learner left: rack d (no voter) before rack a.
        assert_eq!(
            without(&m, &set(&[1, 2, 3]), &set(&[4, 6]), 3, |_| true),
            Next::Voters(set(&[1, 2, 6]))
        );
    }

    #[test]
    fn unfit_learners_are_passed_over_and_the_group_shrinks_without_a_fit_one() {
        let mut fenced = broker(4, "");
        fenced.fenced = true;
        let mut resting = broker(5, "");
        resting.maintenance = true;
        let mut leaving_too = broker(6, "");
        leaving_too.decommissioning = true;
        let m = meta(vec![
            broker(1, ""),
            broker(2, ""),
            broker(3, ""),
            fenced,
            resting,
            leaving_too,
            broker(7, ""),
        ]);
        // 8 is not registered; 7 is fit but has not been seen caught up.
        let learners = set(&[4, 5, 6, 7, 8]);
        let got = without(&m, &set(&[1, 2, 3]), &learners, 2, |n| n != 7);
        assert_eq!(got, Next::WaitForCatchUp);
        let got = without(&m, &set(&[1, 2, 3]), &set(&[4, 5, 6, 8]), 2, |_| true);
        assert_eq!(got, Next::Voters(set(&[1, 3])));
    }

    #[test]
    fn the_only_voter_waits_for_a_replacement() {
        let m = meta(vec![broker(1, ""), broker(2, "")]);
        assert_eq!(
            without(&m, &set(&[1]), &set(&[]), 1, |_| true),
            Next::OnlyVoter
        );
        assert_eq!(
            without(&m, &set(&[1]), &set(&[2]), 1, |_| false),
            Next::WaitForCatchUp
        );
        assert_eq!(
            without(&m, &set(&[1]), &set(&[2]), 1, |_| true),
            Next::Voters(set(&[2]))
        );
    }
}
