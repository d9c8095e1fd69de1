//! Codec cost on the hot path: decoding a Produce request that carries
//! 1 MiB of record batches, and encoding a Fetch response that carries
//! 1 MiB. Before measuring, each case checks that the record bytes are not
//! copied: the decoded `records` and the encoded response chunk point into
//! the very allocation they came from.
//!
//! Run: `cargo bench -p tidemark-benches --bench codec`

use bytes::Bytes;
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use kafka_protocol::frame::{concat, decode_request, encode_request, encode_response};
use kafka_protocol::generated::fetch_response::{FetchableTopicResponse, PartitionData};
use kafka_protocol::generated::produce_request::{PartitionProduceData, TopicProduceData};
use kafka_protocol::generated::{FetchResponse, ProduceRequest, RequestHeader};
use kafka_protocol::records::{NewRecord, RecordBatchBuilder};
use kafka_protocol::{ApiKey, RequestBody, ResponseBody};

const MIB: usize = 1 << 20;

/// 1 MiB of record batches: 16 batches of 64 records of 1 KiB values.
fn record_batches() -> Bytes {
    let mut out = Vec::with_capacity(MIB + 64 * 1024);
    let mut i = 0u64;
    while out.len() < MIB {
        let records = (0..64).map(|_| {
            i += 1;
            NewRecord::new(vec![b'v'; 1000]).with_key(format!("key-{i}").into_bytes())
        });
        let batch = RecordBatchBuilder::new()
            .records(records)
            .build()
            .expect("batch");
        out.extend_from_slice(&batch);
    }
    Bytes::from(out)
}

fn produce_frame(records: Bytes) -> Bytes {
    let header = RequestHeader {
        request_api_key: ApiKey::Produce.as_i16(),
        request_api_version: 11,
        correlation_id: 1,
        client_id: Some("bench".into()),
        ..Default::default()
    };
    let body = ProduceRequest {
        acks: -1,
        timeout_ms: 30_000,
        topic_data: vec![TopicProduceData {
            name: "orders".into(),
            partition_data: vec![PartitionProduceData {
                index: 0,
                records: Some(records),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    concat(&encode_request(&header, &RequestBody::Produce(body)).expect("encode")).slice(4..)
}

fn fetch_response(records: Bytes) -> ResponseBody {
    ResponseBody::Fetch(FetchResponse {
        responses: vec![FetchableTopicResponse {
            topic: "orders".into(),
            partitions: vec![PartitionData {
                partition_index: 0,
                high_watermark: 1_000_000,
                records: Some(records),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    })
}

fn produced_records(frame: Bytes) -> Bytes {
    let (_, body) = decode_request(frame).expect("decode");
    let RequestBody::Produce(p) = body else {
        panic!("not a produce request")
    };
    p.topic_data[0].partition_data[0]
        .records
        .clone()
        .expect("records")
}

fn bench(c: &mut Criterion) {
    let records = record_batches();
    let frame = produce_frame(records.clone());

    // Zero-copy checks, before anything is timed.
    let decoded = produced_records(frame.clone());
    let start = frame.as_ptr() as usize;
    let at = decoded.as_ptr() as usize;
    assert!(
        at > start && at + decoded.len() <= start + frame.len(),
        "produce records were copied"
    );
    let chunks = encode_response(1, 16, &fetch_response(records.clone())).expect("encode");
    assert!(
        chunks
            .iter()
            .any(|ch| ch.as_ptr() == records.as_ptr() && ch.len() == records.len()),
        "fetch records were copied"
    );
    println!(
        "zero-copy: produce decode points into the frame; fetch encode keeps the 1 MiB as chunk {} of {}",
        chunks
            .iter()
            .position(|ch| ch.as_ptr() == records.as_ptr())
            .unwrap_or(usize::MAX),
        chunks.len()
    );

    let mut g = c.benchmark_group("codec");
    g.throughput(Throughput::Bytes(records.len() as u64));
    g.bench_function("decode_produce_v11_1MiB", |b| {
        b.iter(|| black_box(produced_records(black_box(frame.clone()))))
    });
    g.bench_function("encode_fetch_v16_1MiB", |b| {
        b.iter(|| {
            black_box(
                encode_response(1, 16, black_box(&fetch_response(records.clone())))
                    .expect("encode"),
            )
        })
    });
    // For comparison: what a copying encoder would pay (one memcpy of 1 MiB).
    g.bench_function("memcpy_1MiB_reference", |b| {
        b.iter(|| black_box(black_box(&records[..]).to_vec()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
