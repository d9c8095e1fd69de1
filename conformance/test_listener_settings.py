"""Per-listener settings (issue 19): Kafka's `listener.name.<listener>.`
prefix on the TLS and SASL settings, as server.properties files carry
them (an internal listener with its own certificate and mutual TLS, an
external one with a public certificate; one listener offering only
SCRAM). The prefixed value wins for that listener; the others keep the
broker's. A prefix naming no listener of the broker, or on a setting
Tidemark does not take per listener, stops the broker with a message.
"""

import pytest

import harness
import rawkafka
from test_tls import TlsBroker, pki, ssl_conn, serial_and_subject  # noqa: F401 (fixture)

API_SASL_HANDSHAKE = 17


def _describe_broker(addr, names):
    with rawkafka.KafkaConn(addr) as c:
        r = c.request(rawkafka.API_DESCRIBE_CONFIGS, 1, {
            "Resources": [{"ResourceType": 4, "ResourceName": "1", "ConfigurationKeys": names}],
            "IncludeSynonyms": False})
    res = r["Results"][0]
    assert res["ErrorCode"] == 0, res
    return {c["Name"]: c for c in res["Configs"]}


def test_a_listener_with_its_own_certificate_and_client_auth(pki):
    _, _, internal_keystore, internal_serial = pki.issue(
        "internal", "/O=Tidemark Internal/CN=localhost", server=True)
    internal_port = harness.free_port()
    b = TlsBroker({
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SSL:SSL,INTERNAL:SSL",
        "ssl.keystore.location": str(pki.server[2]),
        "listener.name.internal.ssl.keystore.location": str(internal_keystore),
        "listener.name.internal.ssl.truststore.location": str(pki.ca),
        "listener.name.INTERNAL.ssl.client.auth": "required",
    }, name="perlistener",
        listeners="PLAINTEXT://127.0.0.1:%d,SSL://127.0.0.1:%d,INTERNAL://127.0.0.1:" + str(internal_port))
    b.start()
    try:
        internal = "127.0.0.1:%d" % internal_port
        # The SSL listener: the broker's certificate, no client certificate needed.
        with ssl_conn(b.ssl_bootstrap, pki) as c:
            c.api_versions()
            subject = serial_and_subject(c.sock.getpeercert(binary_form=True))
        assert "O=Tidemark" in subject and "Internal" not in subject, subject
        # INTERNAL: its own certificate, and a client certificate required.
        with ssl_conn(internal, pki, cert=True) as c:
            md = c.metadata([])
            subject = serial_and_subject(c.sock.getpeercert(binary_form=True))
        assert "O=Tidemark Internal" in subject, subject
        assert ("%X" % internal_serial) in subject, subject
        assert [x["Port"] for x in md["Brokers"]] == [internal_port], md
        with pytest.raises((OSError, rawkafka.ConnectionClosed, ValueError)):
            with ssl_conn(internal, pki, cert=False) as c:
                c.api_versions()
        # DescribeConfigs lists the prefixed settings as set at start.
        got = _describe_broker(b.bootstrap, [
            "listener.name.internal.ssl.keystore.location",
            "listener.name.internal.ssl.client.auth", "ssl.client.auth"])
        assert got["listener.name.internal.ssl.keystore.location"]["Value"] == str(internal_keystore)
        assert got["listener.name.internal.ssl.client.auth"]["Value"] == "required"
        assert got["listener.name.internal.ssl.client.auth"]["ConfigSource"] == 4  # STATIC_BROKER_CONFIG
        assert got["ssl.client.auth"]["Value"] == "none"
        b.check_alive()
    finally:
        b.close()


def test_a_listener_offering_only_scram(pki):
    scram_port = harness.free_port()
    b = TlsBroker({
        "listener.security.protocol.map":
            "PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SCRAMONLY:SASL_PLAINTEXT",
        "listener.name.scramonly.sasl.enabled.mechanisms": "SCRAM-SHA-512",
    }, name="perlistenersasl",
        listeners=("PLAINTEXT://127.0.0.1:%d,SASL_PLAINTEXT://127.0.0.1:%d,"
                   "SCRAMONLY://127.0.0.1:" + str(scram_port)))
    b.start()
    try:
        # The broker's mechanisms (the default, both SCRAMs) on SASL_PLAINTEXT.
        with rawkafka.KafkaConn(b.ssl_bootstrap, timeout=5) as c:
            r = c.request(API_SASL_HANDSHAKE, 1, {"Mechanism": "SCRAM-SHA-256"})
            assert r["ErrorCode"] == 0, r
            assert sorted(r["Mechanisms"]) == ["SCRAM-SHA-256", "SCRAM-SHA-512"], r
        # Only SCRAM-SHA-512 on SCRAMONLY.
        with rawkafka.KafkaConn("127.0.0.1:%d" % scram_port, timeout=5) as c:
            r = c.request(API_SASL_HANDSHAKE, 1, {"Mechanism": "SCRAM-SHA-256"})
            assert r["ErrorCode"] == 33, r  # UNSUPPORTED_SASL_MECHANISM
            assert r["Mechanisms"] == ["SCRAM-SHA-512"], r
            c.wait_closed(timeout=5)
        with rawkafka.KafkaConn("127.0.0.1:%d" % scram_port, timeout=5) as c:
            r = c.request(API_SASL_HANDSHAKE, 1, {"Mechanism": "SCRAM-SHA-512"})
            assert r["ErrorCode"] == 0, r
        b.check_alive()
    finally:
        b.close()


