//! The one-line error every failure ends in:
//! `tmk: <what failed>: <KAFKA_ERROR_NAME>: <what to do>`, on stderr, exit 1.
//! A Kafka error code gets its name and a hint from the table below, so an
//! operator sees the error Kafka's own tools would name and a next step.

use std::fmt;

use kafka_protocol::ErrorCode;

/// A failure of a command: what failed, the Kafka error name if there is
/// one, and a hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmkError {
    pub what: String,
    pub name: Option<String>,
    pub hint: Option<String>,
}

pub type Result<T, E = TmkError> = std::result::Result<T, E>;

impl TmkError {
    /// A failure with no Kafka error code (bad input, files, connections).
    pub fn msg(what: impl Into<String>) -> TmkError {
        TmkError {
            what: what.into(),
            name: None,
            hint: None,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> TmkError {
        self.hint = Some(hint.into());
        self
    }

    /// A Kafka error code answered for `what`; `None` for code 0.
    pub fn kafka(what: impl Into<String>, code: i16, message: Option<&str>) -> Option<TmkError> {
        if code == 0 {
            return None;
        }
        let (name, default_msg) = match ErrorCode::from_code(code) {
            Some(c) => (c.name().to_string(), Some(c.message().to_string())),
            None => (format!("UNKNOWN_ERROR_CODE_{code}"), None),
        };
        let mut what = what.into();
        if let Some(m) = message.filter(|m| !m.is_empty() && Some(*m) != default_msg.as_deref()) {
            what = format!("{what} ({m})");
        }
        let hint = hint_for(&name).map(str::to_string).or(default_msg);
        Some(TmkError {
            what,
            name: Some(name),
            hint,
        })
    }
}

/// Advice per Kafka error name: what an operator does next.
pub fn hint_for(name: &str) -> Option<&'static str> {
    Some(match name {
        "UNKNOWN_TOPIC_OR_PARTITION" | "UNKNOWN_TOPIC_ID" => {
            "check the topic name with `tmk topic list`"
        }
        "TOPIC_ALREADY_EXISTS" => {
            "pick another name, or delete the topic first with `tmk topic delete`"
        }
        "INVALID_PARTITIONS" => "use a positive partition count (or -1 for the broker default)",
        "INVALID_REPLICATION_FACTOR" => {
            "use a replication factor no larger than the number of brokers (or -1)"
        }
        "INVALID_TOPIC_EXCEPTION" => {
            "topic names use only letters, digits, '.', '_' and '-', at most 249 characters"
        }
        "INVALID_CONFIG" | "INVALID_REQUEST" => "check the keys and values given",
        "POLICY_VIOLATION" => "the broker's policy refused the change",
        "TOPIC_AUTHORIZATION_FAILED"
        | "GROUP_AUTHORIZATION_FAILED"
        | "CLUSTER_AUTHORIZATION_FAILED"
        | "TRANSACTIONAL_ID_AUTHORIZATION_FAILED"
        | "DELEGATION_TOKEN_AUTHORIZATION_FAILED" => {
            "ask an administrator for an ACL (`tmk security acl create`), or connect as another user"
        }
        "SASL_AUTHENTICATION_FAILED" => "check -X user=, -X pass= and -X sasl.mechanism=",
        "UNSUPPORTED_SASL_MECHANISM" => "use a mechanism the broker enables (-X sasl.mechanism=)",
        "NON_EMPTY_GROUP" => "stop the group's consumers first",
        "GROUP_ID_NOT_FOUND" => "check the group name with `tmk group list`",
        "GROUP_SUBSCRIBED_TO_TOPIC" => "stop the group's consumers of that topic first",
        "COORDINATOR_NOT_AVAILABLE" | "NOT_COORDINATOR" | "COORDINATOR_LOAD_IN_PROGRESS" => {
            "retry in a moment"
        }
        "NOT_LEADER_OR_FOLLOWER" | "LEADER_NOT_AVAILABLE" | "NOT_CONTROLLER" => {
            "retry in a moment; `tmk cluster health` shows leaderless partitions"
        }
        "REQUEST_TIMED_OUT" => "retry, or check `tmk cluster health`",
        "OFFSET_OUT_OF_RANGE" => {
            "pick an offset between the partition's start and end (`tmk topic describe -p`)"
        }
        "RECORD_LIST_TOO_LARGE" | "MESSAGE_TOO_LARGE" => {
            "send smaller records or raise max.message.bytes"
        }
        "UNSUPPORTED_VERSION" => "the broker does not support this request version",
        "RESOURCE_NOT_FOUND" => "check the name given",
        "NO_REASSIGNMENT_IN_PROGRESS" => {
            "nothing to cancel: `tmk cluster partitions move-status` lists moves"
        }
        "INVALID_REPLICA_ASSIGNMENT" => "name existing, distinct broker ids (`tmk cluster info`)",
        "SECURITY_DISABLED" => "the broker has no authorizer or SASL configured",
        "DUPLICATE_RESOURCE" => "it exists already",
        _ => return None,
    })
}

impl fmt::Display for TmkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tmk: {}", self.what)?;
        if let Some(n) = &self.name {
            write!(f, ": {n}")?;
        }
        if let Some(h) = &self.hint {
            write!(f, ": {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for TmkError {}

impl From<std::io::Error> for TmkError {
    fn from(e: std::io::Error) -> TmkError {
        TmkError::msg(e.to_string())
    }
}

/// Turns a per-item error code into a `TmkError` result.
pub fn check(code: i16, message: Option<&str>, what: impl FnOnce() -> String) -> Result<()> {
    match TmkError::kafka(what(), code, message) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_with_name_and_hint() {
        let e = TmkError::kafka("describing topic nope", 3, None).unwrap();
        assert_eq!(
            e.to_string(),
            "tmk: describing topic nope: UNKNOWN_TOPIC_OR_PARTITION: check the topic name with `tmk topic list`"
        );
        assert!(TmkError::kafka("x", 0, None).is_none());
        let e =
            TmkError::kafka("creating topic t", 37, Some("partitions must be positive")).unwrap();
        assert!(e.to_string().starts_with(
            "tmk: creating topic t (partitions must be positive): INVALID_PARTITIONS: "
        ));
        assert_eq!(
            TmkError::msg("reading file f").to_string(),
            "tmk: reading file f"
        );
    }
}
