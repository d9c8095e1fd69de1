//! Which versions of which APIs a broker implements, checked against the
//! schemas, and turned into the ApiVersions response from that one list.
//!
//! The schema side (names, valid and flexible versions) is generated in
//! [`ApiKey`]; the broker declares what it implements with
//! [`SupportedApis::new`]. Advertising an API means it works at every
//! advertised version (DESIGN.md invariant 7), so this list is the single
//! source of truth for ApiVersions.

use crate::generated::ApiKey;
use crate::generated::api_versions_response::ApiVersion;

/// One implemented API and the version range the broker advertises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SupportedApi {
    pub key: ApiKey,
    /// Lowest advertised version.
    pub min: i16,
    /// Highest advertised version.
    pub max: i16,
}

/// The versions a broker implements, one entry per API at most.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SupportedApis {
    entries: Vec<SupportedApi>,
}

/// A supported range that the schemas do not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SupportError {
    #[error("{api}: versions {min}-{max} are outside the schema's {lo}-{hi}")]
    OutsideSchema {
        api: &'static str,
        min: i16,
        max: i16,
        lo: i16,
        hi: i16,
    },
    #[error("{0} is listed twice")]
    Duplicate(&'static str),
}

impl SupportedApis {
    /// Checks every range against the schemas and sorts by key.
    pub fn new(list: &[SupportedApi]) -> Result<Self, SupportError> {
        let mut entries = list.to_vec();
        entries.sort_by_key(|e| e.key);
        for w in entries.windows(2) {
            if w[0].key == w[1].key {
                return Err(SupportError::Duplicate(w[0].key.name()));
            }
        }
        for e in &entries {
            let (lo, hi) = e.key.valid_versions();
            if e.min > e.max || e.min < lo || e.max > hi {
                return Err(SupportError::OutsideSchema {
                    api: e.key.name(),
                    min: e.min,
                    max: e.max,
                    lo,
                    hi,
                });
            }
        }
        Ok(SupportedApis { entries })
    }

    /// The advertised range of `key`, if the API is implemented.
    pub fn range(&self, key: ApiKey) -> Option<(i16, i16)> {
        self.entries
            .iter()
            .find(|e| e.key == key)
            .map(|e| (e.min, e.max))
    }

    /// Whether `key` is implemented at `version`.
    pub fn supports(&self, key: ApiKey, version: i16) -> bool {
        self.range(key)
            .is_some_and(|(lo, hi)| (lo..=hi).contains(&version))
    }

    pub fn iter(&self) -> impl Iterator<Item = &SupportedApi> {
        self.entries.iter()
    }

    /// The `ApiKeys` array of an ApiVersions response.
    pub fn to_response_keys(&self) -> Vec<ApiVersion> {
        self.entries
            .iter()
            .map(|e| ApiVersion {
                api_key: e.key.as_i16(),
                min_version: e.min,
                max_version: e.max,
                ..Default::default()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_checked_against_the_schemas() {
        let ok = SupportedApis::new(&[
            SupportedApi {
                key: ApiKey::Metadata,
                min: 0,
                max: 13,
            },
            SupportedApi {
                key: ApiKey::ApiVersions,
                min: 0,
                max: 4,
            },
        ])
        .unwrap();
        assert_eq!(ok.to_response_keys()[0].api_key, 3);
        assert!(ok.supports(ApiKey::ApiVersions, 4));
        assert!(!ok.supports(ApiKey::ApiVersions, 5));
        assert!(!ok.supports(ApiKey::Produce, 3));
        assert!(
            SupportedApis::new(&[SupportedApi {
                key: ApiKey::Produce,
                min: 3,
                max: 99
            }])
            .is_err()
        );
        let twice = SupportedApi {
            key: ApiKey::Fetch,
            min: 4,
            max: 4,
        };
        assert_eq!(
            SupportedApis::new(&[twice, twice]),
            Err(SupportError::Duplicate("Fetch"))
        );
    }
}
