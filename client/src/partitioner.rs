//! Kafka's default partitioning: a keyed record goes to
//! `toPositive(murmur2(key)) % partitions`, exactly as the Java client and
//! librdkafka's `murmur2_random` place it, so tmk and other clients agree
//! on where a key lives. Unkeyed records are the producer's choice (it
//! sticks to one partition per batch, as Java's sticky partitioner does).

/// Kafka's `Utils.murmur2` (MurmurHash2, seed 0x9747b28c), as a Java int.
pub fn murmur2(data: &[u8]) -> i32 {
    const SEED: u32 = 0x9747_b28c;
    const M: u32 = 0x5bd1_e995;
    const R: u32 = 24;
    let len = data.len();
    let mut h: u32 = SEED ^ (len as u32);
    let mut chunks = data.chunks_exact(4);
    for c in &mut chunks {
        let mut k = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M);
        h ^= k;
    }
    let rest = chunks.remainder();
    if rest.len() >= 3 {
        h ^= u32::from(rest[2]) << 16;
    }
    if rest.len() >= 2 {
        h ^= u32::from(rest[1]) << 8;
    }
    if !rest.is_empty() {
        h ^= u32::from(rest[0]);
        h = h.wrapping_mul(M);
    }
    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^= h >> 15;
    h as i32
}

/// Kafka's `Utils.toPositive`: clears the sign bit (not `abs`, which
/// would differ for `i32::MIN` and for every negative hash).
pub fn to_positive(n: i32) -> i32 {
    n & 0x7fff_ffff
}

/// The partition of a keyed record among `partitions` (> 0).
pub fn partition_for_key(key: &[u8], partitions: i32) -> i32 {
    if partitions <= 0 {
        return 0;
    }
    to_positive(murmur2(key)) % partitions
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Apache Kafka's `UtilsTest.testMurmur2` vectors.
    #[test]
    fn murmur2_matches_kafka() {
        let cases: [(&[u8], i32); 6] = [
            (b"21", -973_932_308),
            (b"foobar", -790_332_482),
            (b"a-little-bit-long-string", -985_981_536),
            (b"a-little-bit-longer-string", -1_486_304_829),
            (
                b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8",
                -58_897_971,
            ),
            (b"abc", 479_470_107),
        ];
        for (k, want) in cases {
            assert_eq!(murmur2(k), want, "{}", String::from_utf8_lossy(k));
        }
    }

    #[test]
    fn positive_partition() {
        assert_eq!(to_positive(-1), i32::MAX);
        assert_eq!(to_positive(i32::MIN), 0);
        for p in 1..20 {
            let got = partition_for_key(b"foobar", p);
            assert_eq!(got, to_positive(-790_332_482) % p);
            assert!((0..p).contains(&got));
        }
        assert_eq!(partition_for_key(b"x", 0), 0);
    }
}
