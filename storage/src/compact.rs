pub struct CompactionStats;
