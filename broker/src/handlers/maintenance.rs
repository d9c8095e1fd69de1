//! Background work on each shard: retention (delete old segments) and
//! compaction, for the partitions this shard owns, every
//! `log.retention.check.interval.ms`.

use std::rc::Rc;
use std::time::Duration;

use crate::partition::{Partition, now_ms};
use crate::shard::Shard;

pub async fn run(shard: Rc<Shard>) {
    loop {
        let every = shard
            .metadata()
            .settings
            .i64("log.retention.check.interval.ms")
            .max(10);
        monoio::select! {
            _ = monoio::time::sleep(Duration::from_millis(every as u64)) => {},
            _ = shard.stopping() => return,
        }
        let parts: Vec<Rc<Partition>> = shard.partitions.borrow().values().cloned().collect();
        for p in parts {
            if shard.is_stopping() {
                return;
            }
            let now = now_ms();
            match p.log.apply_retention(now).await {
                Ok(0) => {}
                Ok(n) => {
                    tracing::info!(topic = %p.topic, partition = p.index, segments = n, "retention deleted segments")
                }
                Err(e) => {
                    tracing::warn!(topic = %p.topic, partition = p.index, error = %e, "retention failed")
                }
            }
            if p.log.config().cleanup_policy.compacts()
                && let Err(e) = p.log.compact(now).await
            {
                tracing::warn!(topic = %p.topic, partition = p.index, error = %e, "compaction failed");
            }
        }
    }
}
