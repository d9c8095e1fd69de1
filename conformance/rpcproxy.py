"""A TCP proxy in front of one broker's Raft RPC port, for network
partitions between brokers (clients still reach every broker directly).

Every broker of a proxied Cluster is started with
`--advertise-rpc-addr 127.0.0.1:PROXY` and `--seeds ID@127.0.0.1:PROXY,...`,
so every broker-to-broker connection goes through the proxy of the broker
being called. Each such connection starts with the caller's hello frame:

    [u32 size][u8 kind=0][u64 corr][u128 group][i32 index]   (size: bytes after the prefix)
    [u32 magic 0x544d5254 "TMRT"][u16 version][u64 node id]  (all big-endian)

The proxy reads that first frame to learn who is calling, and only then
connects to the broker and forwards it; after that it pipes bytes both ways
unchanged. A `blocked(callee, caller)` predicate (the cluster's cut set) is
consulted for every new connection and re-applied to the open ones
whenever `apply()` is called: a blocked connection is closed, a blocked
new one is accepted, read up to its hello and closed (nothing reaches the
broker).

One thread per proxy (daemon), non-blocking sockets and poll(): each
direction buffers at most `max_buffer` bytes (reading from a side stops
while the other side's buffer is full), at most `max_conns` connections
are open at once, a connection that sends no hello within
`hello_timeout` is closed. close() stops the thread (bounded join) and
closes every socket.
"""

import collections
import errno
import select
import socket
import struct
import threading
import time

HELLO_MAGIC = 0x544D5254
HEADER_LEN = 1 + 8 + 16 + 4  # kind, correlation id, group key, group index
HELLO_BODY_LEN = 4 + 2 + 8  # magic, version, node id
MAX_HELLO = 4096  # a first frame larger than this is not a hello
KIND_HELLO = 0

_R = select.POLLIN | select.POLLPRI
_W = select.POLLOUT
_ERR = select.POLLERR | select.POLLHUP | select.POLLNVAL


def encode_hello(node_id, version=0):
    """The hello frame a broker with this id sends first (for tests)."""
    body = struct.pack(">BQQQi", KIND_HELLO, 0, 0, 0, 0) + struct.pack(">IHQ", HELLO_MAGIC,
                                                                       version, node_id)
    return struct.pack(">I", len(body)) + body


def parse_hello(buf):
    """(done, node id or None) for the bytes a connection sent so far.
    done is False while the first frame is incomplete; node id is None when
    the first frame is not a well-formed hello."""
    if len(buf) < 4:
        return False, None
    (size,) = struct.unpack_from(">I", buf, 0)
    if size > MAX_HELLO or size < HEADER_LEN:
        return True, None
    if len(buf) < 4 + size:
        return False, None
    if buf[4] != KIND_HELLO or size < HEADER_LEN + HELLO_BODY_LEN:
        return True, None
    magic, _version, node = struct.unpack_from(">IHQ", buf, 4 + HEADER_LEN)
    if magic != HELLO_MAGIC:
        return True, None
    return True, node


class _Conn:
    __slots__ = ("client", "upstream", "c2u", "u2c", "caller", "hello_done", "opened",
                 "eof")

    def __init__(self, client):
        self.client = client
        self.upstream = None
        self.c2u = bytearray()
        self.u2c = bytearray()
        self.caller = None
        self.hello_done = False
        self.opened = time.monotonic()
        self.eof = False


