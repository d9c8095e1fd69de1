//! The traits every generated message implements.

use std::fmt::Debug;

use crate::codec::{Decoder, Encoder};
use crate::error::{DecodeError, EncodeError};
use crate::generated::ApiKey;

/// A message with a version range: requests, responses, headers and the
/// data schemas (consumer protocol metadata, control records).
pub trait Message: Sized + Default + Clone + PartialEq + Debug {
    /// The schema's name, e.g. `ProduceRequest`.
    const NAME: &'static str;
    /// Lowest and highest valid version.
    const VALID_VERSIONS: (i16, i16);
    /// The first flexible version, if any.
    const FLEXIBLE_MIN: Option<i16>;

    /// Encodes at `version`, refusing versions outside the valid range and
    /// values that version cannot carry.
    fn encode(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError>;

    /// Decodes at `version`, refusing versions outside the valid range.
    fn decode(d: &mut Decoder, version: i16) -> Result<Self, DecodeError>;

    /// Encodes into one contiguous buffer (for tests and small messages).
    fn encode_to_bytes(&self, version: i16) -> Result<bytes::Bytes, EncodeError> {
        let mut e = Encoder::new();
        self.encode(&mut e, version)?;
        Ok(e.to_bytes())
    }

    /// Decodes a whole buffer, failing if bytes are left over.
    fn decode_exact(buf: bytes::Bytes, version: i16) -> Result<Self, DecodeError> {
        let mut d = Decoder::new(buf);
        let m = Self::decode(&mut d, version)?;
        d.finish()?;
        Ok(m)
    }
}

/// A request body, with the API it belongs to and its response type.
pub trait Request: Message {
    const API_KEY: ApiKey;
    type Response: Response;
}

/// A response body.
pub trait Response: Message {
    const API_KEY: ApiKey;
}
