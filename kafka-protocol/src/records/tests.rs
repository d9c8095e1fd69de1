//! Cross-module tests: builder -> view round trips for every codec,
//! known-answer vectors, corruption and truncation, stamping, and
//! property tests.

use bytes::{Bytes, BytesMut};
use proptest::prelude::*;

use super::*;

// ---------------------------------------------------------------- helpers

/// Bitwise CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), written
/// out here so the known-answer tests do not trust the `crc32c` crate.
fn reference_crc32c(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0x82F6_3B78
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn sample_records() -> Vec<NewRecord> {
    let big: Bytes = (0..100_000u32)
        .map(|i| (i % 97) as u8)
        .collect::<Vec<_>>()
        .into();
    vec![
        NewRecord::new("first value")
            .with_key("key-1")
            .with_timestamp(1_700_000_000_000)
            .with_header("trace", Some(Bytes::from_static(b"abc")))
            .with_header("nullable", None),
        // Null key and value (a tombstone without a key).
        NewRecord {
            timestamp: 1_700_000_000_005,
            ..NewRecord::default()
        },
        // Empty (not null) key and value, timestamp earlier than the first.
        NewRecord::new(Bytes::new())
            .with_key(Bytes::new())
            .with_timestamp(1_699_999_999_000),
        NewRecord::new(big)
            .with_key("big")
            .with_timestamp(1_700_000_000_010)
            .with_header("ü-utf8-key", Some(Bytes::from_static(b"\xff\x00"))),
    ]
}

fn assert_records_match(batch: &RecordBatch, want: &[NewRecord], bound: usize) {
    let got: Vec<Record> = batch
        .decompressed_records(bound)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.offset(), batch.base_offset() + i as i64);
        assert_eq!(g.offset_delta(), i as i32);
        if batch.timestamp_type() == TimestampType::CreateTime {
            assert_eq!(g.timestamp(), w.timestamp);
        } else {
            assert_eq!(g.timestamp(), batch.max_timestamp());
        }
        assert_eq!(g.key(), w.key.as_ref());
        assert_eq!(g.value(), w.value.as_ref());
        let headers: Vec<Header> = g.headers().iter().collect();
        assert_eq!(headers, w.headers);
    }
}

/// A batch with the given count and raw records section, correct CRC.
fn batch_with_payload(count: i32, payload: &[u8]) -> Bytes {
    let mut b = RecordBatchBuilder::new()
        .record(NewRecord::new("x"))
        .build()
        .unwrap()
        .to_vec();
    b.truncate(RECORD_BATCH_OVERHEAD);
    b.extend_from_slice(payload);
    let len = (b.len() - 12) as i32;
    b[8..12].copy_from_slice(&len.to_be_bytes());
    b[57..61].copy_from_slice(&count.to_be_bytes());
    let crc = reference_crc32c(&b[21..]);
    b[17..21].copy_from_slice(&crc.to_be_bytes());
    Bytes::from(b)
}

fn record_errors(batch: Bytes) -> RecordError {
    let batch = RecordBatch::new(batch).unwrap();
    batch.verify_crc().unwrap();
    batch
        .records()
        .unwrap()
        .find_map(Result::err)
        .expect("expected a record error")
}

// ----------------------------------------------------- known-answer tests

#[test]
fn reference_crc_is_crc32c() {
    // The standard check value of CRC-32C.
    assert_eq!(reference_crc32c(b"123456789"), 0xE306_9283);
    assert_eq!(crc32c::crc32c(b"123456789"), 0xE306_9283);
}

