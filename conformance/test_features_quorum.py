"""Feature flags (KIP-584) and the metadata quorum (DescribeQuorum).

- ApiVersions v3/v4 carry Tidemark's fixed features: metadata.version
  4.2-IV1 (29), kraft.version 0, group.version 1, transaction.version 2
  (transactions v2, KIP-890: test_transactions_v2.py), share.version 1;
  below v4 features whose supported minimum is 0 are left out, and a
  level-0 feature is never listed as finalized (Kafka's rules). The same
  through kafka-python's `describe_features`.
- UpdateFeatures: keeping a level succeeds (per-feature results below v2,
  none from v2), any change fails the whole request with
  INVALID_UPDATE_VERSION and Kafka's message plus the reason; validate_only
  answers alike and changes nothing either way.
- DescribeQuorum (`kafka-metadata-quorum.sh describe`): a single node is
  its own leader and only voter, its high watermark counts the metadata
  changes; on three brokers every broker gives the controller leader's
  view (all voters, sane lags), and once the leader is killed a new leader
  with a higher epoch is named.
"""

import time

import pytest

import cluster
import harness
import rawkafka

API_UPDATE_FEATURES = 57
API_DESCRIBE_QUORUM = 55
INVALID_UPDATE_VERSION = 95
METADATA = "__cluster_metadata"

FINALIZED = {"metadata.version": 29, "group.version": 1, "transaction.version": 2,
             "share.version": 1}
SUPPORTED = {"metadata.version": (29, 29), "kraft.version": (0, 0), "group.version": (1, 1),
             "transaction.version": (2, 2), "share.version": (1, 1)}


def _api_versions(addr, version):
    with rawkafka.KafkaConn(addr) as c:
        body = {"ClientSoftwareName": "tidemark-conformance", "ClientSoftwareVersion": "1.0"}
        resp = c.request(rawkafka.API_API_VERSIONS, version, body)
    assert resp["ErrorCode"] == 0, resp
    return resp


def _features(resp):
    sup = {f["Name"]: (f["MinVersion"], f["MaxVersion"]) for f in resp["SupportedFeatures"] or []}
    fin = {f["Name"]: (f["MinVersionLevel"], f["MaxVersionLevel"])
           for f in resp["FinalizedFeatures"] or []}
    return sup, fin


def test_api_versions_features(broker):
    v4 = _api_versions(broker.bootstrap, 4)
    sup, fin = _features(v4)
    assert sup == SUPPORTED, sup
    assert fin == {k: (v, v) for k, v in FINALIZED.items()}, fin
    assert "kraft.version" not in fin  # finalized at 0: not listed
    assert v4["FinalizedFeaturesEpoch"] == 2
    assert v4.get("ZkMigrationReady", False) is False  # tagged, default false: absent
    keys = {k["ApiKey"]: (k["MinVersion"], k["MaxVersion"]) for k in v4["ApiKeys"]}
    assert keys[API_UPDATE_FEATURES] == (0, 2)
    assert keys[API_DESCRIBE_QUORUM] == (0, 2)

    # v3: features with a supported minimum of 0 are left out (KAFKA-17492).
    sup3, fin3 = _features(_api_versions(broker.bootstrap, 3))
    assert sup3 == {k: v for k, v in SUPPORTED.items() if v[0] != 0}, sup3
    assert fin3 == fin


def test_describe_features_through_kafka_python(broker):
    from kafka import KafkaAdminClient
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        got = admin.describe_features()
    finally:
        admin.close()
    assert got["metadata.version"]["supported"] == (29, 29), got
    assert got["metadata.version"]["finalized"] == (29, 29), got
    assert got["group.version"]["finalized"] == (1, 1), got
    assert got["share.version"]["finalized"] == (1, 1), got
    assert got["metadata.version"]["finalized_epoch"] == 2, got
    # Transactions v2 is finalized: the Java client and franz-go use it.
    assert got["transaction.version"]["finalized"] == (2, 2), got


def _update(addr, version, updates, validate_only=False):
    body = {"timeoutMs": 10000, "FeatureUpdates": [
        {"Feature": f, "MaxVersionLevel": level, "AllowDowngrade": False, "UpgradeType": kind}
        for f, level, kind in updates]}
    if version >= 1:
        body["ValidateOnly"] = validate_only
    with rawkafka.KafkaConn(addr) as c:
        return c.request(API_UPDATE_FEATURES, version, body)


