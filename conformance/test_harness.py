"""Self-checks of the harness (start, readiness, stop by PID, crash reports).

They run stand-in binaries, not tidemark, so that the harness is known to
work before the broker does: the golden-capture fake broker (behind
selftest/fake_tidemark.py), a program that dies at once, and one that
listens but never answers.
"""

import os
import signal
import sys
import textwrap
import time

import pytest

import harness
import rawkafka

pytestmark = pytest.mark.selftest

FAKE = harness.CONFORMANCE_DIR / "selftest" / "fake_tidemark.py"


def script(tmp_path, name, body):
    p = tmp_path / name
    p.write_text("#!%s\n%s" % (sys.executable, textwrap.dedent(body)))
    p.chmod(0o755)
    return p


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is as good as gone (the harness reaps it)
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_start_ready_restart_and_stop_by_pid():
    b = harness.Broker(binary=FAKE, settings={"num.partitions": "2"})
    try:
        b.start(timeout=20)
        assert harness.probe(b.bootstrap)
        argv = b.argv()
        assert argv[argv.index("--kafka-addr") + 1] == b.bootstrap
        assert argv[argv.index("--data-dir") + 1] == str(b.data_dir)
        assert "num.partitions=2" in argv
        assert b.bootstrap.startswith("127.0.0.1:")
        first = b.pid

        b.restart(how="kill9")
        assert b.pid != first and not pid_alive(first)
        assert b.exit_codes[-1] == ("kill9", -signal.SIGKILL)
        assert harness.probe(b.bootstrap), "not serving on the same port after restart"

        second = b.pid
        b.restart(how="term")
        assert b.exit_codes[-1] == ("term", 0)
        assert not pid_alive(second)
        third = b.pid
    finally:
        b.close(keep_data=False)
    assert not pid_alive(third)
    assert not b.root.exists()
    assert b not in harness.LIVE_BROKERS


def test_a_harness_process_killed_with_sigterm_stops_its_brokers(tmp_path):
    """A script using harness (a soak, a bench) stopped with SIGTERM, as
    `timeout` does, takes its brokers with it."""
    import subprocess
    from pathlib import Path
    driver = tmp_path / "driver.py"
    driver.write_text(textwrap.dedent("""
        import sys, time
        sys.path.insert(0, %r)
        import harness
        b = harness.Broker()
        b.start()
        print(b.pid, flush=True)
        time.sleep(120)
    """ % str(Path(__file__).parent)))
    p = subprocess.Popen([sys.executable, str(driver)], stdout=subprocess.PIPE, text=True)
    try:
        broker_pid = int(p.stdout.readline())
        assert pid_alive(broker_pid)
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=30) != 0
        harness.wait_until(lambda: not pid_alive(broker_pid), timeout=10, interval=0.1,
                           what="the broker to stop with its harness process")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_early_exit_reports_log_tail(tmp_path):
    bad = script(tmp_path, "dies", """
        import sys
        print("tidemark: cannot open data dir: boom", file=sys.stderr)
        sys.exit(3)
    """)
    b = harness.Broker(binary=bad)
    with pytest.raises(harness.BrokerError) as e:
        b.start(timeout=10)
    assert "status 3" in str(e.value) and "boom" in str(e.value)
    b.close(keep_data=False)


def test_never_ready_is_bounded_and_killed(tmp_path):
    silent = script(tmp_path, "silent", """
        import socket, sys, time
        addr = sys.argv[sys.argv.index("--kafka-addr") + 1]
        host, port = addr.rsplit(":", 1)
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, int(port)))
        s.listen(16)
        print("listening but never answering", flush=True)
        conns = []
        while True:
            c, _ = s.accept()
            conns.append(c)
    """)
    b = harness.Broker(binary=silent)
    t0 = time.monotonic()
    with pytest.raises(harness.BrokerError) as e:
        b.start(timeout=3)
    assert time.monotonic() - t0 < 15
    assert "not ready" in str(e.value) and "never answering" in str(e.value)
    assert not b.running()
    b.close(keep_data=False)


def test_unexpected_death_is_reported_at_close():
    b = harness.Broker(binary=FAKE)
    b.start(timeout=20)
    os.kill(b.pid, signal.SIGKILL)  # not through the harness: a "crash"
    b.proc.wait(timeout=10)
    with pytest.raises(harness.BrokerError) as e:
        b.close(keep_data=False)
    assert "died" in str(e.value)


def test_raw_codec_against_fake():
    b = harness.Broker(binary=FAKE)
    try:
        b.start(timeout=20)
        with rawkafka.KafkaConn(b.bootstrap) as c:
            versions = c.api_versions()
            assert rawkafka.API_PRODUCE in versions
            blob = rawkafka.build_batch([(b"k", b"v", [("h", b"x")])])
            part, _ = c.produce("selftest", 0, blob, version=c.pick(rawkafka.API_PRODUCE, cap=9))
            assert part["ErrorCode"] == 0
            fpart, _ = c.fetch("selftest", 0, 0, version=c.pick(rawkafka.API_FETCH, cap=11))
            batches = rawkafka.parse_batches(fpart["Records"])
            assert batches and batches[0].crc_ok
            recs = batches[0].records()
            assert [(r["key"], r["value"], r["headers"]) for r in recs] == [(b"k", b"v", [("h", b"x")])]
    finally:
        b.close(keep_data=False)
