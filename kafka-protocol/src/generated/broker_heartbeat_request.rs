//! `BrokerHeartbeatRequest`, generated from Kafka's `BrokerHeartbeatRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// BrokerHeartbeatRequest (valid versions 0-2, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct BrokerHeartbeatRequest {
    /// The broker ID.
    ///
    /// Versions: 0+.
    pub broker_id: i32,
    /// The broker epoch.
    ///
    /// Versions: 0+.
    pub broker_epoch: i64,
    /// The highest metadata offset which the broker has reached.
    ///
    /// Versions: 0+.
    pub current_metadata_offset: i64,
    /// True if the broker wants to be fenced, false otherwise.
    ///
    /// Versions: 0+.
    pub want_fence: bool,
    /// True if the broker wants to be shut down, false otherwise.
    ///
    /// Versions: 0+.
    pub want_shut_down: bool,
    /// Log directories that failed and went offline.
    ///
    /// Versions: 1+.
    pub offline_log_dirs: Vec<Uuid>,
    /// List of log directories that are cordoned. This is null before the broker reaches the RECOVERY state.
    ///
    /// Versions: 2+.
    pub cordoned_log_dirs: Option<Vec<Uuid>>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for BrokerHeartbeatRequest {
    fn default() -> Self {
        BrokerHeartbeatRequest {
            broker_id: 0,
            broker_epoch: -1,
            current_metadata_offset: 0,
            want_fence: false,
            want_shut_down: false,
            offline_log_dirs: Vec::<Uuid>::new(),
            cordoned_log_dirs: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl BrokerHeartbeatRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.broker_id);
        e.i64(self.broker_epoch);
        e.i64(self.current_metadata_offset);
        e.bool(self.want_fence);
        e.bool(self.want_shut_down);
        if version == 0 {
            if self.offline_log_dirs != Vec::<Uuid>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "BrokerHeartbeatRequest",
                    field: "OfflineLogDirs",
                    version,
                });
            }
        }
        if version <= 1 {
            if self.cordoned_log_dirs != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "BrokerHeartbeatRequest",
                    field: "CordonedLogDirs",
                    version,
                });
            }
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version >= 1 {
                if self.offline_log_dirs != Vec::<Uuid>::new() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        e.array(&self.offline_log_dirs, flexible, |e, item| {
                            e.uuid(item);
                            Ok(())
                        })?;
                    }
                    tagged.push((0, t));
                }
            }
            if version == 2 {
                if self.cordoned_log_dirs != None {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        if self.cordoned_log_dirs.is_none() && !(version == 2) {
                            return Err(EncodeError::NullNotAllowed {
                                message: "BrokerHeartbeatRequest",
                                field: "CordonedLogDirs",
                                version,
                            });
                        }
                        e.nullable_array(
                            self.cordoned_log_dirs.as_deref(),
                            flexible,
                            |e, item| {
                                e.uuid(item);
                                Ok(())
                            },
                        )?;
                    }
                    tagged.push((1, t));
                }
            }
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.broker_id = d.i32()?;
        this.broker_epoch = d.i64()?;
        this.current_metadata_offset = d.i64()?;
        this.want_fence = d.bool()?;
        this.want_shut_down = d.bool()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("BrokerHeartbeatRequest", |tag, d| {
                match tag {
                    0 if version >= 1 => {
                        this.offline_log_dirs =
                            d.array(flexible, "OfflineLogDirs", |d| d.uuid())?;
                    }
                    1 if version == 2 => {
                        this.cordoned_log_dirs = if version == 2 {
                            d.nullable_array(flexible, |d| d.uuid())?
                        } else {
                            Some(d.array(flexible, "CordonedLogDirs", |d| d.uuid())?)
                        };
                    }
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl BrokerHeartbeatRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.broker_id = rng.i32();
        this.broker_epoch = rng.i64();
        this.current_metadata_offset = rng.i64();
        this.want_fence = rng.bool();
        this.want_shut_down = rng.bool();
        if version >= 1 {
            this.offline_log_dirs = (0..rng.len()).map(|_| rng.uuid()).collect();
        }
        if version == 2 {
            this.cordoned_log_dirs = if version == 2 && rng.null() {
                None
            } else {
                Some((0..rng.len()).map(|_| rng.uuid()).collect())
            };
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for BrokerHeartbeatRequest {
    const NAME: &'static str = "BrokerHeartbeatRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 2);
    const FLEXIBLE_MIN: Option<i16> = Some(0);
    fn encode(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        if !(Self::VALID_VERSIONS.0..=Self::VALID_VERSIONS.1).contains(&version) {
            return Err(EncodeError::UnsupportedVersion {
                message: Self::NAME,
                version,
            });
        }
        self.write(e, version)
    }
    fn decode(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        if !(Self::VALID_VERSIONS.0..=Self::VALID_VERSIONS.1).contains(&version) {
            return Err(DecodeError::UnsupportedVersion {
                message: Self::NAME,
                version,
            });
        }
        Self::read(d, version)
    }
}

#[cfg(test)]
impl crate::testing::Random for BrokerHeartbeatRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
