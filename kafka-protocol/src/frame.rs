//! Whole frames: the size prefix, the request and response headers, and
//! the body, with the header version chosen the way Kafka chooses it.
//!
//! A request frame is `i32 size | RequestHeader | body`; the header is v2
//! for flexible request versions and v1 otherwise (v0, which has no client
//! id, is still readable for completeness). A response frame is
//! `i32 size | ResponseHeader | body`, header v1 for flexible versions,
//! except ApiVersions which always answers with header v0.

use bytes::Bytes;

use crate::codec::{Decoder, Encoder};
use crate::error::{DecodeError, EncodeError};
use crate::generated::{ApiKey, RequestBody, RequestHeader, ResponseBody, ResponseHeader};

/// Reads the API key and version at the start of a request frame (after
/// the size prefix) without consuming anything.
pub fn peek_api_key_and_version(frame: &[u8]) -> Result<(i16, i16), DecodeError> {
    if frame.len() < 4 {
        return Err(DecodeError::Truncated {
            needed: 4,
            remaining: frame.len(),
        });
    }
    Ok((
        i16::from_be_bytes([frame[0], frame[1]]),
        i16::from_be_bytes([frame[2], frame[3]]),
    ))
}

/// Decodes a request header, leaving `d` at the start of the body.
///
/// Fails with [`DecodeError::UnknownApiKey`] for a key Kafka does not
/// define; the version is not checked here, so a broker can still answer
/// an ApiVersions request of a version it does not know (as Kafka must).
pub fn decode_request_header(d: &mut Decoder) -> Result<(ApiKey, RequestHeader), DecodeError> {
    let (key, version) = peek_api_key_and_version(d.peek_rest())?;
    let api = ApiKey::from_i16(key).ok_or(DecodeError::UnknownApiKey(key))?;
    let header = RequestHeader::read(d, api.request_header_version(version))?;
    Ok((api, header))
}

/// Decodes a whole request frame (without its size prefix): header, then
/// body at the header's version, refusing unknown versions.
///
/// Bytes after the body are ignored, as Kafka's broker ignores them:
/// librdkafka 2.16 sends an "all topics" Metadata v13 request with a null
/// array written as four bytes (librdkafka issue #5049), and Kafka serves
/// it. [`decode_request_with_trailing`] says how many bytes were ignored.
pub fn decode_request(frame: Bytes) -> Result<(RequestHeader, RequestBody), DecodeError> {
    decode_request_with_trailing(frame).map(|(h, b, _)| (h, b))
}

/// Like [`decode_request`], also returning the number of bytes ignored
/// after the body.
pub fn decode_request_with_trailing(
    frame: Bytes,
) -> Result<(RequestHeader, RequestBody, usize), DecodeError> {
    let mut d = Decoder::new(frame);
    let (api, header) = decode_request_header(&mut d)?;
    let body = RequestBody::decode(api, &mut d, header.request_api_version)?;
    Ok((header, body, d.remaining()))
}

fn with_size_prefix(inner: Encoder) -> Result<Vec<Bytes>, EncodeError> {
    let len = inner.len();
    if len > i32::MAX as usize {
        return Err(EncodeError::TooLong { what: "frame", len });
    }
    let mut out = Encoder::with_capacity(4 + len.min(4096));
    out.i32(len as i32);
    out.append(inner);
    Ok(out.finish())
}

/// Encodes a request frame with its size prefix. The header's API key and
/// version must match `body`.
pub fn encode_request(
    header: &RequestHeader,
    body: &RequestBody,
) -> Result<Vec<Bytes>, EncodeError> {
    let api = body.api_key();
    if header.request_api_key != api.as_i16() {
        return Err(EncodeError::UnsupportedField {
            message: "RequestHeader",
            field: "RequestApiKey",
            version: header.request_api_version,
        });
    }
    let version = header.request_api_version;
    if !api.is_valid_version(version) {
        return Err(EncodeError::UnsupportedVersion {
            message: api.name(),
            version,
        });
    }
    let mut e = Encoder::new();
    header.write(&mut e, api.request_header_version(version))?;
    body.encode(&mut e, version)?;
    with_size_prefix(e)
}

/// Encodes a response frame with its size prefix, as chunks ready for a
/// vectored write: large record data stays in the caller's buffers.
///
/// Fields the version cannot carry are left out rather than refused: a
/// broker fills in everything it knows and each version says what it can
/// (see [`Encoder::dropping_unsupported_fields`]).
pub fn encode_response(
    correlation_id: i32,
    version: i16,
    body: &ResponseBody,
) -> Result<Vec<Bytes>, EncodeError> {
    let api = body.api_key();
    let header = ResponseHeader {
        correlation_id,
        ..Default::default()
    };
    let mut e = Encoder::dropping_unsupported_fields();
    header.write(&mut e, api.response_header_version(version))?;
    body.encode(&mut e, version)?;
    with_size_prefix(e)
}

/// Decodes a response frame (without its size prefix) of the request that
/// was sent as `api` at `version`.
pub fn decode_response(
    api: ApiKey,
    version: i16,
    frame: Bytes,
) -> Result<(ResponseHeader, ResponseBody), DecodeError> {
    let mut d = Decoder::new(frame);
    let header = ResponseHeader::read(&mut d, api.response_header_version(version))?;
    let body = ResponseBody::decode(api, &mut d, version)?;
    d.finish()?;
    Ok((header, body))
}

/// Concatenates chunks (tests and tools; the broker writes them vectored).
pub fn concat(chunks: &[Bytes]) -> Bytes {
    let mut v = Vec::with_capacity(chunks.iter().map(|c| c.len()).sum());
    for c in chunks {
        v.extend_from_slice(c);
    }
    Bytes::from(v)
}

/// The body of the `decode_request` fuzz target, kept in the library so the
/// committed corpus is replayed by an ordinary test (no fuzzer in CI).
///
/// Malformed input must only produce errors. Whatever decodes must encode
/// again at the same version, and encoding is stable: the re-encoded frame
/// decodes to a value that encodes to the same bytes.
#[doc(hidden)]
pub fn fuzz_check_request(data: &[u8]) {
    let Ok((header, body, _trailing)) = decode_request_with_trailing(Bytes::copy_from_slice(data))
    else {
        return;
    };
    let first = concat(&encode_request(&header, &body).expect("a decoded request must re-encode"));
    let (header2, body2) =
        decode_request(first.slice(4..)).expect("a re-encoded request must decode");
    let second = concat(&encode_request(&header2, &body2).expect("re-encode"));
    assert_eq!(first, second, "encoding is not stable");
}
