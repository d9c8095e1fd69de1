//! Black-box conformance tests: the real `tidemark` binary driven by
//! unchanged clients over TCP. It knows nothing of the broker's insides,
//! only the wire. Empty until the broker exists.
