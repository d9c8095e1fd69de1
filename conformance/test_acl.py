"""ACLs and tenants (issue 15): StandardAuthorizer semantics through
unchanged clients. Two tenants (team-a, team-b) authenticate with client
certificates (mutual TLS; the principal is the certificate's CN) and get
prefixed ACLs on their topics and groups; an admin is a super user. Each
tenant probes the other's topics and groups through every API that takes
a name and learns nothing: the answers for an existing foreign topic and
for one that does not exist are the same.
"""

import shutil
import time

import pytest

import harness
import rawkafka
from test_tls import Pki, TlsBroker

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl CLI missing")

AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
TAF, GAF, CAF = 29, 30, 31  # TOPIC_/GROUP_/CLUSTER_AUTHORIZATION_FAILED
SECURITY_DISABLED = 54


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    p = Pki(tmp_path_factory.mktemp("pki"))
    p.server = p.issue("server", "/O=Tidemark/CN=localhost", server=True)
    p.users = {u: p.issue(u, "/O=Tidemark/CN=" + u, server=False)
               for u in ("admin", "alice", "bob", "carol")}
    return p


def acl_settings(pki, **extra):
    s = {"ssl.keystore.location": str(pki.server[2]),
         "ssl.truststore.location": str(pki.ca),
         "ssl.client.auth": "required",
         "ssl.principal.mapping.rules": "RULE:^CN=([^,]*),O=.*$/$1/,DEFAULT",
         "authorizer.class.name": AUTHORIZER,
         "super.users": "User:admin",
         "num.partitions": 1}
    s.update(extra)
    return s


def start(pki, name, **extra):
    b = TlsBroker(acl_settings(pki, **extra), name=name)
    try:
        b.start()
    except BaseException:
        b.close(keep_data=True)
        raise
    return b


def conf(b, pki, user):
    key, crt = pki.users[user][0], pki.users[user][1]
    return {"bootstrap.servers": b.ssl_bootstrap, "security.protocol": "SSL",
            "ssl.ca.location": str(pki.ca), "ssl.certificate.location": str(crt),
            "ssl.key.location": str(key)}


def admin(b, pki, user):
    from confluent_kafka.admin import AdminClient
    return AdminClient(conf(b, pki, user))


def binding(rtype, name, pattern, principal, op, perm="ALLOW"):
    from confluent_kafka.admin import (AclBinding, AclOperation, AclPermissionType,
                                       ResourcePatternType, ResourceType)
    return AclBinding(getattr(ResourceType, rtype), name, getattr(ResourcePatternType, pattern),
                      principal, "*", getattr(AclOperation, op),
                      getattr(AclPermissionType, perm))


def wait_all(futures, timeout=20):
    """{key: result or exception} of an AdminClient call's futures."""
    out = {}
    for k, f in futures.items():
        try:
            out[k] = f.result(timeout=timeout)
        except Exception as e:  # noqa: BLE001 - the error is the outcome under test
            out[k] = e
    return out


def code_of(e):
    err = e.args[0] if e.args else None
    return err.code() if hasattr(err, "code") else None


def tenant_acls():
    acls = []
    for team, user in (("team-a.", "User:alice"), ("team-b.", "User:bob")):
        acls += [binding("TOPIC", team, "PREFIXED", user, "ALL"),
                 binding("GROUP", team, "PREFIXED", user, "ALL")]
    # A DENY overrides alice's prefixed ALLOW on one topic.
    acls.append(binding("TOPIC", "team-a.locked", "LITERAL", "User:alice", "WRITE", "DENY"))
    return acls


@pytest.fixture(scope="module")
def tenants(pki):
    from confluent_kafka.admin import NewTopic
    b = start(pki, "acl")
    a = admin(b, pki, "admin")
    res = wait_all(a.create_acls(tenant_acls()))
    assert all(v is None for v in res.values()), res
    res = wait_all(a.create_topics([NewTopic(t, 1, 1) for t in
                                    ("team-a.orders", "team-a.locked", "team-b.payments")]))
    assert all(v is None for v in res.values()), res
    yield b
    b.close()


