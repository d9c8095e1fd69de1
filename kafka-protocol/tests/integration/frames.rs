//! Frames and headers: the header version follows the API's flexibility,
//! ApiVersions answers with header v0, and large records leave the
//! encoder as the caller's own buffer.

use bytes::Bytes;
use kafka_protocol::frame::{
    concat, decode_request, decode_response, encode_request, encode_response,
};
use kafka_protocol::generated::api_versions_response::ApiVersion;
use kafka_protocol::generated::fetch_response::{FetchableTopicResponse, PartitionData};
use kafka_protocol::generated::{
    ApiVersionsRequest, ApiVersionsResponse, FetchResponse, RequestHeader,
};
use kafka_protocol::{ApiKey, Decoder, Encoder, Message, RequestBody, ResponseBody};

#[test]
fn request_headers_v0_v1_v2() {
    let h = RequestHeader {
        request_api_key: 18,
        request_api_version: 3,
        correlation_id: 0x0102_0304,
        client_id: Some("rdkafka".into()),
        ..Default::default()
    };
    let v2 = h.encode_to_bytes(2).unwrap();
    // key, version, correlation id, int16 client id (never compact), tags.
    assert_eq!(
        &v2[..],
        b"\x00\x12\x00\x03\x01\x02\x03\x04\x00\x07rdkafka\x00"
    );
    let v1 = h.encode_to_bytes(1).unwrap();
    assert_eq!(&v1[..], &v2[..v2.len() - 1]);
    // v0 has no client id: a non-default one cannot be encoded...
    assert!(h.encode_to_bytes(0).is_err());
    // ...and without one it is the first eight bytes.
    let h0 = RequestHeader {
        client_id: Some(String::new()),
        ..h.clone()
    };
    assert_eq!(&h0.encode_to_bytes(0).unwrap()[..], &v2[..8]);
    assert_eq!(RequestHeader::decode_exact(v2, 2).unwrap(), h);
    let null_client = RequestHeader {
        client_id: None,
        ..h
    };
    let b = null_client.encode_to_bytes(1).unwrap();
    assert_eq!(&b[8..], b"\xff\xff");
}

#[test]
fn api_versions_responses_use_header_v0_even_when_flexible() {
    assert_eq!(ApiKey::ApiVersions.response_header_version(3), 0);
    assert_eq!(ApiKey::ApiVersions.request_header_version(3), 2);
    assert_eq!(ApiKey::Metadata.response_header_version(9), 1);
    assert_eq!(ApiKey::Metadata.response_header_version(8), 0);
    let body = ApiVersionsResponse {
        api_keys: vec![ApiVersion {
            api_key: 18,
            min_version: 0,
            max_version: 4,
            ..Default::default()
        }],
        ..Default::default()
    };
    let frame = concat(&encode_response(9, 3, &ResponseBody::ApiVersions(body.clone())).unwrap());
    // size, correlation id, then directly the error code (no tag byte).
    assert_eq!(&frame[4..10], b"\x00\x00\x00\x09\x00\x00");
    let (h, back) = decode_response(ApiKey::ApiVersions, 3, frame.slice(4..)).unwrap();
    assert_eq!(h.correlation_id, 9);
    assert_eq!(back, ResponseBody::ApiVersions(body));
}

#[test]
fn request_frames_round_trip() {
    let header = RequestHeader {
        request_api_key: 18,
        request_api_version: 4,
        correlation_id: 1,
        client_id: Some("c".into()),
        ..Default::default()
    };
    let body = RequestBody::ApiVersions(ApiVersionsRequest {
        client_software_name: "tidemark-test".into(),
        client_software_version: "1.0".into(),
        ..Default::default()
    });
    let frame = concat(&encode_request(&header, &body).unwrap());
    assert_eq!(
        u32::from_be_bytes(frame[..4].try_into().unwrap()) as usize,
        frame.len() - 4
    );
    let (h, b) = decode_request(frame.slice(4..)).unwrap();
    assert_eq!((h, b), (header, body));
}

#[test]
fn fetch_response_records_are_not_copied() {
    let records = Bytes::from(vec![0xabu8; 1 << 20]);
    let body = FetchResponse {
        responses: vec![FetchableTopicResponse {
            topic: "t".into(),
            partitions: vec![PartitionData {
                records: Some(records.clone()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let chunks = encode_response(1, 12, &ResponseBody::Fetch(body)).unwrap();
    let carried = chunks
        .iter()
        .find(|c| c.len() == records.len())
        .expect("records chunk");
    assert_eq!(carried.as_ptr(), records.as_ptr(), "records were copied");
    // And decoding a frame hands out a slice of the frame itself.
    let frame = concat(&chunks);
    let (_, back) = decode_response(ApiKey::Fetch, 12, frame.slice(4..)).unwrap();
    let ResponseBody::Fetch(back) = back else {
        panic!()
    };
    let got = back.responses[0].partitions[0].records.clone().unwrap();
    let base = frame.as_ptr() as usize;
    assert!((got.as_ptr() as usize) >= base && (got.as_ptr() as usize) < base + frame.len());
}

#[test]
fn unknown_tagged_fields_survive_a_round_trip() {
    // ApiVersionsRequest v3 with an unknown tag 77 at the top level.
    let mut e = Encoder::new();
    e.string("n", true).unwrap();
    e.string("v", true).unwrap();
    e.unsigned_varint(1);
    e.unsigned_varint(77);
    e.unsigned_varint(3);
    e.raw(b"xyz");
    let bytes = e.to_bytes();
    let m = ApiVersionsRequest::decode(&mut Decoder::new(bytes.clone()), 3).unwrap();
    assert_eq!(m.unknown_tagged_fields.len(), 1);
    assert_eq!(m.unknown_tagged_fields[0].tag, 77);
    assert_eq!(m.encode_to_bytes(3).unwrap(), bytes);
}

#[test]
fn fields_a_version_cannot_carry_are_refused_unless_ignorable() {
    use kafka_protocol::EncodeError;
    use kafka_protocol::generated::produce_request::TopicProduceData;
    use kafka_protocol::generated::{MetadataRequest, ProduceRequest};
    // AllowAutoTopicCreation exists from v4 and is not ignorable: false
    // (not its default) cannot be said at v3, nor a true
    // IncludeTopicAuthorizedOperations (v8+) at v4.
    let m = MetadataRequest {
        allow_auto_topic_creation: false,
        ..Default::default()
    };
    assert!(matches!(
        m.encode_to_bytes(3),
        Err(EncodeError::UnsupportedField { .. })
    ));
    let m = MetadataRequest {
        include_topic_authorized_operations: true,
        ..Default::default()
    };
    assert!(matches!(
        m.encode_to_bytes(4),
        Err(EncodeError::UnsupportedField { .. })
    ));
    assert!(m.encode_to_bytes(8).is_ok());
    // A produce topic's Name (v0-12) is ignorable: at v13 it is dropped.
    let p = ProduceRequest {
        topic_data: vec![TopicProduceData {
            name: "t".into(),
            ..Default::default()
        }],
        ..Default::default()
    };
    let b = p.encode_to_bytes(13).unwrap();
    let back = ProduceRequest::decode_exact(b, 13).unwrap();
    assert_eq!(back.topic_data[0].name, "");
}
