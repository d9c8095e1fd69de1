//! Random message values and the round-trip property tests over every
//! generated message at every valid version.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, RawTaggedField, UnknownTaggedFields};
use crate::message::Message;

/// A small deterministic generator (xorshift64*), so a failure names a seed
/// that reproduces it.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Small values and edge values are more likely than uniform ones.
    fn edgy(&mut self, edges: &[i64]) -> i64 {
        match self.below(4) {
            0 => edges[self.below(edges.len() as u64) as usize],
            1 => self.below(256) as i64 - 128,
            _ => self.next_u64() as i64,
        }
    }

    pub fn bool(&mut self) -> bool {
        self.below(2) == 1
    }
    pub fn i8(&mut self) -> i8 {
        self.edgy(&[0, -1, i8::MIN as i64, i8::MAX as i64]) as i8
    }
    pub fn i16(&mut self) -> i16 {
        self.edgy(&[0, -1, i16::MIN as i64, i16::MAX as i64]) as i16
    }
    pub fn u16(&mut self) -> u16 {
        self.edgy(&[0, u16::MAX as i64]) as u16
    }
    pub fn i32(&mut self) -> i32 {
        self.edgy(&[0, -1, i32::MIN as i64, i32::MAX as i64]) as i32
    }
    pub fn i64(&mut self) -> i64 {
        self.edgy(&[0, -1, i64::MIN, i64::MAX])
    }
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() as i64 as f64) / 1024.0
    }
    pub fn uuid(&mut self) -> Uuid {
        if self.below(4) == 0 {
            Uuid::nil()
        } else {
            Uuid::from_u64_pair(self.next_u64(), self.next_u64())
        }
    }
    pub fn string(&mut self) -> String {
        const PARTS: &[&str] = &["a", "topic", "-", "_", ".", "é", "日本", "🦀", "0", " "];
        let n = self.below(6);
        (0..n)
            .map(|_| PARTS[self.below(PARTS.len() as u64) as usize])
            .collect()
    }
    pub fn bytes(&mut self) -> Bytes {
        let n = match self.below(8) {
            0 => 2000, // past the encoder's zero-copy threshold
            k => k as usize * 3,
        };
        Bytes::from((0..n).map(|_| self.next_u64() as u8).collect::<Vec<u8>>())
    }
    /// An array length: mostly short, so nested arrays stay small.
    pub fn len(&mut self) -> usize {
        self.below(4) as usize
    }
    /// Whether a nullable value is null this time.
    pub fn null(&mut self) -> bool {
        self.below(4) == 0
    }
    /// Unknown tagged fields with tags no schema uses, in ascending order
    /// (the order the encoder writes them in).
    pub fn unknown_tagged_fields(&mut self) -> UnknownTaggedFields {
        let n = if self.below(3) == 0 { self.below(3) } else { 0 };
        (0..n)
            .map(|i| RawTaggedField {
                tag: 10_000 + i as u32 * 7,
                data: self.bytes(),
            })
            .collect()
    }
}

/// A message that can make a random value valid at a given version.
pub trait Random: Message {
    fn random(rng: &mut Rng, version: i16) -> Self;
}

/// Something to run over every generated message type.
pub trait MessageVisitor {
    fn visit<M: Random>(&mut self);
}

/// Encodes, decodes and re-encodes random values of every message at every
/// valid version: decode(encode(x)) == x and encode(decode(b)) == b.
struct RoundTrip {
    rng: Rng,
    iterations: usize,
    checked: usize,
}

impl RoundTrip {
    /// With `TIDEMARK_WRITE_FUZZ_SEEDS=DIR`, writes request frames (header
    /// and body, no size prefix) as seeds for the `decode_request` fuzz
    /// target. Nothing is written otherwise.
    fn write_seed<M: Message>(&self, version: i16, i: usize, body: &Bytes) {
        let Some(dir) = std::env::var_os("TIDEMARK_WRITE_FUZZ_SEEDS") else {
            return;
        };
        let Some(key) = crate::ApiKey::ALL
            .iter()
            .find(|k| M::NAME.strip_suffix("Request") == Some(k.name()))
        else {
            return;
        };
        let header = crate::generated::RequestHeader {
            request_api_key: key.as_i16(),
            request_api_version: version,
            correlation_id: i as i32,
            client_id: Some("seed".into()),
            ..Default::default()
        };
        let mut e = Encoder::new();
        header
            .write(&mut e, key.request_header_version(version))
            .unwrap();
        e.raw(body);
        let path = std::path::Path::new(&dir).join(format!("gen-{}-v{version}-{i}", key.name()));
        std::fs::write(path, e.to_bytes()).unwrap();
    }
}

impl MessageVisitor for RoundTrip {
    fn visit<M: Random>(&mut self) {
        let (lo, hi) = M::VALID_VERSIONS;
        for version in lo..=hi {
            for i in 0..self.iterations {
                let value = M::random(&mut self.rng, version);
                let mut e = Encoder::new();
                value
                    .encode(&mut e, version)
                    .unwrap_or_else(|err| panic!("{} v{version} #{i}: encode: {err}", M::NAME));
                let bytes = e.to_bytes();
                let mut d = Decoder::new(bytes.clone());
                let back = M::decode(&mut d, version)
                    .unwrap_or_else(|err| panic!("{} v{version} #{i}: decode: {err}", M::NAME));
                assert_eq!(
                    d.remaining(),
                    0,
                    "{} v{version} #{i}: bytes left over",
                    M::NAME
                );
                assert_eq!(back, value, "{} v{version} #{i}: value changed", M::NAME);
                let again = back.encode_to_bytes(version).expect("re-encode");
                assert_eq!(again, bytes, "{} v{version} #{i}: bytes changed", M::NAME);
                // Every strict prefix must fail cleanly, never panic.
                if i == 0 {
                    for cut in [0, bytes.len() / 2, bytes.len().saturating_sub(1)] {
                        if cut < bytes.len() {
                            let mut d = Decoder::new(bytes.slice(..cut));
                            let r = M::decode(&mut d, version);
                            assert!(
                                r.is_err() || d.remaining() > 0 || cut == bytes.len(),
                                "{} v{version}: a {cut}-byte prefix of {} decoded",
                                M::NAME,
                                bytes.len()
                            );
                        }
                    }
                }
                self.checked += 1;
                if i == 0 {
                    self.write_seed::<M>(version, i, &bytes);
                }
            }
        }
        // Versions outside the range are refused both ways.
        let mut e = Encoder::new();
        assert!(M::default().encode(&mut e, hi + 1).is_err());
        assert!(M::decode(&mut Decoder::new(Bytes::new()), lo - 1).is_err());
    }
}

#[test]
fn every_message_round_trips_at_every_version() {
    let seed = std::env::var("ROUNDTRIP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x71de_3a7c);
    let mut rt = RoundTrip {
        rng: Rng::new(seed),
        iterations: 40,
        checked: 0,
    };
    crate::generated::for_each_message(&mut rt);
    assert!(rt.checked > 10_000, "only {} values checked", rt.checked);
}