/// One batch encoded by hand from the protocol guide's field table and
/// compared byte for byte with the builder's output.
#[test]
fn builder_matches_hand_encoding() {
    let built = RecordBatchBuilder::new()
        .base_offset(5)
        .partition_leader_epoch(9)
        .producer(1000, 3, 7)
        .transactional(true)
        .record(
            NewRecord::new("v1")
                .with_key("k")
                .with_timestamp(1_700_000_000_000)
                .with_header("h", Some(Bytes::from_static(b"x"))),
        )
        .record(NewRecord {
            timestamp: 1_700_000_000_100,
            ..NewRecord::default()
        })
        .build()
        .unwrap();

    #[rustfmt::skip]
    let records: &[u8] = &[
        // record 0: body is 13 bytes -> zigzag 26
        26,
        0,              // attributes
        0,              // timestampDelta 0
        0,              // offsetDelta 0
        2, b'k',        // key length 1, "k"
        4, b'v', b'1',  // value length 2, "v1"
        2,              // 1 header
        2, b'h',        // header key length 1, "h"
        2, b'x',        // header value length 1, "x"
        // record 1: body is 7 bytes -> zigzag 14
        14,
        0,
        0xC8, 0x01,     // timestampDelta 100 -> zigzag 200 -> varint c8 01
        2,              // offsetDelta 1
        1,              // key null (-1)
        1,              // value null (-1)
        0,              // no headers
    ];
    let mut want = Vec::new();
    want.extend(5i64.to_be_bytes()); // baseOffset
    want.extend(((49 + records.len()) as i32).to_be_bytes()); // batchLength
    want.extend(9i32.to_be_bytes()); // partitionLeaderEpoch
    want.push(2); // magic
    want.extend([0; 4]); // crc, below
    want.extend(0x0010i16.to_be_bytes()); // attributes: transactional
    want.extend(1i32.to_be_bytes()); // lastOffsetDelta
    want.extend(1_700_000_000_000i64.to_be_bytes()); // baseTimestamp
    want.extend(1_700_000_000_100i64.to_be_bytes()); // maxTimestamp
    want.extend(1000i64.to_be_bytes()); // producerId
    want.extend(3i16.to_be_bytes()); // producerEpoch
    want.extend(7i32.to_be_bytes()); // baseSequence
    want.extend(2i32.to_be_bytes()); // recordsCount
    want.extend(records);
    let crc = reference_crc32c(&want[21..]);
    want[17..21].copy_from_slice(&crc.to_be_bytes());

    assert_eq!(&built[..], &want[..]);
    let batch = RecordBatch::new(built).unwrap();
    batch.verify_crc().unwrap();
    assert_eq!(batch.crc(), crc);
}

/// The header every external vector below shares: base offset 0, leader
/// epoch 0, first timestamp 1479847795000, max timestamp 0, producer id,
/// epoch and sequence 0, one record. The vectors were produced by another
/// Kafka client (sarama) with its own CRC-32C, so they check our reading
/// against an independent writer.
fn external_vector(length: i32, crc: [u8; 4], codec: u8, payload: &[u8]) -> Bytes {
    let mut b = Vec::new();
    b.extend(0i64.to_be_bytes());
    b.extend(length.to_be_bytes());
    b.extend(0i32.to_be_bytes());
    b.push(2);
    b.extend(crc);
    b.extend(i16::from(codec).to_be_bytes());
    b.extend(0i32.to_be_bytes());
    b.extend(1_479_847_795_000i64.to_be_bytes());
    b.extend([0; 8 + 8 + 2 + 4]);
    b.extend(1i32.to_be_bytes());
    b.extend(payload);
    Bytes::from(b)
}

