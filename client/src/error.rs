//! The client's one error type: every failure is a single readable line
//! naming what went wrong and where (the broker, the Kafka error, the item).

use kafka_protocol::ErrorCode;

/// What a client call can fail with.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A socket failure, naming the broker address it happened with.
    #[error("{broker}: {source}")]
    Io {
        broker: String,
        #[source]
        source: std::io::Error,
    },
    /// TLS setup or handshake failure.
    #[error("TLS: {0}")]
    Tls(String),
    /// SASL authentication failure (wrong password, unknown mechanism...).
    #[error("SASL: {0}")]
    Sasl(String),
    /// A Kafka error code returned by a broker, with the item it was about.
    #[error("{}", kafka_line(*code, message.as_deref(), context))]
    Kafka {
        code: ErrorCode,
        message: Option<String>,
        context: String,
    },
    /// A deadline passed before an answer came.
    #[error("timed out after {after_ms} ms: {what}")]
    Timeout { what: String, after_ms: u64 },
    /// No version of this API is supported by both the broker and us.
    #[error("the broker does not support any version of {api} this client speaks")]
    UnsupportedVersion { api: &'static str },
    /// A request could not be encoded or a response decoded.
    #[error("protocol: {0}")]
    Protocol(String),
    /// Bad configuration given by the caller.
    #[error("config: {0}")]
    Config(String),
}

/// `NAME: message (context)`; Kafka's default message when the broker
/// sent none, its final period dropped before the context.
fn kafka_line(code: ErrorCode, message: Option<&str>, context: &str) -> String {
    let message = message.filter(|m| !m.is_empty()).unwrap_or(code.message());
    if context.is_empty() {
        format!("{}: {message}", code.name())
    } else {
        format!(
            "{}: {} ({context})",
            code.name(),
            message.trim_end_matches('.')
        )
    }
}

impl Error {
    /// The Kafka error code, when this is a Kafka error.
    pub fn kafka_code(&self) -> Option<ErrorCode> {
        match self {
            Error::Kafka { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// A Kafka error from a wire code, `None` for code 0. Unknown codes
    /// become `UNKNOWN_SERVER_ERROR` (Kafka's `Errors.forCode` does the same)
    /// with the number kept in the message.
    pub fn from_code(
        code: i16,
        message: Option<String>,
        context: impl Into<String>,
    ) -> Option<Error> {
        if code == 0 {
            return None;
        }
        let (code, message) = match ErrorCode::from_code(code) {
            Some(c) => (c, message),
            None => (
                ErrorCode::UnknownServerError,
                Some(format!(
                    "unknown error code {code}{}",
                    message.map(|m| format!(": {m}")).unwrap_or_default()
                )),
            ),
        };
        Some(Error::Kafka {
            code,
            message,
            context: context.into(),
        })
    }

    /// `Ok(())` for code 0, else the Kafka error.
    pub fn check(
        code: i16,
        message: Option<String>,
        context: impl Into<String>,
    ) -> Result<(), Error> {
        match Error::from_code(code, message, context) {
            None => Ok(()),
            Some(e) => Err(e),
        }
    }

    /// Whether trying again may succeed: Kafka's retriable errors,
    /// connection failures and timeouts.
    pub fn is_retriable(&self) -> bool {
        match self {
            Error::Kafka { code, .. } => code.is_retriable(),
            Error::Io { .. } | Error::Timeout { .. } => true,
            _ => false,
        }
    }

    pub(crate) fn io(broker: &str, source: std::io::Error) -> Error {
        Error::Io {
            broker: broker.to_string(),
            source,
        }
    }
}

impl From<kafka_protocol::DecodeError> for Error {
    fn from(e: kafka_protocol::DecodeError) -> Self {
        Error::Protocol(format!("decoding: {e}"))
    }
}

impl From<kafka_protocol::EncodeError> for Error {
    fn from(e: kafka_protocol::EncodeError) -> Self {
        Error::Protocol(format!("encoding: {e}"))
    }
}

impl From<kafka_protocol::records::RecordError> for Error {
    fn from(e: kafka_protocol::records::RecordError) -> Self {
        Error::Protocol(format!("records: {e}"))
    }
}

impl Error {
    /// A copy of this error (for every record of a failed batch): the
    /// I/O source is rebuilt from its kind and message.
    pub fn duplicate(&self) -> Error {
        match self {
            Error::Io { broker, source } => Error::Io {
                broker: broker.clone(),
                source: std::io::Error::new(source.kind(), source.to_string()),
            },
            Error::Tls(s) => Error::Tls(s.clone()),
            Error::Sasl(s) => Error::Sasl(s.clone()),
            Error::Kafka {
                code,
                message,
                context,
            } => Error::Kafka {
                code: *code,
                message: message.clone(),
                context: context.clone(),
            },
            Error::Timeout { what, after_ms } => Error::Timeout {
                what: what.clone(),
                after_ms: *after_ms,
            },
            Error::UnsupportedVersion { api } => Error::UnsupportedVersion { api },
            Error::Protocol(s) => Error::Protocol(s.clone()),
            Error::Config(s) => Error::Config(s.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kafka_error_is_one_line_with_context() {
        let e = Error::from_code(3, None, "topic foo").unwrap();
        assert_eq!(
            e.to_string(),
            "UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition (topic foo)"
        );
        assert_eq!(e.kafka_code(), Some(ErrorCode::UnknownTopicOrPartition));
        assert!(Error::from_code(0, None, "").is_none());
        let e = Error::from_code(36, Some("Topic 'x' already exists.".into()), "topic x").unwrap();
        assert_eq!(
            e.to_string(),
            "TOPIC_ALREADY_EXISTS: Topic 'x' already exists (topic x)"
        );
    }
}
