//! The command tree: rpk's names, flags and short letters, so an operator's
//! muscle memory and scripts carry over. Only parsing lives here; each
//! command's behaviour is in `commands/`.

use std::path::PathBuf;

use clap::{ArgAction, Args, Parser, Subcommand, ValueEnum};

/// Long help appended to the top-level command: the connection settings,
/// which every command shares.
const CONNECTION_HELP: &str = "\
CONNECTION SETTINGS (-X key=value, repeatable):
  brokers=host:port,...        seed brokers (also --brokers, env TMK_BROKERS)
  tls.enabled=true             use TLS
  tls.ca=FILE                  CA bundle to verify the brokers with
  tls.cert=FILE, tls.key=FILE  client certificate and key (mutual TLS)
  tls.insecure_skip_verify=true  do not verify the brokers' certificates
  user=NAME, pass=SECRET       SASL credentials
  sasl.mechanism=MECH          PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512

Flags win over the environment, which wins over the current profile
(`tmk profile`), which wins over the default broker 127.0.0.1:9092.

EXAMPLES:
  tmk topic create orders -p 6 -r 3
  tmk -X brokers=10.0.0.1:9092 topic list
  echo hello | tmk topic produce orders
  tmk topic consume orders -n 1";

#[derive(Parser, Debug)]
#[command(
    name = "tmk",
    version,
    about = "Tidemark's operations CLI: topics, groups, cluster, security, profiles.",
    after_long_help = CONNECTION_HELP,
    propagate_version = true,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(flatten)]
    pub conn: ConnFlags,
    #[command(subcommand)]
    pub command: Command,
}

/// Connection flags, global so they may appear before or after the
/// subcommand, as with rpk.
#[derive(Args, Debug, Default, Clone)]
pub struct ConnFlags {
    /// Override a connection setting, key=value (repeatable; see `tmk --help`).
    #[arg(short = 'X', value_name = "KEY=VALUE", global = true, action = ArgAction::Append)]
    pub x: Vec<String>,
    /// Comma-separated seed brokers, host:port.
    #[arg(long, global = true, env = "TMK_BROKERS", value_delimiter = ',')]
    pub brokers: Vec<String>,
    /// Profile to use instead of the current one.
    #[arg(long, global = true, env = "TMK_PROFILE")]
    pub profile: Option<String>,
    /// Profile file (default ~/.config/tmk/tmk.yaml; .toml files are TOML).
    #[arg(
        long = "config",
        global = true,
        env = "TMK_CONFIG",
        value_name = "FILE"
    )]
    pub config: Option<PathBuf>,
    /// Request timeout in milliseconds.
    #[arg(long, global = true, default_value_t = 30_000, hide = true)]
    pub request_timeout_ms: u64,
}

/// `--format` for listing commands.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutFormat {
    /// A table fitting the terminal.
    #[default]
    Text,
    /// One JSON document.
    Json,
    /// One YAML document.
    Yaml,
    /// A table with every column, not truncated.
    Wide,
}

#[derive(Args, Debug, Clone, Copy, Default)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutFormat::Text)]
    pub format: OutFormat,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Create, list, describe, delete, produce to and consume topics.
    #[command(subcommand)]
    Topic(TopicCmd),
    /// Describe, seek and delete consumer groups.
    #[command(subcommand)]
    Group(GroupCmd),
    /// Cluster information, health, configuration and partition moves.
    #[command(subcommand)]
    Cluster(ClusterCmd),
    /// ACLs and SASL/SCRAM users.
    #[command(subcommand)]
    Security(SecurityCmd),
    /// Saved connection settings.
    #[command(subcommand)]
    Profile(ProfileCmd),
    /// Load generation: produce or consume as fast as the broker allows.
    #[command(subcommand)]
    Bench(BenchCmd),
    /// Print tmk's version.
    #[command(after_help = "EXAMPLES:\n  tmk version")]
    Version,
    /// Print a shell completion script.
    #[command(
        after_help = "EXAMPLES:\n  tmk completion bash > /etc/bash_completion.d/tmk\n  tmk completion zsh > \"${fpath[1]}/_tmk\"\n  tmk completion fish > ~/.config/fish/completions/tmk.fish"
    )]
    Completion {
        #[arg(value_enum)]
        shell: Shell,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

// ---------------------------------------------------------------- topic

#[derive(Subcommand, Debug)]
pub enum TopicCmd {
    /// Create topics.
    #[command(
        after_help = "EXAMPLES:\n  tmk topic create foo\n  tmk topic create foo bar -p 6 -r 3 -c cleanup.policy=compact\n  tmk topic create foo --dry"
    )]
    Create(TopicCreate),
    /// List topics.
    #[command(
        visible_alias = "ls",
        after_help = "EXAMPLES:\n  tmk topic list\n  tmk topic list -d -i\n  tmk topic list --format json"
    )]
    List(TopicList),
    /// Describe topics: summary, configs and partitions.
    #[command(
        after_help = "EXAMPLES:\n  tmk topic describe foo\n  tmk topic describe foo -p\n  tmk topic describe foo -a --format json"
    )]
    Describe(TopicDescribe),
    /// Delete topics.
    #[command(
        after_help = "EXAMPLES:\n  tmk topic delete foo bar\n  tmk topic delete -r '^test-.*'"
    )]
    Delete(TopicDelete),
    /// Set or delete topic configs.
    #[command(
        after_help = "EXAMPLES:\n  tmk topic alter-config foo --set retention.ms=60000\n  tmk topic alter-config foo -d retention.ms"
    )]
    AlterConfig(TopicAlterConfig),
    /// Add partitions to topics.
    #[command(after_help = "EXAMPLES:\n  tmk topic add-partitions foo -n 3")]
    AddPartitions(TopicAddPartitions),
    /// Delete the records before an offset (DeleteRecords).
    #[command(
        after_help = "EXAMPLES:\n  tmk topic trim-prefix foo -o 100 -p 0,1\n  tmk topic trim-prefix foo -o end --no-confirm\n  tmk topic trim-prefix --from-file /tmp/to_trim.json"
    )]
    TrimPrefix(TopicTrimPrefix),
    /// Produce records read from standard input.
    #[command(long_about = crate::format::parse::HELP, after_help = "EXAMPLES:\n  echo hello | tmk topic produce foo\n  printf 'k1 v1\\nk2 v2\\n' | tmk topic produce foo -f '%k %v\\n'\n  tmk topic produce foo -k key -H trace:1 < values.txt")]
    Produce(TopicProduce),
    /// Consume records and print them.
    #[command(long_about = crate::format::print::HELP, after_help = "EXAMPLES:\n  tmk topic consume foo -n 10\n  tmk topic consume foo -o -5 -f '%k %v\\n'\n  tmk topic consume foo -g my-group\n  tmk topic consume foo -o @1700000000000:end")]
    Consume(TopicConsume),
}