#[test]
fn external_vectors_decode() {
    const RECORD: &[u8] = &[
        40, 0, 10, 0, 8, 1, 2, 3, 4, 6, 5, 6, 7, 2, 6, 8, 9, 10, 4, 11, 12,
    ];
    let gzip: &[u8] = &[
        31, 139, 8, 0, 0, 9, 110, 136, 0, 255, 0, 21, 0, 234, 255, 40, 0, 10, 0, 8, 1, 2, 3, 4, 6,
        5, 6, 7, 2, 6, 8, 9, 10, 4, 11, 12, 3, 0, 173, 201, 88, 103, 21, 0, 0, 0,
    ];
    // Raw (unframed) snappy, as sarama and librdkafka send it.
    let snappy: &[u8] = &[
        21, 80, 40, 0, 10, 0, 8, 1, 2, 3, 4, 6, 5, 6, 7, 2, 6, 8, 9, 10, 4, 11, 12,
    ];
    // An LZ4 frame with 4 MiB blocks, a content checksum and one
    // uncompressed block.
    let lz4: &[u8] = &[
        4, 34, 77, 24, 100, 112, 185, 21, 0, 0, 128, 40, 0, 10, 0, 8, 1, 2, 3, 4, 6, 5, 6, 7, 2, 6,
        8, 9, 10, 4, 11, 12, 0, 0, 0, 0, 12, 59, 239, 146,
    ];
    let vectors = [
        (70, [84, 121, 97, 253], Compression::None, RECORD),
        (95, [231, 74, 206, 165], Compression::Gzip, gzip),
        (72, [21, 0, 159, 97], Compression::Snappy, snappy),
        (89, [169, 74, 119, 197], Compression::Lz4, lz4),
    ];
    for (length, crc, codec, payload) in vectors {
        let batch = RecordBatch::new(external_vector(length, crc, codec.id(), payload)).unwrap();
        batch.verify_crc().unwrap();
        assert_eq!(batch.compression(), codec);
        assert_eq!(batch.base_timestamp(), 1_479_847_795_000);
        let records: Vec<Record> = batch
            .decompressed_records(1024)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(records.len(), 1, "{codec}");
        let r = &records[0];
        assert_eq!(r.timestamp(), 1_479_847_795_005);
        assert_eq!(r.key().unwrap().as_ref(), &[1, 2, 3, 4]);
        assert_eq!(r.value().unwrap().as_ref(), &[5, 6, 7]);
        let h = r.headers().iter().next().unwrap();
        assert_eq!(
            (h.key.as_ref(), h.value.unwrap().as_ref()),
            (&[8, 9, 10][..], &[11, 12][..])
        );
    }
}

// ------------------------------------------------------------ round trips

#[test]
fn round_trip_every_codec() {
    let records = sample_records();
    for codec in Compression::ALL {
        let bytes = RecordBatchBuilder::new()
            .base_offset(1_000)
            .partition_leader_epoch(4)
            .producer(77, 2, 10)
            .compression(codec)
            .records(records.clone())
            .build()
            .unwrap();
        let batch = RecordBatch::new(bytes.clone()).unwrap();
        batch.verify_crc().unwrap();
        assert_eq!(batch.compression(), codec);
        assert_eq!(batch.magic(), 2);
        assert_eq!(batch.size(), bytes.len());
        assert_eq!(batch.base_offset(), 1_000);
        assert_eq!(batch.partition_leader_epoch(), 4);
        assert_eq!(batch.producer_id(), 77);
        assert_eq!(batch.producer_epoch(), 2);
        assert_eq!(batch.base_sequence(), 10);
        assert_eq!(batch.records_count(), 4);
        assert_eq!(batch.last_offset_delta(), 3);
        assert_eq!(batch.last_offset(), 1_003);
        assert_eq!(batch.next_offset(), 1_004);
        assert_eq!(batch.base_timestamp(), 1_700_000_000_000);
        assert_eq!(batch.max_timestamp(), 1_700_000_000_010);
        assert!(!batch.is_transactional() && !batch.is_control());
        assert_eq!(batch.delete_horizon_ms(), None);
        assert_records_match(&batch, &records, 1 << 20);
        let seqs: Vec<i32> = batch
            .decompressed_records(1 << 20)
            .unwrap()
            .map(|r| r.unwrap().sequence())
            .collect();
        assert_eq!(seqs, [10, 11, 12, 13]);
        if codec == Compression::None {
            assert_records_match(&batch, &records, 0);
        } else {
            assert_eq!(batch.records().err(), Some(RecordError::Compressed(codec)));
            assert!(matches!(
                batch.decompressed_records(1000).err(),
                Some(RecordError::DecompressedTooLarge { limit: 1000 })
            ));
        }
    }
}

