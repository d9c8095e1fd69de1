//! `ControllerRegistrationRequest`, generated from Kafka's `ControllerRegistrationRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ControllerRegistrationRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ControllerRegistrationRequest {
    /// The ID of the controller to register.
    ///
    /// Versions: 0+.
    pub controller_id: i32,
    /// The controller incarnation ID, which is unique to each process run.
    ///
    /// Versions: 0+.
    pub incarnation_id: Uuid,
    /// Set if the required configurations for ZK migration are present.
    ///
    /// Versions: 0+.
    pub zk_migration_ready: bool,
    /// The listeners of this controller.
    ///
    /// Versions: 0+.
    pub listeners: Vec<Listener>,
    /// The features on this controller.
    ///
    /// Versions: 0+.
    pub features: Vec<Feature>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ControllerRegistrationRequest {
    fn default() -> Self {
        ControllerRegistrationRequest {
            controller_id: 0,
            incarnation_id: Uuid::nil(),
            zk_migration_ready: false,
            listeners: Vec::<Listener>::new(),
            features: Vec::<Feature>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ControllerRegistrationRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.controller_id);
        e.uuid(&self.incarnation_id);
        e.bool(self.zk_migration_ready);
        e.array(&self.listeners, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.features, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
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
        this.controller_id = d.i32()?;
        this.incarnation_id = d.uuid()?;
        this.zk_migration_ready = d.bool()?;
        this.listeners = d.array(flexible, "Listeners", |d| Listener::read(d, version))?;
        this.features = d.array(flexible, "Features", |d| Feature::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ControllerRegistrationRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ControllerRegistrationRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.controller_id = rng.i32();
        this.incarnation_id = rng.uuid();
        this.zk_migration_ready = rng.bool();
        this.listeners = (0..rng.len())
            .map(|_| Listener::random_value(rng, version))
            .collect();
        this.features = (0..rng.len())
            .map(|_| Feature::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Listener` of [`ControllerRegistrationRequest`].
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

/// A `Feature` of [`ControllerRegistrationRequest`].
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

impl crate::Message for ControllerRegistrationRequest {
    const NAME: &'static str = "ControllerRegistrationRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 0);
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
impl crate::testing::Random for ControllerRegistrationRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
