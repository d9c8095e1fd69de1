//! The raft crate's integration tests, in one test binary: each module
//! used to be its own binary, and every one of them compiled openraft's
//! generic core again (about 90 s of release codegen each on 2 cores);
//! one binary compiles it once. `transport_codec_alloc` stays apart
//! because it installs a counting global allocator.

mod common;
mod log_start;
mod pre_vote;
mod single_voter;
mod three_voters;
mod transport_cluster;
mod transport_rpc;