#[test]
fn uncompressed_records_are_slices_of_the_batch() {
    let bytes = RecordBatchBuilder::new()
        .records(sample_records())
        .build()
        .unwrap();
    let range = bytes.as_ptr() as usize..bytes.as_ptr() as usize + bytes.len();
    let batch = RecordBatch::new(bytes.clone()).unwrap();
    for r in batch.records().unwrap() {
        let r = r.unwrap();
        for b in r.key().into_iter().chain(r.value()) {
            if !b.is_empty() {
                assert!(range.contains(&(b.as_ptr() as usize)));
            }
        }
    }
}

#[test]
fn flags_timestamps_and_empty_batches() {
    let b = RecordBatch::new(
        RecordBatchBuilder::new()
            .transactional(true)
            .control(true)
            .delete_horizon_ms(1_000)
            .log_append_time(5_000)
            .record(NewRecord::new("v").with_timestamp(2_000))
            .build()
            .unwrap(),
    )
    .unwrap();
    assert!(b.is_transactional() && b.is_control() && b.has_delete_horizon());
    assert_eq!(b.delete_horizon_ms(), Some(1_000));
    assert_eq!(b.base_timestamp(), 1_000);
    assert_eq!(b.max_timestamp(), 5_000);
    assert_eq!(b.timestamp_type(), TimestampType::LogAppendTime);
    let r = b.records().unwrap().next().unwrap().unwrap();
    assert_eq!((r.timestamp_delta(), r.timestamp()), (1_000, 5_000));

    let empty = RecordBatch::new(
        RecordBatchBuilder::new()
            .base_offset(10)
            .last_offset_delta(4)
            .build()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(empty.size(), RECORD_BATCH_OVERHEAD);
    assert_eq!(empty.records_count(), 0);
    assert_eq!(empty.next_offset(), 15);
    assert_eq!(empty.base_timestamp(), NO_TIMESTAMP);
    assert_eq!(empty.records().unwrap().count(), 0);
}

#[test]
fn sequence_numbers_wrap_like_kafka() {
    let b = RecordBatch::new(
        RecordBatchBuilder::new()
            .producer(1, 0, i32::MAX)
            .records([NewRecord::new("a"), NewRecord::new("b")])
            .build()
            .unwrap(),
    )
    .unwrap();
    let seqs: Vec<i32> = b
        .records()
        .unwrap()
        .map(|r| r.unwrap().sequence())
        .collect();
    assert_eq!(seqs, [i32::MAX, 0]);
}

#[test]
fn transaction_markers() {
    let marker = EndTxnMarker {
        commit: true,
        coordinator_epoch: 12,
    };
    let b = RecordBatch::new(marker.batch(55, 3, 1_234).build().unwrap()).unwrap();
    assert!(b.is_control() && b.is_transactional());
    assert_eq!(
        (b.producer_id(), b.producer_epoch(), b.base_sequence()),
        (55, 3, -1)
    );
    let r = b.records().unwrap().next().unwrap().unwrap();
    assert_eq!(
        ControlRecordType::parse_key(r.key().unwrap()),
        Ok(ControlRecordType::Commit)
    );
    assert_eq!(r.key().unwrap().as_ref(), &[0, 0, 0, 1]);
    assert_eq!(r.value().unwrap().as_ref(), &[0, 0, 0, 0, 0, 12]);
    assert_eq!(EndTxnMarker::from_record(&r), Ok(marker));
    assert!(ControlRecordType::parse_key(&[0, 0, 0]).is_err());
    assert!(ControlRecordType::parse_key(&[0xff, 0xff, 0, 0]).is_err());
}

// ------------------------------------------------------------- corruption

#[test]
fn crc_covers_exactly_attributes_to_end() {
    let bytes = RecordBatchBuilder::new()
        .records(sample_records().into_iter().take(2))
        .build()
        .unwrap();
    for i in 0..bytes.len() {
        let mut m = bytes.to_vec();
        m[i] ^= 0x01;
        let Ok(batch) = RecordBatch::new(Bytes::from(m)) else {
            // Flipping the length or magic breaks the structure instead.
            assert!((8..12).contains(&i) || i == 16, "byte {i}");
            continue;
        };
        let covered = i >= 21 || (17..21).contains(&i);
        assert_eq!(batch.verify_crc().is_err(), covered, "byte {i}");
        if covered {
            assert!(matches!(
                batch.verify_crc(),
                Err(RecordError::CrcMismatch { .. })
            ));
        }
    }
}

#[test]
fn every_truncation_is_an_error() {
    for codec in Compression::ALL {
        let bytes = RecordBatchBuilder::new()
            .compression(codec)
            .records(sample_records().into_iter().take(3))
            .build()
            .unwrap();
        for cut in 0..bytes.len() {
            let part = bytes.slice(..cut);
            assert!(RecordBatch::new(part.clone()).is_err(), "{codec} cut {cut}");
            let mut it = RecordBatches::new(part);
            match it.next() {
                None => assert_eq!(cut, 0),
                Some(Err(e)) => assert!(e.is_partial_batch(), "{codec} cut {cut}: {e}"),
                Some(Ok(_)) => panic!("{codec} cut {cut} parsed"),
            }
            assert!(it.next().is_none());
        }
    }
}

/// Shortening the records section while keeping the length field and CRC
/// consistent: the header is fine, the records are not.
#[test]
fn every_truncation_of_the_records_is_an_error() {
    for codec in Compression::ALL {
        let bytes = RecordBatchBuilder::new()
            .compression(codec)
            .records(sample_records().into_iter().take(3))
            .build()
            .unwrap();
        let payload = &bytes[RECORD_BATCH_OVERHEAD..];
        for cut in 0..payload.len() {
            let b = RecordBatch::new(batch_with_payload(3, &payload[..cut])).unwrap();
            b.verify_crc().unwrap();
            let result: Result<Vec<Record>, _> =
                b.decompressed_records(1 << 20).and_then(|it| it.collect());
            assert!(result.is_err(), "{codec} cut {cut}");
        }
    }
}

#[test]
fn every_single_byte_change_is_handled() {
    for codec in Compression::ALL {
        let bytes = RecordBatchBuilder::new()
            .compression(codec)
            .records(sample_records().into_iter().take(2))
            .build()
            .unwrap();
        for i in 0..bytes.len() {
            for v in [0x00, 0x7f, 0x80, 0xff] {
                let mut m = bytes.to_vec();
                m[i] = v;
                fuzz_check(&m);
            }
        }
    }
}

#[test]
fn malformed_records() {
    use RecordError::InvalidRecord;
    // negative record length
    assert!(matches!(
        record_errors(batch_with_payload(1, &[1])),
        InvalidRecord(_)
    ));
    // length says 7, record holds 8 bytes (trailing header count garbage)
    let rec = [14, 0, 0, 0, 1, 1, 0, 0];
    assert!(matches!(
        record_errors(batch_with_payload(1, &rec)),
        InvalidRecord(_)
    ));
    // a fine record, then leftover bytes
    let rec = [12, 0, 0, 0, 1, 1, 0, 9, 9];
    assert_eq!(
        record_errors(batch_with_payload(1, &rec)),
        RecordError::TrailingRecordBytes(2)
    );
    // count says two records, one present
    let rec = [12, 0, 0, 0, 1, 1, 0];
    assert!(matches!(
        record_errors(batch_with_payload(2, &rec)),
        InvalidRecord(_)
    ));
    // negative header count
    let rec = [12, 0, 0, 0, 1, 1, 1];
    assert!(matches!(
        record_errors(batch_with_payload(1, &rec)),
        InvalidRecord(_)
    ));
    // negative header key length
    let rec = [16, 0, 0, 0, 1, 1, 2, 1, 1];
    assert!(matches!(
        record_errors(batch_with_payload(1, &rec)),
        InvalidRecord(_)
    ));
    // key longer than the record
    let rec = [12, 0, 0, 0, 20, 1, 0];
    assert!(matches!(
        record_errors(batch_with_payload(1, &rec)),
        InvalidRecord(_)
    ));
    // over-long varint in the timestamp delta
    let mut rec = vec![24, 0];
    rec.extend([0xff; 11]);
    assert!(record_errors(batch_with_payload(1, &rec)) == RecordError::InvalidVarint);
    // negative record count
    let b = RecordBatch::new(batch_with_payload(-1, &[])).unwrap();
    assert_eq!(b.records().err(), Some(RecordError::InvalidRecordCount(-1)));
    // unknown codec id
    let mut m = batch_with_payload(0, &[]).to_vec();
    m[22] = 6;
    assert_eq!(
        RecordBatch::new(Bytes::from(m)).err(),
        Some(RecordError::UnknownCompression(6))
    );
}

#[test]
fn negative_lengths_below_minus_one_mean_null_as_in_kafka() {
    // key length -5 (zigzag 9), value length -1.
    let rec = [12, 0, 0, 0, 9, 1, 0];
    let b = RecordBatch::new(batch_with_payload(1, &rec)).unwrap();
    let r = b.records().unwrap().next().unwrap().unwrap();
    assert_eq!((r.key(), r.value()), (None, None));
}

// --------------------------------------------------------------- splitting

#[test]
fn splitting_concatenated_batches() {
    let batches: Vec<Bytes> = (0..3)
        .map(|i| {
            RecordBatchBuilder::new()
                .base_offset(i * 10)
                .compression(Compression::ALL[i as usize])
                .records(sample_records().into_iter().take(2))
                .build()
                .unwrap()
        })
        .collect();
    let mut all = BytesMut::new();
    for b in &batches {
        all.extend_from_slice(b);
    }
    let complete = all.len();
    all.extend_from_slice(&batches[0][..30]);
    let mut it = RecordBatches::new(all.freeze());
    for (i, b) in batches.iter().enumerate() {
        let got = it.next().unwrap().unwrap();
        assert_eq!(got.as_bytes(), b);
        assert_eq!(got.base_offset(), i as i64 * 10);
    }
    let tail = it.next().unwrap().unwrap_err();
    assert!(tail.is_partial_batch());
    assert_eq!(
        tail,
        RecordError::PartialBatch {
            needed: batches[0].len(),
            available: 30
        }
    );
    assert_eq!(it.position(), complete);
    assert!(it.next().is_none());
}

#[test]
fn splitting_reports_corruption_distinctly() {
    let good = RecordBatchBuilder::new()
        .record(NewRecord::new("v"))
        .build()
        .unwrap();
    let with = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut second = good.to_vec();
        edit(&mut second);
        let mut all = good.to_vec();
        all.extend(second);
        let mut it = RecordBatches::new(Bytes::from(all));
        assert!(it.next().unwrap().is_ok());
        let e = it.next().unwrap().unwrap_err();
        assert!(it.next().is_none());
        e
    };
    // a length below any format's minimum, even in a short tail
    assert_eq!(
        with(&|b| {
            b[8..12].copy_from_slice(&3i32.to_be_bytes());
            b.truncate(13);
        }),
        RecordError::InvalidBatchLength(3)
    );
    // a v2 length below the v2 header
    assert_eq!(
        with(&|b| b[8..12].copy_from_slice(&20i32.to_be_bytes())),
        RecordError::InvalidBatchLength(20)
    );
    // a huge length is partial only if the magic is plausible
    assert!(with(&|b| b[8..12].copy_from_slice(&i32::MAX.to_be_bytes())).is_partial_batch());
    assert_eq!(with(&|b| b[16] = 1), RecordError::LegacyMagic(1));
    assert_eq!(with(&|b| b[16] = 0), RecordError::LegacyMagic(0));
    assert_eq!(with(&|b| b[16] = 3), RecordError::UnknownMagic(3));
    assert_eq!(RecordError::LegacyMagic(1).kafka_error_code(), 87);
    assert_eq!(RecordError::UnknownMagic(3).kafka_error_code(), 2);
}

