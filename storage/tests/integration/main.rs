//! The storage crate's integration tests, in one test binary: seven
//! binaries each linked the crate and its dependencies again (a minute of
//! CI on 2 cores); one binary links them once.

mod common;
mod corruption;
mod crash;
mod disk_full;
mod log_basic;
mod model;
mod producers;
mod transactions;
mod txn_model;
