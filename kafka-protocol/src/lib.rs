//! The Kafka wire protocol: every request and response a current Kafka
//! broker speaks (generated from Kafka's own JSON message schemas), record
//! batches v2 as zero-copy views, compression codecs, and error codes.
//!
//! This crate knows bytes only: no sockets, no files, no async.

pub mod api_versions;
pub mod codec;
pub mod error;
pub mod error_code;
pub mod frame;
// Generated code: written for regularity (every field assigned the same
// way at every version), not for the lints a person would satisfy.
#[allow(
    clippy::bool_comparison,
    clippy::cmp_owned,
    clippy::collapsible_if,
    clippy::derivable_impls,
    clippy::field_reassign_with_default,
    clippy::nonminimal_bool,
    clippy::partialeq_to_none,
    clippy::needless_question_mark,
    clippy::redundant_closure,
    clippy::single_match,
    clippy::too_many_lines,
    unused_imports,
    unused_mut,
    unused_variables
)]
pub mod generated;
pub mod message;
pub mod records;
#[cfg(test)]
mod testing;

pub use api_versions::{SupportedApi, SupportedApis};
pub use codec::{Decoder, Encoder, RawTaggedField, UnknownTaggedFields};
pub use error::{DecodeError, EncodeError};
pub use error_code::ErrorCode;
pub use generated::{ApiKey, RequestBody, ResponseBody};
pub use message::{Message, Request, Response};