#[derive(Args, Debug)]
pub struct TopicCreate {
    /// Topics to create.
    #[arg(required = true)]
    pub topics: Vec<String>,
    /// Partitions per topic; -1 takes the broker's num.partitions.
    #[arg(short = 'p', long, default_value_t = -1, allow_negative_numbers = true)]
    pub partitions: i32,
    /// Replication factor; -1 takes the broker's default.replication.factor.
    #[arg(short = 'r', long, default_value_t = -1, allow_negative_numbers = true)]
    pub replicas: i16,
    /// key=value topic config (repeatable), e.g. -c cleanup.policy=compact.
    #[arg(short = 'c', long = "topic-config", value_name = "KEY=VALUE")]
    pub topic_config: Vec<String>,
    /// Dry run: validate the request; create nothing.
    #[arg(short = 'd', long = "dry", visible_alias = "dry-run")]
    pub dry: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct TopicList {
    /// Only these topics (or regexes with -r).
    pub topics: Vec<String>,
    /// Print per-partition information.
    #[arg(short = 'd', long)]
    pub detailed: bool,
    /// Include internal topics.
    #[arg(short = 'i', long)]
    pub internal: bool,
    /// Treat the arguments as regular expressions.
    #[arg(short = 'r', long)]
    pub regex: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct TopicDescribe {
    #[arg(required = true)]
    pub topics: Vec<String>,
    /// Print the summary section.
    #[arg(short = 's', long = "print-summary")]
    pub summary: bool,
    /// Print the config section.
    #[arg(short = 'c', long = "print-configs")]
    pub configs: bool,
    /// Print the partitions section.
    #[arg(short = 'p', long = "print-partitions")]
    pub partitions: bool,
    /// Print all sections.
    #[arg(short = 'a', long = "print-all")]
    pub all: bool,
    /// Treat the arguments as regular expressions.
    #[arg(short = 'r', long)]
    pub regex: bool,
    /// Include the last stable offset column.
    #[arg(long)]
    pub stable: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct TopicDelete {
    #[arg(required = true)]
    pub topics: Vec<String>,
    /// Treat the arguments as regular expressions.
    #[arg(short = 'r', long)]
    pub regex: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct TopicAlterConfig {
    #[arg(required = true)]
    pub topics: Vec<String>,
    /// key=value to set (repeatable).
    #[arg(short = 's', long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Key to delete, back to its default (repeatable).
    #[arg(short = 'd', long = "delete", value_name = "KEY")]
    pub delete: Vec<String>,
    /// key=value to append to a list config (repeatable).
    #[arg(long = "append", value_name = "KEY=VALUE")]
    pub append: Vec<String>,
    /// key=value to remove from a list config (repeatable).
    #[arg(long = "subtract", value_name = "KEY=VALUE")]
    pub subtract: Vec<String>,
    /// Dry run: validate only.
    #[arg(long)]
    pub dry: bool,
}

#[derive(Args, Debug)]
pub struct TopicAddPartitions {
    #[arg(required = true)]
    pub topics: Vec<String>,
    /// Number of partitions to add to each topic.
    #[arg(short = 'n', long, required = true)]
    pub num: i32,
    /// Allow internal topics.
    #[arg(short = 'f', long)]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct TopicTrimPrefix {
    /// The topic (optional with --from-file when the file names topics).
    pub topic: Option<String>,
    /// New start offset: a number, `end`, or @TIMESTAMP_MS.
    #[arg(
        short = 'o',
        long,
        required_unless_present = "from_file",
        allow_hyphen_values = true
    )]
    pub offset: Option<String>,
    /// Partitions to trim (default all), comma-separated.
    #[arg(short = 'p', long, value_delimiter = ',', conflicts_with = "from_file")]
    pub partitions: Vec<i32>,
    /// File of new start offsets: lines of `TOPIC PARTITION OFFSET` (or
    /// `PARTITION OFFSET` with the topic as argument), or the keyed
    /// JSON/YAML array (`.json`, `.yaml`: topic, partition, offset).
    #[arg(short = 'f', long = "from-file", conflicts_with = "offset")]
    pub from_file: Option<PathBuf>,
    /// Do not ask for confirmation (tmk never prompts; kept for rpk scripts).
    #[arg(long = "no-confirm")]
    pub no_confirm: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct TopicProduce {
    /// Topic to produce to (a %t in the format takes precedence).
    pub topic: Option<String>,
    /// A fixed key for every record (parsed keys take precedence).
    #[arg(short = 'k', long)]
    pub key: Option<String>,
    /// Header key:value added to every record (repeatable).
    #[arg(short = 'H', long = "header", value_name = "KEY:VALUE")]
    pub header: Vec<String>,
    /// Partition to produce to, if non-negative (also enables %p).
    #[arg(short = 'p', long, default_value_t = -1, allow_negative_numbers = true)]
    pub partition: i32,
    /// Acks: -1 all, 0 none, 1 leader.
    #[arg(long, default_value_t = -1, allow_negative_numbers = true)]
    pub acks: i16,
    /// Batch compression: none, gzip, snappy, lz4, zstd.
    #[arg(short = 'z', long, default_value = "snappy")]
    pub compression: String,
    /// Input format (see --help).
    #[arg(short = 'f', long = "format", default_value = "%v\\n")]
    pub format: String,
    /// What to print per produced record (consume format syntax).
    #[arg(
        short = 'o',
        long = "output-format",
        default_value = "Produced to partition %p at offset %o with timestamp %d.\\n"
    )]
    pub output_format: String,
    /// Produce empty values as tombstones (null).
    #[arg(short = 'Z', long)]
    pub tombstone: bool,
    /// Maximum record batch size before compression, if non-negative.
    #[arg(long = "max-message-bytes", default_value_t = -1, allow_negative_numbers = true)]
    pub max_message_bytes: i32,
    /// Allow the broker to create a missing topic.
    #[arg(long = "allow-auto-topic-creation")]
    pub allow_auto_topic_creation: bool,
}

#[derive(Args, Debug)]
pub struct TopicConsume {
    #[arg(required = true)]
    pub topics: Vec<String>,
    /// Where to start and optionally stop (start, end, 47, +2, -3, :end, o1:o2, @t, @t1:t2).
    #[arg(short = 'o', long, default_value = "start", allow_hyphen_values = true)]
    pub offset: String,
    /// Partitions to consume, comma-separated.
    #[arg(short = 'p', long, value_delimiter = ',')]
    pub partitions: Vec<i32>,
    /// Treat the topics as regular expressions.
    #[arg(short = 'r', long)]
    pub regex: bool,
    /// Consume as part of this group, committing offsets (incompatible with -p).
    #[arg(short = 'g', long)]
    pub group: Option<String>,
    /// Group balancer (tmk's group consumer uses range).
    #[arg(short = 'b', long, default_value = "range")]
    pub balancer: String,
    /// Maximum bytes per fetch.
    #[arg(long = "fetch-max-bytes", default_value_t = 1 << 20)]
    pub fetch_max_bytes: i32,
    /// Maximum fetch wait in milliseconds.
    #[arg(long = "fetch-max-wait", default_value_t = 5000)]
    pub fetch_max_wait: u64,
    /// Read only committed transactional records.
    #[arg(long = "read-committed")]
    pub read_committed: bool,
    /// Rack to consume from (`client.rack`): opts into follower fetching,
    /// reading from a replica in this rack when the leader's
    /// `replica.selector.class` points there.
    #[arg(long)]
    pub rack: Option<String>,
    /// Print control records too.
    #[arg(long = "print-control-records")]
    pub print_control_records: bool,
    /// Output format: json, or a format string (see --help).
    #[arg(short = 'f', long = "format", default_value = "json")]
    pub format: String,
    /// Quit after this many records (0: unbounded).
    #[arg(short = 'n', long, default_value_t = 0)]
    pub num: u64,
    /// Pretty-print JSON over several lines.
    #[arg(long = "pretty-print", default_value_t = true, action = ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    pub pretty_print: bool,
    /// Print everything but the value (JSON only).
    #[arg(long = "meta-only")]
    pub meta_only: bool,
}

// ---------------------------------------------------------------- group

#[derive(Subcommand, Debug)]
pub enum GroupCmd {
    /// List groups.
    #[command(
        visible_alias = "ls",
        after_help = "EXAMPLES:\n  tmk group list\n  tmk group list -s Stable --format json"
    )]
    List(GroupList),
    /// Describe groups: members, commits and lag.
    #[command(
        after_help = "EXAMPLES:\n  tmk group describe my-group\n  tmk group describe my-group -s\n  tmk group describe my-group --format json"
    )]
    Describe(GroupDescribe),
    /// Move a group's committed offsets (the group must have no members).
    #[command(
        after_help = "EXAMPLES:\n  tmk group seek my-group --to start\n  tmk group seek my-group --to 1700000000000 --topics foo\n  tmk group seek my-group --to-group other-group"
    )]
    Seek(GroupSeek),
    /// Delete groups.
    #[command(after_help = "EXAMPLES:\n  tmk group delete g1 g2")]
    Delete(GroupDelete),
    /// Delete a group's committed offsets for some partitions.
    #[command(after_help = "EXAMPLES:\n  tmk group offset-delete my-group -t foo:0,1,2 -t bar")]
    OffsetDelete(GroupOffsetDelete),
}