def produce(cfg, topic, n=5):
    from confluent_kafka import Producer
    p = Producer(dict(cfg, **{"message.timeout.ms": 8000}))
    errors = []
    for i in range(n):
        p.produce(topic, b"v%d" % i, on_delivery=lambda e, m: errors.append(e) if e else None)
    left = p.flush(15)
    return left, errors


def consume(cfg, topic, group, n, timeout=20):
    """(values, first error) of a group consumer reading n records."""
    from confluent_kafka import Consumer
    c = Consumer(dict(cfg, **{"group.id": group, "auto.offset.reset": "earliest",
                              "enable.auto.commit": False}))
    c.subscribe([topic])
    got, err = [], None
    deadline = time.monotonic() + timeout
    try:
        while len(got) < n and err is None and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is None:
                continue
            if m.error():
                err = m.error()
            else:
                got.append(m.value())
        if got:
            c.commit(asynchronous=False)
    finally:
        c.close()
    return got, err


def test_tenant_reads_and_writes_its_own_prefix(tenants, pki):
    cfg = conf(tenants, pki, "alice")
    left, errors = produce(cfg, "team-a.orders", 5)
    assert left == 0 and not errors, errors
    got, err = consume(cfg, "team-a.orders", "team-a.g1", 5)
    assert err is None and got == [b"v%d" % i for i in range(5)]
    # ALL on the prefix includes CREATE of new topics there.
    from confluent_kafka.admin import NewTopic
    a = admin(tenants, pki, "alice")
    res = wait_all(a.create_topics([NewTopic("team-a.new", 1, 1)]))
    assert res["team-a.new"] is None, res


def test_transactional_ids_need_their_own_acl(tenants, pki):
    """A transactional producer needs WRITE on its transactional id (and on
    the topics); a tenant's ids are a prefix of their own."""
    a = admin(tenants, pki, "admin")
    txn_acl = binding("TRANSACTIONAL_ID", "team-a.", "PREFIXED", "User:alice", "WRITE")
    res = wait_all(a.create_acls([txn_acl]))
    assert all(v is None for v in res.values()), res
    try:
        _transactional_ids_need_their_own_acl(tenants, pki)
    finally:
        # The module's other tests count the tenants' ACLs.
        from confluent_kafka.admin import AclBindingFilter
        f = AclBindingFilter(txn_acl.restype, txn_acl.name, txn_acl.resource_pattern_type,
                             txn_acl.principal, txn_acl.host, txn_acl.operation,
                             txn_acl.permission_type)
        wait_all(a.delete_acls([f]))


def _transactional_ids_need_their_own_acl(tenants, pki):
    from confluent_kafka import KafkaError, KafkaException, Producer
    cfg = conf(tenants, pki, "alice")
    p = Producer(dict(cfg, **{"transactional.id": "team-a.tx", "message.timeout.ms": 8000}))
    p.init_transactions(20)
    p.begin_transaction()
    p.produce("team-a.orders", b"in-a-transaction")
    p.commit_transaction(20)
    foreign = Producer(dict(cfg, **{"transactional.id": "team-b.tx",
                                    "message.timeout.ms": 8000}))
    with pytest.raises(KafkaException) as e:
        foreign.init_transactions(20)
    assert code_of(e.value) == KafkaError.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, e.value


