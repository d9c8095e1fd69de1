//! `StreamsGroupDescribeRequest`, generated from Kafka's `StreamsGroupDescribeRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// StreamsGroupDescribeRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamsGroupDescribeRequest {
    /// The ids of the groups to describe
    ///
    /// Versions: 0+.
    pub group_ids: Vec<String>,
    /// Whether to include authorized operations.
    ///
    /// Versions: 0+.
    pub include_authorized_operations: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for StreamsGroupDescribeRequest {
    fn default() -> Self {
        StreamsGroupDescribeRequest {
            group_ids: Vec::<String>::new(),
            include_authorized_operations: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StreamsGroupDescribeRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.array(&self.group_ids, flexible, |e, item| {
            e.string(item, flexible)?;
            Ok(())
        })?;
        e.bool(self.include_authorized_operations);
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
        this.group_ids = d.array(flexible, "GroupIds", |d| d.string(flexible, "GroupIds"))?;
        this.include_authorized_operations = d.bool()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("StreamsGroupDescribeRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl StreamsGroupDescribeRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.group_ids = (0..rng.len()).map(|_| rng.string()).collect();
        this.include_authorized_operations = rng.bool();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for StreamsGroupDescribeRequest {
    const NAME: &'static str = "StreamsGroupDescribeRequest";
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
impl crate::testing::Random for StreamsGroupDescribeRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