#[derive(Args, Debug)]
pub struct GroupList {
    /// Only groups in these states, comma-separated.
    #[arg(short = 's', long, value_delimiter = ',')]
    pub states: Vec<String>,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct GroupDescribe {
    #[arg(required = true)]
    pub groups: Vec<String>,
    /// Print the lag aggregated per topic.
    #[arg(short = 't', long = "print-lag-per-topic")]
    pub lag_per_topic: bool,
    /// Print only the summary section.
    #[arg(short = 's', long = "print-summary")]
    pub summary: bool,
    /// Print only the commits section.
    #[arg(short = 'c', long = "print-commits")]
    pub commits: bool,
    /// Treat the arguments as regular expressions.
    #[arg(short = 'r', long)]
    pub regex: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct GroupSeek {
    pub group: String,
    /// Where to seek: start, end, or a unix timestamp (s, ms or ns).
    #[arg(long, conflicts_with_all = ["to_group", "to_file"], required_unless_present_any = ["to_group", "to_file"])]
    pub to: Option<String>,
    /// Seek to the commits of another group.
    #[arg(long = "to-group")]
    pub to_group: Option<String>,
    /// Seek to the offsets in a file of `topic partition offset` lines.
    #[arg(long = "to-file")]
    pub to_file: Option<PathBuf>,
    /// Only these topics, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub topics: Vec<String>,
    /// Allow seeking topics the group does not consume yet.
    #[arg(long = "allow-new-topics")]
    pub allow_new_topics: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct GroupDelete {
    #[arg(required = true)]
    pub groups: Vec<String>,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct GroupOffsetDelete {
    pub group: String,
    /// topic or topic:p1,p2 (repeatable).
    #[arg(short = 't', long = "topic", value_name = "TOPIC[:P,...]")]
    pub topic: Vec<String>,
    /// File of `topic partition` lines.
    #[arg(short = 'f', long = "from-file")]
    pub from_file: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

// ---------------------------------------------------------------- cluster

#[derive(Subcommand, Debug)]
pub enum ClusterCmd {
    /// Brokers, controller and cluster id.
    #[command(
        visible_alias = "metadata",
        after_help = "EXAMPLES:\n  tmk cluster info\n  tmk cluster info --format json"
    )]
    Info(ClusterInfo),
    /// Whether every broker is up and every partition has a leader and its full ISR.
    #[command(after_help = "EXAMPLES:\n  tmk cluster health\n  tmk cluster health --format json")]
    Health(OutputOnly),
    /// Broker configuration.
    #[command(subcommand)]
    Config(ClusterConfigCmd),
    /// Log directories.
    #[command(subcommand)]
    Logdirs(LogdirsCmd),
    /// Partition reassignments.
    #[command(subcommand)]
    Partitions(PartitionsCmd),
    /// Maintenance mode: move every leadership off a broker and keep new ones away (admin API).
    #[command(subcommand)]
    Maintenance(MaintenanceCmd),
    /// Brokers: decommission one (move its replicas away, then remove it; admin API).
    #[command(subcommand)]
    Brokers(BrokersCmd),
    /// Client quotas (Kafka's: user, client-id and ip entities).
    #[command(subcommand, visible_alias = "quota")]
    Quotas(QuotasCmd),
}

#[derive(Subcommand, Debug)]
pub enum MaintenanceCmd {
    /// Put a broker in maintenance mode: its leaderships move to other in-sync replicas.
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster maintenance enable 2\n  tmk cluster maintenance enable 2 --wait"
    )]
    Enable(MaintenanceEnable),
    /// Take a broker out of maintenance mode.
    #[command(after_help = "EXAMPLES:\n  tmk cluster maintenance disable 2")]
    Disable(BrokerId),
    /// Maintenance state of every broker: enabled, leaderships left, finished.
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster maintenance status\n  tmk cluster maintenance status --format json"
    )]
    Status(OutputOnly),
}