// ---------------------------------------------------------------- stamping

#[test]
fn stamping_log_append_time() {
    for codec in Compression::ALL {
        let records = sample_records();
        let original = RecordBatchBuilder::new()
            .compression(codec)
            .records(records.clone())
            .build()
            .unwrap();
        let mut m = RecordBatchMut::new(BytesMut::from(&original[..])).unwrap();
        m.stamp(&Stamp {
            base_offset: 500,
            partition_leader_epoch: 3,
            log_append_time: Some(1_800_000_000_000),
        })
        .unwrap();
        let b = m.freeze();
        b.verify_crc().unwrap();
        assert_eq!(b.base_offset(), 500);
        assert_eq!(b.partition_leader_epoch(), 3);
        assert_eq!(b.timestamp_type(), TimestampType::LogAppendTime);
        assert_eq!(b.max_timestamp(), 1_800_000_000_000);
        // Kafka leaves the base timestamp as the producer wrote it.
        assert_eq!(b.base_timestamp(), 1_700_000_000_000);
        assert_eq!(b.compression(), codec);
        assert_eq!(b.records_payload(), original.slice(RECORD_BATCH_OVERHEAD..));
        assert_records_match(&b, &records, 1 << 20);
    }
}

#[test]
fn stamping_create_time_leaves_the_crc() {
    let original = RecordBatchBuilder::new()
        .records(sample_records())
        .build()
        .unwrap();
    let mut buf = original.to_vec();
    stamp_batch(
        &mut buf,
        &Stamp {
            base_offset: i64::MAX - 10,
            partition_leader_epoch: 1,
            log_append_time: None,
        },
    )
    .unwrap();
    assert_eq!(&buf[12 + 4..], &original[12 + 4..]);
    assert_eq!(&buf[..8], &(i64::MAX - 10).to_be_bytes());
    let b = RecordBatch::new(Bytes::from(buf)).unwrap();
    b.verify_crc().unwrap();
    assert_eq!(b.timestamp_type(), TimestampType::CreateTime);
    assert_eq!(b.last_offset(), i64::MAX - 7);
}

