"""The admin server's status page (`/`) in Debian's headless Chromium.

A broker with two topics (150 and 30 records produced with
confluent-kafka) and two groups: `billing` committed 40 of partition 0's
100 records and all 50 of partition 1 (lag 60), `caught-up` committed
everything (lag 0). The JSON the page polls (`/v1/topics`, `/v1/groups`)
is checked against that workload, then Chromium runs the page's script
(`--dump-dom` after a virtual-time budget of several polls) and the test
reads the numbers the page shows from its element ids and data
attributes: the broker up, both topics with their partitions and records
in, the lagging group with lag 60 and its chart. A second Chromium run
takes a screenshot (kept with the dumped DOM under conformance/artifacts/, or
$TIDEMARK_ARTIFACT_DIR) while a producer keeps writing, so the
throughput and the lag chart move. With TIDEMARK_ADMIN_TOKEN set, the
page still loads but shows the 401 of its API calls as a visible banner
with the token form.

Three nodes: the page, opened on a broker that neither coordinates the
group nor is killed, lists the three brokers; with one killed and fenced
it shows that broker down, the cluster unhealthy with under-replicated
partitions, a note naming the broker that did not answer, and still the
lag of the group coordinated elsewhere (screenshot
`status_page_cluster.png`).
"""

import html.parser
import json
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import pytest

import cluster
import harness

CHROMIUM_TIMEOUT_S = 90
# Virtual time the page runs for before Chromium dumps it: several polls
# (the page polls every 2 s; time waiting on the network is not counted).
VIRTUAL_TIME_BUDGET_MS = 9000
SCREENSHOT_SIZE = (1280, 1600)


def artifact_dir():
    d = os.environ.get("TIDEMARK_ARTIFACT_DIR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "artifacts")
    os.makedirs(d, exist_ok=True)
    return d


def http_get(url, timeout=10.0, headers=None):
    """(status, headers, body text) of GET url; HTTP errors are answers too."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


def get_json(url):
    status, _, body = http_get(url)
    assert status == 200, (url, status, body)
    return json.loads(body)


def run_chromium(args, workdir):
    """Runs headless Chromium with `args` in its own session and profile,
    bounded by CHROMIUM_TIMEOUT_S (then its whole process group is killed:
    it starts helper processes); returns its stdout."""
    binary = shutil.which("chromium")
    assert binary, "no chromium binary: conformance/install.sh installs Debian's chromium"
    profile = tempfile.mkdtemp(prefix="chromium-", dir=workdir)
    log = open(os.path.join(workdir, "chromium.log"), "ab")
    argv = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--disable-extensions", "--disable-background-networking",
            "--hide-scrollbars", "--user-data-dir=" + profile] + args
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=log, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=CHROMIUM_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=10)
        raise AssertionError("chromium did not finish within %d s" % CHROMIUM_TIMEOUT_S)
    finally:
        log.close()
    assert proc.returncode == 0, "chromium exited with %d (log: %s)" % (
        proc.returncode, os.path.join(workdir, "chromium.log"))
    return out.decode("utf-8", "replace")


class Dom(html.parser.HTMLParser):
    """Every element's tag and attributes, with the text inside it."""

    def __init__(self, text):
        super().__init__()
        self.elements = []
        self._open = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        e = {"tag": tag, "attrs": dict(attrs), "text": "", "parents": list(self._open)}
        self.elements.append(e)
        if tag not in ("meta", "link", "input", "br", "img", "circle", "line",
                       "polyline", "polygon"):
            self._open.append(e)

    def handle_endtag(self, tag):
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i]["tag"] == tag:
                del self._open[i:]
                break

    def handle_data(self, data):
        for e in self._open:
            e["text"] += data

    def by_id(self, id_):
        found = [e for e in self.elements if e["attrs"].get("id") == id_]
        assert len(found) == 1, "%d elements with id %r" % (len(found), id_)
        return found[0]

    def rows(self, table_id, attr):
        """{attr value: element} of the elements carrying `attr` inside
        the element with id `table_id`."""
        table = self.by_id(table_id)
        return {e["attrs"][attr]: e for e in self.elements
                if attr in e["attrs"] and any(p is table for p in e["parents"])}


def produce(bootstrap, topic, partition, n):
    from confluent_kafka import Producer
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5})
    failed = []
    for i in range(n):
        p.produce(topic, value=b"status-page-%d" % i, partition=partition,
                  on_delivery=lambda err, _m: err and failed.append(err))
    assert p.flush(30) == 0
    assert not failed, failed