#[derive(Args, Debug)]
pub struct MaintenanceEnable {
    /// The broker's node id.
    pub broker: i32,
    /// Wait until the broker leads no partition.
    #[arg(long)]
    pub wait: bool,
    /// How long --wait waits, in seconds.
    #[arg(long, default_value_t = 120)]
    pub timeout_secs: u64,
}

#[derive(Args, Debug)]
pub struct BrokerId {
    /// The broker's node id.
    pub broker: i32,
}

#[derive(Subcommand, Debug)]
pub enum BrokersCmd {
    /// Decommission a broker: its replicas move to other brokers, then it leaves the cluster.
    #[command(after_help = "EXAMPLES:\n  tmk cluster brokers decommission 4")]
    Decommission(BrokerId),
    /// Progress of a decommission: replicas left on the broker, whether it is removed.
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster brokers decommission-status 4\n  tmk cluster brokers decommission-status 4 --format json"
    )]
    DecommissionStatus(BrokerStatus),
    /// Stop a decommission still under way: the broker takes replicas again,
    /// unfinished moves go back, finished ones stay.
    #[command(after_help = "EXAMPLES:\n  tmk cluster brokers recommission 4")]
    Recommission(BrokerId),
}

#[derive(Args, Debug)]
pub struct BrokerStatus {
    /// The broker's node id.
    pub broker: i32,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Subcommand, Debug)]
pub enum QuotasCmd {
    /// Describe client quotas matching the filters (none: every quota).
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster quotas describe\n  tmk cluster quotas describe --name client-id=foo\n  tmk cluster quotas describe --default user --any client-id --strict"
    )]
    Describe(QuotasDescribe),
    /// Add or delete one entity's client quotas.
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster quotas alter --add consumer_byte_rate=200000 --name client-id=foo\n  tmk cluster quotas alter --add producer_byte_rate=180000 --default client-id\n  tmk cluster quotas alter --delete producer_byte_rate --name client-id=foo"
    )]
    Alter(QuotasAlter),
}

