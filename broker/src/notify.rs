//! The shard-local notifications (`LocalNotify`, `LocalFlag`) live in
//! `tidemark_storage::local_notify`, shared with the raft crate.

pub use tidemark_storage::local_notify::{LocalFlag, LocalNotify};
