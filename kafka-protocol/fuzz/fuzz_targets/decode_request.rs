//! Request decoding: arbitrary bytes as a request frame (after the size
//! prefix). See `kafka_protocol::frame::fuzz_check_request`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kafka_protocol::frame::fuzz_check_request(data);
});