#[derive(Args, Debug)]
pub struct QuotasDescribe {
    /// Entity for exact matching: type=name, type user, client-id or ip (repeatable).
    #[arg(long = "name")]
    pub names: Vec<String>,
    /// Entity type for default matching (repeatable).
    #[arg(long = "default")]
    pub defaults: Vec<String>,
    /// Entity type for any matching, default or named (repeatable).
    #[arg(long = "any")]
    pub any: Vec<String>,
    /// Only entities with exactly the filtered types.
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct QuotasAlter {
    /// Entity: type=name, type user, client-id or ip (repeatable).
    #[arg(long = "name")]
    pub names: Vec<String>,
    /// Entity type whose default entity is meant (repeatable).
    #[arg(long = "default")]
    pub defaults: Vec<String>,
    /// key=value quota to add, the value a number (repeatable).
    #[arg(long = "add")]
    pub add: Vec<String>,
    /// Key of a quota to delete (repeatable).
    #[arg(long = "delete")]
    pub delete: Vec<String>,
    /// Validate the request without altering the quotas.
    #[arg(long)]
    pub dry: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct OutputOnly {
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct ClusterInfo {
    /// Print the brokers section.
    #[arg(short = 'b', long = "print-brokers")]
    pub print_brokers: bool,
    /// Print the topics section.
    #[arg(short = 't', long = "print-topics")]
    pub print_topics: bool,
    /// Print the cluster section.
    #[arg(short = 'c', long = "print-cluster")]
    pub print_cluster: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Subcommand, Debug)]
pub enum ClusterConfigCmd {
    /// Print a cluster-wide config value.
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster config get log.retention.ms\n  tmk cluster config get log.retention.ms --node 1"
    )]
    Get(ClusterConfigGet),
    /// Set a cluster-wide (or one broker's) dynamic config.
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster config set log.retention.ms 3600000\n  tmk cluster config set log.retention.ms ''   # back to the default"
    )]
    Set(ClusterConfigSet),
    /// Write the dynamic configs to a YAML (or JSON) file.
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster config export -f cluster.yaml\n  tmk cluster config export --all"
    )]
    Export(ClusterConfigExport),
    /// Apply a file written by `export`: set what differs, delete what is absent.
    #[command(after_help = "EXAMPLES:\n  tmk cluster config import -f cluster.yaml")]
    Import(ClusterConfigImport),
}

#[derive(Args, Debug)]
pub struct ClusterConfigGet {
    pub key: String,
    /// Read one broker's value instead of the cluster-wide default.
    #[arg(long)]
    pub node: Option<i32>,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct ClusterConfigSet {
    pub key: String,
    /// The value; an empty value deletes the dynamic setting.
    pub value: String,
    /// Set it on one broker instead of the cluster-wide default.
    #[arg(long)]
    pub node: Option<i32>,
}

#[derive(Args, Debug)]
pub struct ClusterConfigExport {
    /// File to write (default: standard output). .json writes JSON.
    #[arg(short = 'f', long)]
    pub filename: Option<PathBuf>,
    /// Include every config, not only the dynamic ones.
    #[arg(long)]
    pub all: bool,
}

#[derive(Args, Debug)]
pub struct ClusterConfigImport {
    /// File to read (.json is JSON, anything else YAML).
    #[arg(short = 'f', long, required = true)]
    pub filename: PathBuf,
}

#[derive(Subcommand, Debug)]
pub enum LogdirsCmd {
    /// Describe log directories: size per partition.
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster logdirs describe\n  tmk cluster logdirs describe --topics foo --aggregate-into topic"
    )]
    Describe(LogdirsDescribe),
}

#[derive(Args, Debug)]
pub struct LogdirsDescribe {
    /// Only these brokers, comma-separated.
    #[arg(short = 'b', long, value_delimiter = ',')]
    pub broker: Vec<i32>,
    /// Only these topics, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub topics: Vec<String>,
    /// Sum sizes per broker, dir or topic.
    #[arg(long = "aggregate-into")]
    pub aggregate_into: Option<String>,
    /// Print sizes in KiB/MiB/GiB.
    #[arg(short = 'H', long = "human-readable")]
    pub human: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Subcommand, Debug)]
pub enum PartitionsCmd {
    /// Move partition replicas: TOPIC/PARTITION:NODE,NODE,...
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster partitions move foo/0:1,2,3 foo/1:2,3,4\n  tmk cluster partitions move -p foo/0:1,2,3"
    )]
    Move(PartitionsMove),
    /// Show ongoing reassignments.
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster partitions move-status\n  tmk cluster partitions move-status -p foo/0"
    )]
    MoveStatus(PartitionsMoveStatus),
    /// Cancel ongoing reassignments.
    #[command(
        after_help = "EXAMPLES:\n  tmk cluster partitions move-cancel\n  tmk cluster partitions move-cancel -p foo/0"
    )]
    MoveCancel(PartitionsMoveCancel),
    /// Move a partition's leadership to another in-sync replica: TOPIC/PARTITION:NODE.
    #[command(
        after_help = "Kafka has no API for this (rpk calls Redpanda's admin API); tmk does what Kafka\noperators do by hand: it makes NODE the preferred replica (a move that only\nreorders the replicas) and runs a preferred leader election.\n\nEXAMPLES:\n  tmk cluster partitions transfer-leadership foo/0:2\n  tmk cluster partitions transfer-leadership -p foo/0:2 -p foo/1:3"
    )]
    TransferLeadership(PartitionsTransferLeadership),
}

