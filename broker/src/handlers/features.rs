//! Feature flags (KIP-584): what ApiVersions v3+ reports as supported and
//! finalized features, and UpdateFeatures (API 57).
//!
//! Tidemark's features are fixed by its code: each is supported at
//! exactly the level it is finalized at, and UpdateFeatures can only
//! confirm that level (a no-op, as Kafka's controller does for an update
//! to the current level); any other level is refused the way Kafka's
//! controller refuses a level outside the supported range
//! (`FeatureControlManager`): INVALID_UPDATE_VERSION, the whole request
//! failing, with Kafka's message plus the reason Tidemark cannot do it.
//!
//! The levels, and why:
//! * `metadata.version` 29 (4.2-IV1): the newest protocol Tidemark speaks
//!   is Kafka 4.2's (ListOffsets v11 is tied to 4.2-IV1, Fetch v18 to
//!   4.1-IV1, share groups' `share.version` 1 to 4.2-IV0).
//! * `kraft.version` 0: the controller voters are the `--seeds`, changed
//!   only when a decommission replaces one (`cluster/voters.rs`); no
//!   KIP-853 dynamic quorum (AddRaftVoter, RemoveRaftVoter).
//! * `group.version` 1: KIP-848 consumer groups (ConsumerGroupHeartbeat).
//! * `transaction.version` 2: transactions v2 (KIP-890). It tells the Java
//!   client (4.0+) and franz-go to end each transaction with EndTxn v5,
//!   which bumps the producer epoch, and to let Produce v12+ and
//!   TxnOffsetCommit v5 add their partitions; clients that speak only
//!   transactions v1 (librdkafka, kafka-python, kafkajs) ignore the
//!   feature and keep working (`txn::state`).
//! * `share.version` 1: share groups (KIP-932). A Kafka 4.2 broker serves
//!   share groups only with this level finalized, so a tool that asks
//!   whether a cluster has them looks here.
//!
//! Not listed (so unsupported, as Kafka reads a missing feature):
//! `streams.version` (KIP-1071 streams groups) and
//! `eligible.leader.replicas.version` (KIP-966), neither built.

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::api_versions_response::{FinalizedFeatureKey, SupportedFeatureKey};
use kafka_protocol::generated::update_features_response::UpdatableFeatureResult;
use kafka_protocol::generated::{
    ApiVersionsResponse, UpdateFeaturesRequest, UpdateFeaturesResponse,
};

use crate::acl::{Authz, op};
use crate::shard::Shard;

/// One feature: its supported range (here one level) and finalized level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Feature {
    pub name: &'static str,
    pub min: i16,
    pub max: i16,
    pub finalized: i16,
    /// Why no other level can be set (appended to the refusal).
    pub why_fixed: &'static str,
}

/// Kafka 4.2-IV1's `metadata.version` feature level.
pub const METADATA_VERSION_4_2_IV1: i16 = 29;

pub const FEATURES: &[Feature] = &[
    Feature {
        name: "metadata.version",
        min: METADATA_VERSION_4_2_IV1,
        max: METADATA_VERSION_4_2_IV1,
        finalized: METADATA_VERSION_4_2_IV1,
        why_fixed: "Tidemark implements the protocol of Kafka 4.2 (metadata.version 4.2-IV1) and no other.",
    },
    Feature {
        name: "kraft.version",
        min: 0,
        max: 0,
        finalized: 0,
        why_fixed: "Tidemark's controller quorum is the fixed set of --seeds voters; dynamic quorums (KIP-853) are not implemented.",
    },
    Feature {
        name: "group.version",
        min: 1,
        max: 1,
        finalized: 1,
        why_fixed: "Tidemark always serves KIP-848 consumer groups; they cannot be turned off.",
    },
    Feature {
        name: "transaction.version",
        min: 2,
        max: 2,
        finalized: 2,
        why_fixed: "Tidemark always serves transactions v2 (KIP-890) beside v1; the level cannot be lowered.",
    },
    Feature {
        name: "share.version",
        min: 1,
        max: 1,
        finalized: 1,
        why_fixed: "Tidemark always serves share groups (KIP-932); they cannot be turned off.",
    },
];

/// The finalized features' epoch. Kafka's is the metadata offset at
/// which they were last read; Tidemark's features never change at run
/// time, only with its code, so the epoch is a constant raised whenever a
/// release changes a finalized level. Clients keep the features of the
/// highest epoch they have seen (the Java client ignores an epoch not
/// above the one it has), so during a rolling upgrade they settle on the
/// newer release's set, and no broker's answer ever moves them back.
/// Not the controller's metadata offset: that differs from broker to
/// broker and moves with every topic change, while the features do not.
pub const FINALIZED_FEATURES_EPOCH: i64 = 2;

pub fn find(name: &str) -> Option<&'static Feature> {
    FEATURES.iter().find(|f| f.name == name)
}

