//! The codec's integration tests, in one test binary (each used to be its
//! own, linking the generated codec again). `bad_input` stays apart: it
//! installs a counting global allocator.

mod frames;
mod fuzz_corpus_decode_request;
mod fuzz_corpus_record_batch;
mod generated_is_fresh;
mod golden;