#[derive(Args, Debug)]
pub struct PartitionsTransferLeadership {
    /// TOPIC/PARTITION:NODE transfers.
    pub transfers: Vec<String>,
    /// TOPIC/PARTITION:NODE (repeatable).
    #[arg(short = 'p', long = "partition")]
    pub partition: Vec<String>,
    /// How long to wait for each new leader, in seconds.
    #[arg(long = "timeout", value_name = "SECONDS", default_value_t = 30)]
    pub timeout_secs: u64,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct PartitionsMove {
    /// TOPIC/PARTITION:NODE,NODE,... moves.
    pub moves: Vec<String>,
    /// TOPIC/PARTITION:NODE,NODE,... (repeatable).
    #[arg(short = 'p', long = "partition")]
    pub partition: Vec<String>,
    /// Wait for the moves to finish, printing progress (at most this many seconds).
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, default_missing_value = "600")]
    pub wait: Option<u64>,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct PartitionsMoveStatus {
    /// Only these TOPIC/PARTITION (repeatable).
    #[arg(short = 'p', long = "partition")]
    pub partition: Vec<String>,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct PartitionsMoveCancel {
    /// Only these TOPIC/PARTITION (repeatable; default: all ongoing moves).
    #[arg(short = 'p', long = "partition")]
    pub partition: Vec<String>,
    /// Do not ask for confirmation (tmk never prompts; kept for rpk scripts).
    #[arg(long = "no-confirm")]
    pub no_confirm: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

// ---------------------------------------------------------------- security

#[derive(Subcommand, Debug)]
pub enum SecurityCmd {
    /// ACLs.
    #[command(subcommand)]
    Acl(AclCmd),
    /// SASL/SCRAM users.
    #[command(subcommand)]
    User(UserCmd),
}

#[derive(Subcommand, Debug)]
pub enum AclCmd {
    /// Create ACLs.
    #[command(
        after_help = "EXAMPLES:\n  tmk security acl create --allow-principal User:alice --operation read,describe --topic foo\n  tmk security acl create --allow-principal User:bob --operation all --group g --resource-pattern-type prefixed"
    )]
    Create(AclArgs),
    /// List ACLs matching a filter (default: all).
    #[command(
        visible_alias = "ls",
        after_help = "EXAMPLES:\n  tmk security acl list\n  tmk security acl list --topic foo --format json"
    )]
    List(AclFilterArgs),
    /// Delete ACLs matching a filter.
    #[command(
        after_help = "EXAMPLES:\n  tmk security acl delete --allow-principal User:alice --topic foo --operation read"
    )]
    Delete(AclFilterArgs),
}

/// The resource and principal flags rpk's acl commands share.
#[derive(Args, Debug, Clone, Default)]
pub struct AclCommon {
    /// Topics (repeatable, comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub topic: Vec<String>,
    /// Groups (repeatable, comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub group: Vec<String>,
    /// The cluster resource.
    #[arg(long)]
    pub cluster: bool,
    /// Transactional ids (repeatable, comma-separated).
    #[arg(long = "transactional-id", value_delimiter = ',')]
    pub transactional_id: Vec<String>,
    /// Operations (all, read, write, create, delete, alter, describe, clusteraction, describeconfigs, alterconfigs, idempotentwrite).
    #[arg(long, value_delimiter = ',')]
    pub operation: Vec<String>,
    /// Principals to allow (User:name).
    #[arg(long = "allow-principal", value_delimiter = ',')]
    pub allow_principal: Vec<String>,
    /// Principals to deny (User:name).
    #[arg(long = "deny-principal", value_delimiter = ',')]
    pub deny_principal: Vec<String>,
    /// Hosts to allow from (default * for given principals).
    #[arg(long = "allow-host", value_delimiter = ',')]
    pub allow_host: Vec<String>,
    /// Hosts to deny from (default * for given principals).
    #[arg(long = "deny-host", value_delimiter = ',')]
    pub deny_host: Vec<String>,
}

#[derive(Args, Debug)]
pub struct AclArgs {
    #[command(flatten)]
    pub common: AclCommon,
    /// literal or prefixed.
    #[arg(long = "resource-pattern-type", default_value = "literal")]
    pub pattern: String,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct AclFilterArgs {
    #[command(flatten)]
    pub common: AclCommon,
    /// any, match, literal or prefixed.
    #[arg(long = "resource-pattern-type", default_value = "any")]
    pub pattern: String,
    /// Print the filters that were requested.
    #[arg(short = 'f', long = "print-filters")]
    pub print_filters: bool,
    /// Dry run (delete only): list what would be deleted.
    #[arg(short = 'd', long = "dry")]
    pub dry: bool,
    /// Do not ask for confirmation (tmk never prompts; kept for rpk scripts).
    #[arg(long = "no-confirm")]
    pub no_confirm: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Subcommand, Debug)]
pub enum UserCmd {
    /// Create a SCRAM user.
    #[command(
        after_help = "EXAMPLES:\n  tmk security user create alice -p secret\n  tmk security user create bob --password secret --mechanism scram-sha-512"
    )]
    Create(UserCreate),
    /// Change a user's password.
    #[command(after_help = "EXAMPLES:\n  tmk security user update alice --new-password secret2")]
    Update(UserUpdate),
    /// Delete a user's SCRAM credentials.
    #[command(after_help = "EXAMPLES:\n  tmk security user delete alice")]
    Delete(UserDelete),
    /// List SCRAM users.
    #[command(
        visible_alias = "ls",
        after_help = "EXAMPLES:\n  tmk security user list --format json"
    )]
    List(OutputOnly),
}

#[derive(Args, Debug)]
pub struct UserCreate {
    pub user: String,
    /// The new user's password.
    #[arg(short = 'p', long, visible_alias = "new-password", required = true)]
    pub password: String,
    /// scram-sha-256 or scram-sha-512 (case insensitive).
    #[arg(long, default_value = "scram-sha-256")]
    pub mechanism: String,
}

#[derive(Args, Debug)]
pub struct UserUpdate {
    pub user: String,
    /// The new password.
    #[arg(long = "new-password", visible_alias = "password", required = true)]
    pub new_password: String,
    /// scram-sha-256 or scram-sha-512 (case insensitive).
    #[arg(long, default_value = "scram-sha-256")]
    pub mechanism: String,
}

#[derive(Args, Debug)]
pub struct UserDelete {
    pub user: String,
    /// Delete only this mechanism's credential (default: both).
    #[arg(long)]
    pub mechanism: Option<String>,
}

// ---------------------------------------------------------------- profile

