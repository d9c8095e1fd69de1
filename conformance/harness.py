"""Start, stop and crash the real `tidemark` binary for black-box tests.

A Broker is one broker process on 127.0.0.1 with its own free port and its
own fresh data directory. It can be stopped with SIGTERM (and the clean
exit checked), killed with SIGKILL, and started again on the same port and
data directory. Every wait here is bounded in time and in iterations.
"""

import atexit
import itertools
import os
import re
import shutil
import signal
import threading
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import rawkafka

REPO_ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE_DIR = Path(__file__).resolve().parent
JS_DIR = CONFORMANCE_DIR / "js"

READY_TIMEOUT = float(os.environ.get("TIDEMARK_READY_TIMEOUT", "20"))
STOP_TIMEOUT = float(os.environ.get("TIDEMARK_STOP_TIMEOUT", "15"))

# Every broker started in this process that is still running: teardown hooks
# and failure reports look here.
LIVE_BROKERS = []


class BrokerError(AssertionError):
    pass


@atexit.register
def _kill_leftovers():
    """Last resort (interrupted run): no broker outlives the test process."""
    for b in list(LIVE_BROKERS):
        if b.proc is not None and b.proc.poll() is None:
            try:
                os.kill(b.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _exit_on_sigterm(signum, frame):
    """SIGTERM (`timeout`, a CI runner, kill PID) ends this process through
    SystemExit, so `finally` blocks, fixture teardowns and the atexit hook
    above stop the brokers it started. Python's default for SIGTERM is to
    die at once, and brokers run in their own sessions (so a Ctrl-C in
    the terminal does not reach them), so without this they outlived
    every harness process killed from outside."""
    raise SystemExit(128 + signum)


if (threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL):
    signal.signal(signal.SIGTERM, _exit_on_sigterm)


def broker_binary():
    path = os.environ.get("TIDEMARK_BIN") or str(REPO_ROOT / "target" / "release" / "tidemark")
    return Path(os.path.abspath(path))


def require_binary():
    path = broker_binary()
    if not path.is_file() or not os.access(path, os.X_OK):
        raise BrokerError(
            "tidemark binary not found at %s: build it with "
            "`cargo build --release -p tidemark-broker` or set TIDEMARK_BIN" % path)
    return path


_used_ports = set()


def free_port():
    """A port on 127.0.0.1 that was free a moment ago (and not handed out
    before in this run)."""
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _used_ports:
            _used_ports.add(port)
            return port
    raise RuntimeError("no free port found")


_topic_counter = itertools.count(1)


def unique_topic(prefix="t"):
    prefix = re.sub(r"[^A-Za-z0-9._-]", "-", prefix)[:100]
    return "%s-%d-%d" % (prefix, os.getpid(), next(_topic_counter))


def tail(path, lines=80):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 64 * 1024))
            data = f.read().decode("utf-8", "replace")
    except OSError as e:
        return "(no log: %s)" % e
    return "\n".join(data.splitlines()[-lines:])


def sockets_on_port(port):
    """`ss` lines for TCP sockets on this local or remote port (diagnostics)."""
    try:
        p = subprocess.run(["ss", "-tanoe", "( sport = :%d or dport = :%d )" % (port, port)],
                           capture_output=True, text=True, timeout=5)
        return p.stdout.strip() or p.stderr.strip()
    except (OSError, subprocess.TimeoutExpired) as e:
        return "(ss unavailable: %s)" % e


def probe(addr, timeout=1.0):
    """True when addr accepts a connection and answers ApiVersions v0."""
    try:
        with rawkafka.KafkaConn(addr, timeout=timeout) as c:
            resp = c.request(rawkafka.API_API_VERSIONS, 0, {})
            return resp["ErrorCode"] == 0 and len(resp["ApiKeys"]) > 0
    except (OSError, rawkafka.ConnectionClosed, ValueError, AssertionError):
        return False


