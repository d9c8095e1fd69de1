//! Golden bytes from real clients (librdkafka 2.16 through confluent-kafka,
//! kcat with librdkafka 2.0.2, kafka-python 3.0): every captured request
//! decodes with the header the client sent and re-encodes to exactly the
//! same bytes; record batches inside Produce requests and Fetch responses
//! verify their CRC and decompress with every codec the clients used.
//! Response frames are the capture broker's replies (see the fixtures'
//! README): they must decode and re-encode byte for byte too.
//!
//! How the fixtures were captured: `tests/fixtures/golden/README.md`.

use std::collections::BTreeSet;
use std::path::Path;

use bytes::Bytes;
use kafka_protocol::frame::{
    concat, decode_request_with_trailing, decode_response, encode_request, encode_response,
};
use kafka_protocol::records::{Compression, RecordBatches};
use kafka_protocol::{ApiKey, RequestBody, ResponseBody};
use serde_json::Value;

fn fixtures() -> (std::path::PathBuf, Vec<Value>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/golden");
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).expect("manifest"))
            .expect("json");
    let files = manifest["files"].as_array().expect("files").clone();
    (dir, files)
}

/// Checks every batch in `records`; returns the codecs seen.
fn check_batches(records: &Bytes, what: &str, codecs: &mut BTreeSet<&'static str>) {
    let mut n = 0;
    for batch in RecordBatches::new(records.clone()) {
        let batch = batch.unwrap_or_else(|e| panic!("{what}: bad batch: {e}"));
        batch.verify_crc().unwrap_or_else(|e| panic!("{what}: {e}"));
        let mut count = 0;
        for r in batch
            .decompressed_records(16 << 20)
            .unwrap_or_else(|e| panic!("{what}: {e}"))
        {
            r.unwrap_or_else(|e| panic!("{what}: bad record: {e}"));
            count += 1;
        }
        assert_eq!(count, batch.records_count(), "{what}: record count");
        codecs.insert(match batch.compression() {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Snappy => "snappy",
            Compression::Lz4 => "lz4",
            Compression::Zstd => "zstd",
        });
        n += 1;
    }
    assert!(n > 0, "{what}: no batches");
}

#[test]
fn real_client_frames_decode_and_re_encode_byte_for_byte() {
    let (dir, files) = fixtures();
    let mut requests = 0;
    let mut responses = 0;
    let mut produce_codecs = BTreeSet::new();
    let mut fetch_codecs = BTreeSet::new();
    let mut seen = BTreeSet::new();
    for f in &files {
        let name = f["file"].as_str().unwrap();
        let bytes =
            Bytes::from(std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}")));
        let key = ApiKey::from_i16(f["api_key"].as_i64().unwrap() as i16).expect("known key");
        let version = f["api_version"].as_i64().unwrap() as i16;
        let correlation_id = f["correlation_id"].as_i64().unwrap() as i32;
        match f["direction"].as_str().unwrap() {
            "request" => {
                let (h, body, trailing) = decode_request_with_trailing(bytes.clone())
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(h.request_api_key, key.as_i16(), "{name}");
                assert_eq!(h.request_api_version, version, "{name}");
                assert_eq!(h.correlation_id, correlation_id, "{name}");
                if let Some(id) = f["client_id"].as_str() {
                    assert_eq!(h.client_id.as_deref(), Some(id), "{name}");
                }
                let again =
                    concat(&encode_request(&h, &body).unwrap_or_else(|e| panic!("{name}: {e}")));
                // Only librdkafka's malformed "all topics" Metadata request
                // (librdkafka #5049) carries bytes after the body.
                if trailing > 0 {
                    assert_eq!(key, ApiKey::Metadata, "{name}: {trailing} trailing bytes");
                }
                assert_eq!(
                    &again[4..],
                    &bytes[..bytes.len() - trailing],
                    "{name}: re-encoded bytes differ"
                );
                if let RequestBody::Produce(p) = &body {
                    for t in &p.topic_data {
                        for part in &t.partition_data {
                            if let Some(r) = &part.records {
                                check_batches(r, name, &mut produce_codecs);
                            }
                        }
                    }
                }
                seen.insert((f["client"].as_str().unwrap().to_string(), key.name()));
                requests += 1;
            }
            "response" => {
                let (h, body) = decode_response(key, version, bytes.clone())
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(h.correlation_id, correlation_id, "{name}");
                let again = concat(
                    &encode_response(h.correlation_id, version, &body)
                        .unwrap_or_else(|e| panic!("{name}: {e}")),
                );
                assert_eq!(&again[4..], &bytes[..], "{name}: re-encoded bytes differ");
                if let ResponseBody::Fetch(fr) = &body {
                    for t in &fr.responses {
                        for p in &t.partitions {
                            if let Some(r) = p.records.as_ref().filter(|r| !r.is_empty()) {
                                check_batches(r, name, &mut fetch_codecs);
                            }
                        }
                    }
                }
                responses += 1;
            }
            other => panic!("{name}: direction {other}"),
        }
    }
    assert!(
        requests >= 60 && responses >= 50,
        "{requests} requests, {responses} responses"
    );
    for codec in ["none", "gzip", "snappy", "lz4", "zstd"] {
        assert!(
            produce_codecs.contains(codec),
            "no Produce request with {codec}: {produce_codecs:?}"
        );
    }
    // The list: each real client sent each of these.
    for client in ["librdkafka", "kcat", "kafka-python"] {
        for api in [
            "ApiVersions",
            "Metadata",
            "Produce",
            "Fetch",
            "JoinGroup",
            "OffsetCommit",
        ] {
            assert!(
                seen.contains(&(client.to_string(), api)),
                "no {api} request from {client}"
            );
        }
    }
}