class RpcProxy:
    """Listens on 127.0.0.1:listen_port (bound at construction) and forwards
    to target_addr ("host:port"), the broker's real --rpc-addr."""

    def __init__(self, node_id, listen_port, target_addr, blocked=None, max_buffer=1 << 20,
                 max_conns=64, hello_timeout=10.0, connect_timeout=1.0):
        self.node_id = node_id
        self.listen_port = listen_port
        host, port = target_addr.rsplit(":", 1)
        self.target = (host, int(port))
        self.blocked = blocked or (lambda callee, caller: False)
        self.max_buffer = max_buffer
        self.max_conns = max_conns
        self.hello_timeout = hello_timeout
        self.connect_timeout = connect_timeout
        self.stats = collections.Counter()
        self._conns = []
        self._stop = threading.Event()
        self._applied = 0  # apply() generations the loop has acted on
        self._wanted = 0
        self._lock = threading.Lock()
        self._thread = None
        self.exception = None
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.listener.bind(("127.0.0.1", listen_port))
            self.listener.listen(128)
            self.listener.setblocking(False)
            self._wake_r, self._wake_w = socket.socketpair()
            self._wake_r.setblocking(False)
            self._wake_w.setblocking(False)
        except BaseException:
            self.listener.close()
            raise

    @property
    def addr(self):
        return "127.0.0.1:%d" % self.listen_port

    # -- control (any thread)
    def start(self):
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name="rpc-proxy-%d" % self.node_id)
        self._thread.start()
        return self

    def _poke(self):
        try:
            self._wake_w.send(b"x")
        except (BlockingIOError, OSError):
            pass  # already poked (buffer full) or closed

    def apply(self, timeout=5.0):
        """Ask the loop to re-check every open connection against blocked()
        and wait (bounded) until it has. Returns True if it did."""
        with self._lock:
            self._wanted += 1
            gen = self._wanted
        self._poke()
        deadline = time.monotonic() + timeout
        for _ in range(int(timeout / 0.01) + 10):
            if self._applied >= gen or self._thread is None or not self._thread.is_alive():
                break
            if time.monotonic() > deadline:
                break
            time.sleep(0.01)
        return self._applied >= gen

    def open_connections(self):
        return len(self._conns)

    def close(self, timeout=5.0):
        self._stop.set()
        self._poke()
        if self._thread is not None:
            self._thread.join(timeout)
        # if the thread is stuck (it should not be), close from here anyway
        for c in list(self._conns):
            self._drop(c, None)
        for s in (self.listener, self._wake_r, self._wake_w):
            try:
                s.close()
            except OSError:
                pass
        if self._thread is not None and self._thread.is_alive():
            raise AssertionError("rpc proxy %d: thread still running %.0fs after close"
                                 % (self.node_id, timeout))
        if self.exception is not None:
            raise AssertionError("rpc proxy %d failed: %r" % (self.node_id, self.exception))

    # -- the loop (its own thread)
    def _run(self):
        try:
            self._loop()
        except BaseException as e:  # noqa: BLE001 - reported by close()
            self.exception = e
        finally:
            for c in list(self._conns):
                self._drop(c, None)

    def _drop(self, c, why):
        if why:
            self.stats[why] += 1
        for s in (c.client, c.upstream):
            if s is None:
                continue
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            try:
                s.close()
            except OSError:
                pass
        try:
            self._conns.remove(c)
        except ValueError:
            pass

    def _is_blocked(self, caller):
        return bool(self.blocked(self.node_id, caller))

    def _loop(self):
        while not self._stop.is_set():
            wanted = self._wanted
            now = time.monotonic()
            for c in list(self._conns):
                if not c.hello_done:
                    if self._is_blocked(None):
                        self._drop(c, "cut")  # the callee itself is cut off
                    elif now - c.opened > self.hello_timeout:
                        self._drop(c, "no-hello")
                elif self._is_blocked(c.caller):
                    self._drop(c, "cut")
            self._applied = wanted

            poller = select.poll()
            fds = {}
            poller.register(self._wake_r, _R)
            if len(self._conns) < self.max_conns:
                poller.register(self.listener, _R)
            for c in self._conns:
                ev = 0
                if not c.hello_done or len(c.c2u) < self.max_buffer:
                    ev |= _R
                if c.u2c:
                    ev |= _W
                poller.register(c.client, ev or _ERR)
                fds[c.client.fileno()] = (c, "client")
                if c.upstream is not None:
                    ev = 0
                    if len(c.u2c) < self.max_buffer:
                        ev |= _R
                    if c.c2u:
                        ev |= _W
                    poller.register(c.upstream, ev or _ERR)
                    fds[c.upstream.fileno()] = (c, "upstream")
            for fd, ev in poller.poll(100):
                if fd == self._wake_r.fileno():
                    try:
                        while self._wake_r.recv(4096):
                            pass
                    except (BlockingIOError, OSError):
                        pass
                    continue
                if fd == self.listener.fileno():
                    self._accept()
                    continue
                entry = fds.get(fd)
                if entry is None:
                    continue
                c, side = entry
                if c not in self._conns:
                    continue  # dropped earlier in this round
                self._service(c, side, ev)

    def _accept(self):
        for _ in range(16):
            if len(self._conns) >= self.max_conns:
                return
            try:
                s, _ = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                if e.errno in (errno.EMFILE, errno.ENFILE, errno.ECONNABORTED):
                    self.stats["accept-error"] += 1
                    return
                raise
            self.stats["accepted"] += 1
            s.setblocking(False)
            c = _Conn(s)
            self._conns.append(c)
            if self._is_blocked(None):
                self._drop(c, "refused")

    def _service(self, c, side, ev):
        src = c.client if side == "client" else c.upstream
        dst_buf = c.c2u if side == "client" else c.u2c
        out_buf = c.u2c if side == "client" else c.c2u
        if ev & _W and out_buf:
            try:
                n = src.send(out_buf)
                del out_buf[:n]
                self.stats["bytes"] += n
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                self._drop(c, "closed")
                return
        if ev & (_R | _ERR):
            room = self.max_buffer - len(dst_buf)
            if side == "client" and not c.hello_done:
                room = max(room, 4 + MAX_HELLO)
            if room <= 0 and not ev & _ERR:
                return
            try:
                data = src.recv(min(max(room, 1), 65536))
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self._drop(c, "closed")
                return
            if not data:
                # one side is done: hand over what is buffered (best effort), then close
                other = c.upstream if side == "client" else c.client
                if other is not None and out_buf is not None and c.hello_done:
                    pending = c.c2u if side == "client" else c.u2c
                    try:
                        if pending:
                            other.send(pending)
                    except OSError:
                        pass
                self._drop(c, "closed")
                return
            dst_buf += data
            if side == "client" and not c.hello_done:
                self._after_hello(c)

    def _after_hello(self, c):
        done, caller = parse_hello(c.c2u)
        if not done:
            return
        c.hello_done = True
        c.caller = caller
        if caller is None:
            self.stats["not-a-hello"] += 1
        if self._is_blocked(caller):
            self._drop(c, "refused")
            return
        try:
            up = socket.create_connection(self.target, timeout=self.connect_timeout)
        except OSError:
            self._drop(c, "upstream-refused")
            return
        up.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        c.client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        up.setblocking(False)
        c.upstream = up
        self.stats["forwarded"] += 1