class Broker:
    """One tidemark process. Use start() / stop() / kill9() / restart()."""

    def __init__(self, settings=None, node_id=1, cores=None, advertise=True,
                 extra_args=(), binary=None, tmp_root=None, name="broker", env=None):
        self.binary = Path(os.path.abspath(binary)) if binary else require_binary()
        self.settings = dict(settings or {})
        # Environment variables of this broker's process, every start
        # (TIDEMARK_ADMIN_TOKEN, TIDEMARK_LOG, ...), over the test's own.
        self.env = dict(env or {})
        self.node_id = node_id
        if cores is None:
            cores = int(os.environ.get("TIDEMARK_TEST_CORES", "2"))
        self.cores = cores
        self.advertise = advertise
        self.extra_args = list(extra_args)
        self.name = name
        self.port = free_port()
        # The admin HTTP server (/metrics, /v1/...): its own free port, so
        # brokers never meet on the default 9644.
        self.admin_port = free_port()
        self.host = "127.0.0.1"
        self.root = Path(tempfile.mkdtemp(prefix="tidemark-conf-",
                                          dir=tmp_root or os.environ.get("TIDEMARK_TEST_TMPDIR")))
        self.data_dir = self.root / "data"
        self.data_dir.mkdir()
        self.proc = None
        self.starts = 0
        self.log_paths = []
        self.exit_codes = []  # (how, returncode) for each stop
        self._expect_exit = False
        self._log_file = None

    # -- addresses
    @property
    def bootstrap(self):
        return "%s:%d" % (self.host, self.port)

    @property
    def admin_url(self):
        return "http://%s:%d" % (self.host, self.admin_port)

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def argv(self):
        argv = [str(self.binary), "--data-dir", str(self.data_dir),
                "--kafka-addr", self.bootstrap, "--node-id", str(self.node_id),
                "--admin-addr", "%s:%d" % (self.host, self.admin_port)]
        if self.advertise:
            argv += ["--advertise-kafka-addr", self.bootstrap]
        if self.cores:
            argv += ["--cores", str(self.cores)]
        for k, v in self.settings.items():
            argv += ["--set", "%s=%s" % (k, v)]
        return argv + self.extra_args

    # -- lifecycle
    def start(self, timeout=READY_TIMEOUT, wait=True):
        """Start the process; with wait=False return at once (the caller
        calls wait_ready(), e.g. after starting every broker of a cluster)."""
        if self.running():
            raise BrokerError("broker already running (pid %d)" % self.pid)
        log_path = self.root / ("broker.%d.log" % self.starts)
        self.starts += 1
        self.log_paths.append(log_path)
        self._log_file = open(log_path, "wb")
        env = dict(os.environ)
        env.setdefault("RUST_BACKTRACE", "1")
        env.setdefault("RUST_LOG", "info")
        env.update(self.env)
        self._expect_exit = False
        self.proc = subprocess.Popen(self.argv(), stdin=subprocess.DEVNULL, stdout=self._log_file,
                                     stderr=subprocess.STDOUT, env=env, start_new_session=True,
                                     cwd=str(self.root))
        if self not in LIVE_BROKERS:
            LIVE_BROKERS.append(self)
        if wait:
            self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout=READY_TIMEOUT):
        deadline = time.monotonic() + timeout
        for _ in range(int(timeout / 0.05) + 10):
            if self.proc.poll() is not None:
                self._expect_exit = True  # reported here, not again at close()
                self._finish("exited-at-start")
                log = self.log_tail()
                extra = ""
                if "in use" in log:
                    extra = "\n--- sockets on port %d at that moment (ss -tan) ---\n%s" % (
                        self.port, sockets_on_port(self.port))
                raise BrokerError("broker exited with status %s before it was ready; argv: %s\n"
                                  "--- log tail ---\n%s%s"
                                  % (self.proc.returncode, " ".join(self.argv()), log, extra))
            if probe(self.bootstrap, timeout=1.0):
                return
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        pid = self.pid
        self._hard_kill()
        raise BrokerError("broker (pid %s) not ready within %.0fs (no ApiVersions answer on %s)\n"
                          "--- log tail ---\n%s" % (pid, timeout, self.bootstrap, self.log_tail()))

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def check_alive(self):
        """Raise if the process died without being asked to."""
        if self.proc is not None and not self._expect_exit and self.proc.poll() is not None:
            raise BrokerError("broker died unexpectedly with status %s\n--- log tail ---\n%s"
                              % (self.proc.returncode, self.log_tail()))

    def _signal(self, sig):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, sig)
            except ProcessLookupError:
                pass

    def _finish(self, how):
        rc = self.proc.returncode
        self.exit_codes.append((how, rc))
        if self._log_file:
            self._log_file.close()
            self._log_file = None
        return rc

    def _hard_kill(self):
        self._expect_exit = True
        self._signal(signal.SIGKILL)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        if self.proc.poll() is not None:
            self._finish("kill")

    def sigterm(self, timeout=STOP_TIMEOUT):
        """SIGTERM and wait. Returns the exit status; if the process did not
        exit in time it is killed with SIGKILL and BrokerError is raised."""
        if self.proc is None:
            return None
        self.check_alive()
        if self.proc.poll() is not None:
            return self.proc.returncode
        self._expect_exit = True
        self._signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._hard_kill()
            raise BrokerError("broker did not exit within %.0fs of SIGTERM; killed\n"
                              "--- log tail ---\n%s" % (timeout, self.log_tail()))
        return self._finish("term")

    def kill9(self):
        """SIGKILL: no chance to flush anything."""
        if self.proc is None:
            return None
        self.check_alive()
        self._expect_exit = True
        self._signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        return self._finish("kill9")

    def restart(self, how="term", timeout=READY_TIMEOUT):
        """Stop (how = "term" or "kill9") and start again on the same port
        and data directory."""
        if how == "term":
            self.sigterm()
        elif how == "kill9":
            self.kill9()
        else:
            raise ValueError(how)
        return self.start(timeout)

    def close(self, keep_data=None):
        """Stop for good (teardown). Raises BrokerError afterwards if the
        broker had died on its own or would not stop on SIGTERM."""
        problem = None
        if self.proc is not None:
            if not self._expect_exit and self.proc.poll() is not None:
                problem = "broker died during the test with status %s" % self.proc.returncode
                self._finish("died")
            elif self.proc.poll() is None:
                try:
                    self.sigterm()
                except BrokerError as e:
                    problem = str(e)
        if self in LIVE_BROKERS:
            LIVE_BROKERS.remove(self)
        if keep_data is None:
            # keep the evidence of a problem, or when asked to
            keep_data = bool(os.environ.get("TIDEMARK_KEEP_DATA")) or problem is not None
        log = self.log_tail()
        if not keep_data:
            shutil.rmtree(self.root, ignore_errors=True)
        if problem:
            raise BrokerError("%s\n(data and logs %s)\n--- log tail ---\n%s"
                              % (problem, ("kept in %s" % self.root) if keep_data else "removed",
                                 log))

    # -- diagnostics
    def log_tail(self, lines=80):
        if not self.log_paths:
            return "(never started)"
        return tail(self.log_paths[-1], lines)

    def all_logs(self):
        out = []
        for p in self.log_paths:
            try:
                out.append(p.read_text("utf-8", "replace"))
            except OSError:
                pass
        return "\n".join(out)

    def rss_kb(self):
        try:
            with open("/proc/%d/status" % self.pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def __repr__(self):
        return "<Broker %s pid=%s data=%s>" % (self.bootstrap, self.pid, self.data_dir)


def wait_until(predicate, timeout=10.0, interval=0.05, what="condition"):
    """Poll predicate() until it returns a truthy value (which is returned)."""
    deadline = time.monotonic() + timeout
    last = None
    for _ in range(int(timeout / interval) + 2):
        last = predicate()
        if last:
            return last
        if time.monotonic() > deadline:
            break
        time.sleep(interval)
    raise AssertionError("timed out after %.1fs waiting for %s (last: %r)" % (timeout, what, last))


def run(argv, timeout=60, input=None, cwd=None, check=True):
    """Run a client subprocess, bounded in time; returns CompletedProcess."""
    try:
        p = subprocess.run(argv, input=input, capture_output=True, timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired as e:
        raise AssertionError("%s timed out after %ss\nstdout: %s\nstderr: %s"
                             % (argv[0], timeout, (e.stdout or b"")[-2000:],
                                (e.stderr or b"")[-4000:])) from None
    if check and p.returncode != 0:
        raise AssertionError("%s exited %d\nstdout: %s\nstderr: %s"
                             % (" ".join(map(str, argv))[:300], p.returncode,
                                p.stdout[-2000:].decode("utf-8", "replace"),
                                p.stderr[-4000:].decode("utf-8", "replace")))
    return p


def kcat_binary():
    path = shutil.which(os.environ.get("KCAT", "kcat")) or shutil.which("kafkacat")
    if not path:
        raise AssertionError("kcat not installed: run conformance/install.sh")
    return path


def node_binary():
    path = shutil.which("node")
    if not path:
        raise AssertionError("node not installed: run conformance/install.sh")
    if not (JS_DIR / "node_modules" / "kafkajs").is_dir():
        raise AssertionError("kafkajs not installed in %s: run conformance/install.sh" % JS_DIR)
    return path