def commit(bootstrap, group, offsets):
    """Commits {(topic, partition): offset} for `group` without joining."""
    from confluent_kafka import Consumer, TopicPartition
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                  "enable.auto.commit": False})
    try:
        c.commit(offsets=[TopicPartition(t, p, o) for (t, p), o in offsets.items()],
                 asynchronous=False)
    finally:
        c.close()


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG: %r" % head[:8]
    return struct.unpack(">II", head[16:24])


def test_status_page_shows_brokers_topics_and_lag(broker_factory, tmp_path):
    b = broker_factory({"group.initial.rebalance.delay.ms": "0",
                        "auto.create.topics.enable": "false"})
    from confluent_kafka.admin import AdminClient, NewTopic
    orders = harness.unique_topic("orders")
    audit = harness.unique_topic("audit")
    admin = AdminClient({"bootstrap.servers": b.bootstrap})
    for t, n in ((orders, 3), (audit, 1)):
        admin.create_topics([NewTopic(t, n, 1)])[t].result(30)
    produce(b.bootstrap, orders, 0, 100)
    produce(b.bootstrap, orders, 1, 50)
    produce(b.bootstrap, audit, 0, 30)
    billing = "billing-%d" % os.getpid()
    caught_up = "caught-up-%d" % os.getpid()
    commit(b.bootstrap, billing, {(orders, 0): 40, (orders, 1): 50})
    commit(b.bootstrap, caught_up, {(orders, 0): 100, (orders, 1): 50, (audit, 0): 30})

    # The page's files: embedded, with their content types and a policy
    # that keeps the page to this server.
    status, headers, page = http_get(b.admin_url + "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html"), status
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert 'id="brokers"' in page and 'src="status.js"' in page
    assert http_get(b.admin_url + "/index.html")[2] == page
    for path, kind in (("/status.js", "text/javascript"), ("/status.css", "text/css")):
        status, headers, _ = http_get(b.admin_url + path)
        assert status == 200 and headers["Content-Type"].startswith(kind), path

    # The JSON it polls, against the workload.
    topics = get_json(b.admin_url + "/v1/topics")
    by_name = {t["topic"]: t for t in topics["topics"]}
    assert by_name[orders]["records_in_total"] == 150
    assert by_name[orders]["partitions"] == 3 and by_name[orders]["replication_factor"] == 1
    assert by_name[orders]["high_watermark_sum_here"] == 150
    assert by_name[audit]["records_in_total"] == 30
    assert by_name[orders]["bytes_in_total"] > 150
    assert not topics["truncated"] and topics["sampled_at_ms"] > 0
    # The user topics come before the internal ones, so a limit cuts those.
    names = [t["topic"] for t in topics["topics"]]
    assert names.index(orders) < names.index("__consumer_offsets")
    cut = get_json(b.admin_url + "/v1/topics?limit=1")
    assert cut["truncated"] and len(cut["topics"]) == 1
    assert cut["topics_total"] == topics["topics_total"]
    assert http_get(b.admin_url + "/v1/topics?limit=many")[0] == 400

    groups = get_json(b.admin_url + "/v1/groups")
    by_id = {g["group"]: g for g in groups["groups"]}
    g = by_id[billing]
    assert (g["lag_sum"], g["lag_max"], g["partitions_committed"]) == (60, 60, 2), g
    assert g["partitions"][0] == {"topic": orders, "partition": 0, "committed_offset": 40,
                                  "high_watermark": 100, "lag": 60}
    assert g["partitions"][1]["lag"] == 0
    assert g["members"] == 0 and g["state"] == "Empty"
    assert by_id[caught_up]["lag_sum"] == 0
    # Most lagging first.
    ids = [x["group"] for x in groups["groups"]]
    assert ids.index(billing) < ids.index(caught_up)
    one = get_json(b.admin_url + "/v1/groups?limit=1&partitions=1")
    assert one["truncated"] and one["groups"][0]["group"] == billing
    assert one["groups"][0]["partitions_truncated"] and len(one["groups"][0]["partitions"]) == 1
    assert one["groups"][0]["lag_sum"] == 60

    # The page in Chromium, after its script ran a few polls.
    url = "http://127.0.0.1:%d/" % b.admin_port
    text = run_chromium(["--virtual-time-budget=%d" % VIRTUAL_TIME_BUDGET_MS,
                         "--dump-dom", url], str(tmp_path))
    with open(os.path.join(artifact_dir(), "status_page.dom.html"), "w") as f:
        f.write(text)
    dom = Dom(text)
    banner = dom.by_id("banner")
    assert "hidden" in banner["attrs"], "error banner shown: %r" % banner["text"]
    assert int(dom.by_id("updated")["attrs"]["data-polls"]) >= 2
    assert dom.by_id("health")["attrs"]["data-healthy"] == "true"
    assert dom.by_id("health")["text"].strip() == "Healthy"
    assert dom.by_id("brokers-up")["attrs"]["data-count"] == "1"
    assert dom.by_id("brokers-down")["attrs"]["data-count"] == "0"
    assert dom.by_id("leaderless")["attrs"]["data-count"] == "0"
    assert dom.by_id("under-replicated")["attrs"]["data-count"] == "0"
    assert dom.by_id("controller")["attrs"]["data-node-id"] == "1"

    brokers = dom.rows("brokers", "data-broker-id")
    assert list(brokers) == ["1"], brokers.keys()
    assert brokers["1"]["attrs"]["data-alive"] == "true"
    assert "127.0.0.1:%d" % b.port in brokers["1"]["text"]

    shown = dom.rows("topics", "data-topic")
    assert orders in shown and audit in shown, list(shown)
    assert "__consumer_offsets" not in shown  # internal topics are behind a box
    assert shown[orders]["attrs"]["data-partitions"] == "3"
    assert shown[orders]["attrs"]["data-records-in-total"] == "150"
    assert shown[audit]["attrs"]["data-records-in-total"] == "30"
    assert "150" in shown[orders]["text"]
    # Two readings give a rate; nothing is produced meanwhile: 0.
    assert float(shown[orders]["attrs"]["data-records-in-per-s"]) == 0.0

    groups_shown = dom.rows("groups", "data-group")
    assert billing in groups_shown and caught_up in groups_shown, list(groups_shown)
    row = groups_shown[billing]
    assert row["attrs"]["data-lag"] == "60" and row["attrs"]["data-lag-max"] == "60"
    assert row["attrs"]["data-state"] == "Empty"
    assert "lagging" in row["attrs"]["class"]
    parts = {e["attrs"]["data-topic-partition"]: e["attrs"]["data-partition-lag"]
             for e in dom.elements if "data-topic-partition" in e["attrs"]
             and any(p is row for p in e["parents"])}
    assert parts == {"%s/0" % orders: "60", "%s/1" % orders: "0"}, parts
    assert groups_shown[caught_up]["attrs"]["data-lag"] == "0"
    charts = dom.rows("lag-charts", "data-chart-group")
    assert charts[billing]["attrs"]["data-lag"] == "60"
    assert int(charts[billing]["attrs"]["data-points"]) >= 2
    assert any(e["tag"] == "polyline" and any(p is charts[billing] for p in e["parents"])
               for e in dom.elements), "no lag line drawn"

    # The screenshot, while a producer keeps writing to orders/0 (the
    # throughput and billing's lag move in it).
    stop = threading.Event()
    delivered = []
    failed = []

    def keep_producing():
        from confluent_kafka import Producer
        p = Producer({"bootstrap.servers": b.bootstrap, "linger.ms": 5})

        def on_delivery(err, _m):
            (failed if err else delivered).append(err)
        while not stop.is_set():
            for i in range(20):
                p.produce(orders, value=b"more-%d" % i, partition=0, on_delivery=on_delivery)
            p.flush(10)
            stop.wait(0.1)
        p.flush(10)

    writer = threading.Thread(target=keep_producing, daemon=True)
    writer.start()
    shot = os.path.join(artifact_dir(), "status_page.png")
    if os.path.exists(shot):
        os.remove(shot)
    try:
        harness.wait_until(lambda: len(delivered) >= 60, timeout=20, what="the producer to start")
        run_chromium(["--virtual-time-budget=%d" % (VIRTUAL_TIME_BUDGET_MS * 3),
                      "--window-size=%d,%d" % SCREENSHOT_SIZE, "--screenshot=" + shot, url],
                     str(tmp_path))
    finally:
        stop.set()
        writer.join(30)
    assert not writer.is_alive(), "the producer thread did not stop"
    assert png_size(shot) == SCREENSHOT_SIZE
    print("status page screenshot: %s" % shot)
    assert not failed, failed[:3]
    # What the screenshot shows came from live readings: the lag grew by
    # what was produced meanwhile.
    g = {x["group"]: x for x in get_json(b.admin_url + "/v1/groups")["groups"]}[billing]
    assert g["lag_sum"] == 60 + len(delivered), (g["lag_sum"], len(delivered))


