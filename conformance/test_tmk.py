"""`tmk`, the rpk-style CLI, run as a binary against the real broker.

Each test runs the built `tmk` (env TMK_BIN, else <repo>/target/release/tmk)
with -X brokers= pointing at the module's broker and a profile file of its
own (TMK_CONFIG), and checks exit codes, stdout (text tables and JSON) and
the one-line errors on stderr.
"""

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

import harness


def tmk_binary():
    path = os.environ.get("TMK_BIN") or str(harness.REPO_ROOT / "target" / "release" / "tmk")
    p = Path(os.path.abspath(path))
    if not p.is_file() or not os.access(p, os.X_OK):
        raise harness.BrokerError(
            "tmk binary not found at %s: build it with `cargo build --release -p tidemark-tools` "
            "or set TMK_BIN" % p)
    return p


@pytest.fixture(scope="module")
def profile_file(tmp_path_factory):
    return tmp_path_factory.mktemp("tmk") / "tmk.yaml"


def run_tmk(args, broker=None, input=None, timeout=60, config=None, env_extra=None):
    env = dict(os.environ)
    env.pop("TMK_BROKERS", None)
    env.pop("TMK_PROFILE", None)
    env["TMK_CONFIG"] = str(config) if config else "/nonexistent/tmk.yaml"
    env["COLUMNS"] = "200"
    env.update(env_extra or {})
    argv = [str(tmk_binary())]
    if broker is not None:
        argv += ["-X", "brokers=" + broker.bootstrap]
    argv += list(args)
    if isinstance(input, str):
        input = input.encode()
    return subprocess.run(argv, input=input, capture_output=True, timeout=timeout, env=env)


