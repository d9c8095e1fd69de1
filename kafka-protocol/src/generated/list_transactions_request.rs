//! `ListTransactionsRequest`, generated from Kafka's `ListTransactionsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ListTransactionsRequest (valid versions 0-2, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ListTransactionsRequest {
    /// The transaction states to filter by: if empty, all transactions are returned; if non-empty, then only transactions matching one of the filtered states will be returned.
    ///
    /// Versions: 0+.
    pub state_filters: Vec<String>,
    /// The producerIds to filter by: if empty, all transactions will be returned; if non-empty, only transactions which match one of the filtered producerIds will be returned.
    ///
    /// Versions: 0+.
    pub producer_id_filters: Vec<i64>,
    /// Duration (in millis) to filter by: if < 0, all transactions will be returned; otherwise, only transactions running longer than this duration will be returned.
    ///
    /// Versions: 1+.
    pub duration_filter: i64,
    /// The transactional ID regular expression pattern to filter by: if it is empty or null, all transactions are returned; Otherwise then only the transactions matching the given regular expression will be returned.
    ///
    /// Versions: 2+.
    pub transactional_id_pattern: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListTransactionsRequest {
    fn default() -> Self {
        ListTransactionsRequest {
            state_filters: Vec::<String>::new(),
            producer_id_filters: Vec::<i64>::new(),
            duration_filter: -1,
            transactional_id_pattern: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListTransactionsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.array(&self.state_filters, flexible, |e, item| {
            e.string(item, flexible)?;
            Ok(())
        })?;
        e.array(&self.producer_id_filters, flexible, |e, item| {
            e.i64(*item);
            Ok(())
        })?;
        if version >= 1 {
            e.i64(self.duration_filter);
        }
        if version == 0 {
            if self.duration_filter != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ListTransactionsRequest",
                    field: "DurationFilter",
                    version,
                });
            }
        }
        if version == 2 {
            if self.transactional_id_pattern.is_none() && !(version == 2) {
                return Err(EncodeError::NullNotAllowed {
                    message: "ListTransactionsRequest",
                    field: "TransactionalIdPattern",
                    version,
                });
            }
            e.nullable_string(self.transactional_id_pattern.as_deref(), flexible)?;
        }
        if version <= 1 {
            if self.transactional_id_pattern != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ListTransactionsRequest",
                    field: "TransactionalIdPattern",
                    version,
                });
            }
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
        this.state_filters = d.array(flexible, "StateFilters", |d| {
            d.string(flexible, "StateFilters")
        })?;
        this.producer_id_filters = d.array(flexible, "ProducerIdFilters", |d| d.i64())?;
        if version >= 1 {
            this.duration_filter = d.i64()?;
        }
        if version == 2 {
            this.transactional_id_pattern = if version == 2 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "TransactionalIdPattern")?)
            };
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ListTransactionsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListTransactionsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.state_filters = (0..rng.len()).map(|_| rng.string()).collect();
        this.producer_id_filters = (0..rng.len()).map(|_| rng.i64()).collect();
        if version >= 1 {
            this.duration_filter = rng.i64();
        }
        if version == 2 {
            this.transactional_id_pattern = if version == 2 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ListTransactionsRequest {
    const NAME: &'static str = "ListTransactionsRequest";
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
impl crate::testing::Random for ListTransactionsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
