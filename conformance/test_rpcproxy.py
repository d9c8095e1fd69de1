"""Selftest of rpcproxy (no tidemark binary): hello parsing, forwarding
both ways, cutting a callee or a caller and healing, bounded buffers."""

import socket
import threading
import time

import pytest

import harness
import rpcproxy

pytestmark = pytest.mark.selftest


class EchoServer:
    """Accepts connections and echoes every byte back (threads, bounded)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.accepted = 0
        self.received = bytearray()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._accept, daemon=True)]
        self._threads[0].start()

    @property
    def addr(self):
        return "127.0.0.1:%d" % self.sock.getsockname()[1]

    def _accept(self):
        while not self._stop.is_set():
            try:
                s, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            t = threading.Thread(target=self._echo, args=(s,), daemon=True)
            t.start()

    def _echo(self, s):
        s.settimeout(0.2)
        with s:
            while not self._stop.is_set():
                try:
                    d = s.recv(65536)
                except socket.timeout:
                    continue
                except OSError:
                    return
                if not d:
                    return
                self.received += d
                try:
                    s.sendall(d)
                except OSError:
                    return

    def close(self):
        self._stop.set()
        self.sock.close()


def _recv_exact(s, n, timeout=5.0):
    s.settimeout(timeout)
    buf = bytearray()
    while len(buf) < n:
        d = s.recv(n - len(buf))
        if not d:
            raise ConnectionError("closed after %d of %d bytes" % (len(buf), n))
        buf += d
    return bytes(buf)


def _closed(s, timeout=3.0):
    """True if the peer closed (EOF or reset) within timeout."""
    s.settimeout(timeout)
    try:
        for _ in range(1000):
            if not s.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False
    return False


def test_parse_hello():
    h = rpcproxy.encode_hello(7)
    assert len(h) == 4 + 29 + 14
    assert rpcproxy.parse_hello(h) == (True, 7)
    assert rpcproxy.parse_hello(h[:10]) == (False, None)
    assert rpcproxy.parse_hello(h + b"more") == (True, 7)
    bad_magic = h[:4 + 29] + b"XXXX" + h[4 + 29 + 4:]
    assert rpcproxy.parse_hello(bad_magic) == (True, None)
    assert rpcproxy.parse_hello(b"\xff\xff\xff\xff") == (True, None)  # too large: not a hello


def test_forward_cut_heal():
    srv = EchoServer()
    cut = set()
    pr = rpcproxy.RpcProxy(2, harness.free_port(), srv.addr,
                           blocked=lambda callee, caller: callee in cut or caller in cut,
                           max_buffer=64 * 1024).start()
    try:
        a = socket.create_connection(("127.0.0.1", pr.listen_port), timeout=5)
        a.sendall(rpcproxy.encode_hello(1) + b"ping")
        assert _recv_exact(a, 47 + 4)[-4:] == b"ping"
        big = bytes(range(256)) * 4096  # 1 MiB through 64 KiB buffers
        t = threading.Thread(target=a.sendall, args=(big,), daemon=True)
        t.start()
        assert _recv_exact(a, len(big), timeout=20) == big
        t.join(5)
        b = socket.create_connection(("127.0.0.1", pr.listen_port), timeout=5)
        b.sendall(rpcproxy.encode_hello(3))
        _recv_exact(b, 47)
        # cut the caller 1: its connection goes, 3's stays
        cut.add(1)
        assert pr.apply()
        assert _closed(a)
        b.sendall(b"x")
        assert _recv_exact(b, 1) == b"x"
        n = srv.accepted
        a2 = socket.create_connection(("127.0.0.1", pr.listen_port), timeout=5)
        a2.sendall(rpcproxy.encode_hello(1))
        assert _closed(a2)
        assert srv.accepted == n, "a refused caller reached the server"
        # cut the callee: everything goes
        cut.add(2)
        assert pr.apply()
        assert _closed(b)
        cut.clear()
        assert pr.apply()
        a3 = socket.create_connection(("127.0.0.1", pr.listen_port), timeout=5)
        a3.sendall(rpcproxy.encode_hello(1) + b"back")
        assert _recv_exact(a3, 51)[-4:] == b"back"
        assert pr.stats["cut"] >= 2 and pr.stats["refused"] >= 1, pr.stats
        for s in (a, a2, a3, b):
            s.close()
    finally:
        t0 = time.monotonic()
        pr.close()
        assert time.monotonic() - t0 < 5
        srv.close()