def test_update_features(broker):
    addr = broker.bootstrap
    keep = [("metadata.version", 29, 1), ("group.version", 1, 2), ("transaction.version", 2, 1)]
    r = _update(addr, 1, keep)
    assert r["ErrorCode"] == 0 and r["ErrorMessage"] is None, r
    assert sorted((x["Feature"], x["ErrorCode"]) for x in r["Results"]) == \
        sorted((f, 0) for f, _, _ in keep), r
    r = _update(addr, 2, keep)
    assert r["ErrorCode"] == 0 and not r.get("Results"), r  # v2: no per-feature results
    r = _update(addr, 0, [("group.version", 1, 1)])  # v0: AllowDowngrade, no type
    assert r["ErrorCode"] == 0 and [x["ErrorCode"] for x in r["Results"]] == [0], r
    r = _update(addr, 0, [("group.version", 2, 1)])
    assert r["ErrorCode"] == INVALID_UPDATE_VERSION, r
    assert _update(addr, 1, keep, validate_only=True)["ErrorCode"] == 0

    for version, validate_only in ((1, False), (1, True), (2, False), (2, True)):
        r = _update(addr, version, [("group.version", 1, 1), ("transaction.version", 0, 2)],
                    validate_only)
        assert r["ErrorCode"] == INVALID_UPDATE_VERSION, r
        assert not r.get("Results"), r  # the whole request fails
        msg = r["ErrorMessage"]
        assert msg.startswith("The update failed for all features since the following "
                              "feature had an error: Invalid update version 0 for feature "
                              "transaction.version."), msg
        assert "only supports versions 2." in msg and "cannot be lowered" in msg, msg

    r = _update(addr, 2, [("metadata.version", 28, 2)])
    assert r["ErrorCode"] == INVALID_UPDATE_VERSION, r
    assert "only supports versions 29." in r["ErrorMessage"], r
    r = _update(addr, 2, [("streams.version", 1, 1)])
    assert r["ErrorCode"] == INVALID_UPDATE_VERSION, r
    assert "does not support this feature" in r["ErrorMessage"], r
    r = _update(addr, 2, [("metadata.version", 29, 0)])
    assert r["ErrorCode"] == INVALID_UPDATE_VERSION, r
    assert r["ErrorMessage"].endswith("The controller does not support the given upgrade type."), r

    # Through a client: refused the same way; nothing changed.
    from kafka import KafkaAdminClient
    admin = KafkaAdminClient(bootstrap_servers=addr)
    try:
        try:
            res = admin.update_features({"transaction.version": 0})
        except Exception as e:  # kafka-python raises the top-level error
            assert "InvalidUpdateVersion" in type(e).__name__ or "95" in str(e), repr(e)
        else:
            assert res["transaction.version"] != "OK", res
        assert admin.update_features({"group.version": 1}, validate_only=True) == \
            {"group.version": "OK"}
    finally:
        admin.close()
    sup, fin = _features(_api_versions(addr, 4))
    assert sup == SUPPORTED and fin == {k: (v, v) for k, v in FINALIZED.items()}


def _describe_quorum(addr, version=2, topic=METADATA, partition=0):
    with rawkafka.KafkaConn(addr) as c:
        return c.request(API_DESCRIBE_QUORUM, version, {"Topics": [
            {"TopicName": topic, "Partitions": [{"PartitionIndex": partition}]}]})


def _partition(resp):
    assert resp["ErrorCode"] == 0, resp
    [t] = resp["Topics"]
    assert t["TopicName"] == METADATA
    [p] = t["Partitions"]
    return p