def test_deny_overrides_allow(tenants, pki):
    from confluent_kafka import KafkaError
    left, errors = produce(conf(tenants, pki, "alice"), "team-a.locked", 1)
    assert left == 0 and errors and errors[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    # The DENY names WRITE only: alice still sees the topic.
    md = admin(tenants, pki, "alice").list_topics(timeout=10)
    assert "team-a.locked" in md.topics


def test_tenant_cannot_reach_the_other_tenant(tenants, pki):
    from confluent_kafka import KafkaError
    from confluent_kafka.admin import ConfigResource, NewTopic
    cfg = conf(tenants, pki, "alice")
    a = admin(tenants, pki, "alice")
    # Listing: the other tenant's topics are absent.
    md = a.list_topics(timeout=10)
    assert not [t for t in md.topics if t.startswith("team-b.")], list(md.topics)
    assert "team-a.orders" in md.topics
    # Produce and consume: TOPIC_AUTHORIZATION_FAILED.
    left, errors = produce(cfg, "team-b.payments", 1)
    assert left == 0 and errors and errors[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    got, err = consume(cfg, "team-b.payments", "team-a.spy", 1, timeout=10)
    assert not got and err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    # A group of the other tenant: GROUP_AUTHORIZATION_FAILED.
    got, err = consume(cfg, "team-a.orders", "team-b.g", 1, timeout=10)
    assert not got and err is not None and err.code() == KafkaError.GROUP_AUTHORIZATION_FAILED
    # Admin operations on the other tenant's topics.
    res = wait_all(a.create_topics([NewTopic("team-b.x", 1, 1)]))
    assert code_of(res["team-b.x"]) == KafkaError.TOPIC_AUTHORIZATION_FAILED, res
    res = wait_all(a.delete_topics(["team-b.payments"], operation_timeout=10))
    assert code_of(res["team-b.payments"]) == KafkaError.TOPIC_AUTHORIZATION_FAILED, res
    res = wait_all(a.describe_configs([ConfigResource("TOPIC", "team-b.payments")]))
    assert [code_of(v) for v in res.values()] == [KafkaError.TOPIC_AUTHORIZATION_FAILED], res
    # ACLs are the cluster's: a tenant may not change or list them.
    res = wait_all(a.create_acls([binding("TOPIC", "team-b.", "PREFIXED", "User:alice", "ALL")]))
    assert [code_of(v) for v in res.values()] == [KafkaError.CLUSTER_AUTHORIZATION_FAILED], res


def raw_ssl(b, pki, user):
    import ssl
    c = rawkafka.KafkaConn(b.ssl_bootstrap)
    ctx = ssl.create_default_context(cafile=str(pki.ca))
    ctx.load_cert_chain(str(pki.users[user][1]), str(pki.users[user][0]))
    c.sock = ctx.wrap_socket(c.sock, server_hostname="127.0.0.1")
    return c


def describe_all_acls(c):
    return c.request(29, 3, {"ResourceTypeFilter": 1, "ResourceNameFilter": None,
                             "PatternTypeFilter": 1, "PrincipalFilter": None,
                             "HostFilter": None, "Operation": 1, "PermissionType": 1})


def probe_topic(c, name):
    """The error codes of every API that takes a topic name, for `name`."""
    codes = {}
    md = c.metadata([name], allow_auto_create=True)
    codes["Metadata"] = (md["Topics"][0]["ErrorCode"], len(md["Topics"][0]["Partitions"]))
    blob = rawkafka.build_batch([(b"k", b"v")])
    codes["Produce"] = c.produce(name, 0, blob)[0]["ErrorCode"]
    codes["Fetch"] = c.fetch(name, 0, 0)[0]["ErrorCode"]
    codes["ListOffsets"] = c.list_offset(name, 0, -1)["ErrorCode"]
    r = c.request(23, 3, {"ReplicaId": -1, "Topics": [{"Topic": name, "Partitions": [
        {"Partition": 0, "CurrentLeaderEpoch": -1, "LeaderEpoch": 0}]}]})
    codes["OffsetForLeaderEpoch"] = r["Topics"][0]["Partitions"][0]["ErrorCode"]
    r = c.request(21, 1, {"Topics": [{"Name": name, "Partitions": [
        {"PartitionIndex": 0, "Offset": 0}]}], "TimeoutMs": 5000})
    codes["DeleteRecords"] = r["Topics"][0]["Partitions"][0]["ErrorCode"]
    r = c.request(32, 1, {"Resources": [{"ResourceType": 2, "ResourceName": name,
                                         "ConfigurationKeys": None}], "IncludeSynonyms": False})
    codes["DescribeConfigs"] = r["Results"][0]["ErrorCode"]
    r = c.request(37, 1, {"Topics": [{"Name": name, "Count": 3, "Assignments": None}],
                          "TimeoutMs": 5000, "ValidateOnly": True})
    codes["CreatePartitions"] = r["Results"][0]["ErrorCode"]
    r = c.request(75, 0, {"Topics": [{"Name": name}], "ResponsePartitionLimit": 100,
                          "Cursor": None})
    codes["DescribeTopicPartitions"] = r["Topics"][0]["ErrorCode"]
    r = c.request(8, 7, {"GroupId": "team-a.probe", "GenerationIdOrMemberEpoch": -1,
                         "MemberId": "", "GroupInstanceId": None, "Topics": [
                             {"Name": name, "Partitions": [
                                 {"PartitionIndex": 0, "CommittedOffset": 0,
                                  "CommittedLeaderEpoch": -1, "CommittedMetadata": ""}]}]})
    codes["OffsetCommit"] = r["Topics"][0]["Partitions"][0]["ErrorCode"]
    r = c.request(9, 7, {"GroupId": "team-a.probe",
                         "Topics": [{"Name": name, "PartitionIndexes": [0]}],
                         "RequireStable": False})
    codes["OffsetFetch"] = r["Topics"][0]["Partitions"][0]["ErrorCode"]
    return codes


def test_nothing_leaks_through_names(tenants, pki):
    """An existing foreign topic and a missing one get the same answer,
    TOPIC_AUTHORIZATION_FAILED, through every API that takes a topic name;
    the same for groups."""
    with raw_ssl(tenants, pki, "alice") as c:
        existing = probe_topic(c, "team-b.payments")
        missing = probe_topic(c, "team-b.does-not-exist")
        assert existing == missing, (existing, missing)
        assert existing.pop("Metadata") == (TAF, 0)
        assert set(existing.values()) == {TAF}, existing
        # Groups of the other tenant, existing (bob's) or not.
        for g in ("team-b.g2", "team-b.nope"):
            r = c.request(9, 7, {"GroupId": g, "Topics": None, "RequireStable": False})
            assert r["ErrorCode"] == GAF, r
            r = c.request(10, 3, {"Key": g, "KeyType": 0})
            assert r["ErrorCode"] == GAF, r
            r = c.request(15, 5, {"Groups": [g], "IncludeAuthorizedOperations": True})
            assert r["Groups"][0]["ErrorCode"] == GAF and not r["Groups"][0]["Members"], r
            r = c.request(42, 2, {"GroupsNames": [g]})
            assert r["Results"][0]["ErrorCode"] == GAF, r
        # ListGroups shows only the tenant's own groups.
        groups = [g["GroupId"] for g in c.request(16, 4, {"StatesFilter": []})["Groups"]]
        assert groups and not [g for g in groups if not g.startswith("team-a.")], groups
        # Authorized operations: alice may do everything on her topics
        # but WRITE on the denied one; nothing on the cluster.
        md = c.request(3, 10, {"Topics": [{"Name": "team-a.locked", "TopicId": b"\0" * 16}],
                               "AllowAutoTopicCreation": False,
                               "IncludeClusterAuthorizedOperations": True,
                               "IncludeTopicAuthorizedOperations": True})
        ops = md["Topics"][0]["TopicAuthorizedOperations"]
        assert ops & (1 << 3) and ops & (1 << 8) and not ops & (1 << 4), bin(ops)
        assert md["ClusterAuthorizedOperations"] == 0, md


def test_regex_subscription_matches_only_describable_topics(tenants, pki):
    """KIP-848: a member subscribing with a regex that matches both
    tenants' topics is assigned only its own; a named subscription to a
    foreign topic is refused."""
    import uuid
    with raw_ssl(tenants, pki, "admin") as c:
        ids = {t["TopicId"]: t["Name"] for t in c.metadata(None)["Topics"]}
    assert "team-b.payments" in ids.values()

    def hb(c, member, epoch, **kw):
        body = {"GroupId": "team-a.rx", "MemberId": member, "MemberEpoch": epoch,
                "InstanceId": None, "RackId": None, "RebalanceTimeoutMs": 30000,
                "SubscribedTopicNames": None, "ServerAssignor": None, "TopicPartitions": None,
                "SubscribedTopicRegex": None}
        body.update(kw)
        return c.request(68, 1, body)

    with raw_ssl(tenants, pki, "alice") as c:
        member = str(uuid.uuid4())
        r = hb(c, member, 0, SubscribedTopicNames=[], SubscribedTopicRegex="team-.*",
               TopicPartitions=[])
        assert r["ErrorCode"] == 0, r
        epoch, assigned = r["MemberEpoch"], None
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if r.get("Assignment") is not None:
                assigned = {ids.get(tp["TopicId"], "?") for tp in r["Assignment"]["TopicPartitions"]}
                if assigned:
                    break
            time.sleep(0.3)
            r = hb(c, member, epoch)
            assert r["ErrorCode"] == 0, r
            epoch = r["MemberEpoch"]
        assert assigned and all(t.startswith("team-a.") for t in assigned), assigned
        assert "team-a.orders" in assigned
        r = hb(c, str(uuid.uuid4()), 0, SubscribedTopicNames=["team-b.payments"],
               SubscribedTopicRegex="", TopicPartitions=[])
        assert r["ErrorCode"] == TAF, r


def test_bob_sees_his_group_but_not_alices(tenants, pki):
    left, errors = produce(conf(tenants, pki, "bob"), "team-b.payments", 1)
    assert left == 0 and not errors, errors
    got, err = consume(conf(tenants, pki, "bob"), "team-b.payments", "team-b.g2", 1)
    assert err is None and got, err
    a = admin(tenants, pki, "bob")
    groups = [g.group_id for g in a.list_consumer_groups().result(timeout=10).valid]
    assert not [g for g in groups if g.startswith("team-a.")], groups
    # The super user sees every group.
    a = admin(tenants, pki, "admin")
    groups = [g.group_id for g in a.list_consumer_groups().result(timeout=10).valid]
    assert "team-a.g1" in groups, groups


def test_describe_and_delete_acls(tenants, pki):
    from confluent_kafka.admin import (AclBindingFilter, AclOperation, AclPermissionType,
                                       ResourcePatternType, ResourceType)
    a = admin(tenants, pki, "admin")
    every = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, None, None,
                             AclOperation.ANY, AclPermissionType.ANY)
    listed = a.describe_acls(every).result(timeout=10)
    assert sorted(map(str, listed)) == sorted(map(str, tenant_acls())), listed
    # MATCH: every pattern that covers one resource name.
    match = AclBindingFilter(ResourceType.TOPIC, "team-a.locked", ResourcePatternType.MATCH,
                             None, None, AclOperation.ANY, AclPermissionType.ANY)
    listed = a.describe_acls(match).result(timeout=10)
    assert {(x.name, x.resource_pattern_type) for x in listed} == {
        ("team-a.", ResourcePatternType.PREFIXED), ("team-a.locked", ResourcePatternType.LITERAL)}
    # A tenant may not describe them (librdkafka 2.16 hands the
    # response's top-level error to nobody and returns an empty list, so
    # the answer is checked on the wire).
    with raw_ssl(tenants, pki, "alice") as c:
        assert describe_all_acls(c)["ErrorCode"] == CAF
    # Deleting carol's (never granted) changes nothing; a grant then a
    # delete takes her access away again.
    carol = conf(tenants, pki, "carol")
    left, errors = produce(carol, "team-b.payments", 1)
    assert errors and errors[0].code() == TAF
    grant = binding("TOPIC", "team-b.payments", "LITERAL", "User:carol", "WRITE")
    assert all(v is None for v in wait_all(a.create_acls([grant])).values())
    left, errors = produce(carol, "team-b.payments", 1)
    assert left == 0 and not errors, errors
    carol_filter = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, "User:carol",
                                    None, AclOperation.ANY, AclPermissionType.ANY)
    deleted = list(wait_all(a.delete_acls([carol_filter])).values())[0]
    assert [str(x) for x in deleted] == [str(grant)], deleted
    left, errors = produce(carol, "team-b.payments", 1)
    assert errors and errors[0].code() == TAF


