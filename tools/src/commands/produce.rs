//! `tmk topic produce`: records parsed from stdin with rpk's `-f` format,
//! built into batches with the codec's builder and sent with
//! `Client::produce_batch` (retrying leader moves). Records are batched
//! while more input is already buffered, and sent before waiting for more,
//! so piped files go out in large batches and typed lines go out at once.
//! Keys are partitioned by murmur2 like the Java client; keyless records
//! stick to one partition per run.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use tidemark_client::kafka_protocol::records::{
    Compression, Header, NewRecord, RecordBatchBuilder,
};
use tidemark_client::partitioner::partition_for_key;

use super::{connect, kerr};
use crate::cli::{ConnFlags, TopicProduce};
use crate::errors::{Result, TmkError};
use crate::format::parse::{Input, Parsed, Reader};
use crate::format::print::{Formatter, Rec};
use crate::output::write_stdout;

/// A batch is sent once it holds this many bytes of keys and values.
const BATCH_BYTES: usize = 512 * 1024;

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

pub fn compression(name: &str) -> Result<Compression> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "none" => Compression::None,
        "gzip" => Compression::Gzip,
        "snappy" => Compression::Snappy,
        "lz4" => Compression::Lz4,
        "zstd" => Compression::Zstd,
        other => {
            return Err(TmkError::msg(format!("unknown compression {other:?}"))
                .with_hint("use none, gzip, snappy, lz4 or zstd"));
        }
    })
}

/// Parses `-H key:value`.
pub fn header(s: &str) -> Result<(String, Vec<u8>)> {
    s.split_once(':')
        .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
        .ok_or_else(|| {
            TmkError::msg(format!("invalid header {s:?}")).with_hint("write -H key:value")
        })
}

struct Pending {
    rec: Parsed,
    topic: String,
}

pub fn run(conn: &ConnFlags, p: TopicProduce) -> Result<()> {
    let reader =
        Reader::new(&p.format).map_err(|e| TmkError::msg(format!("invalid --format: {e}")))?;
    let mut out_fmt = Formatter::new(&p.output_format)
        .map_err(|e| TmkError::msg(format!("invalid --output-format: {e}")))?;
    let codec = compression(&p.compression)?;
    if ![-1, 0, 1].contains(&p.acks) {
        return Err(
            TmkError::msg(format!("invalid --acks {}", p.acks)).with_hint("use -1 (all), 0 or 1")
        );
    }
    let headers: Vec<(String, Vec<u8>)> =
        p.header.iter().map(|h| header(h)).collect::<Result<_>>()?;
    let client = connect(conn)?;
    let mut input = Input::new(std::io::stdin().lock());
    let mut sticky: BTreeMap<String, i32> = BTreeMap::new();
    let mut cache: BTreeMap<String, i32> = BTreeMap::new();
    let mut pending: Vec<Pending> = Vec::new();
    let mut bytes = 0usize;
    loop {
        let next = reader.next(&mut input).map_err(|e| {
            TmkError::msg(format!("parsing input: {e}"))
                .with_hint("check --format against the input")
        })?;
        let Some(mut rec) = next else {
            return flush(
                &client,
                &p,
                codec,
                &mut pending,
                &mut sticky,
                &mut cache,
                &mut out_fmt,
            );
        };
        let topic = rec
            .topic
            .clone()
            .or_else(|| p.topic.clone())
            .ok_or_else(|| {
                TmkError::msg("no topic to produce to")
                    .with_hint("name the topic as an argument, or parse it with %t")
            })?;
        if rec.key.is_none() {
            rec.key = p.key.clone().map(String::into_bytes);
        }
        if rec.value.is_none() && !p.tombstone {
            rec.value = Some(Vec::new());
        }
        for (k, v) in &headers {
            if !rec.headers.iter().any(|(hk, _)| hk == k) {
                rec.headers.push((k.clone(), Some(v.clone())));
            }
        }
        bytes += rec.key.as_ref().map_or(0, Vec::len) + rec.value.as_ref().map_or(0, Vec::len);
        pending.push(Pending { rec, topic });
        // Send before blocking on more input, or when the batch is full.
        if bytes >= BATCH_BYTES || !input.has_buffered() {
            flush(
                &client,
                &p,
                codec,
                &mut pending,
                &mut sticky,
                &mut cache,
                &mut out_fmt,
            )?;
            bytes = 0;
        }
    }
}

