//! ApiVersions: what this broker implements, from [`crate::apis`].

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::{ApiVersionsRequest, ApiVersionsResponse};

use crate::shard::Shard;

/// Kafka's rule for client software names and versions (KIP-511).
fn valid_software_field(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'.')
}

pub fn handle(shard: &Shard, req: &ApiVersionsRequest, version: i16) -> ApiVersionsResponse {
    let mut resp = ApiVersionsResponse {
        api_keys: crate::apis::advertised(&shard.ctx.supported),
        ..Default::default()
    };
    // v3+: the feature flags (KIP-584), see `features`.
    super::features::fill_api_versions(&mut resp, version);
    if version >= 3
        && (!valid_software_field(&req.client_software_name)
            || !valid_software_field(&req.client_software_version))
    {
        resp.error_code = ErrorCode::InvalidRequest.code();
    }
    resp
}

#[cfg(test)]
mod tests {
    #[test]
    fn software_names() {
        assert!(super::valid_software_field("librdkafka"));
        assert!(super::valid_software_field("2.16.0"));
        assert!(!super::valid_software_field(""));
        assert!(!super::valid_software_field("-x"));
        assert!(!super::valid_software_field("a b"));
    }
}