def test_refused_per_listener_settings(pki):
    def refused(extra, needle):
        b = TlsBroker(dict({"ssl.keystore.location": str(pki.server[2])}, **extra),
                      name="perlistenerrefused")
        with pytest.raises(harness.BrokerError) as e:
            b.start(timeout=15)
        b.close()
        assert needle in str(e.value), str(e.value)

    refused({"listener.name.externl.ssl.keystore.location": str(pki.server[2])},
            "no listener of that name")
    refused({"listener.name.ssl.num.network.threads": "10"},
            "takes only these settings per listener")
    refused({"listener.name.ssl.max.connections": "0"},
            "listener.name.ssl.max.connections")
    refused({"listener.name.ssl.scram-sha-256.sasl.jaas.config":
             "org.apache.kafka.common.security.scram.ScramLoginModule required;"},
            "JAAS configs have no meaning here")
    refused({"listener.name.ssl.ssl.client.auth": "always"},
            "listener.name.ssl.ssl.client.auth")
    # The listener's own keystore is checked at start like the broker's.
    refused({"listener.name.ssl.ssl.keystore.location": str(pki.ca) + ".missing"},
            "listener SSL: cannot read")


def _served_certificate(b, pki):
    """The serial number and subject of the certificate the SSL listener
    presents to a new connection."""
    with ssl_conn(b.ssl_bootstrap, pki) as c:
        c.api_versions()
        return serial_and_subject(c.sock.getpeercert(binary_form=True))


def has_serial(text, n):
    return ("serial=%X" % n) in text.replace("serial=0", "serial=")


def test_a_listeners_certificate_rotated_at_run_time(pki, tmp_path):
    """Kafka's certificate rotation: `kafka-configs --entity-type brokers
    --alter --add-config listener.name.<l>.ssl.keystore.location=NEW`
    (IncrementalAlterConfigs on the broker). New connections get the new
    certificate at once; as in Kafka, the new certificate must keep the
    subject and subject alternative names (`ssl.allow.dn.changes` and
    `ssl.allow.san.changes` are false by default) and must load, else the
    change is refused with INVALID_REQUEST and the old certificate stays.
    The setting survives a restart and DELETE returns to the broker's
    certificate. The other per-listener settings stay static here."""
    from confluent_kafka.admin import AdminClient
    from test_broker_configs import confluent_alter, raw_alter
    # The same subject and SANs as pki.server, another key and serial.
    _, _, renewed, renewed_serial = pki.issue("renewed", "/O=Tidemark/CN=localhost", server=True)
    _, _, other_dn, _ = pki.issue("otherdn", "/O=Tidemark Elsewhere/CN=localhost", server=True)
    b = TlsBroker({"ssl.keystore.location": str(pki.server[2])}, name="rotate")
    b.start()
    try:
        def serial():
            return _served_certificate(b, pki)

        assert has_serial(serial(), pki.server[3])
        admin = AdminClient({"bootstrap.servers": b.bootstrap})
        key = "listener.name.ssl.ssl.keystore.location"
        confluent_alter(admin, b, key, str(renewed))
        assert has_serial(serial(), renewed_serial), serial()
        got = _describe_broker(b.bootstrap, [key])[key]
        assert got["Value"] == str(renewed) and got["ConfigSource"] == 2, got  # DYNAMIC_BROKER_CONFIG
        assert got["ReadOnly"] is False, got

        # Another subject: refused (ssl.allow.dn.changes=false), as Kafka.
        code, msg = raw_alter(b, "1", [(key, 0, str(other_dn))])
        assert code == rawkafka.INVALID_REQUEST and "DistinguishedName" in msg, (code, msg)
        # A file that is not a keystore: refused.
        bad = tmp_path / "not-a-keystore.pem"
        bad.write_text("hello\n")
        code, msg = raw_alter(b, "1", [(key, 0, str(bad))])
        assert code == rawkafka.INVALID_REQUEST, (code, msg)
        assert has_serial(serial(), renewed_serial)
        # Per broker only, and only the certificate files.
        code, msg = raw_alter(b, "", [(key, 0, str(renewed))])
        assert code == rawkafka.INVALID_REQUEST, (code, msg)
        code, msg = raw_alter(b, "1", [("listener.name.ssl.ssl.client.auth", 0, "required")])
        assert code == rawkafka.INVALID_REQUEST and "dynamically" in msg, (code, msg)

        b.restart()
        assert has_serial(serial(), renewed_serial)
        code, msg = raw_alter(b, "1", [(key, 1, None)])  # DELETE
        assert code == 0, (code, msg)
        assert has_serial(serial(), pki.server[3])
        b.check_alive()
    finally:
        b.close()