def test_describe_quorum_single_node(broker):
    rawkafka.ensure_topic(broker.bootstrap, harness.unique_topic("quorum"))
    now_ms = time.time() * 1000
    resp = _describe_quorum(broker.bootstrap)
    p = _partition(resp)
    assert p["ErrorCode"] == 0, p
    assert p["LeaderId"] == broker.node_id
    assert p["LeaderEpoch"] >= 1
    assert p["HighWatermark"] > 0, p
    [v] = p["CurrentVoters"]
    assert v["ReplicaId"] == broker.node_id
    assert v["LogEndOffset"] == p["HighWatermark"]
    assert abs(v["LastFetchTimestamp"] - now_ms) < 10000, v
    assert p["Observers"] == []
    [node] = resp["Nodes"]
    assert node["NodeId"] == broker.node_id
    host, port = broker.bootstrap.rsplit(":", 1)
    assert [(li["Host"], li["Port"]) for li in node["Listeners"]] == [(host, int(port))]

    # v1: timestamps, no nodes.
    p1 = _partition(_describe_quorum(broker.bootstrap, version=1))
    assert p1["LeaderId"] == broker.node_id
    assert p1["CurrentVoters"][0]["LastCaughtUpTimestamp"] > 0, p1

    # v0: the same without timestamps.
    p0 = _partition(_describe_quorum(broker.bootstrap, version=0))
    assert p0["LeaderId"] == broker.node_id and p0["HighWatermark"] >= p["HighWatermark"]

    # Only __cluster_metadata-0 exists.
    bad = _describe_quorum(broker.bootstrap, topic="other")
    assert bad["Topics"][0]["Partitions"][0]["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION
    bad = _describe_quorum(broker.bootstrap, partition=1)
    assert bad["Topics"][0]["Partitions"][0]["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION

    # The same through kafka-python (what kafka-metadata-quorum.sh shows).
    from kafka import KafkaAdminClient
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        q = admin.describe_metadata_quorum()
    finally:
        admin.close()
    [qp] = q["topics"][0]["partitions"]
    assert qp["error"] is None and qp["leader_id"] == broker.node_id, q
    assert [r["replica_id"] for r in qp["current_voters"]] == [broker.node_id], q


def _quorum_from(node):
    try:
        p = _partition(_describe_quorum(node.bootstrap))
    except (OSError, rawkafka.ConnectionClosed):
        return None
    return p if p["ErrorCode"] == 0 else None


def _check_view(p, voters, when_ms):
    assert p["LeaderId"] in voters, p
    assert sorted(v["ReplicaId"] for v in p["CurrentVoters"]) == sorted(voters), p
    hw = p["HighWatermark"]
    assert hw > 0, p
    for v in p["CurrentVoters"]:
        # Every live voter holds nearly all of the log and fetched lately.
        assert 0 <= hw - v["LogEndOffset"] <= 50 or v["LogEndOffset"] >= hw, (v, p)
        assert when_ms - 15000 < v["LastFetchTimestamp"] <= when_ms + 5000, (v, p)
        assert v["LastCaughtUpTimestamp"] <= v["LastFetchTimestamp"], (v, p)
        assert v["LastCaughtUpTimestamp"] > 0, (v, p)


@pytest.mark.cluster
def test_describe_quorum_three_nodes():
    c = cluster.Cluster(3, name="quorum")
    joiner = None
    try:
        c.start()
        # A fourth broker outside the seeds: a learner of the controller
        # group, i.e. an observer of the quorum.
        seeds = c.seeds
        joiner = cluster.Node(c, 4, "zone-a", cores=1, tmp_root=str(c.root))
        joiner.argv_seeds = seeds
        joiner.start()
        c.nodes[4] = joiner
        views = {}

        def all_agree():
            for n in c.nodes.values():
                views[n.node_id] = _quorum_from(n)
            leaders = {v["LeaderId"] for v in views.values() if v}
            return all(views.values()) and len(leaders) == 1 and \
                all(len(v["CurrentVoters"]) == 3 and
                    all(r["LastFetchTimestamp"] > 0 for r in v["CurrentVoters"]) and
                    [r["ReplicaId"] for r in v["Observers"]] == [4] and
                    v["Observers"][0]["LogEndOffset"] >= v["HighWatermark"]
                    for v in views.values())

        harness.wait_until(all_agree, timeout=30, interval=0.2,
                           what="every broker (the observer too) reports one controller "
                                "leader, three voters and observer 4 caught up")
        now_ms = time.time() * 1000
        for v in views.values():
            _check_view(v, [1, 2, 3], now_ms)
            assert v["Observers"][0]["LastFetchTimestamp"] > now_ms - 15000, v
        first = views[1]
        leader, epoch = first["LeaderId"], first["LeaderEpoch"]
        # The leader's own entry is caught up now.
        [me] = [v for v in first["CurrentVoters"] if v["ReplicaId"] == leader]
        assert me["LogEndOffset"] >= first["HighWatermark"], first

        c.kill9(leader)
        survivors = [n for n in c.nodes.values() if n.node_id != leader]
        after = {}

        def new_leader():
            for n in survivors:
                after[n.node_id] = _quorum_from(n)
            return all(after.values()) and \
                all(v["LeaderId"] not in (leader, -1) for v in after.values()) and \
                len({v["LeaderId"] for v in after.values()}) == 1

        harness.wait_until(new_leader, timeout=20, interval=0.2,
                           what="a new controller leader after killing %d" % leader)
        for v in after.values():
            assert v["LeaderEpoch"] > epoch, (epoch, v)
            assert v["LeaderId"] in {1, 2, 3} - {leader}, v
            # The dead voter is still a voter, falling behind: no fetch
            # from it since the kill.
            [dead] = [r for r in v["CurrentVoters"] if r["ReplicaId"] == leader]
            assert dead["LastFetchTimestamp"] < time.time() * 1000, dead
            assert len(v["CurrentVoters"]) == 3, v
            assert [r["ReplicaId"] for r in v["Observers"]] == [4], v
    finally:
        try:
            if joiner is not None and joiner.running():
                joiner.close()
        finally:
            c.nodes.pop(4, None)
            c.close()


def test_cluster_authorization(broker_factory):
    """With an authorizer and no ACL for the (ANONYMOUS) principal:
    UpdateFeatures needs ALTER and DescribeQuorum DESCRIBE on the cluster."""
    b = broker_factory({"authorizer.class.name":
                        "org.apache.kafka.metadata.authorizer.StandardAuthorizer"})
    r = _update(b.bootstrap, 2, [("group.version", 1, 1)])
    assert r["ErrorCode"] == 31, r  # CLUSTER_AUTHORIZATION_FAILED
    r = _describe_quorum(b.bootstrap)
    assert r["ErrorCode"] == 31, r
    assert not r["Topics"], r
    # Features are still reported: ApiVersions needs no authorization.
    assert _features(_api_versions(b.bootstrap, 4))[1]["metadata.version"] == (29, 29)