def ok(p):
    assert p.returncode == 0, "rc=%s\nstdout=%s\nstderr=%s" % (
        p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"))
    return p.stdout.decode()


def table(text):
    """A text table as a list of dicts keyed by the UPPER CASE headers."""
    lines = [line for line in text.splitlines() if line.strip()]
    header = lines[0].split()
    return [dict(zip(header, line.split())) for line in lines[1:]]


def one_line_error(p):
    err = p.stderr.decode()
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("tmk: "), err
    assert "panicked" not in err and "backtrace" not in err, err
    return lines[0]


def test_topic_create_list_describe_delete(broker):
    t = harness.unique_topic("tmk-topic")
    out = ok(run_tmk(["topic", "create", t, "-p", "3", "-r", "1", "-c", "retention.ms=3600000"], broker))
    assert table(out) == [{"TOPIC": t, "STATUS": "OK"}]

    rows = table(ok(run_tmk(["topic", "list"], broker)))
    assert {"NAME": t, "PARTITIONS": "3", "REPLICAS": "1"} in rows
    listed = json.loads(ok(run_tmk(["topic", "list", "--format", "json"], broker)))
    assert {"name": t, "partitions": 3, "replicas": 1} in listed

    text = ok(run_tmk(["topic", "describe", t], broker))
    assert "SUMMARY" in text and "CONFIGS" in text
    assert any(line.split()[:2] == ["retention.ms", "3600000"] for line in text.splitlines()), text

    parts = table(ok(run_tmk(["topic", "describe", t, "-p"], broker)))
    assert [r["PARTITION"] for r in parts] == ["0", "1", "2"]
    assert all(r["HIGH-WATERMARK"] == "0" and r["LOG-START-OFFSET"] == "0" for r in parts), parts

    d = json.loads(ok(run_tmk(["topic", "describe", t, "--format", "json"], broker)))
    assert d[0]["summary"]["name"] == t and d[0]["summary"]["partitions"] == 3
    assert {"key": "retention.ms", "value": "3600000", "source": "DYNAMIC_TOPIC_CONFIG"} in d[0]["configs"]
    assert len(d[0]["partitions"]) == 3

    again = run_tmk(["topic", "create", t], broker)
    assert again.returncode == 1
    assert "TOPIC_ALREADY_EXISTS" in one_line_error(again)

    out = ok(run_tmk(["topic", "delete", t], broker))
    assert table(out) == [{"TOPIC": t, "STATUS": "OK"}]
    harness.wait_until(
        lambda: t not in ok(run_tmk(["topic", "list"], broker)), timeout=10, what="topic deleted")


def test_produce_consume_json_round_trip(broker):
    t = harness.unique_topic("tmk-json")
    ok(run_tmk(["topic", "create", t, "-p", "1"], broker))
    out = ok(run_tmk(["topic", "produce", t, "-k", "key-1", "-H", "trace:abc", "-H", "n:1"], broker,
                     input="first\nsecond\n"))
    assert "Produced to partition 0 at offset 0" in out and "at offset 1" in out
    p = ok(run_tmk(["topic", "consume", t, "-n", "2", "--pretty-print=false"], broker, timeout=30))
    recs = [json.loads(line) for line in p.splitlines()]
    assert [r["value"] for r in recs] == ["first", "second"]
    assert [r["offset"] for r in recs] == [0, 1]
    assert all(r["key"] == "key-1" and r["topic"] == t and r["partition"] == 0 for r in recs)
    assert recs[0]["headers"] == [{"key": "trace", "value": "abc"}, {"key": "n", "value": "1"}]
    assert list(recs[0]) == ["topic", "key", "value", "headers", "timestamp", "partition", "offset"]
    now_ms = time.time() * 1000
    assert abs(recs[0]["timestamp"] - now_ms) < 120_000

    # Without a key and headers, rpk leaves those fields out.
    ok(run_tmk(["topic", "produce", t], broker, input="bare\n"))
    p = ok(run_tmk(["topic", "consume", t, "-o", "2", "-n", "1", "--pretty-print=false"], broker))
    assert list(json.loads(p)) == ["topic", "value", "timestamp", "partition", "offset"]


def test_produce_consume_formats(broker):
    t = harness.unique_topic("tmk-fmt")
    ok(run_tmk(["topic", "create", t, "-p", "2"], broker))
    ok(run_tmk(["topic", "produce", t, "-f", "%k %v\\n", "-z", "gzip"], broker,
               input="a 1\nb 2\nc 3\nd 4\n"))
    out = ok(run_tmk(["topic", "consume", t, "-o", ":end", "-f", "%k=%v\\n"], broker))
    assert sorted(out.splitlines()) == ["a=1", "b=2", "c=3", "d=4"]

    # Partition, offset, headers and hex from the format; sizes in the input.
    ok(run_tmk(["topic", "produce", t, "-p", "0", "-f", "%p %H{2}%h{%k=%v;}%K%k%v\\n"], broker,
               input="1 x=1;y=2;3abcvalue\n"))
    out = ok(run_tmk(["topic", "consume", t, "-p", "1", "-o", "-1", "-n", "1",
                      "-f", "%p|%k|%v{hex}|%h{[%k:%v]}|%H|%V\\n"], broker))
    assert out == "1|abc|%s|[x:1][y:2]|2|5\n" % b"value".hex()

    # Offset ranges: the first two of partition 1 only.
    out = ok(run_tmk(["topic", "consume", t, "-p", "1", "-o", "0:2", "-f", "%o\\n"], broker))
    assert out.splitlines() == ["0", "1"]


def test_group_describe_lag_and_seek(broker):
    t = harness.unique_topic("tmk-grp")
    g = harness.unique_topic("tmk-g")
    ok(run_tmk(["topic", "create", t, "-p", "1"], broker))
    ok(run_tmk(["topic", "produce", t], broker, input="".join("v%d\n" % i for i in range(10))))
    out = ok(run_tmk(["topic", "consume", t, "-g", g, "-n", "4", "-f", "%v\\n"], broker))
    assert out.splitlines() == ["v0", "v1", "v2", "v3"]

    d = json.loads(ok(run_tmk(["group", "describe", g, "--format", "json"], broker)))
    assert d[0]["group"] == g and d[0]["total_lag"] == 6
    part = d[0]["partitions"][0]
    assert (part["topic"], part["current_offset"], part["log_end_offset"], part["lag"]) == (t, 4, 10, 6)

    text = ok(run_tmk(["group", "describe", g], broker))
    assert "TOTAL-LAG    6" in text
    header = [line for line in text.splitlines() if line.startswith("TOPIC")][0].split()
    assert header == ["TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "MEMBER-ID",
                      "CLIENT-ID", "HOST"]

    assert g in ok(run_tmk(["group", "list"], broker))
    ok(run_tmk(["group", "seek", g, "--to", "start"], broker))
    d = json.loads(ok(run_tmk(["group", "describe", g, "--format", "json"], broker)))
    assert d[0]["total_lag"] == 10
    # A group consumer resumes where the seek put it.
    out = ok(run_tmk(["topic", "consume", t, "-g", g, "-n", "1", "-f", "%v\\n"], broker))
    assert out == "v0\n"
    ok(run_tmk(["group", "delete", g], broker))


def test_unknown_topic_is_exit_1_with_the_error_name(broker):
    for args in (["topic", "describe", "no-such-topic"], ["topic", "consume", "no-such-topic", "-n", "1"]):
        p = run_tmk(args, broker, timeout=30)
        assert p.returncode == 1, p
        assert "UNKNOWN_TOPIC_OR_PARTITION" in one_line_error(p)


def test_bad_usage_is_exit_2(broker):
    p = run_tmk(["topic", "list", "--no-such-flag"], broker)
    assert p.returncode == 2
    p = run_tmk(["topic", "list", "--format", "xml"], broker)
    assert p.returncode == 2
    p = run_tmk(["topic", "consume", "t", "-f", "%q"], broker)
    assert p.returncode == 1 and "invalid --format" in one_line_error(p)


def test_broker_down_is_a_clear_error_in_bounded_time():
    port = harness.free_port()  # nothing listens there
    start = time.monotonic()
    p = run_tmk(["-X", "brokers=127.0.0.1:%d" % port, "topic", "list"], timeout=60)
    took = time.monotonic() - start
    assert p.returncode == 1
    line = one_line_error(p)
    assert "127.0.0.1:%d" % port in line, line
    assert took < 30, took


def test_profiles_hold_the_connection_settings(broker, profile_file):
    out = ok(run_tmk(["profile", "create", "local", "-s", "brokers=" + broker.bootstrap], config=profile_file))
    assert "local" in out
    assert ok(run_tmk(["profile", "current"], config=profile_file)) == "local\n"
    # No -X: the current profile's broker is used.
    ok(run_tmk(["topic", "list"], config=profile_file))
    listed = json.loads(ok(run_tmk(["profile", "list", "--format", "json"], config=profile_file)))
    assert listed == [{"name": "local", "current": True, "brokers": [broker.bootstrap], "description": ""}]
    ok(run_tmk(["profile", "delete", "local"], config=profile_file))


def test_cluster_info_and_health(broker):
    info = json.loads(ok(run_tmk(["cluster", "info", "--format", "json"], broker)))
    assert info["brokers"][0]["port"] == broker.port
    assert info["controller"] == info["brokers"][0]["node_id"]
    health = json.loads(ok(run_tmk(["cluster", "health", "--format", "json"], broker)))
    assert health["is_healthy"] is True, health
    assert "Healthy:" in ok(run_tmk(["cluster", "health"], broker))


def test_completion_and_version():
    assert "tmk" in ok(run_tmk(["version"]))
    for sh in ("bash", "zsh", "fish"):
        assert "topic" in ok(run_tmk(["completion", sh]))


def test_alter_config_add_partitions_trim_prefix(broker):
    t = harness.unique_topic("tmk-admin")
    ok(run_tmk(["topic", "create", t, "-p", "1"], broker))
    ok(run_tmk(["topic", "alter-config", t, "--set", "retention.ms=120000"], broker))
    d = json.loads(ok(run_tmk(["topic", "describe", t, "--format", "json"], broker)))
    assert {"key": "retention.ms", "value": "120000", "source": "DYNAMIC_TOPIC_CONFIG"} in d[0]["configs"]
    ok(run_tmk(["topic", "alter-config", t, "-d", "retention.ms"], broker))
    d = json.loads(ok(run_tmk(["topic", "describe", t, "--format", "json"], broker)))
    assert all(c["source"] != "DYNAMIC_TOPIC_CONFIG" for c in d[0]["configs"]), d[0]["configs"]

    ok(run_tmk(["topic", "add-partitions", t, "-n", "2"], broker))
    listed = json.loads(ok(run_tmk(["topic", "list", "--format", "json"], broker)))
    assert {"name": t, "partitions": 3, "replicas": 1} in listed

    ok(run_tmk(["topic", "produce", t, "-p", "0"], broker, input="".join("%d\n" % i for i in range(5))))
    out = json.loads(ok(run_tmk(["topic", "trim-prefix", t, "-o", "3", "-p", "0", "--format", "json"], broker)))
    assert out == [{"topic": t, "partition": 0, "new_start_offset": 3, "error": ""}]
    parts = table(ok(run_tmk(["topic", "describe", t, "-p"], broker)))
    assert (parts[0]["LOG-START-OFFSET"], parts[0]["HIGH-WATERMARK"]) == ("3", "5"), parts
    out = ok(run_tmk(["topic", "consume", t, "-p", "0", "-o", ":end", "-f", "%v\\n"], broker))
    assert out.splitlines() == ["3", "4"]


def test_trim_prefix_from_file_in_rpks_formats(broker, tmp_path):
    """rpk's `trim-prefix --from-file`: text lines of topic/partition/offset
    (or partition/offset with the topic as argument) and the keyed JSON
    and YAML arrays; bad files fail with one line and trim nothing."""
    a, b = harness.unique_topic("tmk-trim-a"), harness.unique_topic("tmk-trim-b")
    for t in (a, b):
        ok(run_tmk(["topic", "create", t, "-p", "2"], broker))
        for p in (0, 1):
            ok(run_tmk(["topic", "produce", t, "-p", str(p)], broker,
                       input="".join("%d\n" % i for i in range(10))))

    def starts(t):
        parts = table(ok(run_tmk(["topic", "describe", t, "-p"], broker)))
        return [int(x["LOG-START-OFFSET"]) for x in sorted(parts, key=lambda x: int(x["PARTITION"]))]

    # Bad files first: nothing may be trimmed by them.
    bad = {"x.csv": "%s,0,1" % a, "x.txt": "%s 0 one" % a, "y.txt": "%s 0 1\n0 1" % a,
           "x.json": '[{"topic": "%s", "partition": 0}]' % a, "empty.txt": "// nothing\n"}
    for name, text in bad.items():
        f = tmp_path / name
        f.write_text(text)
        p = run_tmk(["topic", "trim-prefix", "--from-file", str(f)], broker)
        err = p.stderr.decode()
        assert p.returncode != 0 and len(err.strip().splitlines()) <= 2, (name, err)
        assert "panicked" not in err, err
    f = tmp_path / "other.txt"
    f.write_text("%s 0 1\n" % a)
    p = run_tmk(["topic", "trim-prefix", b, "--from-file", str(f)], broker)
    assert p.returncode != 0 and a in p.stderr.decode(), p.stderr
    p = run_tmk(["topic", "trim-prefix", a, "--from-file", str(f), "-o", "3"], broker)
    assert p.returncode != 0, "--from-file and --offset together must be refused"
    assert starts(a) == [0, 0] and starts(b) == [0, 0]

    # Three columns, two topics, a comment and tabs.
    f = tmp_path / "trim.txt"
    f.write_text("// new starts\n%s 0 2\n%s\t1\t4\n\n%s 1 6\n" % (a, b, b))
    out = json.loads(ok(run_tmk(["topic", "trim-prefix", "-f", str(f), "--format", "json"], broker)))
    # b/1 named twice: the later line wins, as in rpk.
    assert sorted((r["topic"], r["partition"], r["new_start_offset"], r["error"]) for r in out) == \
        sorted([(a, 0, 2, ""), (b, 1, 6, "")]), out
    assert starts(a) == [2, 0] and starts(b) == [0, 6]
    # Two columns: the topic is the argument (no extension: text).
    f = tmp_path / "plain"
    f.write_text("1 5\n")
    ok(run_tmk(["topic", "trim-prefix", a, "--from-file", str(f)], broker))
    assert starts(a) == [2, 5]
    # Keyed JSON (topic taken from the argument where absent) and YAML.
    f = tmp_path / "trim.json"
    f.write_text(json.dumps([{"topic": b, "partition": 0, "offset": 7}, {"partition": 1, "offset": 8}]))
    ok(run_tmk(["topic", "trim-prefix", b, "--from-file", str(f)], broker))
    assert starts(b) == [7, 8]
    f = tmp_path / "trim.yaml"
    f.write_text("- topic: %s\n  partition: 0\n  offset: 9\n" % a)
    ok(run_tmk(["topic", "trim-prefix", "--from-file", str(f)], broker))
    assert starts(a) == [9, 5]
    # What is left reads back from the new start.
    out = ok(run_tmk(["topic", "consume", a, "-p", "0", "-o", ":end", "-f", "%v\n"], broker))
    assert out.splitlines() == ["9"]
    # Past the end: the broker's error per partition, and a failing exit.
    f.write_text("- topic: %s\n  partition: 0\n  offset: 50\n" % a)
    p = run_tmk(["topic", "trim-prefix", "--from-file", str(f), "--format", "json"], broker)
    assert p.returncode != 0
    assert json.loads(p.stdout.decode())[0]["error"] == "OFFSET_OUT_OF_RANGE", p.stdout
    assert starts(a) == [9, 5]


def test_kcat_reads_what_tmk_produced(broker):
    t = harness.unique_topic("tmk-kcat")
    ok(run_tmk(["topic", "create", t, "-p", "1"], broker))
    ok(run_tmk(["topic", "produce", t, "-f", "%k %v\\n", "-H", "h:1", "-z", "none"], broker,
               input="k1 v1\nk2 v2\n"))
    p = harness.run([harness.kcat_binary(), "-C", "-b", broker.bootstrap, "-t", t, "-e", "-q",
                     "-f", "%k|%s|%h|%o\\n"], timeout=60)
    assert p.stdout.decode().splitlines() == ["k1|v1|h=1|0", "k2|v2|h=1|1"]


def test_ctrl_c_stops_a_consume_with_130(broker):
    import signal
    t = harness.unique_topic("tmk-sigint")
    ok(run_tmk(["topic", "create", t, "-p", "1"], broker))
    env = dict(os.environ, TMK_CONFIG="/nonexistent/tmk.yaml")
    proc = subprocess.Popen([str(tmk_binary()), "-X", "brokers=" + broker.bootstrap, "topic", "consume", t],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        time.sleep(1.5)
        assert proc.poll() is None, proc.stderr.read()
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert rc == 130, (rc, proc.stderr.read())


AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"


def test_security_acl_create_list_delete(broker_factory):
    b = broker_factory({"authorizer.class.name": AUTHORIZER, "super.users": "User:ANONYMOUS"})
    out = ok(run_tmk(["security", "acl", "create", "--allow-principal", "alice", "--operation", "read,describe",
                      "--topic", "team-a.", "--resource-pattern-type", "prefixed"], b))
    rows = table(out)
    assert [(r["PRINCIPAL"], r["OPERATION"], r["RESOURCE-PATTERN-TYPE"]) for r in rows] == [
        ("User:alice", "READ", "PREFIXED"), ("User:alice", "DESCRIBE", "PREFIXED")]
    listed = json.loads(ok(run_tmk(["security", "acl", "list", "--format", "json"], b)))
    assert sorted((x["principal"], x["resource_name"], x["operation"], x["permission"]) for x in listed) == [
        ("User:alice", "team-a.", "DESCRIBE", "ALLOW"), ("User:alice", "team-a.", "READ", "ALLOW")]
    ok(run_tmk(["security", "acl", "delete", "--allow-principal", "alice", "--topic", "team-a.",
                "--operation", "read"], b))
    listed = json.loads(ok(run_tmk(["security", "acl", "list", "--format", "json"], b)))
    assert [x["operation"] for x in listed] == ["DESCRIBE"]


def test_security_users(broker):
    ok(run_tmk(["security", "user", "create", "carol", "-p", "pw-1", "--mechanism", "scram-sha-512"], broker))
    users = json.loads(ok(run_tmk(["security", "user", "list", "--format", "json"], broker)))
    assert {"username": "carol", "mechanisms": ["SCRAM-SHA-512"]} in users
    ok(run_tmk(["security", "user", "delete", "carol"], broker))
    users = json.loads(ok(run_tmk(["security", "user", "list", "--format", "json"], broker)))
    assert all(u["username"] != "carol" for u in users)


PERCENTILES = ("p50", "p90", "p99", "p999", "max")


def assert_latency(summary, key, count):
    lat = summary[key]
    assert lat["count"] == count, summary
    for p in PERCENTILES:
        assert lat[p] > 0, (key, p, summary)


def test_bench_produce_then_consume(broker):
    t = harness.unique_topic("tmk-bench")
    ok(run_tmk(["topic", "create", t, "-p", "2"], broker))
    s = json.loads(ok(run_tmk(["bench", "produce", t, "-n", "2000", "-s", "100", "--batch-records", "50",
                               "--connections", "2", "--keys", "uniform:10", "--format", "json"], broker)))
    assert s["mode"] == "produce" and s["records"] == 2000 and s["records_per_sec"] > 0, s
    assert_latency(s, "publish_ack_ms", 2000)
    s = json.loads(ok(run_tmk(["bench", "consume", t, "-n", "2000", "--duration", "30", "--format", "json"],
                              broker)))
    assert s["records"] == 2000 and s["consumed"] == 2000, s


def test_bench_idempotent_and_e2e(broker):
    t = harness.unique_topic("tmk-bench-e2e")
    ok(run_tmk(["topic", "create", t, "-p", "3"], broker))
    # Idempotent, compressed, one hot key, a count that does not divide
    # into whole batches: exactly -n records are sent and acknowledged.
    s = json.loads(ok(run_tmk(["bench", "produce", t, "-n", "1234", "-s", "200", "--batch-records", "100",
                               "--idempotent", "--acks", "-1", "-z", "lz4", "--keys", "hot",
                               "--format", "json"], broker)))
    assert s["records"] == 1234, s
    assert_latency(s, "publish_ack_ms", 1234)
    # Every record, the last short batch's too, carries the hot key and
    # sits in the one partition murmur2 gives it.
    out = ok(run_tmk(["topic", "consume", t, "-o", ":end", "-f", "%p %k\\n"], broker))
    seen = {tuple(line.split()) for line in out.splitlines()}
    assert len(out.splitlines()) == 1234 and len(seen) == 1 and next(iter(seen))[1] == "hot-key", seen
    s = json.loads(ok(run_tmk(["bench", "e2e", t, "-n", "3000", "-s", "100", "--batch-records", "20",
                               "--rate", "5000", "--duration", "30", "--format", "json"], broker, timeout=90)))
    assert s["mode"] == "e2e" and s["records"] == 3000 and s["consumed"] == 3000, s
    assert_latency(s, "publish_ack_ms", 3000)
    assert_latency(s, "publish_to_consume_ms", 3000)
    s = json.loads(ok(run_tmk(["bench", "consume", t, "--duration", "30", "--format", "json"], broker)))
    assert s["records"] == 1234 + 3000, s


def _interrupt_bench(args, broker, progress_lines=2):
    """Runs `tmk bench ARGS` (a long --duration), sends SIGINT once it has
    printed `progress_lines` progress lines, and returns (rc, summary, stderr)."""
    import signal
    env = dict(os.environ, TMK_CONFIG="/nonexistent/tmk.yaml")
    env.pop("TMK_BROKERS", None)
    p = subprocess.Popen([str(tmk_binary()), "-X", "brokers=" + broker.bootstrap] + args,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        seen = []
        deadline = time.monotonic() + 60
        while len([line for line in seen if b"records acked" in line]) < progress_lines:
            assert time.monotonic() < deadline, "no progress: %r" % seen
            line = p.stderr.readline()
            assert line, "tmk ended early: rc=%s %r" % (p.poll(), seen)
            seen.append(line)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return p.returncode, out.decode(), b"".join(seen).decode() + err.decode()


def test_bench_ctrl_c_prints_the_summary_so_far(broker):
    """Ctrl-C ends a benchmark with the summary of what it measured (as
    rpk's and Kafka's perf tools do) and exit code 130; the records it
    reports acknowledged are exactly the ones in the topic."""
    t = harness.unique_topic("tmk-bench-int")
    ok(run_tmk(["topic", "create", t, "-p", "2"], broker))
    rc, out, err = _interrupt_bench(["bench", "produce", t, "--duration", "120", "-s", "100",
                                     "--rate", "2000", "--format", "json"], broker)
    assert rc == 130, (rc, out, err)
    assert "interrupted" in err, err
    s = json.loads(out)
    assert s["interrupted"] is True and s["mode"] == "produce", s
    assert s["records"] > 0 and s["seconds"] < 60, s
    assert_latency(s, "publish_ack_ms", s["records"])
    got = json.loads(ok(run_tmk(["bench", "consume", t, "--duration", "30", "--format", "json"], broker)))
    assert got["records"] == s["records"] and got["interrupted"] is False, (got, s)

    # e2e: the consumer's figures cover what it saw of the acknowledged records.
    rc, out, err = _interrupt_bench(["bench", "e2e", t, "--duration", "120", "-s", "100",
                                     "--rate", "2000"], broker)
    assert rc == 130, (rc, out, err)
    first = out.splitlines()[0]
    assert first.startswith("e2e (interrupted): "), out
    assert "publish-to-consume latency ms" in out, out


def test_sasl_scram_connection_flags():
    from test_scram_users import ADMIN, ADMIN_PW, ScramBroker
    b = ScramBroker(name="tmk-scram")
    b.start()
    try:
        base = ["-X", "brokers=127.0.0.1:%d" % b.sasl_port, "-X", "user=" + ADMIN, "-X", "sasl.mechanism=SCRAM-SHA-256"]
        ok(run_tmk(base + ["-X", "pass=" + ADMIN_PW, "topic", "list"]))
        ok(run_tmk(base + ["-X", "pass=" + ADMIN_PW, "-X", "sasl.mechanism=PLAIN", "cluster", "info"]))
        p = run_tmk(base + ["-X", "pass=wrong", "topic", "list"], timeout=60)
        assert p.returncode == 1
        line = one_line_error(p)
        assert "SASL" in line, line
    finally:
        b.close()


@pytest.mark.cluster
def test_three_nodes_topics_health_and_round_trip():
    import cluster
    # The broker always has cluster mode: a binary without it is a failure.
    assert cluster.binary_has_cluster_mode(), "the broker binary has no cluster mode"
    c = cluster.Cluster(3, name="tmk-three")
    try:
        c.start()
        brokers = ["-X", "brokers=" + c.bootstrap]
        info = json.loads(ok(run_tmk(brokers + ["cluster", "info", "--format", "json"])))
        assert sorted(b["node_id"] for b in info["brokers"]) == [1, 2, 3]
        t = harness.unique_topic("tmk-3n")
        ok(run_tmk(brokers + ["topic", "create", t, "-p", "3", "-r", "3"]))

        def full():
            d = json.loads(ok(run_tmk(brokers + ["topic", "describe", t, "-p", "--format", "json"])))
            return all(len(p["replicas"]) == 3 and len(p["isr"]) == 3 and p["leader"] > 0
                       for p in d[0]["partitions"])
        harness.wait_until(full, timeout=30, what="every partition with three in-sync replicas")
        harness.wait_until(
            lambda: json.loads(ok(run_tmk(brokers + ["cluster", "health", "--format", "json"])))["is_healthy"],
            timeout=30, what="a healthy cluster")
        ok(run_tmk(brokers + ["topic", "produce", t, "-f", "%k %v\\n"], input="a 1\nb 2\nc 3\nd 4\n"))
        out = ok(run_tmk(brokers + ["topic", "consume", t, "-o", ":end", "-f", "%k=%v\\n"]))
        assert sorted(out.splitlines()) == ["a=1", "b=2", "c=3", "d=4"]

        # Leadership moves to another in-sync replica, which becomes the
        # preferred one; the partition keeps serving.
        def part0():
            d = json.loads(ok(run_tmk(brokers + ["topic", "describe", t, "-p", "--format", "json"])))
            return next(p for p in d[0]["partitions"] if p["partition"] == 0)
        before = part0()
        target = next(n for n in before["replicas"] if n != before["leader"])
        res = json.loads(ok(run_tmk(brokers + ["cluster", "partitions", "transfer-leadership",
                                               "%s/0:%d" % (t, target), "--format", "json"], timeout=90)))
        assert res == [{"topic": t, "partition": 0, "leader": target, "status": "OK"}], res
        after = part0()
        assert after["leader"] == target and after["replicas"][0] == target, after
        assert sorted(after["replicas"]) == sorted(before["replicas"]), after
        ok(run_tmk(brokers + ["topic", "produce", t, "-p", "0", "-k", "e"], input="5\n"))
        out = ok(run_tmk(brokers + ["topic", "consume", t, "-p", "0", "-o", ":end", "-f", "%k=%v\\n"]))
        assert "e=5" in out.splitlines(), out
        p = run_tmk(brokers + ["cluster", "partitions", "transfer-leadership", "%s/0:9" % t])
        assert p.returncode == 1 and "holds no replica" in one_line_error(p), p

        # A replica moves to another broker (the data with it), waited for
        # with --wait; move-status then shows nothing in progress.
        m = harness.unique_topic("tmk-3n-move")
        ok(run_tmk(brokers + ["topic", "create", m, "-p", "1", "-r", "1"]))
        ok(run_tmk(brokers + ["topic", "produce", m, "-k", "x"], input="1\n2\n3\n"))
        d = json.loads(ok(run_tmk(brokers + ["topic", "describe", m, "-p", "--format", "json"])))
        (src,) = d[0]["partitions"][0]["replicas"]
        dst = next(n for n in (1, 2, 3) if n != src)
        res = json.loads(ok(run_tmk(brokers + ["cluster", "partitions", "move", "%s/0:%d" % (m, dst),
                                               "--wait", "60", "--format", "json"], timeout=90)))
        assert res == [{"topic": m, "partition": 0, "status": "OK"}], res
        assert "no ongoing partition moves" in ok(run_tmk(brokers + ["cluster", "partitions", "move-status"]))

        def moved():
            p0 = json.loads(ok(run_tmk(brokers + ["topic", "describe", m, "-p", "--format", "json"])))[0]["partitions"][0]
            return p0["replicas"] == [dst] and p0["leader"] == dst
        harness.wait_until(moved, timeout=30, what="the partition led from its new broker")
        out = ok(run_tmk(brokers + ["topic", "consume", m, "-o", ":end", "-f", "%v\\n"]))
        assert out.splitlines() == ["1", "2", "3"], out
        p = run_tmk(brokers + ["cluster", "partitions", "move", "%s/0:9" % m])
        assert p.returncode == 1, (p.returncode, p.stdout, p.stderr)
    finally:
        c.close()


def test_read_committed_hides_aborted_transactions(broker):
    from confluent_kafka import Producer
    t = harness.unique_topic("tmk-txn")
    ok(run_tmk(["topic", "create", t, "-p", "1"], broker))
    p = Producer({"bootstrap.servers": broker.bootstrap, "transactional.id": t + "-tx"})
    p.init_transactions(30)
    p.begin_transaction()
    p.produce(t, b"aborted")
    p.flush(30)
    p.abort_transaction(30)
    p.begin_transaction()
    p.produce(t, b"committed")
    p.flush(30)
    p.commit_transaction(30)
    committed = ok(run_tmk(["topic", "consume", t, "-o", ":end", "--read-committed", "-f", "%v\\n"], broker))
    assert committed.splitlines() == ["committed"]
    everything = ok(run_tmk(["topic", "consume", t, "-o", ":end", "-f", "%v %a{transactional-bit}\\n"], broker))
    assert everything.splitlines() == ["aborted 1", "committed 1"]


def test_tmk_reads_what_kcat_produced(broker):
    t = harness.unique_topic("tmk-from-kcat")
    ok(run_tmk(["topic", "create", t, "-p", "1"], broker))
    harness.run([harness.kcat_binary(), "-P", "-b", broker.bootstrap, "-t", t, "-K", ":", "-H", "src=kcat"],
                input=b"k1:v1\nk2:v2\n", timeout=60)
    out = ok(run_tmk(["topic", "consume", t, "-n", "2", "--pretty-print=false"], broker))
    recs = [json.loads(line) for line in out.splitlines()]
    assert [(r["key"], r["value"], r["headers"]) for r in recs] == [
        ("k1", "v1", [{"key": "src", "value": "kcat"}]), ("k2", "v2", [{"key": "src", "value": "kcat"}])]


def test_group_seek_moves_where_a_confluent_consumer_resumes(broker):
    from confluent_kafka import Consumer
    t = harness.unique_topic("tmk-seek")
    g = harness.unique_topic("tmk-seek-g")
    ok(run_tmk(["topic", "create", t, "-p", "1"], broker))
    ok(run_tmk(["topic", "produce", t], broker, input="".join("r%d\n" % i for i in range(6))))
    ok(run_tmk(["group", "seek", g, "--to", "end", "--topics", t], broker))
    d = json.loads(ok(run_tmk(["group", "describe", g, "--format", "json"], broker)))
    assert d[0]["partitions"][0]["current_offset"] == 6
    ok(run_tmk(["topic", "produce", t], broker, input="after\n"))
    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": g, "auto.offset.reset": "earliest",
                  "enable.auto.commit": False})
    try:
        c.subscribe([t])
        got = None
        deadline = time.monotonic() + 30
        while got is None and time.monotonic() < deadline:
            m = c.poll(1.0)
            if m is not None and m.error() is None:
                got = m
        assert got is not None and got.value() == b"after" and got.offset() == 6
    finally:
        c.close()


def test_offset_delete_config_export_import_logdirs(broker, tmp_path):
    t = harness.unique_topic("tmk-misc")
    g = harness.unique_topic("tmk-misc-g")
    ok(run_tmk(["topic", "create", t, "-p", "2"], broker))
    ok(run_tmk(["topic", "produce", t, "-p", "0"], broker, input="a\nb\n"))
    ok(run_tmk(["group", "seek", g, "--to", "end", "--topics", t], broker))
    out = json.loads(ok(run_tmk(["group", "offset-delete", g, "-t", t + ":0", "--format", "json"], broker)))
    assert out == [{"topic": t, "partition": 0, "status": "OK"}]
    d = json.loads(ok(run_tmk(["group", "describe", g, "--format", "json"], broker)))
    assert [p["partition"] for p in d[0]["partitions"]] == [1]

    ok(run_tmk(["cluster", "config", "set", "log.retention.ms", "7200000"], broker))
    assert ok(run_tmk(["cluster", "config", "get", "log.retention.ms"], broker)) == "7200000\n"
    f = tmp_path / "cluster.yaml"
    ok(run_tmk(["cluster", "config", "export", "-f", str(f)], broker))
    assert "log.retention.ms: '7200000'" in f.read_text()
    f.write_text("log.retention.ms: '3600000'\n")
    ok(run_tmk(["cluster", "config", "import", "-f", str(f)], broker))
    assert ok(run_tmk(["cluster", "config", "get", "log.retention.ms"], broker)) == "3600000\n"
    f.write_text("{}\n")
    ok(run_tmk(["cluster", "config", "import", "-f", str(f)], broker))
    assert ok(run_tmk(["cluster", "config", "get", "log.retention.ms"], broker)) != "3600000\n"

    dirs = json.loads(ok(run_tmk(["cluster", "logdirs", "describe", "--topics", t, "--format", "json"], broker)))
    sizes = {d["partition"]: d["size"] for d in dirs}
    assert set(sizes) == {0, 1} and sizes[0] > 0 and sizes[1] == 0, dirs


def _tls_pki(tmp_path_factory):
    import shutil
    if shutil.which("openssl") is None:
        raise AssertionError("openssl CLI missing: conformance/install.sh installs it")
    from test_tls import CLIENT_DN, Pki
    p = Pki(tmp_path_factory.mktemp("tmk-pki"))
    p.server = p.issue("server", "/O=Tidemark/CN=localhost", server=True)
    p.client = p.issue("client", CLIENT_DN, server=False)
    p.other_ca = Pki(tmp_path_factory.mktemp("tmk-other-ca")).ca
    return p


@pytest.fixture(scope="module")
def mtls_acl_broker(tmp_path_factory):
    """A broker with a PLAINTEXT listener whose anonymous clients are super
    users, and an SSL listener that requires a client certificate whose
    subject becomes the principal (User:alice@payments), under Kafka's
    StandardAuthorizer."""
    from test_tls import start as start_tls
    pki = _tls_pki(tmp_path_factory)
    b = start_tls({"ssl.keystore.location": str(pki.server[2]),
                   "ssl.truststore.location": str(pki.ca),
                   "ssl.client.auth": "required",
                   "ssl.principal.mapping.rules": "RULE:^CN=(.*?),OU=(.*?),O=.*$/$1@$2/L,DEFAULT",
                   "authorizer.class.name": AUTHORIZER,
                   "super.users": "User:ANONYMOUS"}, "tmk-mtls")
    b.pki = pki
    yield b
    b.close()


def _tls_flags(b, ca=None, cert=True):
    pki = b.pki
    flags = ["-X", "brokers=" + b.ssl_bootstrap, "-X", "tls.enabled=true", "-X", "tls.ca=%s" % (ca or pki.ca)]
    if cert:
        flags += ["-X", "tls.cert=%s" % pki.client[1], "-X", "tls.key=%s" % pki.client[0]]
    return flags


def test_tls_round_trip_and_acl_denial(mtls_acl_broker):
    b = mtls_acl_broker
    t = harness.unique_topic("tmk-tls")
    ok(run_tmk(["topic", "create", t, "-p", "1"], b))  # plaintext: a super user
    # Over mutual TLS the principal is the certificate's mapped subject,
    # which no ACL allows yet: the produce is refused with Kafka's error.
    p = run_tmk(_tls_flags(b) + ["topic", "produce", t], input="denied\n")
    assert p.returncode == 1, (p.returncode, p.stdout, p.stderr)
    assert "TOPIC_AUTHORIZATION_FAILED" in one_line_error(p)
    ok(run_tmk(["security", "acl", "create", "--allow-principal", "alice@payments",
                "--operation", "write,read", "--topic", t], b))
    ok(run_tmk(["security", "acl", "create", "--allow-principal", "alice@payments",
                "--operation", "read", "--group", "tmk-tls-g"], b))
    ok(run_tmk(_tls_flags(b) + ["topic", "produce", t, "-k", "k1"], input="over tls\n"))
    out = ok(run_tmk(_tls_flags(b) + ["topic", "consume", t, "-n", "1", "-f", "%k=%v\\n"]))
    assert out == "k1=over tls\n", out
    # The record is also what a plaintext reader sees.
    rec = json.loads(ok(run_tmk(["topic", "consume", t, "-n", "1"], b)))
    assert (rec["key"], rec["value"]) == ("k1", "over tls"), rec


def test_tls_reads_responses_larger_than_a_tls_record(mtls_acl_broker):
    """Fetch answers of megabytes over TLS (many 16 KiB TLS records per
    response): tidemark-client's reader fed rustls a whole 64 KiB socket
    read at once, which rustls refuses past 16 KiB of undelivered
    plaintext; every consume of more than a few records hung."""
    b = mtls_acl_broker
    t = harness.unique_topic("tmk-tls-big")
    ok(run_tmk(["topic", "create", t, "-p", "3"], b))
    for op in ("write,read", "describe"):
        ok(run_tmk(["security", "acl", "create", "--allow-principal", "alice@payments",
                    "--operation", op, "--topic", t], b))
    ok(run_tmk(["security", "acl", "create", "--allow-principal", "alice@payments",
                "--operation", "read", "--group", "tmk-tls-big-g"], b))
    n = 3000
    lines = "".join("%05d-%s\n" % (i, "x" * 1000) for i in range(n))
    ok(run_tmk(_tls_flags(b) + ["topic", "produce", t], input=lines, timeout=120))
    want = sorted(lines.splitlines())
    out = ok(run_tmk(_tls_flags(b) + ["topic", "consume", t, "-n", str(n), "-f", "%v\n"], timeout=120))
    assert sorted(out.splitlines()) == want
    out = ok(run_tmk(_tls_flags(b) + ["topic", "consume", t, "-g", "tmk-tls-big-g", "-n", str(n),
                                       "-f", "%v\n"], timeout=120))
    assert sorted(out.splitlines()) == want
    summary = json.loads(ok(run_tmk(_tls_flags(b) + ["bench", "consume", t, "-n", str(n),
                                                      "--duration", "60", "--format", "json"], timeout=120)))
    assert summary["records"] == n, summary


def test_tls_wrong_ca_and_missing_certificate_fail_in_one_line(mtls_acl_broker):
    b = mtls_acl_broker
    p = run_tmk(_tls_flags(b, ca=b.pki.other_ca) + ["cluster", "info"], timeout=60)
    assert p.returncode == 1, (p.returncode, p.stdout, p.stderr)
    line = one_line_error(p)
    assert "TLS" in line or "certificate" in line.lower(), line
    p = run_tmk(_tls_flags(b, cert=False) + ["cluster", "info"], timeout=60)
    assert p.returncode == 1, (p.returncode, p.stdout, p.stderr)
    one_line_error(p)
