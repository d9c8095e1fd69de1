//! The segmented partition log: append, read, indexes, recovery, retention
//! and compaction over io_uring direct I/O.
//!
//! Empty until the storage issue lands; it exists so the workspace has the
//! shape of DESIGN.md from the start and dependencies point the right way
//! (`storage` -> `kafka-protocol`).