#[test]
fn stamping_refuses_a_corrupt_batch_without_writing() {
    let original = RecordBatchBuilder::new()
        .record(NewRecord::new("value"))
        .build()
        .unwrap();
    let mut buf = original.to_vec();
    let last = buf.len() - 1;
    buf[last] ^= 0xff;
    let before = buf.clone();
    let e = stamp_batch(
        &mut buf,
        &Stamp {
            base_offset: 1,
            partition_leader_epoch: 1,
            log_append_time: Some(1),
        },
    )
    .unwrap_err();
    assert!(matches!(e, RecordError::CrcMismatch { .. }));
    assert_eq!(e.kafka_error_code(), 2);
    assert_eq!(buf, before);

    let mut m = RecordBatchMut::new(BytesMut::from(&before[..])).unwrap();
    assert!(
        m.set_max_timestamp(TimestampType::LogAppendTime, 9)
            .is_err()
    );
    // Fields outside the CRC can always be set.
    m.set_base_offset(77);
    m.set_partition_leader_epoch(8);
    assert_eq!(&m.as_slice()[..8], &77i64.to_be_bytes());

    // Wrong sizes are refused before anything is read.
    assert!(
        stamp_batch(
            &mut [0u8; 10],
            &Stamp {
                base_offset: 0,
                partition_leader_epoch: 0,
                log_append_time: None
            }
        )
        .is_err()
    );
}

