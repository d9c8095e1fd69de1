"""Fixtures for the Tidemark conformance suite.

- `broker`: one broker per test module (module scope), started with the
  module's BROKER_SETTINGS dict as `--set name=value` flags.
- `fresh_broker`: the same, but per test (for restart and crash tests).
- `broker_factory`: start brokers with any settings inside one test.

Each broker runs the real release binary on a free 127.0.0.1 port with a
fresh data directory, is ready when it answers ApiVersions, and is stopped
by its PID at teardown (SIGTERM, then SIGKILL). A broker that dies on its
own during a test fails that test with the tail of its log.
"""

import json
import os
import subprocess

import pytest

import harness


def _module_settings(request):
    return dict(getattr(request.module, "BROKER_SETTINGS", {}))


def _start(settings, name, **kw):
    b = harness.Broker(settings=settings, name=name, **kw)
    try:
        b.start()
    except BaseException:
        try:
            b.close(keep_data=True)
        except harness.BrokerError:
            pass
        raise
    return b


@pytest.fixture(scope="module")
def broker(request):
    b = _start(_module_settings(request), request.module.__name__)
    yield b
    b.close()


@pytest.fixture
def fresh_broker(request):
    b = _start(_module_settings(request), request.node.name)
    yield b
    b.close()


@pytest.fixture
def broker_factory(request):
    made = []

    def make(settings=None, start=True, **kw):
        if start:
            b = _start(settings or {}, request.node.name, **kw)
        else:
            b = harness.Broker(settings=settings or {}, name=request.node.name, **kw)
        made.append(b)
        return b

    yield make
    errors = []
    for b in made:
        try:
            b.close()
        except harness.BrokerError as e:
            errors.append(e)
    if errors:
        raise errors[0]


@pytest.fixture(autouse=True)
def _brokers_stay_alive():
    """Before a test: bring back a shared broker that an earlier test crashed
    (so one crash does not fail every later test of the module). After a
    test: fail it if a broker died without being told to."""
    for b in list(harness.LIVE_BROKERS):
        if getattr(b, "_death_reported", False) and not b.running():
            b._death_reported = False
            b.start()
    yield
    dead = []
    for b in list(harness.LIVE_BROKERS):
        if b.proc is not None and not b._expect_exit and b.proc.poll() is not None:
            b._death_reported = True
            b._expect_exit = True
            dead.append("broker %s (pid %s) died during this test with status %s\n"
                        "--- log tail ---\n%s"
                        % (b.bootstrap, b.pid, b.proc.returncode, b.log_tail()))
    if dead:
        pytest.fail("\n".join(dead), pytrace=False)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        for b in harness.LIVE_BROKERS:
            rep.sections.append(("broker %s log tail" % b.bootstrap, b.log_tail(60)))


def _version_of(argv, word=""):
    try:
        p = subprocess.run(argv, capture_output=True, timeout=10)
        out = (p.stdout or p.stderr).decode("utf-8", "replace").strip().splitlines()
        return next((line for line in out if word in line), out[0] if out else "?")
    except Exception as e:  # noqa: BLE001 - only for the report header
        return "unavailable (%s)" % type(e).__name__


def pytest_report_header(config):
    lines = []
    binary = harness.broker_binary()
    lines.append("tidemark binary: %s (%s)" % (binary, "present" if binary.is_file() else "MISSING"))
    try:
        import confluent_kafka
        lines.append("confluent-kafka %s, librdkafka %s"
                     % (confluent_kafka.__version__, confluent_kafka.libversion()[0]))
    except ImportError:
        lines.append("confluent-kafka: MISSING")
    try:
        import kafka
        lines.append("kafka-python %s" % kafka.__version__)
    except ImportError:
        lines.append("kafka-python: MISSING")
    lines.append("kcat: %s" % _version_of(["kcat", "-V"], "Version")[:120])
    try:
        pkg = json.loads((harness.JS_DIR / "node_modules" / "kafkajs" / "package.json").read_text())
        lines.append("node %s, kafkajs %s" % (_version_of(["node", "--version"]), pkg["version"]))
    except OSError:
        lines.append("kafkajs: MISSING (run conformance/install.sh)")
    if os.environ.get("TIDEMARK_TEST_TMPDIR"):
        lines.append("data dirs under %s" % os.environ["TIDEMARK_TEST_TMPDIR"])
    return lines
