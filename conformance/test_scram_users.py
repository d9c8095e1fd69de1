"""SCRAM users in the cluster metadata (issue 15): AlterUserScramCredentials
and DescribeUserScramCredentials through confluent-kafka's and
kafka-python's admin clients and raw requests. A user created through the
bootstrap user's connection logs in with SCRAM-SHA-256, SCRAM-SHA-512 and
PLAIN and produces and consumes (confluent-kafka, kafka-python, kafkajs); deleted mechanisms stop working; Kafka's
error codes for bad requests; users survive restarts, and a restart with
another TIDEMARK_BOOTSTRAP_USER password does not reset an existing user.
A three-node cluster authenticates a user created through one broker on
every broker, also after every broker restarted.
"""

import base64
import hashlib
import hmac
import json
import os
import time

import pytest

import cluster
import harness
import rawkafka
from test_tls import TlsBroker, confluent_roundtrip

ADMIN, ADMIN_PW = "admin", "adm1n-s3cret"
API_SASL_HANDSHAKE, API_SASL_AUTHENTICATE = 17, 36
API_DESCRIBE_SCRAM, API_ALTER_SCRAM = 50, 51
SHA256, SHA512 = 1, 2
NONE, UNSUPPORTED_SASL_MECHANISM, RESOURCE_NOT_FOUND = 0, 33, 91
DUPLICATE_RESOURCE, UNACCEPTABLE_CREDENTIAL = 92, 93
MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]


class ScramBroker(TlsBroker):
    """A PLAINTEXT listener (self.port, probed for readiness) and a
    SASL_PLAINTEXT one (self.sasl_port), started with
    TIDEMARK_BOOTSTRAP_USER=admin:<self.bootstrap_password>."""

    def __init__(self, settings=None, bootstrap_password=ADMIN_PW, **kw):
        settings = dict({"sasl.enabled.mechanisms": ",".join(MECHANISMS),
                         "num.partitions": 1}, **(settings or {}))
        super().__init__(settings, listeners="PLAINTEXT://127.0.0.1:%d,SASL_PLAINTEXT://127.0.0.1:%d",
                         **kw)
        self.bootstrap_password = bootstrap_password

    @property
    def sasl_port(self):
        return self.ssl_port

    def start(self, *a, **kw):
        os.environ["TIDEMARK_BOOTSTRAP_USER"] = "%s:%s" % (ADMIN, self.bootstrap_password)
        try:
            return super().start(*a, **kw)
        finally:
            os.environ.pop("TIDEMARK_BOOTSTRAP_USER", None)


@pytest.fixture(scope="module")
def sb():
    b = ScramBroker(name="scram")
    b.start()
    yield b
    b.close()


def sasl_conf(port, mechanism, user, password):
    return {"bootstrap.servers": "127.0.0.1:%d" % port, "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanisms": mechanism, "sasl.username": user, "sasl.password": password}


def admin_client(port, mechanism="SCRAM-SHA-256", user=ADMIN, password=ADMIN_PW):
    from confluent_kafka.admin import AdminClient
    return AdminClient(sasl_conf(port, mechanism, user, password))


