//! Hostile and broken frames: every one must give a decode error, never a
//! panic, and no length prefix may make the decoder allocate more than the
//! bytes actually present. A counting global allocator records the largest
//! single allocation made while decoding.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use bytes::{BufMut, Bytes, BytesMut};
use kafka_protocol::frame::{decode_request, encode_request};
use kafka_protocol::generated::metadata_request::MetadataRequestTopic;
use kafka_protocol::generated::produce_request::{PartitionProduceData, TopicProduceData};
use kafka_protocol::generated::{MetadataRequest, ProduceRequest, RequestHeader};
use kafka_protocol::{ApiKey, DecodeError, RequestBody};

struct Counting;

thread_local! {
    // Per thread, so tests running in parallel do not see each other's
    // allocations. Const-initialised: reading it never allocates.
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn record(size: usize) {
    let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
}

fn reset_largest() {
    LARGEST.with(|l| l.set(0));
}

fn largest() -> usize {
    LARGEST.with(|l| l.get())
}

// SAFETY: forwards to the system allocator unchanged; it only records sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: same layout contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: ptr was allocated by System with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Decodes `frame`, asserting it fails, and returns the largest allocation.
fn decode_fails(frame: &[u8]) -> (DecodeError, usize) {
    let input = Bytes::copy_from_slice(frame);
    reset_largest();
    let result = decode_request(input);
    let largest = largest();
    match result {
        Ok(r) => panic!("decoded a bad frame: {r:?}"),
        Err(e) => (e, largest),
    }
}

fn header(key: ApiKey, version: i16) -> RequestHeader {
    RequestHeader {
        request_api_key: key.as_i16(),
        request_api_version: version,
        correlation_id: 7,
        client_id: Some("tester".into()),
        ..Default::default()
    }
}

fn frame_of(key: ApiKey, version: i16, body: RequestBody) -> Vec<u8> {
    let chunks = encode_request(&header(key, version), &body).unwrap();
    kafka_protocol::frame::concat(&chunks)[4..].to_vec()
}

fn produce(version: i16) -> Vec<u8> {
    let body = ProduceRequest {
        acks: -1,
        timeout_ms: 1000,
        topic_data: vec![TopicProduceData {
            name: if version < 13 {
                "orders".into()
            } else {
                String::new()
            },
            topic_id: if version >= 13 {
                uuid::Uuid::from_u128(5)
            } else {
                uuid::Uuid::nil()
            },
            partition_data: vec![PartitionProduceData {
                index: 0,
                records: Some(Bytes::from(vec![1u8; 100])),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    frame_of(ApiKey::Produce, version, body.into())
}

#[test]
fn every_truncation_of_a_valid_frame_is_an_error() {
    for version in [3, 8, 9, 13] {
        let f = produce(version);
        assert!(decode_request(Bytes::from(f.clone())).is_ok());
        for cut in 0..f.len() {
            let (_, largest) = decode_fails(&f[..cut]);
            assert!(largest <= f.len() + 64, "cut {cut}: allocated {largest}");
        }
    }
    let meta = frame_of(
        ApiKey::Metadata,
        12,
        MetadataRequest {
            topics: Some(vec![MetadataRequestTopic {
                name: Some("a".into()),
                ..Default::default()
            }]),
            ..Default::default()
        }
        .into(),
    );
    for cut in 0..meta.len() {
        decode_fails(&meta[..cut]);
    }
}

#[test]
fn trailing_bytes_are_ignored_as_kafka_does() {
    let mut f = produce(9);
    let (h, b) = decode_request(Bytes::from(f.clone())).unwrap();
    f.extend_from_slice(&[1, 0, 0]);
    let (h2, b2, trailing) =
        kafka_protocol::frame::decode_request_with_trailing(Bytes::from(f)).unwrap();
    assert_eq!((h, b, 3), (h2, b2, trailing));
}

/// A Metadata v4 (non-flexible) request header followed by `body`.
fn metadata_v4(body: &[u8]) -> Vec<u8> {
    let mut b = BytesMut::new();
    b.put_i16(3);
    b.put_i16(4);
    b.put_i32(1);
    b.put_i16(-1); // null client id
    b.put_slice(body);
    b.to_vec()
}

#[test]
fn huge_and_negative_lengths_are_refused_without_allocating() {
    // Topic array of i32::MAX entries in a 20-byte frame.
    let (e, largest) = decode_fails(&metadata_v4(&[0x7f, 0xff, 0xff, 0xff, 0, 1]));
    assert!(matches!(e, DecodeError::LengthExceedsInput { .. }), "{e:?}");
    assert!(largest < 1024, "allocated {largest}");
    // A negative array length other than -1.
    let (e, _) = decode_fails(&metadata_v4(&[0xff, 0xff, 0xff, 0xfe]));
    assert!(matches!(e, DecodeError::InvalidLength { .. }), "{e:?}");
    // One topic whose name claims 30000 bytes.
    let (e, largest) = decode_fails(&metadata_v4(&[0, 0, 0, 1, 0x75, 0x30, b'a']));
    assert!(matches!(e, DecodeError::LengthExceedsInput { .. }), "{e:?}");
    assert!(largest < 1024, "allocated {largest}");
    // A string length of -2.
    let (e, _) = decode_fails(&metadata_v4(&[0, 0, 0, 1, 0xff, 0xfe]));
    assert!(matches!(e, DecodeError::InvalidLength { .. }), "{e:?}");
    // Array count that fits the bytes, but elements of larger Rust size:
    // the reservation must still be bounded by the input.
    let mut body = vec![0, 0, 0x3f, 0xff];
    body.extend(std::iter::repeat_n(0u8, 64));
    let (_, largest) = decode_fails(&metadata_v4(&body));
    assert!(largest < 4096, "allocated {largest}");
}

#[test]
fn invalid_varints_and_utf8_are_refused() {
    // Metadata v12 (flexible): header v2, then a compact array length that
    // never ends.
    let mut f = vec![0, 3, 0, 12, 0, 0, 0, 1, 0xff, 0xff, 0];
    f.extend([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    assert_eq!(decode_fails(&f).0, DecodeError::InvalidVarint);
    // Metadata v4 with one topic named by invalid UTF-8.
    let (e, _) = decode_fails(&metadata_v4(&[0, 0, 0, 1, 0, 2, 0xc3, 0x28, 1]));
    assert_eq!(e, DecodeError::InvalidUtf8);
    // A huge tagged-field count in the flexible header.
    let f = [0, 3, 0, 12, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0x0f];
    let (e, _) = decode_fails(&f);
    assert!(matches!(e, DecodeError::LengthExceedsInput { .. }), "{e:?}");
}

#[test]
fn unknown_api_keys_and_versions_are_refused() {
    let mut f = vec![0x7f, 0x00, 0, 1, 0, 0, 0, 1, 0xff, 0xff];
    assert_eq!(decode_fails(&f).0, DecodeError::UnknownApiKey(0x7f00));
    // A removed API (LeaderAndIsr, key 4) is unknown to a Kafka 4 broker.
    f[0] = 0;
    f[1] = 4;
    assert_eq!(decode_fails(&f).0, DecodeError::UnknownApiKey(4));
    // Produce v2 is below the schema's range, Fetch v99 above it.
    let f = [0, 0, 0, 2, 0, 0, 0, 1, 0xff, 0xff, 0, 1];
    assert!(matches!(
        decode_fails(&f).0,
        DecodeError::UnsupportedVersion { .. }
    ));
    let f = [0, 1, 0, 99, 0, 0, 0, 1, 0xff, 0xff, 0, 0];
    assert!(matches!(
        decode_fails(&f).0,
        DecodeError::UnsupportedVersion { .. }
    ));
    // Empty and one-byte frames.
    assert!(matches!(decode_fails(&[]).0, DecodeError::Truncated { .. }));
    assert!(matches!(
        decode_fails(&[0]).0,
        DecodeError::Truncated { .. }
    ));
}

#[test]
fn random_garbage_never_panics() {
    let mut x: u64 = 0x1234_5678_9abc_def1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..20_000 {
        let len = (next() % 64) as usize;
        let mut f: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if f.len() >= 4 {
            // Aim at real API keys and plausible versions half the time.
            if next() % 2 == 0 {
                let key = ApiKey::ALL[(next() as usize) % ApiKey::ALL.len()];
                let (lo, hi) = key.valid_versions();
                let v = lo + (next() % ((hi - lo + 1) as u64)) as i16;
                f[..2].copy_from_slice(&key.as_i16().to_be_bytes());
                f[2..4].copy_from_slice(&v.to_be_bytes());
            }
        }
        let input = Bytes::from(f);
        reset_largest();
        let _ = decode_request(input);
        assert!(largest() < 64 * 1024);
    }
}