fn partitions_of(
    client: &tidemark_client::Client,
    topic: &str,
    cache: &mut BTreeMap<String, i32>,
) -> Result<i32> {
    if let Some(n) = cache.get(topic) {
        return Ok(*n);
    }
    let info = client
        .topic(topic)
        .map_err(|e| kerr(&format!("producing to {topic}"), e))?;
    let n = info.partitions.len() as i32;
    if n == 0 {
        return Err(TmkError::kafka(format!("producing to {topic}"), 3, None)
            .unwrap_or_else(|| TmkError::msg("no partitions")));
    }
    cache.insert(topic.to_string(), n);
    Ok(n)
}

fn flush(
    client: &tidemark_client::Client,
    p: &TopicProduce,
    codec: Compression,
    pending: &mut Vec<Pending>,
    sticky: &mut BTreeMap<String, i32>,
    cache: &mut BTreeMap<String, i32>,
    out_fmt: &mut Formatter,
) -> Result<()> {
    // Group by (topic, partition), keeping input order within each.
    let mut groups: BTreeMap<(String, i32), Vec<Parsed>> = BTreeMap::new();
    let mut order: Vec<(String, i32)> = Vec::new();
    for Pending { rec, topic } in pending.drain(..) {
        let n = partitions_of(client, &topic, cache)?;
        let part = if p.partition >= 0 {
            rec.partition.unwrap_or(p.partition)
        } else if let Some(k) = &rec.key {
            partition_for_key(k, n)
        } else {
            let seed = now_ms() as u64 ^ u64::from(std::process::id());
            *sticky
                .entry(topic.clone())
                .or_insert((seed % n as u64) as i32)
        };
        let key = (topic, part);
        if !groups.contains_key(&key) {
            order.push(key.clone());
        }
        groups.entry(key).or_default().push(rec);
    }
    let mut out = Vec::new();
    for key in order {
        let Some(recs) = groups.remove(&key) else {
            continue;
        };
        let (topic, part) = key;
        let ts = now_ms();
        // --max-message-bytes caps each batch (by record sizes, before
        // compression); a single larger record still goes alone.
        let limit = if p.max_message_bytes >= 0 {
            p.max_message_bytes as usize
        } else {
            usize::MAX
        };
        let mut chunk: Vec<Parsed> = Vec::new();
        let mut size = 0usize;
        let mut chunks: Vec<Vec<Parsed>> = Vec::new();
        for r in recs {
            let n = r.key.as_ref().map_or(0, Vec::len) + r.value.as_ref().map_or(0, Vec::len) + 32;
            if !chunk.is_empty() && size + n > limit {
                chunks.push(std::mem::take(&mut chunk));
                size = 0;
            }
            size += n;
            chunk.push(r);
        }
        chunks.push(chunk);
        for recs in chunks {
            let mut b = RecordBatchBuilder::new().compression(codec);
            for r in &recs {
                b.push(NewRecord {
                    key: r.key.clone().map(Bytes::from),
                    value: r.value.clone().map(Bytes::from),
                    headers: r
                        .headers
                        .iter()
                        .map(|(k, v)| Header {
                            key: Bytes::from(k.clone()),
                            value: v.clone().map(Bytes::from),
                        })
                        .collect(),
                    timestamp: r.timestamp.unwrap_or(ts),
                });
            }
            let batch = b
                .build()
                .map_err(|e| TmkError::msg(format!("building a batch for {topic}/{part}: {e}")))?;
            let base = client
                .produce_batch(&topic, part, batch, p.acks)
                .map_err(|e| kerr(&format!("producing to {topic}/{part}"), e))?;
            print_produced(out_fmt, &mut out, &topic, part, base, &recs, ts);
        }
    }
    write_stdout(&out)
}

fn print_produced(
    f: &mut Formatter,
    out: &mut Vec<u8>,
    topic: &str,
    part: i32,
    base: i64,
    recs: &[Parsed],
    ts: i64,
) {
    for (i, r) in recs.iter().enumerate() {
        let headers: Vec<(String, Option<Vec<u8>>)> = r.headers.clone();
        let rec = Rec {
            topic,
            partition: part,
            offset: if base >= 0 { base + i as i64 } else { -1 },
            timestamp: r.timestamp.unwrap_or(ts),
            key: r.key.as_deref(),
            value: r.value.as_deref(),
            headers: &headers,
            ..Rec::default()
        };
        f.append(out, &rec, None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_compression_flags() {
        assert_eq!(header("k:v:w").unwrap(), ("k".to_string(), b"v:w".to_vec()));
        assert!(header("novalue").is_err());
        assert_eq!(compression("ZSTD").unwrap(), Compression::Zstd);
        assert!(compression("brotli").is_err());
    }
}