/// Fills ApiVersions v3+'s feature fields as Kafka does: below v4 a
/// feature whose supported minimum is 0 is left out (older clients cannot
/// read it, KAFKA-17492); a feature finalized at level 0 is not listed as
/// finalized.
pub fn fill_api_versions(resp: &mut ApiVersionsResponse, version: i16) {
    if version < 3 {
        return;
    }
    resp.supported_features = FEATURES
        .iter()
        .filter(|f| version >= 4 || f.min != 0)
        .map(|f| SupportedFeatureKey {
            name: f.name.into(),
            min_version: f.min,
            max_version: f.max,
            ..Default::default()
        })
        .collect();
    resp.finalized_features = FEATURES
        .iter()
        .filter(|f| f.finalized != 0)
        .map(|f| FinalizedFeatureKey {
            name: f.name.into(),
            max_version_level: f.finalized,
            min_version_level: f.finalized,
            ..Default::default()
        })
        .collect();
    resp.finalized_features_epoch = FINALIZED_FEATURES_EPOCH;
    resp.zk_migration_ready = false;
}

/// Kafka's `FeatureUpdate.UpgradeType` codes.
pub mod upgrade_type {
    pub const UPGRADE: i8 = 1;
    pub const SAFE_DOWNGRADE: i8 = 2;
    pub const UNSAFE_DOWNGRADE: i8 = 3;
}

/// Kafka's `VersionRange.toString`.
fn range(min: i16, max: i16) -> String {
    if min == max {
        min.to_string()
    } else {
        format!("{min}-{max}")
    }
}

/// The decision on one update (Kafka's `FeatureControlManager.updateFeature`
/// with Tidemark's fixed ranges): `Ok` for a no-op, else the message of
/// INVALID_UPDATE_VERSION. `node`: this broker, Kafka's "local controller".
pub fn decide(node: i32, name: &str, level: i16, upgrade: i8) -> Result<(), String> {
    let invalid = |reason: String| {
        Err(format!(
            "Invalid update version {level} for feature {name}. {reason}"
        ))
    };
    if !matches!(
        upgrade,
        upgrade_type::UPGRADE | upgrade_type::SAFE_DOWNGRADE | upgrade_type::UNSAFE_DOWNGRADE
    ) {
        return invalid("The controller does not support the given upgrade type.".into());
    }
    if level < 0 {
        return invalid("A feature version cannot be less than 0.".into());
    }
    let Some(f) = find(name) else {
        return invalid(format!(
            "Local controller {node} does not support this feature."
        ));
    };
    if level < f.min || level > f.max {
        let what = if f.max == 0 {
            format!("Local controller {node} does not support this feature.")
        } else {
            format!(
                "Local controller {node} only supports versions {}.",
                range(f.min, f.max)
            )
        };
        return invalid(format!("{what} {}", f.why_fixed));
    }
    // Within the range means at the finalized level: nothing to change.
    Ok(())
}

/// The upgrade type of an update: v0's `AllowDowngrade` read as Kafka's
/// `UpdateFeaturesRequest.getFeature` does.
fn upgrade_of(
    u: &kafka_protocol::generated::update_features_request::FeatureUpdateKey,
    version: i16,
) -> i8 {
    if version == 0 {
        if u.allow_downgrade {
            upgrade_type::SAFE_DOWNGRADE
        } else {
            upgrade_type::UPGRADE
        }
    } else {
        u.upgrade_type
    }
}

/// Decides a whole request: the first refusal fails every update, as in
/// Kafka (the message names the feature at fault).
pub fn decide_all(node: i32, req: &UpdateFeaturesRequest, version: i16) -> Result<(), String> {
    for u in &req.feature_updates {
        decide(
            node,
            &u.feature,
            u.max_version_level,
            upgrade_of(u, version),
        )
        .map_err(|m| {
            format!(
                "The update failed for all features since the following feature had an error: {m}"
            )
        })?;
    }
    Ok(())
}

