//! Version negotiation and bad input against a scripted fake broker (no
//! tidemark binary needed): ApiVersions v3 refused with
//! UNSUPPORTED_VERSION is retried at v0, and garbage frames fail the
//! request with an error, not a panic.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use bytes::Bytes;
use tidemark_client::kafka_protocol::frame::{concat, decode_request, encode_response};
use tidemark_client::kafka_protocol::generated::api_versions_response::ApiVersion;
use tidemark_client::kafka_protocol::generated::metadata_response::MetadataResponseBroker;
use tidemark_client::kafka_protocol::generated::{
    ApiVersionsResponse, MetadataResponse, RequestHeader,
};
use tidemark_client::kafka_protocol::{ApiKey, ResponseBody};
use tidemark_client::{Client, Config, Error};

fn read_request(
    s: &mut TcpStream,
) -> Option<(RequestHeader, tidemark_client::kafka_protocol::RequestBody)> {
    let mut size = [0u8; 4];
    s.read_exact(&mut size).ok()?;
    let mut buf = vec![0u8; i32::from_be_bytes(size) as usize];
    s.read_exact(&mut buf).ok()?;
    decode_request(Bytes::from(buf)).ok()
}

fn write_response(s: &mut TcpStream, correlation: i32, version: i16, body: &ResponseBody) {
    let frame = concat(&encode_response(correlation, version, body).unwrap());
    s.write_all(&frame).unwrap();
}

fn cfg(port: u16) -> Config {
    let mut c = Config::new([format!("127.0.0.1:{port}")]);
    c.request_timeout_ms = 3000;
    c.retries = 0;
    c
}

#[test]
fn api_versions_falls_back_to_v0() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let (h, _) = read_request(&mut s).unwrap();
        assert_eq!(
            (h.request_api_key, h.request_api_version),
            (ApiKey::ApiVersions.as_i16(), 3)
        );
        let keys = vec![
            ApiVersion {
                api_key: ApiKey::ApiVersions.as_i16(),
                min_version: 0,
                max_version: 2,
                ..Default::default()
            },
            ApiVersion {
                api_key: ApiKey::Metadata.as_i16(),
                min_version: 0,
                max_version: 8,
                ..Default::default()
            },
        ];
        // An old broker answers an unknown ApiVersions version at v0.
        let refuse = ApiVersionsResponse {
            error_code: 35,
            api_keys: keys.clone(),
            ..Default::default()
        };
        write_response(
            &mut s,
            h.correlation_id,
            0,
            &ResponseBody::ApiVersions(refuse),
        );
        let (h, _) = read_request(&mut s).unwrap();
        assert_eq!(
            (h.request_api_key, h.request_api_version),
            (ApiKey::ApiVersions.as_i16(), 0)
        );
        let ok = ApiVersionsResponse {
            api_keys: keys,
            ..Default::default()
        };
        write_response(&mut s, h.correlation_id, 0, &ResponseBody::ApiVersions(ok));
        let (h, _) = read_request(&mut s).unwrap();
        assert_eq!(
            (h.request_api_key, h.request_api_version),
            (ApiKey::Metadata.as_i16(), 8),
            "highest common version"
        );
        let md = MetadataResponse {
            brokers: vec![MetadataResponseBroker {
                node_id: 7,
                host: "127.0.0.1".into(),
                port: i32::from(port),
                ..Default::default()
            }],
            controller_id: 7,
            ..Default::default()
        };
        write_response(&mut s, h.correlation_id, 8, &ResponseBody::Metadata(md));
        // Then garbage: a negative frame size.
        let _ = read_request(&mut s);
        s.write_all(&(-5i32).to_be_bytes()).unwrap();
        std::thread::sleep(Duration::from_millis(200));
    });
    let c = Client::connect(cfg(port)).unwrap();
    assert_eq!(c.brokers()[0].node_id, 7);
    assert_eq!(c.controller_id(), Some(7));
    let err = c.metadata(None).unwrap_err();
    assert!(matches!(err, Error::Io { .. }), "{err}");
    server.join().unwrap();
}

#[test]
fn undecodable_response_is_a_protocol_error() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let (h, _) = read_request(&mut s).unwrap();
        // The right correlation id, then a body too short for anything.
        let mut frame = Vec::new();
        frame.extend_from_slice(&6i32.to_be_bytes());
        frame.extend_from_slice(&h.correlation_id.to_be_bytes());
        frame.extend_from_slice(&[0xff, 0xff]);
        s.write_all(&frame).unwrap();
        std::thread::sleep(Duration::from_millis(200));
    });
    let err = Client::connect(cfg(port)).unwrap_err();
    assert!(matches!(err, Error::Protocol(_)), "{err}");
    server.join().unwrap();
}
