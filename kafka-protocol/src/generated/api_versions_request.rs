//! `ApiVersionsRequest`, generated from Kafka's `ApiVersionsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ApiVersionsRequest (valid versions 0-4, flexible from 3).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiVersionsRequest {
    /// The name of the client.
    ///
    /// Versions: 3+.
    pub client_software_name: String,
    /// The version of the client.
    ///
    /// Versions: 3+.
    pub client_software_version: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ApiVersionsRequest {
    fn default() -> Self {
        ApiVersionsRequest {
            client_software_name: String::from(""),
            client_software_version: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ApiVersionsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        if version >= 3 {
            e.string(&self.client_software_name, flexible)?;
        }
        if version >= 3 {
            e.string(&self.client_software_version, flexible)?;
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 3 {
            this.client_software_name = d.string(flexible, "ClientSoftwareName")?;
        }
        if version >= 3 {
            this.client_software_version = d.string(flexible, "ClientSoftwareVersion")?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ApiVersionsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ApiVersionsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 3 {
            this.client_software_name = rng.string();
        }
        if version >= 3 {
            this.client_software_version = rng.string();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ApiVersionsRequest {
    const NAME: &'static str = "ApiVersionsRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 4);
    const FLEXIBLE_MIN: Option<i16> = Some(3);
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
impl crate::testing::Random for ApiVersionsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
