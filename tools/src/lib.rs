//! `tmk`, the operations CLI and load generator, on the project's own
//! async client. Empty until its issue lands (`tools` -> `kafka-protocol`).
