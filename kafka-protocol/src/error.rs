//! Errors of the codec itself (malformed bytes, unencodable values).
//!
//! These are not Kafka error codes: those live in [`crate::ErrorCode`].

/// Why a sequence of bytes could not be decoded.
///
/// Every decoding path returns one of these instead of panicking, and no
/// variant can be produced by allocating more than the input holds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The input ended in the middle of a value.
    #[error("unexpected end of input: needed {needed} bytes, {remaining} remaining")]
    Truncated { needed: usize, remaining: usize },
    /// A varint ran past its maximum length (5 bytes for 32 bits, 10 for 64).
    #[error("invalid varint")]
    InvalidVarint,
    /// A length was negative where only -1 (null) is allowed, or null where
    /// the field is not nullable at this version.
    #[error("invalid length {len} for {what}")]
    InvalidLength { what: &'static str, len: i64 },
    /// A length or element count promised more than the bytes remaining.
    #[error("{what} of length {len} exceeds the {remaining} bytes remaining")]
    LengthExceedsInput {
        what: &'static str,
        len: u64,
        remaining: usize,
    },
    /// A string was not valid UTF-8.
    #[error("invalid UTF-8 in a string field")]
    InvalidUtf8,
    /// A null value arrived for a field that is not nullable at this version.
    #[error("null value for non-nullable field {field}")]
    UnexpectedNull { field: &'static str },
    /// The API key is not one Kafka defines (or it was removed).
    #[error("unknown API key {0}")]
    UnknownApiKey(i16),
    /// The version is outside the schema's valid range for that message.
    #[error("unsupported version {version} of {message}")]
    UnsupportedVersion { message: &'static str, version: i16 },
    /// A known tagged field's value did not fill exactly its declared size.
    #[error("tagged field {tag} of {message} has a malformed value")]
    MalformedTaggedField { message: &'static str, tag: u32 },
    /// Bytes were left over after a complete message.
    #[error("{0} unexpected bytes after the end of the message")]
    TrailingBytes(usize),
    /// A record batch or record was malformed.
    #[error("invalid record data: {0}")]
    InvalidRecord(&'static str),
}

/// Why a value could not be encoded at the requested version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The version is outside the schema's valid range for that message.
    #[error("version {version} of {message} is not valid")]
    UnsupportedVersion { message: &'static str, version: i16 },
    /// A field that does not exist at this version holds a non-default
    /// value and is not marked ignorable, so encoding would lose it.
    #[error(
        "field {field} of {message} does not exist at version {version} but holds a non-default value"
    )]
    UnsupportedField {
        message: &'static str,
        field: &'static str,
        version: i16,
    },
    /// A field holds null where this version does not allow null.
    #[error("field {field} of {message} is null, which version {version} does not allow")]
    NullNotAllowed {
        message: &'static str,
        field: &'static str,
        version: i16,
    },
    /// A string, byte array or array is longer than its length prefix can say.
    #[error("{what} is too long to encode ({len})")]
    TooLong { what: &'static str, len: usize },
}