def test_status_page_shows_api_errors(broker_factory, tmp_path):
    """With an admin token set, the page itself loads (it holds no data)
    but its API calls are refused: the page says so in a visible banner
    and offers the token form instead of showing an empty page."""
    token = "page-%d" % os.getpid()
    b = broker_factory(env={"TIDEMARK_ADMIN_TOKEN": token})
    assert http_get(b.admin_url + "/")[0] == 200
    assert http_get(b.admin_url + "/v1/topics")[0] == 401
    assert http_get(b.admin_url + "/v1/groups",
                    headers={"Authorization": "Bearer " + token})[0] == 200

    dom = Dom(run_chromium(["--virtual-time-budget=4000", "--dump-dom",
                            "http://127.0.0.1:%d/" % b.admin_port], str(tmp_path)))
    banner = dom.by_id("banner")
    assert "hidden" not in banner["attrs"], "no error banner"
    for endpoint in ("v1/cluster/health", "v1/brokers", "v1/topics", "v1/groups"):
        assert "GET %s failed: HTTP 401" % endpoint in banner["text"], banner["text"]
    assert "hidden" not in dom.by_id("token-form")["attrs"]
    assert dom.rows("brokers", "data-broker-id") == {}
    assert dom.by_id("health")["attrs"]["data-healthy"] == ""


