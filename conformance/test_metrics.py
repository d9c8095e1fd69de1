"""The admin HTTP server: Prometheus metrics checked against a workload,
the status and health endpoints, JSON logs, and a real Prometheus
(Debian's `prometheus`) scraping a three-node cluster.

Single node: N records produced with confluent-kafka show as N in
tidemark_topic_records_in_total and in the partitions' high watermarks; a
Produce to a topic that does not exist shows under its error code; a
group's lag is the high watermark minus its committed offset and falls to
0 when the consumer commits the end; live, ready, health, brokers and
partition JSON; --log-format json writes one JSON object per line; with
TIDEMARK_ADMIN_TOKEN set only the probes answer without the bearer token.

Three nodes: health and the brokers and partition endpoints; a broker
holding a replication-factor-1 partition is killed and the leaderless
gauge rises on the others (once the controller fences it), then falls
when it comes back; Prometheus scrapes all three and its query API
returns the lag and throughput series.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

import cluster
import harness
import rawkafka

N = 500


def http_get(url, timeout=10.0):
    """(status, body text) of GET url; HTTP errors are answers too."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def get_json(url):
    status, body = http_get(url)
    return status, json.loads(body)


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def scrape(broker):
    """{(name, frozenset(labels)): value} of the broker's /metrics, after
    checking every line is a comment or a well-formed sample."""
    status, text = http_get(broker.admin_url + "/metrics")
    assert status == 200, text
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        assert m, "not a Prometheus sample line: %r" % line
        labels = frozenset(LABEL.findall(m.group(3) or ""))
        out[(m.group(1), labels)] = float(m.group(4))
    return out


