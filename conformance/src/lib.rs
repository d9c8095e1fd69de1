//! Black-box conformance tests: the real `tidemark` binary driven by
//! unchanged clients over TCP. It knows nothing of the broker's insides,
//! only the wire.
//!
//! The suite itself is Python (pytest) beside this crate: see
//! `conformance/README.md`. Run it with `pytest conformance/` once the
//! release binary is built. This crate is an empty placeholder in the
//! workspace.