def sasl_exchange(c, mechanism, user, password, strict=True):
    """SaslHandshake and the whole exchange on the open connection `c`
    (RFC 5802 for SCRAM, the server signature checked on success). Returns
    the last response: the handshake's if it was refused, else the last
    SaslAuthenticate. `strict`: the handshake and SCRAM's first step must
    succeed (only the proof may be refused)."""
    r = c.request(API_SASL_HANDSHAKE, 1, {"Mechanism": mechanism})
    assert not strict or r["ErrorCode"] == 0, r
    if r["ErrorCode"] != 0:
        return r
    if mechanism == "PLAIN":
        return c.request(API_SASL_AUTHENTICATE, 2,
                         {"AuthBytes": b"\0" + user.encode() + b"\0" + password.encode()})
    h = hashlib.sha256 if mechanism == "SCRAM-SHA-256" else hashlib.sha512
    cnonce = base64.b64encode(os.urandom(18)).decode()
    first_bare = "n=%s,r=%s" % (user.replace("=", "=3D").replace(",", "=2C"), cnonce)
    r = c.request(API_SASL_AUTHENTICATE, 2, {"AuthBytes": ("n,," + first_bare).encode()})
    assert not strict or r["ErrorCode"] == 0, r
    if r["ErrorCode"] != 0:
        return r
    server_first = bytes(r["AuthBytes"]).decode()
    attrs = dict(a.split("=", 1) for a in server_first.split(","))
    assert attrs["r"].startswith(cnonce)
    salted = hashlib.pbkdf2_hmac(h().name, password.encode(), base64.b64decode(attrs["s"]),
                                 int(attrs["i"]))
    client_key = hmac.new(salted, b"Client Key", h).digest()
    stored_key = h(client_key).digest()
    without_proof = "c=biws,r=" + attrs["r"]
    auth_message = ",".join([first_bare, server_first, without_proof]).encode()
    signature = hmac.new(stored_key, auth_message, h).digest()
    proof = bytes(a ^ b for a, b in zip(client_key, signature))
    r = c.request(API_SASL_AUTHENTICATE, 2, {
        "AuthBytes": (without_proof + ",p=" + base64.b64encode(proof).decode()).encode()})
    if r["ErrorCode"] == 0:
        server_key = hmac.new(salted, b"Server Key", h).digest()
        want = "v=" + base64.b64encode(hmac.new(server_key, auth_message, h).digest()).decode()
        assert bytes(r["AuthBytes"]).decode() == want, "server signature"
    return r


def login(port, mechanism, user, password, timeout=5):
    """A raw SASL exchange with the broker at 127.0.0.1:port: True if it
    authenticated, False if the broker refused it."""
    with rawkafka.KafkaConn("127.0.0.1:%d" % port, timeout=timeout) as c:
        return sasl_exchange(c, mechanism, user, password)["ErrorCode"] == 0


def logins(port, user, password):
    return {m: login(port, m, user, password) for m in MECHANISMS}


def upsert(user, mechanism, password, iterations=4096):
    from confluent_kafka.admin import ScramCredentialInfo, UserScramCredentialUpsertion
    return UserScramCredentialUpsertion(user, ScramCredentialInfo(mechanism, iterations),
                                        password.encode())


def alter(admin, alterations):
    """confluent-kafka: the per-user results, None or the KafkaError."""
    from confluent_kafka import KafkaException
    out = {}
    for user, f in admin.alter_user_scram_credentials(alterations).items():
        try:
            f.result(timeout=20)
            out[user] = None
        except KafkaException as e:
            out[user] = e.args[0]
    return out


def create_user(admin, user, password, iterations=(4096, 8192)):
    """Both SCRAM credentials, one request each (a user named twice in one
    request is refused)."""
    from confluent_kafka.admin import ScramMechanism
    for mech, it in zip([ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512], iterations):
        assert alter(admin, [upsert(user, mech, password, it)]) == {user: None}


def raw(b, api, body):
    with rawkafka.KafkaConn(b.bootstrap, timeout=10) as c:
        return c.request(api, 0, body)


def test_apis_advertised(sb):
    with rawkafka.KafkaConn(sb.bootstrap) as c:
        v = c.api_versions()
    assert v[API_DESCRIBE_SCRAM] == (0, 0) and v[API_ALTER_SCRAM] == (0, 0), v


def test_created_user_logs_in_with_every_mechanism_and_uses_kafka(sb):
    from confluent_kafka.admin import ScramMechanism
    admin = admin_client(sb.sasl_port)
    user, pw = "alice", "al1ce-pw"
    assert logins(sb.sasl_port, user, pw) == {m: False for m in MECHANISMS}
    create_user(admin, user, pw)
    assert logins(sb.sasl_port, user, pw) == {m: True for m in MECHANISMS}
    assert logins(sb.sasl_port, user, "not-the-password") == {m: False for m in MECHANISMS}
    # Real clients produce and consume as the new user.
    for m in MECHANISMS:
        topic = harness.unique_topic("scram-%s" % m.lower())
        confluent_roundtrip(sasl_conf(sb.sasl_port, m, user, pw), topic, n=5)
    # The change is logged with who made it (never a password).
    assert "SCRAM credentials altered" in sb.all_logs()
    assert "principal=User:%s" % ADMIN in sb.all_logs()
    # A wrong password fails a real client too.
    with pytest.raises(Exception):
        admin_client(sb.sasl_port, "SCRAM-SHA-512", user, "wrong").list_topics(timeout=5)
    # Describe: mechanisms and iterations, for the named user and in "all".
    d = admin.describe_user_scram_credentials([user])[user].result(timeout=20)
    got = sorted((i.mechanism, i.iterations) for i in d.scram_credential_infos)
    assert got == [(ScramMechanism.SCRAM_SHA_256, 4096), (ScramMechanism.SCRAM_SHA_512, 8192)]
    every = admin.describe_user_scram_credentials().result(timeout=20)
    assert {ADMIN, user} <= set(every), every
    logs = sb.all_logs()
    assert pw not in logs and ADMIN_PW not in logs