def test_acls_survive_a_restart(tenants, pki):
    tenants.restart(how="kill9")
    left, errors = produce(conf(tenants, pki, "alice"), "team-a.orders", 2)
    assert left == 0 and not errors, errors
    left, errors = produce(conf(tenants, pki, "alice"), "team-b.payments", 1)
    assert errors and errors[0].code() == TAF


def test_allow_everyone_if_no_acl_found(pki):
    b = start(pki, "acl-open", **{"allow.everyone.if.no.acl.found": "true"})
    try:
        a = admin(b, pki, "admin")
        from confluent_kafka.admin import NewTopic
        res = wait_all(a.create_topics([NewTopic(t, 1, 1) for t in ("open.t", "closed.t")]))
        assert all(v is None for v in res.values()), res
        res = wait_all(a.create_acls([binding("TOPIC", "closed.t", "LITERAL", "User:alice",
                                              "ALL")]))
        assert all(v is None for v in res.values()), res
        # No ACL covers open.t: anyone may use it; closed.t has ACLs.
        left, errors = produce(conf(b, pki, "bob"), "open.t", 1)
        assert left == 0 and not errors, errors
        left, errors = produce(conf(b, pki, "bob"), "closed.t", 1)
        assert errors and errors[0].code() == TAF
        left, errors = produce(conf(b, pki, "alice"), "closed.t", 1)
        assert left == 0 and not errors, errors
    finally:
        b.close()


