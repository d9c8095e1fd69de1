"""KIP-368 re-authentication (issue 15): with connections.max.reauth.ms a
SASL session has a lifetime the broker announces in SaslAuthenticate;
the client re-authenticates on the same connection before it ends, as the
same principal with the same mechanism, or the connection closes at the
first request after the end. librdkafka re-authenticates by itself.
"""

import time

import pytest

import rawkafka
from test_scram_users import (ADMIN, ADMIN_PW, ScramBroker, admin_client, create_user,
                              sasl_conf, sasl_exchange)

LIFETIME_MS = 1500
SASL_AUTHENTICATION_FAILED, UNSUPPORTED_SASL_MECHANISM = 58, 33


@pytest.fixture(scope="module")
def rb():
    b = ScramBroker({"connections.max.reauth.ms": LIFETIME_MS}, name="reauth",
                    log_filter="info,tidemark_broker::connection=debug")
    b.start()
    yield b
    b.close()


def authenticate(c, mechanism, user, password):
    """One SASL exchange on an open connection; the last response (a
    refused handshake or mechanism comes back as it is)."""
    return sasl_exchange(c, mechanism, user, password, strict=False)


def metadata_ok(c):
    try:
        md = c.metadata([])
        return "Brokers" in md
    except (rawkafka.ConnectionClosed, OSError):
        return False


def test_lifetime_announced_and_enforced(rb):
    with rawkafka.KafkaConn("127.0.0.1:%d" % rb.sasl_port) as c:
        r = authenticate(c, "SCRAM-SHA-256", ADMIN, ADMIN_PW)
        assert r["ErrorCode"] == 0 and r["SessionLifetimeMs"] == LIFETIME_MS, r
        assert metadata_ok(c)
        time.sleep(LIFETIME_MS / 1000 + 0.5)
        # Past the lifetime without re-authenticating: closed.
        assert not metadata_ok(c)
    assert "session expired" in rb.all_logs()


def test_reauthentication_extends_the_session(rb):
    with rawkafka.KafkaConn("127.0.0.1:%d" % rb.sasl_port) as c:
        assert authenticate(c, "SCRAM-SHA-512", ADMIN, ADMIN_PW)["ErrorCode"] == 0
        for _ in range(3):
            time.sleep(LIFETIME_MS / 1000 * 0.6)
            r = authenticate(c, "SCRAM-SHA-512", ADMIN, ADMIN_PW)
            assert r["ErrorCode"] == 0 and r["SessionLifetimeMs"] == LIFETIME_MS, r
            assert metadata_ok(c)


def test_reauthentication_cannot_change_principal_or_mechanism(rb):
    admin = admin_client(rb.sasl_port)
    create_user(admin, "eve", "eve-pw")
    with rawkafka.KafkaConn("127.0.0.1:%d" % rb.sasl_port) as c:
        assert authenticate(c, "SCRAM-SHA-256", ADMIN, ADMIN_PW)["ErrorCode"] == 0
        r = authenticate(c, "SCRAM-SHA-256", "eve", "eve-pw")
        assert r["ErrorCode"] == SASL_AUTHENTICATION_FAILED, r
        assert "principal" in r["ErrorMessage"]
        assert not metadata_ok(c)
    with rawkafka.KafkaConn("127.0.0.1:%d" % rb.sasl_port) as c:
        assert authenticate(c, "SCRAM-SHA-256", ADMIN, ADMIN_PW)["ErrorCode"] == 0
        r = authenticate(c, "SCRAM-SHA-512", ADMIN, ADMIN_PW)
        assert r["ErrorCode"] == UNSUPPORTED_SASL_MECHANISM, r
        assert not metadata_ok(c)


def test_librdkafka_reauthenticates_while_producing(rb):
    """A producer running for several lifetimes loses nothing: librdkafka
    re-authenticates before each session ends."""
    from confluent_kafka import Producer
    p = Producer(dict(sasl_conf(rb.sasl_port, "SCRAM-SHA-256", ADMIN, ADMIN_PW),
                      **{"message.timeout.ms": 10000}))
    errors, delivered = [], []
    deadline = time.monotonic() + LIFETIME_MS / 1000 * 4
    i = 0
    while time.monotonic() < deadline and i < 10_000:
        p.produce("reauth-t", b"v%d" % i,
                  on_delivery=lambda e, m: errors.append(e) if e else delivered.append(m))
        p.poll(0.05)
        i += 1
    assert p.flush(15) == 0
    assert not errors and len(delivered) == i, (errors[:3], len(delivered), i)
    assert "reauthenticated=true" in rb.all_logs()