def test_deleted_mechanisms_stop_working(sb):
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import ScramMechanism, UserScramCredentialDeletion
    admin = admin_client(sb.sasl_port, "PLAIN")
    user, pw = "dora", "d0ra-pw"
    create_user(admin, user, pw)
    assert alter(admin, [UserScramCredentialDeletion(user, ScramMechanism.SCRAM_SHA_256)]) == {user: None}
    # PLAIN falls back to the SCRAM-SHA-512 credential.
    assert logins(sb.sasl_port, user, pw) == {"PLAIN": True, "SCRAM-SHA-256": False,
                                              "SCRAM-SHA-512": True}
    d = admin.describe_user_scram_credentials([user])[user].result(timeout=20)
    assert [(i.mechanism, i.iterations) for i in d.scram_credential_infos] == [
        (ScramMechanism.SCRAM_SHA_512, 8192)]
    assert alter(admin, [UserScramCredentialDeletion(user, ScramMechanism.SCRAM_SHA_512)]) == {user: None}
    assert logins(sb.sasl_port, user, pw) == {m: False for m in MECHANISMS}
    # Gone: describe says RESOURCE_NOT_FOUND, deleting again too.
    with pytest.raises(KafkaException) as e:
        admin.describe_user_scram_credentials([user])[user].result(timeout=20)
    assert e.value.args[0].code() == RESOURCE_NOT_FOUND, e.value
    err = alter(admin, [UserScramCredentialDeletion(user, ScramMechanism.SCRAM_SHA_512)])[user]
    assert err is not None and err.code() == RESOURCE_NOT_FOUND, err
    assert user not in admin.describe_user_scram_credentials().result(timeout=20)


