//! `BrokerRegistrationRequest`, generated from Kafka's `BrokerRegistrationRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// BrokerRegistrationRequest (valid versions 0-4, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct BrokerRegistrationRequest {
    /// The broker ID.
    ///
    /// Versions: 0+.
    pub broker_id: i32,
    /// The cluster id of the broker process.
    ///
    /// Versions: 0+.
    pub cluster_id: String,
    /// The incarnation id of the broker process.
    ///
    /// Versions: 0+.
    pub incarnation_id: Uuid,
    /// The listeners of this broker.
    ///
    /// Versions: 0+.
    pub listeners: Vec<Listener>,
    /// The features on this broker. Note: in v0-v3, features with MinSupportedVersion = 0 are omitted.
    ///
    /// Versions: 0+.
    pub features: Vec<Feature>,
    /// The rack which this broker is in.
    ///
    /// Versions: 0+.
    pub rack: Option<String>,
    /// If the required configurations for ZK migration are present, this value is set to true.
    ///
    /// Versions: 1+.
    pub is_migrating_zk_broker: bool,
    /// Log directories configured in this broker which are available.
    ///
    /// Versions: 2+.
    pub log_dirs: Vec<Uuid>,
    /// The epoch before a clean shutdown.
    ///
    /// Versions: 3+.
    pub previous_broker_epoch: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for BrokerRegistrationRequest {
    fn default() -> Self {
        BrokerRegistrationRequest {
            broker_id: 0,
            cluster_id: String::from(""),
            incarnation_id: Uuid::nil(),
            listeners: Vec::<Listener>::new(),
            features: Vec::<Feature>::new(),
            rack: Some(String::from("")),
            is_migrating_zk_broker: false,
            log_dirs: Vec::<Uuid>::new(),
            previous_broker_epoch: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl BrokerRegistrationRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.broker_id);
        e.string(&self.cluster_id, flexible)?;
        e.uuid(&self.incarnation_id);
        e.array(&self.listeners, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.features, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.nullable_string(self.rack.as_deref(), flexible)?;
        if version >= 1 {
            e.bool(self.is_migrating_zk_broker);
        }
        if version == 0 {
            if self.is_migrating_zk_broker != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "BrokerRegistrationRequest",
                    field: "IsMigratingZkBroker",
                    version,
                });
            }
        }
        if version >= 2 {
            e.array(&self.log_dirs, flexible, |e, item| {
                e.uuid(item);
                Ok(())
            })?;
        }
        if version >= 3 {
            e.i64(self.previous_broker_epoch);
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.broker_id = d.i32()?;
        this.cluster_id = d.string(flexible, "ClusterId")?;
        this.incarnation_id = d.uuid()?;
        this.listeners = d.array(flexible, "Listeners", |d| Listener::read(d, version))?;
        this.features = d.array(flexible, "Features", |d| Feature::read(d, version))?;
        this.rack = d.nullable_string(flexible)?;
        if version >= 1 {
            this.is_migrating_zk_broker = d.bool()?;
        }
        if version >= 2 {
            this.log_dirs = d.array(flexible, "LogDirs", |d| d.uuid())?;
        }
        if version >= 3 {
            this.previous_broker_epoch = d.i64()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("BrokerRegistrationRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl BrokerRegistrationRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.broker_id = rng.i32();
        this.cluster_id = rng.string();
        this.incarnation_id = rng.uuid();
        this.listeners = (0..rng.len())
            .map(|_| Listener::random_value(rng, version))
            .collect();
        this.features = (0..rng.len())
            .map(|_| Feature::random_value(rng, version))
            .collect();
        this.rack = if rng.null() { None } else { Some(rng.string()) };
        if version >= 1 {
            this.is_migrating_zk_broker = rng.bool();
        }
        if version >= 2 {
            this.log_dirs = (0..rng.len()).map(|_| rng.uuid()).collect();
        }
        if version >= 3 {
            this.previous_broker_epoch = rng.i64();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Listener` of [`BrokerRegistrationRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct Listener {
    /// The name of the endpoint.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The hostname.
    ///
    /// Versions: 0+.
    pub host: String,
    /// The port.
    ///
    /// Versions: 0+.
    pub port: u16,
    /// The security protocol.
    ///
    /// Versions: 0+.
    pub security_protocol: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Listener {
    fn default() -> Self {
        Listener {
            name: String::from(""),
            host: String::from(""),
            port: 0,
            security_protocol: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Listener {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.name, flexible)?;
        e.string(&self.host, flexible)?;
        e.u16(self.port);
        e.i16(self.security_protocol);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.host = d.string(flexible, "Host")?;
        this.port = d.u16()?;
        this.security_protocol = d.i16()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Listener", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Listener {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.host = rng.string();
        this.port = rng.u16();
        this.security_protocol = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Feature` of [`BrokerRegistrationRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct Feature {
    /// The feature name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The minimum supported feature level.
    ///
    /// Versions: 0+.
    pub min_supported_version: i16,
    /// The maximum supported feature level.
    ///
    /// Versions: 0+.
    pub max_supported_version: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Feature {
    fn default() -> Self {
        Feature {
            name: String::from(""),
            min_supported_version: 0,
            max_supported_version: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Feature {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.name, flexible)?;
        e.i16(self.min_supported_version);
        e.i16(self.max_supported_version);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.min_supported_version = d.i16()?;
        this.max_supported_version = d.i16()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Feature", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Feature {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.min_supported_version = rng.i16();
        this.max_supported_version = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for BrokerRegistrationRequest {
    const NAME: &'static str = "BrokerRegistrationRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 4);
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
impl crate::testing::Random for BrokerRegistrationRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
