//! Record batches from untrusted bytes: splitting, header fields, CRC,
//! record iteration, bounded decompression of every codec, and in-place
//! stamping. The checks live in `kafka_protocol::records::fuzz_check`, so
//! the saved corpus is replayed by a plain `cargo test`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kafka_protocol::records::fuzz_check(data);
});
