//! Replication: one Raft group per partition whose log is the partition
//! log, the node-to-node transport, and the controller group.
//!
//! Empty until the replication work lands; it exists so the workspace has
//! the shape of DESIGN.md (`raft` -> `storage`).