def value(samples, name, **labels):
    """The sample with exactly these labels (0 when absent)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def produce(bootstrap, topic, n, partition=None):
    from confluent_kafka import Producer
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5})
    failed = []
    for i in range(n):
        kw = {} if partition is None else {"partition": partition}
        p.produce(topic, value=b"v%d" % i, key=b"k%d" % i,
                  on_delivery=lambda err, _m: err and failed.append(err), **kw)
    assert p.flush(30) == 0
    assert not failed, failed


def create(bootstrap, topic, partitions, rf=1):
    from confluent_kafka.admin import AdminClient, NewTopic
    a = AdminClient({"bootstrap.servers": bootstrap})
    a.create_topics([NewTopic(topic, partitions, rf)])[topic].result(30)


def commit(bootstrap, group, topic, partition, offset):
    from confluent_kafka import Consumer, TopicPartition
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                  "enable.auto.commit": False})
    try:
        c.commit(offsets=[TopicPartition(topic, partition, offset)], asynchronous=False)
    finally:
        c.close()


def consume_all(bootstrap, group, topic, n, timeout=30.0):
    """Consumes n records of `topic` in `group` and commits what it read."""
    from confluent_kafka import Consumer
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                  "enable.auto.commit": False, "auto.offset.reset": "earliest"})
    got = 0
    try:
        c.subscribe([topic])
        deadline = time.monotonic() + timeout
        while got < n and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is not None and m.error() is None:
                got += 1
        c.commit(asynchronous=False)
    finally:
        c.close()
    assert got == n, "consumed %d of %d" % (got, n)


def test_metrics_single_node(broker_factory):
    b = broker_factory({"group.initial.rebalance.delay.ms": "0",
                        "auto.create.topics.enable": "false"},
                       extra_args=["--log-format", "json"])
    topic = harness.unique_topic("metrics")
    create(b.bootstrap, topic, 2)
    produce(b.bootstrap, topic, N)

    s = scrape(b)
    assert value(s, "tidemark_topic_records_in_total", topic=topic) == N
    assert value(s, "tidemark_topic_bytes_in_total", topic=topic) > N
    hws = [value(s, "tidemark_partition_high_watermark", topic=topic, partition=str(p))
           for p in range(2)]
    assert sum(hws) == N, hws
    assert value(s, "tidemark_requests_total", api="Produce") >= 1
    assert value(s, "tidemark_request_latency_seconds_count", api="Produce") \
        == value(s, "tidemark_requests_total", api="Produce")
    assert value(s, "tidemark_connections_accepted_total", listener="PLAINTEXT") >= 1
    assert value(s, "tidemark_resident_memory_bytes") > 0
    assert value(s, "tidemark_disk_free_bytes") > 0
    assert value(s, "tidemark_fdatasync_seconds_count") > 0
    assert value(s, "tidemark_leaderless_partitions") == 0

    # A failed request counts under its error code.
    name = "UNKNOWN_TOPIC_OR_PARTITION"
    before = value(s, "tidemark_request_errors_total", api="Produce", error=name, code="3")
    with rawkafka.KafkaConn(b.bootstrap) as conn:
        part, _ = conn.produce(harness.unique_topic("missing"), 0,
                               rawkafka.build_batch([(b"k", b"v")]))
    assert part["ErrorCode"] == 3
    s = scrape(b)
    assert value(s, "tidemark_request_errors_total", api="Produce", error=name, code="3") \
        == before + 1

    # Lag: high watermark minus committed, down to 0 once caught up.
    lag_topic = harness.unique_topic("lag")
    create(b.bootstrap, lag_topic, 1)
    produce(b.bootstrap, lag_topic, 300)
    group = "lagging-%d" % os.getpid()
    commit(b.bootstrap, group, lag_topic, 0, 100)
    s = scrape(b)
    assert value(s, "tidemark_group_lag", group=group, topic=lag_topic, partition="0") == 200
    assert value(s, "tidemark_group_lag_max", group=group) == 200
    # The consumer resumes at the committed 100 and reads the other 200.
    consume_all(b.bootstrap, group, lag_topic, 200)
    s = scrape(b)
    assert value(s, "tidemark_group_lag", group=group, topic=lag_topic, partition="0") == 0
    assert value(s, "tidemark_group_lag_max", group=group) == 0
    assert value(s, "tidemark_topic_records_out_total", topic=lag_topic) >= 200

    # Status endpoints.
    assert get_json(b.admin_url + "/v1/status/live") == (200, {"live": True})
    status, ready = get_json(b.admin_url + "/v1/status/ready")
    assert status == 200 and ready["ready"], ready
    status, health = get_json(b.admin_url + "/v1/cluster/health")
    assert status == 200 and health["is_healthy"], health
    assert health["brokers_up"] == [1] and health["brokers_down"] == []
    status, brokers = get_json(b.admin_url + "/v1/brokers")
    assert status == 200 and [x["node_id"] for x in brokers] == [1]
    assert brokers[0]["alive"] and brokers[0]["port"] == b.port
    status, one = get_json(b.admin_url + "/v1/brokers/1")
    assert status == 200 and one["partition_replicas"] >= 3
    assert http_get(b.admin_url + "/v1/brokers/7")[0] == 404
    status, p = get_json(b.admin_url + "/v1/partitions/%s/0" % lag_topic)
    assert status == 200, p
    assert p["replicas"] == [1] and p["leader"] == 1 and p["in_sync_replicas"] == [1]
    assert p["high_watermark"] == 300 and p["log_start_offset"] == 0
    assert http_get(b.admin_url + "/v1/partitions/%s/5" % lag_topic)[0] == 404
    assert http_get(b.admin_url + "/v1/partitions/nope/0")[0] == 404
    assert http_get(b.admin_url + "/nothing")[0] == 404
    req = urllib.request.Request(b.admin_url + "/metrics", method="POST", data=b"")
    try:
        urllib.request.urlopen(req, timeout=5)
        raise AssertionError("POST was accepted")
    except urllib.error.HTTPError as e:
        assert e.code == 405

    # --log-format json: every line one JSON object.
    lines = [ln for ln in open(b.log_paths[-1]).read().splitlines() if ln.strip()]
    events = [json.loads(ln) for ln in lines]
    assert any(e.get("message") == "tidemark started" and e.get("level") == "INFO"
               for e in events), lines[:5]
    assert any(e.get("message") == "admin server listening" for e in events)


def _admin_addr(b, addr):
    """Makes broker b start with --admin-addr addr instead of the
    harness's free port."""
    plain = b.argv

    def argv():
        a = plain()
        a[a.index("--admin-addr") + 1] = addr
        return a
    b.argv = argv


def test_admin_server_off_and_port_taken(broker_factory):
    """An empty --admin-addr runs no admin server; a taken admin port
    stops the broker at start with a clear message."""
    b = broker_factory(start=False)
    _admin_addr(b, "")
    b.start()
    with pytest.raises(OSError):
        urllib.request.urlopen(b.admin_url + "/v1/status/live", timeout=2)
    taken = broker_factory(start=False)
    _admin_addr(taken, b.bootstrap)  # the Kafka port of the running broker
    with pytest.raises(harness.BrokerError) as e:
        taken.start(timeout=10)
    assert "cannot start the admin server" in str(e.value)