def test_error_codes_raw(sb):
    """Kafka's per-user errors for every kind of bad entry; good entries of
    the same request still apply."""
    ok = {"Name": "erin", "Mechanism": SHA256, "Iterations": 4096, "Salt": b"s" * 16,
          "SaltedPassword": b"p" * 32}
    r = raw(sb, API_ALTER_SCRAM, {
        "Deletions": [{"Name": "twice", "Mechanism": SHA256}, {"Name": "nobody", "Mechanism": SHA512},
                      {"Name": "", "Mechanism": SHA256}],
        "Upsertions": [dict(ok, Name="twice"), ok, dict(ok, Name="few", Iterations=100),
                       dict(ok, Name="many", Iterations=16385),
                       dict(ok, Name="mech", Mechanism=3), dict(ok, Name="nosalt", Salt=b"")]})
    got = {x["User"]: (x["ErrorCode"], x["ErrorMessage"]) for x in r["Results"]}
    assert len(r["Results"]) == len(got) == 8, r
    assert got == {
        "erin": (NONE, None),
        "twice": (DUPLICATE_RESOURCE, "A user credential cannot be altered twice in the same request"),
        "nobody": (RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist"),
        "": (UNACCEPTABLE_CREDENTIAL, "Username must not be empty"),
        "few": (UNACCEPTABLE_CREDENTIAL, "Too few iterations"),
        "many": (UNACCEPTABLE_CREDENTIAL, "Too many iterations"),
        "mech": (UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism"),
        "nosalt": (UNACCEPTABLE_CREDENTIAL, "Salt must not be empty"),
    }, got
    d = raw(sb, API_DESCRIBE_SCRAM, {"Users": [{"Name": "erin"}, {"Name": "twice"},
                                               {"Name": "ghost"}, {"Name": "ghost"}]})
    assert d["ErrorCode"] == 0, d
    res = {x["User"]: x for x in d["Results"]}
    assert len(d["Results"]) == 3, d
    assert res["erin"]["ErrorCode"] == 0
    assert [(c["Mechanism"], c["Iterations"]) for c in res["erin"]["CredentialInfos"]] == [(SHA256, 4096)]
    assert res["twice"]["ErrorCode"] == RESOURCE_NOT_FOUND, res
    assert res["ghost"]["ErrorCode"] == DUPLICATE_RESOURCE, res
    # The stored key was derived from the salted password: the password
    # that salts to b"p" * 32 is unknown, so no login works.
    assert not login(sb.sasl_port, "SCRAM-SHA-256", "erin", "p")


def test_error_codes_confluent(sb):
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import ScramMechanism
    admin = admin_client(sb.sasl_port)
    err = alter(admin, [upsert("fewer", ScramMechanism.SCRAM_SHA_256, "pw", iterations=100)])["fewer"]
    assert err is not None and err.code() == UNACCEPTABLE_CREDENTIAL, err
    err = alter(admin, [upsert("more", ScramMechanism.SCRAM_SHA_512, "pw", iterations=20000)])["more"]
    assert err is not None and err.code() == UNACCEPTABLE_CREDENTIAL, err
    with pytest.raises(KafkaException) as e:
        admin.describe_user_scram_credentials(["no-such-user"])["no-such-user"].result(timeout=20)
    assert e.value.args[0].code() == RESOURCE_NOT_FOUND, e.value


# kafka-python idles ~18 s in its own timeouts here (1 s of CPU): run
# alongside the rest (test.sh's "waits" lane).
@pytest.mark.waits
def test_kafka_python_admin(sb):
    from kafka import KafkaConsumer, KafkaProducer
    from kafka.admin import (KafkaAdminClient, ScramMechanism, UserScramCredentialDeletion,
                             UserScramCredentialUpsertion)
    common = dict(bootstrap_servers="127.0.0.1:%d" % sb.sasl_port, security_protocol="SASL_PLAINTEXT",
                  sasl_mechanism="SCRAM-SHA-512", sasl_plain_username=ADMIN,
                  sasl_plain_password=ADMIN_PW)
    admin = KafkaAdminClient(**common)
    try:
        user, pw = "kpuser", "kp-pw-1"
        r = admin.alter_user_scram_credentials([
            UserScramCredentialUpsertion(user, ScramMechanism.SCRAM_SHA_512, pw, iterations=4096)])
        assert r == {user: None}, r
        d = admin.describe_user_scram_credentials([user])
        assert d[user]["error"] is None, d
        assert [(int(i["mechanism"]), i["iterations"]) for i in d[user]["credential_infos"]] == [
            (SHA512, 4096)], d
        r = admin.alter_user_scram_credentials([
            UserScramCredentialDeletion(user, ScramMechanism.SCRAM_SHA_256)])
        assert "does not exist" in (r[user] or ""), r
        assert admin.describe_user_scram_credentials(["ghost"])["ghost"]["error"], "unknown user"
    finally:
        admin.close()
    kp = dict(common, sasl_plain_username=user, sasl_plain_password=pw)
    topic = harness.unique_topic("kpscram")
    p = KafkaProducer(**kp)
    try:
        for i in range(3):
            p.send(topic, b"m%d" % i).get(timeout=20)
    finally:
        p.close()
    c = KafkaConsumer(topic, group_id="kp-" + topic, auto_offset_reset="earliest",
                      consumer_timeout_ms=15000, **kp)
    try:
        got = [m.value for m in c]
    finally:
        c.close()
    assert got == [b"m0", b"m1", b"m2"]


def kafkajs_run(port, mechanism, user, password):
    spec = {"brokers": ["127.0.0.1:%d" % port], "mechanism": mechanism.lower(),
            "username": user, "password": password,
            "topic": harness.unique_topic("jsscram"), "values": ["a", "b", "c"]}
    p = harness.run([harness.node_binary(), str(harness.JS_DIR / "sasl.js")],
                    input=json.dumps(spec).encode(), timeout=90, cwd=str(harness.JS_DIR))
    lines = [x for x in p.stdout.decode().splitlines() if x.startswith("{")]
    assert lines, p.stderr[-2000:]
    return json.loads(lines[-1])


def test_kafkajs_as_a_created_user(sb):
    """kafkajs (its own SCRAM client) logs in as a user created through the
    admin API, and is refused with a wrong password."""
    user, pw = "jsuser", "js-pw-9"
    create_user(admin_client(sb.sasl_port), user, pw)
    for m in ["SCRAM-SHA-256", "SCRAM-SHA-512", "PLAIN"]:
        r = kafkajs_run(sb.sasl_port, m, user, pw)
        assert r == {"ok": True, "got": ["a", "b", "c"]}, (m, r)
    r = kafkajs_run(sb.sasl_port, "SCRAM-SHA-512", user, "wrong")
    assert r["ok"] is False and "SASL" in r["error"], r


@pytest.mark.parametrize("how", ["term", "kill9"])
def test_users_survive_restarts_and_bootstrap_does_not_reset(how):
    from confluent_kafka.admin import ScramMechanism
    b = ScramBroker(name="scram-restart-" + how)
    b.start()
    try:
        admin = admin_client(b.sasl_port)
        create_user(admin, "bob", "b0b-pw")
        # The bootstrap user changes its own password.
        assert alter(admin, [upsert(ADMIN, ScramMechanism.SCRAM_SHA_256, "new-admin-pw")]) == {ADMIN: None}
        assert alter(admin_client(b.sasl_port, "SCRAM-SHA-256", ADMIN, "new-admin-pw"),
                     [upsert(ADMIN, ScramMechanism.SCRAM_SHA_512, "new-admin-pw")]) == {ADMIN: None}
        # Restarted with another password in TIDEMARK_BOOTSTRAP_USER: the
        # stored credentials win.
        b.bootstrap_password = "env-changed-pw"
        b.restart(how=how)
        assert logins(b.sasl_port, "bob", "b0b-pw") == {m: True for m in MECHANISMS}
        assert logins(b.sasl_port, ADMIN, "new-admin-pw") == {m: True for m in MECHANISMS}
        assert logins(b.sasl_port, ADMIN, "env-changed-pw") == {m: False for m in MECHANISMS}
        assert logins(b.sasl_port, ADMIN, ADMIN_PW) == {m: False for m in MECHANISMS}
        assert "env-changed-pw" not in b.all_logs() and "b0b-pw" not in b.all_logs()
        confluent_roundtrip(sasl_conf(b.sasl_port, "SCRAM-SHA-512", "bob", "b0b-pw"),
                            harness.unique_topic("after-restart"), n=3)
    finally:
        b.close()


# -- cluster


def with_sasl_listener(node):
    """Replaces the node's --kafka-addr by a PLAINTEXT listener on the same
    port and a SASL_PLAINTEXT listener on a port of its own."""
    node.advertise = False
    node.sasl_port = harness.free_port()
    orig = node.argv

    def argv():
        a = orig()
        i = a.index("--kafka-addr")
        del a[i:i + 2]
        return a + ["--set", "listeners=PLAINTEXT://%s,SASL_PLAINTEXT://127.0.0.1:%d"
                    % (node.bootstrap, node.sasl_port),
                    "--set", "sasl.enabled.mechanisms=" + ",".join(MECHANISMS)]
    node.argv = argv


def produce_and_read(conf, topic, partitions, n):
    """Produces n records and reads them back from every partition by
    assignment (no group: what is tested here is who may connect, not the
    group coordinator just after a restart of every broker)."""
    from confluent_kafka import Consumer, Producer, TopicPartition
    p = Producer(dict(conf, **{"message.timeout.ms": 20000}))
    errors = []
    for i in range(n):
        p.produce(topic, value=b"v%d" % i, key=b"k%d" % i,
                  on_delivery=lambda err, msg: errors.append(err) if err else None)
    assert p.flush(30) == 0 and not errors, errors
    c = Consumer(dict(conf, **{"group.id": "unused-" + topic, "enable.auto.commit": False}))
    c.assign([TopicPartition(topic, i, 0) for i in range(partitions)])
    got = []
    deadline = time.monotonic() + 30
    try:
        while len(got) < n and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is None or m.error():
                continue
            got.append(m.value())
    finally:
        c.close()
    assert sorted(got) == sorted(b"v%d" % i for i in range(n))


def wait_logins(c, user, password, timeout=10.0):
    """Polls (bounded) until every broker of the cluster authenticates
    user with every mechanism; returns the seconds it took."""
    t0 = time.monotonic()
    last = None
    for _ in range(int(timeout / 0.2) + 1):
        last = {n.node_id: logins(n.sasl_port, user, password) for n in c.nodes.values()}
        if all(all(v.values()) for v in last.values()):
            return time.monotonic() - t0
        if time.monotonic() - t0 > timeout:
            break
        time.sleep(0.2)
    raise AssertionError("%s not authenticated everywhere within %.0fs: %s" % (user, timeout, last))


@pytest.mark.cluster
def test_cluster_users_reach_every_broker_and_survive_restarts():
    c = cluster.Cluster(3, name="scramcluster")
    os.environ["TIDEMARK_BOOTSTRAP_USER"] = "%s:%s" % (ADMIN, ADMIN_PW)
    try:
        for n in c.nodes.values():
            with_sasl_listener(n)
        c.start()
        c.wait_ready()
        # Every broker proposed the bootstrap user; one set of credentials won.
        wait_logins(c, ADMIN, ADMIN_PW, timeout=20)
        # Created through broker 1 (raw request on its PLAINTEXT listener,
        # so it is surely that broker that takes it).
        n1 = c.node(1)
        salt = os.urandom(16)
        salted = hashlib.pbkdf2_hmac("sha256", b"cl-pw", salt, 4096)
        salted512 = hashlib.pbkdf2_hmac("sha512", b"cl-pw", salt, 4096)
        with rawkafka.KafkaConn(n1.bootstrap, timeout=20) as conn:
            r = conn.request(API_ALTER_SCRAM, 0, {"Deletions": [], "Upsertions": [
                {"Name": "carl", "Mechanism": SHA256, "Iterations": 4096, "Salt": salt,
                 "SaltedPassword": salted}]})
            assert [(x["User"], x["ErrorCode"]) for x in r["Results"]] == [("carl", 0)], r
            r = conn.request(API_ALTER_SCRAM, 0, {"Deletions": [], "Upsertions": [
                {"Name": "carl", "Mechanism": SHA512, "Iterations": 4096, "Salt": salt,
                 "SaltedPassword": salted512}]})
            assert [(x["User"], x["ErrorCode"]) for x in r["Results"]] == [("carl", 0)], r
        took = wait_logins(c, "carl", "cl-pw", timeout=5)
        # Changed through broker 3 with a real client: the old password
        # stops working everywhere.
        admin = admin_client(c.node(3).sasl_port)
        create_user(admin, "carl", "cl-pw-2")
        wait_logins(c, "carl", "cl-pw-2", timeout=5)
        assert not any(login(n.sasl_port, "SCRAM-SHA-256", "carl", "cl-pw") for n in c.nodes.values())
        # Every broker restarted, with another bootstrap password: users
        # and the admin password are as they were.
        os.environ["TIDEMARK_BOOTSTRAP_USER"] = "%s:%s" % (ADMIN, "other-pw")
        c.restart_all(how="term")
        wait_logins(c, "carl", "cl-pw-2", timeout=30)
        wait_logins(c, ADMIN, ADMIN_PW, timeout=10)
        assert not any(login(n.sasl_port, "PLAIN", ADMIN, "other-pw") for n in c.nodes.values())
        topic = harness.unique_topic("scramcl")
        c.create_topic(topic, 3)
        produce_and_read(sasl_conf(c.node(2).sasl_port, "SCRAM-SHA-512", "carl", "cl-pw-2"),
                         topic, partitions=3, n=20)
        assert took < 5
        c.check_alive()
    finally:
        os.environ.pop("TIDEMARK_BOOTSTRAP_USER", None)
        c.close()
