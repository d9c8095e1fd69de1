//! Replays the committed corpus of the `record_batch` fuzz target through
//! the same check the fuzzer runs, so CI catches a regression without
//! running the fuzzer.

use std::path::{Path, PathBuf};

use bytes::Bytes;
use kafka_protocol::records::{
    Compression, EndTxnMarker, NewRecord, RecordBatchBuilder, compress, fuzz_check,
};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/record_batch")
}

#[test]
fn record_batch_corpus_replays_cleanly() {
    let dir = corpus_dir();
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus folder") {
        let path = entry.unwrap().path();
        if path.is_file() {
            fuzz_check(&std::fs::read(&path).unwrap());
            n += 1;
        }
    }
    assert!(n >= 10, "only {n} corpus files in {}", dir.display());
}

/// Writes the seed inputs the corpus was grown from: a batch per codec,
/// concatenations with a partial tail, control and log-append-time
/// batches, a magic 1 message, and bare codec payloads (the first byte
/// selects the codec in `fuzz_check`). Every seed must pass the fuzz check;
/// with `TIDEMARK_WRITE_FUZZ_SEEDS=1` they are also written into the
/// corpus (before fuzzing afresh):
/// `TIDEMARK_WRITE_FUZZ_SEEDS=1 cargo test -p kafka-protocol --test fuzz_corpus_record_batch`
#[test]
fn seed_corpus_passes_the_fuzz_check() {
    let dir = corpus_dir();
    let write_files = std::env::var_os("TIDEMARK_WRITE_FUZZ_SEEDS").is_some();
    if write_files {
        std::fs::create_dir_all(&dir).unwrap();
    }
    let write = |name: &str, data: &[u8]| {
        kafka_protocol::records::fuzz_check(data);
        if write_files {
            std::fs::write(dir.join(name), data).unwrap();
        }
    };
    let records = || {
        vec![
            NewRecord::new("value-1")
                .with_key("key-1")
                .with_timestamp(1_700_000_000_000)
                .with_header("h", Some(Bytes::from_static(b"v")))
                .with_header("null", None),
            NewRecord {
                timestamp: 1_700_000_000_007,
                ..NewRecord::default()
            },
            NewRecord::new(vec![b'z'; 300]).with_timestamp(1_700_000_000_003),
        ]
    };
    for codec in Compression::ALL {
        let batch = RecordBatchBuilder::new()
            .base_offset(42)
            .producer(9, 1, 0)
            .compression(codec)
            .records(records())
            .build()
            .unwrap();
        write(&format!("seed_batch_{codec}"), &batch);
        let mut two = batch.to_vec();
        two.extend_from_slice(&batch);
        two.extend_from_slice(&batch[..batch.len() / 2]);
        write(&format!("seed_two_and_partial_{codec}"), &two);
        let mut payload = vec![codec.id()];
        payload.extend(compress(codec, b"bare codec payload, bare codec payload").unwrap());
        write(&format!("seed_codec_{codec}"), &payload);
    }
    let marker = EndTxnMarker {
        commit: false,
        coordinator_epoch: 3,
    };
    write("seed_abort_marker", &marker.batch(9, 1, 5).build().unwrap());
    let lat = RecordBatchBuilder::new()
        .log_append_time(1_800_000_000_000)
        .transactional(true)
        .delete_horizon_ms(1_000)
        .records(records())
        .build()
        .unwrap();
    write("seed_log_append_time", &lat);
    // A magic 1 message: offset, size, crc, magic, attributes, timestamp,
    // null key, 3-byte value.
    let mut v1 = Vec::new();
    v1.extend(0i64.to_be_bytes());
    v1.extend(25i32.to_be_bytes());
    v1.extend([0, 0, 0, 0, 1, 0]);
    v1.extend(0i64.to_be_bytes());
    v1.extend((-1i32).to_be_bytes());
    v1.extend(3i32.to_be_bytes());
    v1.extend(b"abc");
    write("seed_magic_1", &v1);
}