def test_without_an_authorizer_acl_apis_say_security_disabled(pki):
    from confluent_kafka.admin import (AclBindingFilter, AclOperation, AclPermissionType,
                                       ResourcePatternType, ResourceType)
    b = start(pki, "acl-off", **{"authorizer.class.name": "", "super.users": ""})
    try:
        every = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, None, None,
                                 AclOperation.ANY, AclPermissionType.ANY)
        with raw_ssl(b, pki, "alice") as c:
            r = describe_all_acls(c)
            assert r["ErrorCode"] == SECURITY_DISABLED, r
            r = c.request(30, 3, {"Creations": [{
                "ResourceType": 2, "ResourceName": "t", "ResourcePatternType": 3,
                "Principal": "User:x", "Host": "*", "Operation": 3, "PermissionType": 3}]})
            assert r["Results"][0]["ErrorCode"] == SECURITY_DISABLED, r
        # And everything is allowed.
        left, errors = produce(conf(b, pki, "alice"), "anything", 1)
        assert left == 0 and not errors, errors
    finally:
        b.close()


def test_unknown_authorizer_refused_at_start(pki):
    b = TlsBroker(acl_settings(pki, **{"authorizer.class.name": "kafka.security.authorizer.AclAuthorizer"}),
                  name="acl-bad")
    try:
        with pytest.raises(harness.BrokerError) as e:
            b.start(timeout=10)
        assert "StandardAuthorizer" in str(e.value)
    finally:
        b.close()