def test_a_subject_change_is_taken_when_allowed(pki):
    """ssl.allow.dn.changes=true (read-only, set at start, as in Kafka):
    a keystore with another subject is taken."""
    from test_broker_configs import raw_alter
    _, _, other_dn, other_serial = pki.issue("otherdn2", "/O=Tidemark Moved/CN=localhost",
                                             server=True)
    b = TlsBroker({"ssl.keystore.location": str(pki.server[2]),
                   "ssl.allow.dn.changes": "true"}, name="rotatedn")
    b.start()
    try:
        code, msg = raw_alter(b, "1", [("listener.name.ssl.ssl.keystore.location", 0,
                                        str(other_dn))])
        assert code == 0, (code, msg)
        with ssl_conn(b.ssl_bootstrap, pki) as c:
            c.api_versions()
            now = serial_and_subject(c.sock.getpeercert(binary_form=True))
        assert "O=Tidemark Moved" in now and ("%X" % other_serial) in now, now
    finally:
        b.close()


def test_an_encrypted_key_rotated_with_its_password_at_run_time(pki, tmp_path):
    """An encrypted key's rotation, as in Kafka: the new keystore and
    `listener.name.<l>.ssl.key.password` in one IncrementalAlterConfigs.
    The new key must load with the password in force after the change;
    else INVALID_REQUEST, the certificate in use stays, and the error does
    not show the password. The password is described as sensitive with no
    value, survives a restart, never reaches the log, and without a
    listener prefix is refused as Kafka refuses it."""
    from test_broker_configs import raw_alter
    from test_tls import openssl
    key, crt, _, new_serial = pki.issue("encrot", "/O=Tidemark/CN=localhost", server=True)
    password = "r0tate-pw"
    openssl("pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", str(key), "-out", "encrot.enc.key",
            "-passout", "pass:" + password, cwd=tmp_path)
    keystore = tmp_path / "encrot.keystore.pem"
    keystore.write_bytes((tmp_path / "encrot.enc.key").read_bytes() + crt.read_bytes())
    b = TlsBroker({"ssl.keystore.location": str(pki.server[2])}, name="encrot")
    b.start()
    try:
        ks = "listener.name.ssl.ssl.keystore.location"
        kp = "listener.name.ssl.ssl.key.password"
        code, msg = raw_alter(b, "1", [(ks, 0, str(keystore))])
        assert code == rawkafka.INVALID_REQUEST, (code, msg)
        assert "ssl.key.password is not set" in msg, msg
        code, msg = raw_alter(b, "1", [(ks, 0, str(keystore)), (kp, 0, "wrong-pw")])
        assert code == rawkafka.INVALID_REQUEST and "cannot be decrypted" in msg, (code, msg)
        assert "wrong-pw" not in msg, msg
        assert has_serial(_served_certificate(b, pki), pki.server[3])
        # Both at once: taken, and new connections get the new certificate.
        code, msg = raw_alter(b, "1", [(ks, 0, str(keystore)), (kp, 0, password)])
        assert code == 0, (code, msg)
        assert has_serial(_served_certificate(b, pki), new_serial)
        got = _describe_broker(b.bootstrap, [kp])[kp]
        assert got["IsSensitive"] and got["Value"] is None, got
        assert got["ConfigSource"] == 2 and got["ReadOnly"] is False, got  # DYNAMIC_BROKER_CONFIG
        # Only with a listener prefix (Kafka's DynamicBrokerConfig).
        for name in ("ssl.key.password", "ssl.keystore.location"):
            code, msg = raw_alter(b, "1", [(name, 0, password)])
            assert code == rawkafka.INVALID_REQUEST and "listener prefix" in msg, (name, code, msg)
        # A password that no longer opens the key in force: refused.
        code, msg = raw_alter(b, "1", [(kp, 0, "other-pw")])
        assert code == rawkafka.INVALID_REQUEST, (code, msg)
        b.restart()
        assert has_serial(_served_certificate(b, pki), new_serial)
        for path in b.log_paths:
            text = open(path, errors="replace").read()
            assert password not in text and "wrong-pw" not in text, path
        b.check_alive()
    finally:
        b.close()