@pytest.mark.cluster
def test_status_page_on_a_cluster_with_a_broker_down(tmp_path):
    c = cluster.Cluster(3, name="status-page", settings={
        "group.initial.rebalance.delay.ms": "0",
        "broker.session.timeout.ms": "3000",
    })
    try:
        c.start()
        topic = harness.unique_topic("replicated")
        c.create_topic(topic, 3, replication_factor=3, full_isr=True)
        produce(c.bootstrap, topic, 0, 100)
        group = "cluster-billing-%d" % os.getpid()
        commit(c.bootstrap, group, {(topic, 0): 40})
        coordinator = c.node(c.coordinator_of(group))

        def lag():
            groups = get_json(coordinator.admin_url + "/v1/groups")["groups"]
            return {g["group"]: g["lag_sum"] for g in groups}.get(group)
        # A follower learns the high watermark from its leader: bounded wait.
        harness.wait_until(lambda: lag() == 60, timeout=30, what="the group's lag of 60")

        victim = next(n for n in (1, 2, 3) if n != coordinator.node_id)
        # The page shows the whole cluster: open it on the third broker.
        viewer = c.node(next(n for n in (1, 2, 3) if n not in (victim, coordinator.node_id)))
        c.kill9(victim)

        def fenced():
            h = get_json(coordinator.admin_url + "/v1/cluster/health")
            return h["brokers_down"] == [victim] and h["under_replicated_count"] > 0 and h
        harness.wait_until(fenced, timeout=30, what="broker %d fenced" % victim)

        url = "http://127.0.0.1:%d/" % viewer.admin_port
        text = run_chromium(["--virtual-time-budget=%d" % VIRTUAL_TIME_BUDGET_MS,
                             "--dump-dom", url], str(tmp_path))
        with open(os.path.join(artifact_dir(), "status_page_cluster.dom.html"), "w") as f:
            f.write(text)
        dom = Dom(text)
        assert "hidden" in dom.by_id("banner")["attrs"], dom.by_id("banner")["text"]
        assert dom.by_id("health")["attrs"]["data-healthy"] == "false"
        assert dom.by_id("brokers-up")["attrs"]["data-count"] == "2"
        assert dom.by_id("brokers-down")["attrs"]["data-count"] == "1"
        assert int(dom.by_id("under-replicated")["attrs"]["data-count"]) >= 3
        assert dom.by_id("controller")["attrs"]["data-node-id"] in ("1", "2", "3")
        brokers = dom.rows("brokers", "data-broker-id")
        assert sorted(brokers) == ["1", "2", "3"], list(brokers)
        for n, row in brokers.items():
            assert row["attrs"]["data-alive"] == ("false" if n == str(victim) else "true"), n
        assert dom.rows("topics", "data-topic")[topic]["attrs"]["data-partitions"] == "3"
        row = dom.rows("groups", "data-group")[group]
        assert row["attrs"]["data-lag"] == "60"
        assert row["attrs"]["data-coordinator"] == str(coordinator.node_id)
        # The broker down is named in a note, not the error banner.
        for note in ("topics-missing", "groups-missing"):
            assert dom.by_id(note)["attrs"]["data-missing"] == str(victim), note
            assert "Broker %d did not answer" % victim in dom.by_id(note)["text"], note
        assert any("data-problem" in e["attrs"] and topic in e["text"] for e in dom.elements), \
            "the under-replicated partitions are not listed"

        shot = os.path.join(artifact_dir(), "status_page_cluster.png")
        run_chromium(["--virtual-time-budget=%d" % VIRTUAL_TIME_BUDGET_MS,
                      "--window-size=%d,%d" % SCREENSHOT_SIZE, "--screenshot=" + shot, url],
                     str(tmp_path))
        assert png_size(shot) == SCREENSHOT_SIZE
        print("status page screenshot (cluster, broker %d down): %s" % (victim, shot))
    finally:
        c.close()
