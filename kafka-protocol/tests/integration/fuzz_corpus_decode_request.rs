//! Replays the committed corpus of the `decode_request` fuzz target (and
//! the golden request frames from real clients) through the same check the
//! fuzzer runs, so CI catches a regression without running the fuzzer.

use std::path::Path;

#[test]
fn decode_request_corpus_replays_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/decode_request");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus folder") {
        let path = entry.unwrap().path();
        if path.is_file() {
            let data = std::fs::read(&path).unwrap();
            kafka_protocol::frame::fuzz_check_request(&data);
            n += 1;
        }
    }
    assert!(n >= 20, "only {n} corpus files in {}", dir.display());
}