#[derive(Subcommand, Debug)]
pub enum ProfileCmd {
    /// Create a profile and switch to it.
    #[command(
        after_help = "EXAMPLES:\n  tmk profile create prod -s brokers=10.0.0.1:9092,10.0.0.2:9092 -s tls.enabled=true\n  tmk profile create local --from-profile prod -s brokers=127.0.0.1:9092"
    )]
    Create(ProfileCreate),
    /// Switch the current profile.
    #[command(after_help = "EXAMPLES:\n  tmk profile use prod")]
    Use { name: String },
    /// List profiles (* marks the current one).
    #[command(visible_alias = "ls", after_help = "EXAMPLES:\n  tmk profile list")]
    List(OutputOnly),
    /// Change a profile's settings with key=value pairs, or in $EDITOR.
    #[command(
        after_help = "EXAMPLES:\n  tmk profile edit prod -s user=alice -s pass=secret\n  tmk profile edit        # opens the current profile in $EDITOR"
    )]
    Edit(ProfileEdit),
    /// Delete a profile.
    #[command(after_help = "EXAMPLES:\n  tmk profile delete old")]
    Delete { name: String },
    /// Print the current profile's name.
    #[command(after_help = "EXAMPLES:\n  tmk profile current")]
    Current {
        /// No newline after the name.
        #[arg(short = 'n', long = "no-newline")]
        no_newline: bool,
    },
}

#[derive(Args, Debug)]
pub struct ProfileCreate {
    pub name: String,
    /// key=value settings, as -X takes them (repeatable).
    #[arg(short = 's', long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Start from a copy of this profile.
    #[arg(long = "from-profile")]
    pub from_profile: Option<String>,
    /// A description.
    #[arg(short = 'd', long)]
    pub description: Option<String>,
}

#[derive(Args, Debug)]
pub struct ProfileEdit {
    /// Profile (default: the current one).
    pub name: Option<String>,
    /// key=value settings (repeatable); without any, opens $EDITOR.
    #[arg(short = 's', long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

// ---------------------------------------------------------------- bench

/// Ctrl-C during any bench stops it with the summary of what it measured
/// so far (marked interrupted) and exit code 130; a second one quits.
#[derive(Subcommand, Debug)]
pub enum BenchCmd {
    /// Produce pre-built batches over several connections; report rates and ack latency.
    #[command(
        after_help = "EXAMPLES:\n  tmk bench produce bench -n 1000000 -s 1024\n  tmk bench produce bench --duration 30 --connections 4 --rate 200000 --acks 1 -z lz4 --format json\n\nCtrl-C stops the run and prints the summary so far (exit code 130); a second Ctrl-C quits at once."
    )]
    Produce(BenchProduce),
    /// Consume a topic from the start; report rates.
    #[command(after_help = "EXAMPLES:\n  tmk bench consume bench -n 1000000")]
    Consume(BenchConsume),
    /// Produce as `produce` while a consumer fetches the topic; report
    /// publish-ack and publish-to-consume latency (consume time minus the
    /// record's timestamp, which has ms resolution).
    #[command(
        after_help = "EXAMPLES:\n  tmk bench e2e bench --duration 15 --rate 20000 --acks -1 --format json"
    )]
    E2e(BenchProduce),
}

#[derive(Args, Debug)]
pub struct BenchProduce {
    pub topic: String,
    /// Records to send (0: until --duration).
    #[arg(short = 'n', long, default_value_t = 100_000)]
    pub records: u64,
    /// Seconds to run when --records is 0 (or as a cap).
    #[arg(long, default_value_t = 0)]
    pub duration: u64,
    /// Value size in bytes.
    #[arg(short = 's', long = "record-size", default_value_t = 1024)]
    pub record_size: usize,
    /// Records per batch, one batch per partition per request (0: as many
    /// as fit in about 1 MB, librdkafka's batch.size in benches/load/).
    #[arg(long = "batch-records", default_value_t = 0)]
    pub batch_records: usize,
    /// Partitions per Produce request (0: every partition of the
    /// connection's share, as librdkafka fills a request).
    #[arg(long = "partitions-per-request", default_value_t = 0)]
    pub partitions_per_request: usize,
    /// Idempotent batches (producer id, epoch and sequences); needs --acks -1
    /// and caps --inflight at 5.
    #[arg(long)]
    pub idempotent: bool,
    /// Connections (one thread and one client each).
    #[arg(long, default_value_t = 4)]
    pub connections: usize,
    /// Produce requests in flight per connection.
    #[arg(long, default_value_t = 8)]
    pub inflight: usize,
    /// Target records per second over all connections (0: as fast as possible).
    #[arg(long, default_value_t = 0)]
    pub rate: u64,
    /// -1 all, 0 none, 1 leader.
    #[arg(long, default_value_t = -1, allow_negative_numbers = true)]
    pub acks: i16,
    /// none, gzip, snappy, lz4, zstd.
    #[arg(short = 'z', long, default_value = "none")]
    pub compression: String,
    /// Keys: none, uniform:N (N distinct keys), or hot (one key).
    #[arg(long, default_value = "none")]
    pub keys: String,
    /// Summary format: text or json.
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Args, Debug)]
pub struct BenchConsume {
    pub topic: String,
    /// Records to read (0: until --duration or the end).
    #[arg(short = 'n', long, default_value_t = 0)]
    pub records: u64,
    /// Seconds to run at most (0: no limit).
    #[arg(long, default_value_t = 0)]
    pub duration: u64,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Every `-X` value on the command line, in order. clap keeps only the
/// occurrences after the last subcommand for a global flag, while rpk
/// (cobra) accumulates them wherever they are; this scan restores that.
/// Scanning stops at `--`.
pub fn collect_x<S: AsRef<str>>(args: &[S]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter().map(AsRef::as_ref);
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        if a == "-X" {
            if let Some(v) = it.next() {
                out.push(v.to_string());
            }
        } else if let Some(v) = a.strip_prefix("-X") {
            out.push(v.trim_start_matches('=').to_string());
        }
    }
    out
}

