//! The client's integration tests, in one test binary (five binaries each
//! linked the client, the codec and rustls again: CI time on 2 cores).

mod admin;
mod cluster;
mod common;
mod fake_broker;
mod produce_consume;
mod security;