def test_tenants_over_sasl_scram(tmp_path):
    """The same tenant rules with SCRAM users: the bootstrap user is the
    super user and creates two users and their ACLs; each user reaches its
    own prefix only, may not manage users, and sees only its own topics
    (confluent-kafka and kafka-python)."""
    from confluent_kafka import KafkaError
    from confluent_kafka.admin import NewTopic, ScramMechanism
    from test_scram_users import (ADMIN, ScramBroker, admin_client, alter, create_user,
                                  sasl_conf, upsert)
    b = ScramBroker({"authorizer.class.name": AUTHORIZER, "super.users": "User:" + ADMIN},
                    name="acl-sasl")
    b.start()
    try:
        a = admin_client(b.sasl_port)
        create_user(a, "alice", "alice-pw")
        create_user(a, "bob", "bob-pw")
        res = wait_all(a.create_acls(tenant_acls()))
        assert all(v is None for v in res.values()), res
        res = wait_all(a.create_topics([NewTopic(t, 1, 1) for t in
                                        ("team-a.orders", "team-b.payments")]))
        assert all(v is None for v in res.values()), res
        for mech in ("SCRAM-SHA-512", "PLAIN"):
            alice = sasl_conf(b.sasl_port, mech, "alice", "alice-pw")
            left, errors = produce(alice, "team-a.orders", 2)
            assert left == 0 and not errors, (mech, errors)
            left, errors = produce(alice, "team-b.payments", 1)
            assert errors and errors[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, mech
        got, err = consume(sasl_conf(b.sasl_port, "SCRAM-SHA-256", "bob", "bob-pw"),
                           "team-a.orders", "team-b.g", 1, timeout=10)
        assert not got and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, err
        # Managing users needs ALTER on the cluster.
        alice_admin = admin_client(b.sasl_port, user="alice", password="alice-pw")
        res = alter(alice_admin, [upsert("mallory", ScramMechanism.SCRAM_SHA_256, "x")])
        assert res["mallory"].code() == KafkaError.CLUSTER_AUTHORIZATION_FAILED, res
        # kafka-python as bob: only team-b topics are listed.
        from kafka import KafkaConsumer
        kc = KafkaConsumer(bootstrap_servers="127.0.0.1:%d" % b.sasl_port,
                           security_protocol="SASL_PLAINTEXT", sasl_mechanism="SCRAM-SHA-512",
                           sasl_plain_username="bob", sasl_plain_password="bob-pw",
                           request_timeout_ms=15000)
        try:
            topics = kc.topics()
        finally:
            kc.close()
        assert "team-b.payments" in topics and not [t for t in topics
                                                    if t.startswith("team-a.")], topics
    finally:
        b.close()


def test_acl_admin_with_kafka_python_and_kafkajs():
    """CreateAcls, DescribeAcls and DeleteAcls through kafka-python's and
    kafkajs's admin clients (a PLAINTEXT broker whose ANONYMOUS principal
    is the super user)."""
    import json
    from kafka.admin import (ACL, ACLFilter, ACLOperation, ACLPermissionType,
                             ACLResourcePatternType, KafkaAdminClient, ResourcePattern,
                             ResourcePatternFilter, ResourceType)
    b = harness.Broker(settings={"authorizer.class.name": AUTHORIZER,
                                 "super.users": "User:ANONYMOUS"}, name="acl-admins")
    b.start()
    try:
        a = KafkaAdminClient(bootstrap_servers=b.bootstrap, request_timeout_ms=15000)
        try:
            acl = ACL(principal="User:alice", host="*", operation=ACLOperation.READ,
                      permission_type=ACLPermissionType.ALLOW,
                      resource_pattern=ResourcePattern(ResourceType.TOPIC, "team-a.",
                                                       ACLResourcePatternType.PREFIXED))
            res = a.create_acls([acl])
            assert len(res["succeeded"]) == 1 and not res["failed"], res
            anything = ACLFilter(principal=None, host=None, operation=ACLOperation.ANY,
                                 permission_type=ACLPermissionType.ANY,
                                 resource_pattern=ResourcePatternFilter(
                                     ResourceType.ANY, None, ACLResourcePatternType.ANY))
            listed, err = a.describe_acls(anything)
            assert [(x.principal, x.resource_pattern.resource_name) for x in listed] == [
                ("User:alice", "team-a.")], listed
            deleted = a.delete_acls([anything])
            assert len(deleted[0][1]) == 1, deleted
            assert a.describe_acls(anything)[0] == []
        finally:
            a.close()
        spec = {"brokers": [b.bootstrap], "prefix": "team-b.", "principal": "User:bob"}
        p = harness.run([harness.node_binary(), str(harness.JS_DIR / "acls.js")],
                        input=json.dumps(spec).encode(), timeout=90, cwd=str(harness.JS_DIR))
        lines = [x for x in p.stdout.decode().splitlines() if x.startswith("{")]
        assert lines, p.stderr[-2000:]
        got = json.loads(lines[-1])
        assert got["described"] == [{"resourceType": 2, "resourceName": "team-b.",
                                     "resourcePatternType": 4,
                                     "acls": [{"principal": "User:bob", "host": "*",
                                               "operation": 4, "permissionType": 3}]}], got
        assert got["deleted"] == [1] and got["after"] == 0, got
    finally:
        b.close()