/// UpdateFeatures: ALTER on the cluster; all updates or none. Nothing is
/// ever written (an accepted update keeps the level it names), so
/// `validate_only` and a real update answer alike.
pub fn update(
    shard: &Shard,
    req: &UpdateFeaturesRequest,
    version: i16,
    authz: &Authz<'_>,
) -> UpdateFeaturesResponse {
    if !authz.cluster(op::ALTER) {
        return UpdateFeaturesResponse {
            error_code: ErrorCode::ClusterAuthorizationFailed.code(),
            error_message: Some(ErrorCode::ClusterAuthorizationFailed.message().into()),
            ..Default::default()
        };
    }
    match decide_all(shard.ctx.config.node_id, req, version) {
        Err(message) => UpdateFeaturesResponse {
            error_code: ErrorCode::InvalidUpdateVersion.code(),
            error_message: Some(message),
            ..Default::default()
        },
        // Per-feature results only below v2, as Kafka.
        Ok(()) => UpdateFeaturesResponse {
            error_message: None,
            results: if version <= 1 {
                req.feature_updates
                    .iter()
                    .map(|u| UpdatableFeatureResult {
                        feature: u.feature.clone(),
                        error_code: 0,
                        error_message: None,
                        ..Default::default()
                    })
                    .collect()
            } else {
                Vec::new()
            },
            ..Default::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_protocol::generated::update_features_request::FeatureUpdateKey;

    #[test]
    fn current_levels_are_no_ops() {
        for f in FEATURES {
            for t in [
                upgrade_type::UPGRADE,
                upgrade_type::SAFE_DOWNGRADE,
                upgrade_type::UNSAFE_DOWNGRADE,
            ] {
                assert_eq!(decide(1, f.name, f.finalized, t), Ok(()), "{}", f.name);
            }
        }
    }

    #[test]
    fn lowering_the_transaction_version_is_refused() {
        let e = decide(3, "transaction.version", 0, upgrade_type::SAFE_DOWNGRADE).unwrap_err();
        assert!(
            e.starts_with(
                "Invalid update version 0 for feature transaction.version. Local controller 3 only supports versions 2."
            ),
            "{e}"
        );
        assert!(e.contains("transactions v2 (KIP-890)"), "{e}");
    }

    #[test]
    fn metadata_version_changes_are_refused() {
        let e = decide(1, "metadata.version", 28, upgrade_type::SAFE_DOWNGRADE).unwrap_err();
        assert!(
            e.contains("Local controller 1 only supports versions 29."),
            "{e}"
        );
        assert!(decide(1, "metadata.version", 30, upgrade_type::UPGRADE).is_err());
        assert!(decide(1, "group.version", 0, upgrade_type::SAFE_DOWNGRADE).is_err());
        assert!(decide(1, "share.version", 0, upgrade_type::UNSAFE_DOWNGRADE).is_err());
    }

    #[test]
    fn kafka_checks_come_first() {
        let e = decide(1, "metadata.version", 29, 0).unwrap_err();
        assert!(e.ends_with("The controller does not support the given upgrade type."));
        let e = decide(1, "group.version", -1, upgrade_type::SAFE_DOWNGRADE).unwrap_err();
        assert!(e.ends_with("A feature version cannot be less than 0."));
        let e = decide(1, "streams.version", 1, upgrade_type::UPGRADE).unwrap_err();
        assert!(e.ends_with("Local controller 1 does not support this feature."));
    }

    #[test]
    fn one_refusal_fails_the_request() {
        let req = |updates: Vec<(&str, i16)>| UpdateFeaturesRequest {
            feature_updates: updates
                .into_iter()
                .map(|(f, l)| FeatureUpdateKey {
                    feature: f.into(),
                    max_version_level: l,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        assert_eq!(
            decide_all(
                1,
                &req(vec![("group.version", 1), ("metadata.version", 29)]),
                1
            ),
            Ok(())
        );
        let e =
            decide_all(1, &req(vec![("group.version", 1), ("kraft.version", 1)]), 1).unwrap_err();
        assert!(e.starts_with(
            "The update failed for all features since the following feature had an error: Invalid update version 1 for feature kraft.version."
        ), "{e}");
        // v0: AllowDowngrade picks the upgrade type.
        let mut r = req(vec![("group.version", 1)]);
        r.feature_updates[0].allow_downgrade = true;
        r.feature_updates[0].upgrade_type = 0;
        assert_eq!(decide_all(1, &r, 0), Ok(()));
        assert!(decide_all(1, &r, 1).is_err());
    }

    #[test]
    fn api_versions_fields() {
        let mut v3 = ApiVersionsResponse::default();
        fill_api_versions(&mut v3, 3);
        let names: Vec<&str> = v3
            .supported_features
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "metadata.version",
                "group.version",
                "transaction.version",
                "share.version"
            ]
        );
        let mut v4 = ApiVersionsResponse::default();
        fill_api_versions(&mut v4, 4);
        assert_eq!(v4.supported_features.len(), 5);
        let fin: Vec<(&str, i16)> = v4
            .finalized_features
            .iter()
            .map(|f| (f.name.as_str(), f.max_version_level))
            .collect();
        assert_eq!(
            fin,
            [
                ("metadata.version", 29),
                ("group.version", 1),
                ("transaction.version", 2),
                ("share.version", 1)
            ]
        );
        assert_eq!(v4.finalized_features_epoch, FINALIZED_FEATURES_EPOCH);
        let mut v2 = ApiVersionsResponse::default();
        fill_api_versions(&mut v2, 2);
        assert!(v2.supported_features.is_empty());
        assert_eq!(v2.finalized_features_epoch, -1);
    }
}
