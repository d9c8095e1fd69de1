//! The Kafka wire protocol: every request and response a current Kafka
//! broker speaks (generated from Kafka's own JSON message schemas), record
//! batches v2 as zero-copy views, compression codecs, and error codes.
//!
//! This crate knows bytes only: no sockets, no files, no async.

pub mod codec;
pub mod error;

pub use codec::{Decoder, Encoder, RawTaggedField, UnknownTaggedFields};
pub use error::{DecodeError, EncodeError};