#[test]
fn set_max_timestamp_back_to_create_time() {
    let original = RecordBatchBuilder::new()
        .log_append_time(99)
        .record(NewRecord::new("v").with_timestamp(5))
        .build()
        .unwrap();
    let mut m = RecordBatchMut::new(BytesMut::from(&original[..])).unwrap();
    m.set_max_timestamp(TimestampType::CreateTime, 5).unwrap();
    let b = m.freeze();
    b.verify_crc().unwrap();
    assert_eq!(b.timestamp_type(), TimestampType::CreateTime);
    assert_eq!(b.records().unwrap().next().unwrap().unwrap().timestamp(), 5);
}

// ------------------------------------------------------------------ proptest

fn arb_bytes() -> impl Strategy<Value = Bytes> {
    prop::collection::vec(any::<u8>(), 0..64).prop_map(Bytes::from)
}

fn arb_record() -> impl Strategy<Value = NewRecord> {
    (
        prop::option::of(arb_bytes()),
        prop::option::of(arb_bytes()),
        prop::collection::vec((arb_bytes(), prop::option::of(arb_bytes())), 0..4),
        any::<i64>(),
    )
        .prop_map(|(key, value, headers, timestamp)| NewRecord {
            key,
            value,
            headers: headers
                .into_iter()
                .map(|(key, value)| Header { key, value })
                .collect(),
            timestamp,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn build_then_parse(
        records in prop::collection::vec(arb_record(), 0..12),
        codec in 0u8..5,
        base_offset in any::<i64>(),
        epoch in any::<i32>(),
        producer in (any::<i64>(), any::<i16>(), any::<i32>()),
        transactional in any::<bool>(),
    ) {
        let codec = Compression::from_id(codec).unwrap();
        let bytes = RecordBatchBuilder::new()
            .base_offset(base_offset)
            .partition_leader_epoch(epoch)
            .producer(producer.0, producer.1, producer.2)
            .transactional(transactional)
            .compression(codec)
            .records(records.clone())
            .build()
            .unwrap();
        let batch = RecordBatch::new(bytes.clone()).unwrap();
        prop_assert!(batch.verify_crc().is_ok());
        prop_assert_eq!(batch.records_count() as usize, records.len());
        prop_assert_eq!(batch.base_offset(), base_offset);
        prop_assert_eq!(batch.partition_leader_epoch(), epoch);
        prop_assert_eq!(batch.producer_id(), producer.0);
        prop_assert_eq!(batch.is_transactional(), transactional);
        let got: Vec<Record> = batch
            .decompressed_records(1 << 20)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        prop_assert_eq!(got.len(), records.len());
        for (i, (g, w)) in got.iter().zip(&records).enumerate() {
            prop_assert_eq!(g.offset(), base_offset.wrapping_add(i as i64));
            prop_assert_eq!(g.timestamp(), w.timestamp);
            prop_assert_eq!(g.key(), w.key.as_ref());
            prop_assert_eq!(g.value(), w.value.as_ref());
            prop_assert_eq!(g.headers().iter().collect::<Vec<_>>(), w.headers.clone());
        }
        // Splitting a concatenation of the batch with itself finds both.
        let mut two = bytes.to_vec();
        two.extend_from_slice(&bytes);
        let split: Vec<_> = RecordBatches::new(Bytes::from(two)).collect();
        prop_assert_eq!(split.len(), 2);
        prop_assert!(split.iter().all(|b| b.as_ref().is_ok_and(|b| b.as_bytes() == &bytes)));
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..512)) {
        fuzz_check(&data);
    }

    #[test]
    fn mutated_batches_never_panic(
        codec in 0u8..5,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
    ) {
        let codec = Compression::from_id(codec).unwrap();
        let mut bytes = RecordBatchBuilder::new()
            .compression(codec)
            .records(sample_records().into_iter().take(3))
            .build()
            .unwrap()
            .to_vec();
        for (at, v) in edits {
            let i = at.index(bytes.len());
            bytes[i] = v;
        }
        fuzz_check(&bytes);
    }
}