def test_admin_bearer_token(broker_factory):
    """With TIDEMARK_ADMIN_TOKEN set, everything but the probes needs
    `Authorization: Bearer TOKEN`."""
    token = "s3cret-%d" % os.getpid()
    b = broker_factory(env={"TIDEMARK_ADMIN_TOKEN": token})

    def get(path, auth=None):
        req = urllib.request.Request(b.admin_url + path)
        if auth:
            req.add_header("Authorization", auth)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    assert get("/v1/status/live")[0] == 200
    assert get("/v1/status/ready")[0] == 200
    for path in ("/metrics", "/v1/cluster/health", "/v1/brokers"):
        status, headers, _ = get(path)
        assert status == 401 and headers["WWW-Authenticate"] == "Bearer", path
        assert get(path, "Bearer wrong")[0] == 401
        assert get(path, "Bearer " + token + "x")[0] == 401
        assert get(path, "Basic " + token)[0] == 401
        assert get(path, "Bearer " + token)[0] == 200, path
    assert token not in open(b.log_paths[-1]).read()

    # tmk sends the token (-X admin.token, else its own
    # TIDEMARK_ADMIN_TOKEN) and says what is wrong without it.
    import test_tmk
    tmk = test_tmk.tmk_binary()
    base = [tmk, "--brokers", b.bootstrap, "-X", "admin.hosts=%s:%d" % (b.host, b.admin_port),
            "cluster", "maintenance", "status", "--format", "json"]
    env = {k: v for k, v in os.environ.items() if k != "TIDEMARK_ADMIN_TOKEN"}
    r = subprocess.run(base, capture_output=True, text=True, timeout=30, env=env)
    assert r.returncode != 0 and "HTTP 401" in r.stderr and "admin.token" in r.stderr, r.stderr
    r = subprocess.run(base + ["-X", "admin.token=wrong"], capture_output=True, text=True,
                       timeout=30, env=env)
    assert r.returncode != 0 and "refused" in r.stderr, r.stderr
    for extra, e in ((["-X", "admin.token=" + token], env),
                     ([], dict(env, TIDEMARK_ADMIN_TOKEN=token))):
        r = subprocess.run(base + extra, capture_output=True, text=True, timeout=30, env=e)
        # Past the token check: a single node has no maintenance mode,
        # and says so.
        assert "HTTP 401" not in r.stderr, r.stderr
        assert "HTTP 400" in r.stderr and "single-node" in r.stderr, r.stderr


