//! Benchmarks live here; the codec's criterion benchmarks are in
//! `benches/benches/`.