/// Parses a command line the way `tmk` does.
pub fn parse_args<I, S>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone + AsRef<str>,
{
    let args: Vec<S> = args.into_iter().collect();
    let mut cli = Cli::try_parse_from(args.iter().cloned())?;
    cli.conn.x = collect_x(&args[1.min(args.len())..]);
    Ok(cli)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        parse_args(std::iter::once("tmk").chain(args.iter().copied()))
    }

    #[test]
    fn tree_is_consistent() {
        Cli::command().debug_assert();
    }

    /// The issue's promise: `--help` of every command shows examples.
    #[test]
    fn every_command_has_examples() {
        fn walk(c: &clap::Command, path: &str, missing: &mut Vec<String>) {
            let subs: Vec<_> = c
                .get_subcommands()
                .filter(|s| s.get_name() != "help")
                .collect();
            if subs.is_empty() {
                let help = c
                    .get_after_help()
                    .map(|h| h.to_string())
                    .unwrap_or_default();
                if !help.contains("EXAMPLES") {
                    missing.push(path.to_string());
                }
            }
            for s in subs {
                walk(s, &format!("{path} {}", s.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        walk(&Cli::command(), "tmk", &mut missing);
        assert!(missing.is_empty(), "no EXAMPLES in --help of {missing:?}");
    }

    #[test]
    fn topic_create_flags() {
        let cli = parse(&[
            "topic", "create", "a", "b", "-p", "3", "-r", "1", "-c", "x=y", "-c", "z=w",
        ])
        .unwrap();
        let Command::Topic(TopicCmd::Create(c)) = cli.command else {
            panic!("wrong command")
        };
        assert_eq!(c.topics, ["a", "b"]);
        assert_eq!((c.partitions, c.replicas), (3, 1));
        assert_eq!(c.topic_config, ["x=y", "z=w"]);
    }

    #[test]
    fn global_x_flags_anywhere() {
        let cli = parse(&[
            "-X",
            "brokers=h:1",
            "topic",
            "list",
            "-X",
            "tls.enabled=true",
            "--format",
            "json",
        ])
        .unwrap();
        assert_eq!(cli.conn.x, ["brokers=h:1", "tls.enabled=true"]);
        let Command::Topic(TopicCmd::List(l)) = cli.command else {
            panic!("wrong command")
        };
        assert_eq!(l.out.format, OutFormat::Json);
    }

    #[test]
    fn consume_negative_offset_and_partitions() {
        let cli = parse(&[
            "topic", "consume", "t", "-o", "-3", "-p", "0,2", "-n", "5", "-f", "%v\\n",
        ])
        .unwrap();
        let Command::Topic(TopicCmd::Consume(c)) = cli.command else {
            panic!("wrong command")
        };
        assert_eq!(c.offset, "-3");
        assert_eq!(c.partitions, [0, 2]);
        assert_eq!(c.num, 5);
        assert!(c.pretty_print);
    }

    #[test]
    fn bad_usage_is_an_error() {
        assert!(parse(&["topic", "create"]).is_err());
        assert!(parse(&["topic", "frobnicate"]).is_err());
        assert!(parse(&["topic", "list", "--format", "xml"]).is_err());
        assert!(parse(&["group", "seek", "g"]).is_err());
        assert!(parse(&["group", "seek", "g", "--to", "start", "--to-group", "h"]).is_err());
    }

    /// Every command once: clap checks argument ids only when a command
    /// is parsed, so a clash with a global flag shows up here.
    #[test]
    fn every_command_parses() {
        let lines = [
            "topic create t",
            "topic list",
            "topic describe t -a",
            "topic delete t",
            "topic alter-config t --set a=b",
            "topic add-partitions t -n 1",
            "topic trim-prefix t -o 1",
            "topic produce t",
            "topic consume t",
            "group list",
            "group describe g",
            "group seek g --to end",
            "group delete g",
            "group offset-delete g -t t",
            "cluster info -b -t -c",
            "cluster health",
            "cluster config get k",
            "cluster config set k v",
            "cluster config export",
            "cluster config import -f x",
            "cluster logdirs describe",
            "cluster partitions move t/0:1",
            "cluster partitions move-status",
            "cluster partitions move-cancel",
            "security acl create --topic t",
            "security acl list",
            "security acl delete --topic t",
            "security user create u -p p",
            "security user update u --new-password p",
            "security user delete u",
            "security user list",
            "profile create p",
            "profile use p",
            "profile list",
            "profile edit p -s a=b",
            "profile delete p",
            "profile current",
            "version",
            "completion bash",
            "bench produce t",
            "bench consume t",
        ];
        for l in lines {
            let args: Vec<&str> = l.split(' ').collect();
            let cli = parse(&args).unwrap_or_else(|e| panic!("{l}: {e}"));
            let _ = format!("{cli:?}");
        }
    }

    #[test]
    fn acl_flags() {
        let cli = parse(&[
            "security",
            "acl",
            "create",
            "--allow-principal",
            "User:a",
            "--operation",
            "read,write",
            "--topic",
            "t",
            "--resource-pattern-type",
            "prefixed",
        ])
        .unwrap();
        let Command::Security(SecurityCmd::Acl(AclCmd::Create(a))) = cli.command else {
            panic!("wrong command")
        };
        assert_eq!(a.common.operation, ["read", "write"]);
        assert_eq!(a.pattern, "prefixed");
    }
}