class Prometheus:
    """A prometheus server on 127.0.0.1 scraping the given targets every
    second, with its own data folder; stopped by PID."""

    def __init__(self, targets):
        self.binary = shutil.which("prometheus")
        self.root = tempfile.mkdtemp(prefix="tidemark-prom-",
                                     dir=os.environ.get("TIDEMARK_TEST_TMPDIR"))
        self.port = harness.free_port()
        cfg = os.path.join(self.root, "prometheus.yml")
        with open(cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                    "scrape_configs:\n  - job_name: tidemark\n    static_configs:\n"
                    "      - targets: [%s]\n" % ", ".join('"%s"' % t for t in targets))
        self.log = open(os.path.join(self.root, "prometheus.log"), "wb")
        self.proc = subprocess.Popen(
            [self.binary, "--config.file", cfg,
             "--storage.tsdb.path", os.path.join(self.root, "data"),
             "--web.listen-address", "127.0.0.1:%d" % self.port],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)

    def query(self, q):
        url = "http://127.0.0.1:%d/api/v1/query?%s" % (
            self.port, urllib.parse.urlencode({"query": q}))
        try:
            status, body = http_get(url, timeout=5)
        except OSError:
            return None
        if status != 200:
            return None
        j = json.loads(body)
        return j["data"]["result"] if j.get("status") == "success" else None

    def close(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self.log.close()
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.mark.cluster
def test_metrics_cluster_and_prometheus():
    assert shutil.which("prometheus"), "no prometheus binary: conformance/install.sh installs it"
    c = cluster.Cluster(3, name="metrics", settings={
        "group.initial.rebalance.delay.ms": "0",
        "broker.session.timeout.ms": "3000",
    })
    prom = None
    try:
        c.start()
        prom = Prometheus(["127.0.0.1:%d" % n.admin_port for n in c.nodes.values()])
        replicated = harness.unique_topic("rf3")
        c.create_topic(replicated, 3, replication_factor=3, full_isr=True)
        single = harness.unique_topic("rf1")
        c.create_topic(single, 3, replication_factor=1)
        produce(c.bootstrap, replicated, N)
        group = "cluster-lag-%d" % os.getpid()
        commit(c.bootstrap, group, replicated, 0, 0)
        hw0 = c.high_watermark(replicated, 0)
        assert hw0 > 0

        node1 = c.node(1)
        harness.wait_until(
            lambda: get_json(node1.admin_url + "/v1/cluster/health")[1]["is_healthy"],
            timeout=30, what="a healthy cluster")
        status, health = get_json(node1.admin_url + "/v1/cluster/health")
        assert health["brokers_up"] == [1, 2, 3] and health["controller_has_leader"], health
        status, brokers = get_json(node1.admin_url + "/v1/brokers")
        assert [b["node_id"] for b in brokers] == [1, 2, 3]
        assert all(b["alive"] for b in brokers)
        assert sum(b["is_controller_leader"] for b in brokers) == 1
        leader = c.leader_of(replicated, 0)
        status, p = get_json(c.node(leader).admin_url + "/v1/partitions/%s/0" % replicated)
        assert status == 200, p
        assert sorted(p["replicas"]) == [1, 2, 3] and p["leader"] == leader
        assert sorted(p["in_sync_replicas"]) == [1, 2, 3] and p["is_leader_here"]
        assert p["high_watermark"] == c.high_watermark(replicated, 0)
        for n in c.nodes.values():
            status, ready = get_json(n.admin_url + "/v1/status/ready")
            assert status == 200 and ready["ready"], (n.node_id, ready)

        # Prometheus: the lag and throughput series.
        def series(q):
            r = prom.query(q)
            return {tuple(sorted(x["metric"].items())): float(x["value"][1]) for x in r or []}

        harness.wait_until(
            lambda: series('max(tidemark_group_lag_max{group="%s"})' % group)
            .get((), -1) == hw0 or None,
            timeout=30, what="Prometheus to return the group's lag")
        lag = series('tidemark_group_lag{group="%s",topic="%s"}' % (group, replicated))
        assert lag and all(v >= 0 for v in lag.values()), lag
        harness.wait_until(
            lambda: series('sum(tidemark_topic_records_in_total{topic="%s"})' % replicated)
            .get((), -1) == N or None,
            timeout=30, what="Prometheus to return the throughput series")
        # Prometheus scrapes the three targets one by one: wait until it
        # has a result for each, then every one must be up.
        harness.wait_until(lambda: len(series("up")) == 3, timeout=30,
                           what="Prometheus to have scraped all three brokers")
        up = series("up")
        assert len(up) == 3 and all(v == 1 for v in up.values()), up
        # Kill a broker holding a replication-factor-1 partition: the
        # survivors count it leaderless once the controller fences it.
        victim = next(r for r in (c.replicas_of(single, p)[0] for p in range(3)) if r != 1)
        mine = sum(1 for p in range(3) if c.replicas_of(single, p)[0] == victim)
        c.kill9(victim)

        def fenced_and_leaderless():
            _, h = get_json(node1.admin_url + "/v1/cluster/health")
            return (h["brokers_down"] == [victim]
                    and len(h["leaderless_partitions"].get(single, [])) == mine and h)
        health = harness.wait_until(fenced_and_leaderless, timeout=30,
                                    what="the victim fenced and its partitions leaderless")
        assert not health["is_healthy"] and health["leaderless_count"] >= mine, health
        assert value(scrape(node1), "tidemark_leaderless_partitions") >= mine
        c.start_node(victim)
        harness.wait_until(
            lambda: value(scrape(node1), "tidemark_leaderless_partitions") == 0,
            timeout=45, what="the leaderless gauge to fall")

    finally:
        if prom is not None:
            prom.close()
        c.close()


def test_freed_memory_is_handed_back_after_a_load(broker_factory):
    """memory.trim.interval.ms: the broker keeps freed heap memory for
    reuse while busy (its mmap and trim thresholds are raised), and hands
    it back every interval. Without the trim, the resident size after
    300 MB had passed through stayed at its peak however long the broker
    idled (benches/load/memtrim.sh: 293 MiB before and after 15 s idle;
    144 MiB after one forced malloc_trim)."""
    from test_tmk import ok, run_tmk
    b = broker_factory({"memory.trim.interval.ms": "1000"}, cores=2)
    topic = harness.unique_topic("trim")
    create(b.bootstrap, topic, 4)
    ok(run_tmk(["bench", "produce", topic, "-n", "300000", "-s", "1024"], broker=b, timeout=120))
    loaded = value(scrape(b), "tidemark_resident_memory_bytes")
    trims = value(scrape(b), "tidemark_memory_trims_total")
    harness.wait_until(lambda: value(scrape(b), "tidemark_memory_trims_total") >= trims + 2,
                       timeout=30, interval=0.5, what="two more memory trims")
    s = scrape(b)
    assert value(s, "tidemark_memory_trimmed_bytes_total") > 32 << 20, s
    assert value(s, "tidemark_resident_memory_bytes") < loaded, (loaded, s)
    assert 0 < value(s, "tidemark_memory_trim_max_seconds") < 5, s


def test_memory_trim_off(broker_factory):
    """memory.trim.interval.ms=0: no trim runs (and the metrics say so)."""
    b = broker_factory({"memory.trim.interval.ms": "0"})
    produce(b.bootstrap, harness.unique_topic("notrim"), 10)
    time.sleep(2.5)
    s = scrape(b)
    assert value(s, "tidemark_memory_trims_total") == 0, s
    assert value(s, "tidemark_memory_trimmed_bytes_total") == 0, s
