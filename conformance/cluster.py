"""Start, crash, freeze and wipe a multi-broker tidemark cluster on 127.0.0.1.

A Cluster is 3 or 5 `tidemark` processes, each a harness.Broker (a Node
here) with its own free Kafka port, its own free Raft RPC port, its own
fresh data directory and a rack (zone-a, zone-b, zone-c, cycling). Every
broker is started with the whole voter set:

    tidemark --node-id N --data-dir DIR --kafka-addr 127.0.0.1:K --advertise-kafka-addr 127.0.0.1:K
             --rpc-addr 127.0.0.1:R --rack zone-X --cores 1
             --seeds 1@127.0.0.1:R1,2@127.0.0.1:R2,3@127.0.0.1:R3 [--set name=value ...]

A broker is ready when it answers ApiVersions; the cluster is ready when
Metadata from every running broker lists every running broker and a
CreateTopics with replication factor min(3, N) gets a leader for its
partition. Faults: kill9(), kill9_many(), sigstop() / sigcont(), restart(),
restart_all(), wipe() (stop, delete the data directory, start again with
the same id and ports). Each fault method returns the wall-clock time
(time.time()) at which the fault hit, for checker.Run.fault().

Cluster(..., proxied=True) starts an rpcproxy.RpcProxy (a thread here)
per broker on 127.0.0.1:PROXY and gives each broker
`--advertise-rpc-addr 127.0.0.1:PROXY` and the proxies as --seeds, so all
broker-to-broker traffic goes through the proxies; cut(n) cuts broker n
off from the others (clients still reach its Kafka port), split(group)
cuts a group of brokers (e.g. one zone) off from the rest while the
brokers of each side still reach each other, heal() undoes both.

Every wait is bounded in time and in iterations. close() stops every
process by its PID (SIGCONT first if it is frozen).

`Cluster(1, single_node=True)` is a plain single broker (no cluster
flags), for checking the checker against today's single-node broker.
"""

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import harness
import rawkafka
import rpcproxy

RACKS = ("zone-a", "zone-b", "zone-c")

NOT_LEADER_OR_FOLLOWER = 6
COORDINATOR_NOT_AVAILABLE = 15
NOT_COORDINATOR = 16
NOT_CONTROLLER = 41
REQUEST_TIMED_OUT = 7
RETRIABLE_CREATE = {REQUEST_TIMED_OUT, NOT_CONTROLLER, 5, 8, COORDINATOR_NOT_AVAILABLE, 89}

_help_text = None


def binary_help(binary=None):
    """`tidemark --help` output (cached; empty if the binary is missing)."""
    global _help_text
    if _help_text is None or binary is not None:
        path = Path(binary) if binary else harness.broker_binary()
        try:
            p = subprocess.run([str(path), "--help"], capture_output=True, timeout=10)
            text = (p.stdout + p.stderr).decode("utf-8", "replace")
        except (OSError, subprocess.TimeoutExpired):
            text = ""
        if binary is not None:
            return text
        _help_text = text
    return _help_text


def partition_folders(node, topic):
    """The names of `topic`'s partition folders in `node`'s data dir."""
    logs = node.data_dir / "logs"
    if not logs.is_dir():
        return []
    return sorted(d.name for d in logs.iterdir() if d.name.startswith(topic + "-"))


def binary_has_cluster_mode():
    return "--seeds" in binary_help()


def _conn_quiet(addr, timeout=2.0):
    """A KafkaConn with ApiVersions done, or None if the broker is not answering."""
    try:
        c = rawkafka.KafkaConn(addr, timeout=timeout)
    except OSError:
        return None
    try:
        c.api_versions()
        return c
    except (OSError, rawkafka.ConnectionClosed, ValueError, AssertionError):
        c.close()
        return None


def _wait(predicate, timeout, what, last, interval=0.1):
    """harness.wait_until, with the dict `last` (filled by the predicate)
    rendered into the failure message when it fails."""
    try:
        return harness.wait_until(predicate, timeout=timeout, interval=interval, what=what)
    except AssertionError as e:
        raise AssertionError("%s; last seen: %s" % (e, last)) from None


class Node(harness.Broker):
    """One broker of a cluster: harness.Broker plus an RPC port, a rack, the
    seed list, and SIGSTOP / SIGCONT."""

    def __init__(self, cluster, node_id, rack, **kw):
        super().__init__(node_id=node_id, name="node%d" % node_id, **kw)
        self.cluster = cluster
        self.rack = rack
        self.rpc_port = harness.free_port()
        # proxied cluster: other brokers reach this one through 127.0.0.1:proxy_port
        self.proxy_port = harness.free_port() if cluster.proxied else None
        self.paused = False  # SIGSTOPped and not yet SIGCONTed

    @property
    def rpc_addr(self):
        return "%s:%d" % (self.host, self.rpc_port)

    @property
    def advertised_rpc_addr(self):
        """Where the other brokers reach this one: its proxy, if proxied."""
        if self.proxy_port is not None:
            return "%s:%d" % (self.host, self.proxy_port)
        return self.rpc_addr

    def argv(self):
        argv = super().argv()
        if not self.cluster.single_node:
            # argv_seeds: a broker joining with a seed list it is not in
            seeds = getattr(self, "argv_seeds", None) or self.cluster.seeds
            argv += ["--rpc-addr", self.rpc_addr, "--rack", self.rack, "--seeds", seeds]
            if self.proxy_port is not None:
                argv += ["--advertise-rpc-addr", self.advertised_rpc_addr]
        return argv

    def serving(self):
        """Running and not frozen."""
        return self.running() and not self.paused

    def sigstop(self):
        if not self.running():
            raise harness.BrokerError("node %d is not running" % self.node_id)
        self._signal(signal.SIGSTOP)
        self.paused = True

    def sigcont(self):
        if self.proc is not None:
            self._signal(signal.SIGCONT)
        self.paused = False

    def kill9(self):
        rc = super().kill9()  # SIGKILL ends a stopped process too
        self.paused = False
        return rc

    def sigterm(self, timeout=harness.STOP_TIMEOUT):
        if self.paused:
            self.sigcont()
        return super().sigterm(timeout)

    def _hard_kill(self):
        super()._hard_kill()
        self.paused = False

    def __repr__(self):
        return "<Node %d kafka=%s rpc=%s pid=%s%s>" % (self.node_id, self.bootstrap, self.rpc_addr,
                                                      self.pid, " STOPPED" if self.paused else "")


class Cluster:
    """N tidemark brokers forming one cluster (see the module docstring)."""

    def __init__(self, size=3, settings=None, cores=None, racks=RACKS, single_node=False,
                 binary=None, name="cluster", proxied=False):
        if single_node and size != 1:
            raise ValueError("single_node is a cluster of one")
        if proxied and single_node:
            raise ValueError("a single node has no broker-to-broker traffic to proxy")
        self.single_node = single_node
        self.proxied = proxied
        self.settings = settings  # every node's, a joining one's too
        self.binary = binary
        self.proxies = {}  # node id -> rpcproxy.RpcProxy (proxied only)
        self.cut_off = set()  # node ids cut off from the other brokers (proxied only)
        self.split_off = set()  # node ids on the far side of a split (proxied only)
        self.name = name
        if cores is None:
            cores = int(os.environ.get("TIDEMARK_CLUSTER_CORES", "1"))
        self.root = Path(tempfile.mkdtemp(prefix="tidemark-cluster-",
                                          dir=os.environ.get("TIDEMARK_TEST_TMPDIR")))
        self.nodes = {}
        try:
            for i in range(1, size + 1):
                self.nodes[i] = Node(self, i, racks[(i - 1) % len(racks)], settings=settings,
                                     cores=cores, binary=binary, tmp_root=str(self.root))
            if proxied:
                for n in self.nodes.values():
                    self.proxies[n.node_id] = rpcproxy.RpcProxy(
                        n.node_id, n.proxy_port, n.rpc_addr, blocked=self._blocked).start()
        except BaseException:
            for pr in self.proxies.values():
                pr.close()
            shutil.rmtree(self.root, ignore_errors=True)
            raise
        self.events = []  # (time.time(), text): what was done to the cluster, for reports

    # -- addresses
    @property
    def size(self):
        return len(self.nodes)

    @property
    def seeds(self):
        return ",".join("%d@%s" % (n.node_id, n.advertised_rpc_addr) for n in self.nodes.values())

    @property
    def bootstrap(self):
        return ",".join(n.bootstrap for n in self.nodes.values())

    def node(self, node_id):
        return self.nodes[node_id]

    def serving_nodes(self):
        return [n for n in self.nodes.values() if n.serving()]

    def _event(self, text):
        t = time.time()
        self.events.append((t, text))
        return t

    # -- lifecycle
    def start(self, timeout=None):
        """Start every broker (all processes first, then wait for them)."""
        for n in self.nodes.values():
            n.start(wait=False)
        self._event("start all")
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout=None, probe_topic=True):
        """Every running broker answers ApiVersions, Metadata from each lists
        every running broker, and (probe_topic) a CreateTopics with RF
        min(3, N) gets a leader."""
        timeout = timeout or max(harness.READY_TIMEOUT, 30.0)
        deadline = time.monotonic() + timeout
        for n in self.nodes.values():
            if n.running():
                n.wait_ready(max(1.0, deadline - time.monotonic()))
        want = {n.node_id for n in self.nodes.values() if n.running()}
        last = {}

        def all_listed():
            for n in self.serving_nodes():
                listed = self.brokers_seen_by(n.node_id)
                last[n.node_id] = listed
                if listed is None or not want <= set(listed):
                    return False
            return True

        _wait(all_listed, max(1.0, deadline - time.monotonic()),
              "Metadata from every broker to list brokers %s" % sorted(want), last)
        if probe_topic:
            self.create_topic(harness.unique_topic("ready-probe"), 1,
                              timeout=max(5.0, deadline - time.monotonic()))
        return self

    def check_alive(self):
        for n in self.nodes.values():
            n.check_alive()

    def kill9(self, node_id):
        """SIGKILL one broker; returns the fault time."""
        t = self._event("kill -9 node %d" % node_id)
        self.nodes[node_id].kill9()
        return t

    def kill9_many(self, node_ids):
        """SIGKILL several brokers at the same instant (every signal is sent
        before any exit is waited for); returns the fault time."""
        nodes = [self.nodes[i] for i in node_ids]
        for n in nodes:
            n.check_alive()
        t = self._event("kill -9 nodes %s" % sorted(node_ids))
        for n in nodes:
            n._expect_exit = True
            n._signal(signal.SIGKILL)
        for n in nodes:
            n.kill9()  # waits for the exit (already signalled)
        return t

    def sigstop(self, node_id):
        t = self._event("SIGSTOP node %d" % node_id)
        self.nodes[node_id].sigstop()
        return t

    def sigcont(self, node_id):
        t = self._event("SIGCONT node %d" % node_id)
        self.nodes[node_id].sigcont()
        return t

    # -- network partitions (proxied clusters only)
    def _blocked(self, callee, caller):
        """For the proxies: is a connection from caller (a node id, or None
        when not known yet) to callee cut? Every connection to or from a
        cut-off broker is, and every connection across a split (known once
        the caller's hello names it)."""
        cut = self.cut_off
        if callee in cut or (caller is not None and caller in cut):
            return True
        return caller is not None and (callee in self.split_off) != (caller in self.split_off)

    def _apply_cut(self):
        slow = [nid for nid, pr in self.proxies.items() if not pr.apply()]
        if slow:
            raise AssertionError("rpc proxies of nodes %s did not apply the cut within 5 s" % slow)

    def cut(self, node_id):
        """Cut one broker off from every other broker (clients still reach
        it): its proxy closes every connection and refuses new ones, the
        other proxies close and refuse the connections it opens (its hello
        names it). Returns the time the cut was in place."""
        if not self.proxied:
            raise ValueError("cut() needs Cluster(proxied=True)")
        self.cut_off.add(node_id)
        self._apply_cut()
        return self._event("cut node %d off from the other brokers" % node_id)

    def split(self, node_ids):
        """Split the cluster in two: the brokers in node_ids (e.g. one zone)
        keep reaching each other, the others keep reaching each other, and
        no connection crosses between the two sides (clients still reach
        every broker). Returns the time the split was in place."""
        if not self.proxied:
            raise ValueError("split() needs Cluster(proxied=True)")
        self.split_off = set(node_ids)
        self._apply_cut()
        return self._event("split nodes %s off from nodes %s" % (
            sorted(self.split_off), sorted(set(self.nodes) - self.split_off)))

    def heal(self):
        """Stop cutting anything; brokers reconnect on their own. Returns the time."""
        if not self.proxied:
            raise ValueError("heal() needs Cluster(proxied=True)")
        t = self._event("heal (was cut: %s, split: %s)" % (sorted(self.cut_off),
                                                            sorted(self.split_off)))
        self.cut_off.clear()
        self.split_off = set()
        self._apply_cut()
        return t

    def proxy_stats(self):
        """{node id: {stat: count}} of every proxy (accepted, forwarded, cut,
        refused, closed, bytes, ...)."""
        return {nid: dict(pr.stats) for nid, pr in self.proxies.items()}


    def proxy_summary(self):
        """The proxies' counts over every broker, for a scenario's notes."""
        stats = self.proxy_stats()
        return "proxy_cut=%d proxy_refused=%d" % (
            sum(s.get("cut", 0) for s in stats.values()),
            sum(s.get("refused", 0) for s in stats.values()))
    def start_node(self, node_id, timeout=None, rejoin_timeout=30.0):
        """Start a broker that is not running (same id, ports, data dir);
        ready when it answers ApiVersions and (cluster mode, rejoin_timeout
        not None) its Metadata lists every running broker again."""
        n = self.nodes[node_id]
        t = self._event("start node %d" % node_id)
        n.start(timeout=timeout or harness.READY_TIMEOUT)
        if not self.single_node and rejoin_timeout:
            self.wait_rejoined(node_id, rejoin_timeout)
        return t

    def join(self, node_id, rack, timeout=30.0):
        """Start a broker outside --seeds (it joins through the seeds, as a
        controller learner), add it to self.nodes (self.seeds stays the
        voters) and wait until every broker lists every broker. The caller
        closes it with the cluster (close() stops every node). It runs with
        the cluster's settings, as an operator's new broker would (a joined
        broker on the defaults created __consumer_offsets with 50 partitions
        and rebalanced leaders where the test had turned that off)."""
        n = Node(self, node_id, rack, cores=int(os.environ.get("TIDEMARK_CLUSTER_CORES", "1")),
                 settings=self.settings, binary=self.binary, tmp_root=str(self.root))
        n.argv_seeds = self.seeds
        n.start()
        self.nodes[node_id] = n
        want = set(self.nodes)
        harness.wait_until(lambda: all(set(self.brokers_seen_by(b) or []) == want for b in want),
                           timeout=timeout, interval=0.2,
                           what="every broker to list brokers %s" % sorted(want))
        return n

    def wait_rejoined(self, node_id, timeout=30.0):
        """Wait until every running broker's Metadata lists every running
        broker: the restarted or wiped broker has caught up with the
        cluster's view, and the others list it, i.e. the controller has
        unfenced it (a broker always lists itself, so its own answer alone
        can come while the cluster still has it fenced, and a CreateTopics
        at replication factor 3 is then refused)."""
        want = {n.node_id for n in self.nodes.values() if n.running()}
        last = {}

        def sees_all():
            listed = self.brokers_seen_by(node_id)
            last["brokers listed by node %d" % node_id] = listed
            if listed is None or not want <= set(listed):
                return False
            for n in self.nodes.values():
                if n.node_id != node_id and n.serving():
                    theirs = self.brokers_seen_by(n.node_id)
                    last["brokers listed by node %d" % n.node_id] = theirs
                    if theirs is None or node_id not in theirs:
                        return False
            return True
        _wait(sees_all, timeout, "node %d to rejoin (its Metadata to list brokers %s, and "
              "every other serving broker's to list it)" % (node_id, sorted(want)), last,
              interval=0.2)

    def restart(self, node_id, how="kill9", timeout=None):
        """Stop one broker (kill9 or term; nothing if it is down already) and
        start it again. Returns the time it was stopped (or started)."""
        n = self.nodes[node_id]
        t = None
        if n.running():
            t = self._event("%s node %d" % (how, node_id))
            if how == "kill9":
                n.kill9()
            elif how == "term":
                n.sigterm()
            else:
                raise ValueError(how)
        t2 = self.start_node(node_id, timeout)
        return t or t2

    def restart_all(self, how="kill9", timeout=None):
        """Stop every broker at once, then start them all. Returns the stop time."""
        t = self._event("%s every node" % how)
        for n in self.nodes.values():
            if n.running():
                if how == "kill9":
                    n.kill9()
                else:
                    n.sigterm()
        for n in self.nodes.values():
            n.start(wait=False)
        self._event("start all")
        self.wait_ready(timeout, probe_topic=False)
        return t

    def wipe(self, node_id, timeout=None):
        """Stop the broker (kill -9 if running), delete its data directory,
        start it again with the same id and ports. Returns the stop time."""
        n = self.nodes[node_id]
        t = self._event("wipe node %d" % node_id)
        if n.running():
            n.kill9()
        shutil.rmtree(n.data_dir, ignore_errors=True)
        n.data_dir.mkdir(parents=True)
        self.start_node(node_id, timeout)
        return t

    def close(self, keep_data=None):
        """Stop every broker by PID (SIGCONT first if frozen). Raises the
        first BrokerError (a broker that died on its own or would not stop)."""
        errors = []
        for n in self.nodes.values():
            if n.paused:
                n.sigcont()
        for n in self.nodes.values():
            try:
                n.close(keep_data=keep_data)
            except harness.BrokerError as e:
                errors.append("node %d: %s" % (n.node_id, e))
        # after the brokers: a controlled shutdown talks to the other brokers
        self.cut_off.clear()
        self.split_off = set()
        for nid, pr in self.proxies.items():
            try:
                pr.close()
            except AssertionError as e:
                errors.append("proxy of node %d: %s" % (nid, e))
        try:
            self.root.rmdir()  # only if every node's directory went
        except OSError:
            pass
        if errors:
            raise harness.BrokerError("\n".join(errors))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- Kafka-level views (raw protocol, one short connection per call)
    def _conn(self, node_id=None, timeout=2.0):
        """A connection to node_id, or to the first serving broker that answers."""
        order = [self.nodes[node_id]] if node_id is not None else self.serving_nodes()
        for n in order:
            if not n.serving():
                continue
            c = _conn_quiet(n.bootstrap, timeout)
            if c is not None:
                return c
        return None

    def brokers_seen_by(self, node_id):
        """Node ids listed by this broker's Metadata, or None if it did not answer."""
        c = self._conn(node_id)
        if c is None:
            return None
        try:
            with c:
                md = c.metadata([])
            return sorted(b["NodeId"] for b in md["Brokers"])
        except (OSError, rawkafka.ConnectionClosed, ValueError, AssertionError):
            return None

    def metadata(self, topics, node_id=None):
        c = self._conn(node_id)
        if c is None:
            return None
        try:
            with c:
                return c.metadata(topics)
        except (OSError, rawkafka.ConnectionClosed, ValueError, AssertionError):
            return None

    def partition_views(self, topic, partition):
        """{node_id: partition dict from that broker's Metadata} for every
        serving broker that answered."""
        out = {}
        for n in self.serving_nodes():
            md = self.metadata([topic], n.node_id)
            if md is None:
                continue
            for t in md["Topics"]:
                if t["Name"] != topic or t["ErrorCode"] != 0:
                    continue
                for p in t["Partitions"]:
                    if p["PartitionIndex"] == partition:
                        out[n.node_id] = p
        return out

    def partition_state(self, topic, partition, views_out=None):
        """The view with the highest leader epoch among the serving brokers
        (dict with LeaderId, LeaderEpoch, ReplicaNodes, IsrNodes), or None.
        views_out (a dict) is given every broker's view, for diagnostics."""
        best = None
        views = self.partition_views(topic, partition)
        if views_out is not None:
            views_out.clear()
            views_out.update({n: {k: v[k] for k in ("ErrorCode", "LeaderId", "LeaderEpoch",
                                                    "ReplicaNodes", "IsrNodes") if k in v}
                              for n, v in views.items()})
        for p in views.values():
            if p["ErrorCode"] not in (0, NOT_LEADER_OR_FOLLOWER) or p["LeaderId"] < 0:
                continue
            if best is None or p.get("LeaderEpoch", -1) > best.get("LeaderEpoch", -1):
                best = p
        return best

    def leader_of(self, topic, partition, timeout=30.0, exclude=()):
        """The leader's node id per Metadata (highest leader epoch seen),
        waiting until it is a serving broker not in exclude."""
        last = {}

        def serving_leader():
            p = self.partition_state(topic, partition, last)
            if p is None:
                return None
            lid = p["LeaderId"]
            if lid in self.nodes and self.nodes[lid].serving() and lid not in exclude:
                return lid
            return None
        return _wait(serving_leader, timeout, "a serving leader for %s/%d (not %s)"
                     % (topic, partition, list(exclude)), last)  # last: {node: its view}

    def settled_leader(self, topic, partition, timeout=30.0):
        """The leader once it has settled: the preferred replica (a new
        partition's first leader hands over to it right after creation),
        or any leader that stayed the same for 3 s."""
        preferred = self.replicas_of(topic, partition)[0]
        deadline = time.monotonic() + timeout
        last, since = None, time.monotonic()
        while time.monotonic() < deadline:
            leader = self.leader_of(topic, partition)
            if leader == preferred:
                return leader
            if leader != last:
                last, since = leader, time.monotonic()
            elif time.monotonic() - since >= 3.0:
                return leader
            time.sleep(0.1)
        raise AssertionError("%s/%d: no settled leader in %.0f s" % (topic, partition, timeout))

    def replicas_of(self, topic, partition, timeout=10.0):
        p = harness.wait_until(lambda: self.partition_state(topic, partition), timeout=timeout,
                               interval=0.1, what="metadata for %s/%d" % (topic, partition))
        return list(p["ReplicaNodes"])

    def create_placed(self, topic, placement):
        """CreateTopics with a manual assignment (partition i on the
        brokers placement[i]), sent to the first one's broker; returns
        once every partition has a leader."""
        with rawkafka.KafkaConn(self.node(placement[0][0]).bootstrap) as conn:
            conn.api_versions()
            v = conn.pick(rawkafka.API_CREATE_TOPICS)
            r = conn.request(rawkafka.API_CREATE_TOPICS, v, {
                "Topics": [{"Name": topic, "NumPartitions": -1, "ReplicationFactor": -1,
                            "Assignments": [{"PartitionIndex": i, "BrokerIds": list(b)}
                                            for i, b in enumerate(placement)],
                            "Configs": []}],
                "timeoutMs": 30000, "validateOnly": False})
        assert r["Topics"][0]["ErrorCode"] == 0, r
        for i in range(len(placement)):
            self.leader_of(topic, i)

    def create_topic(self, topic, partitions=1, replication_factor=None, configs=None,
                     timeout=30.0, full_isr=False):
        """CreateTopics (retrying on other brokers while the answer is
        retriable), then wait until every partition has a leader (and, with
        full_isr, every replica in its ISR). Returns the Metadata topic."""
        if replication_factor is None:
            replication_factor = min(3, self.size)
        deadline = time.monotonic() + timeout
        last = None
        created = False
        for _ in range(int(timeout / 0.2) + 2):
            c = self._conn()
            if c is not None:
                try:
                    with c:
                        res, _ = c.create_topics([{
                            "Name": topic, "NumPartitions": partitions,
                            "ReplicationFactor": replication_factor,
                            "Configs": [{"Name": k, "Value": v}
                                        for k, v in (configs or {}).items()]}],
                            timeout_ms=int(max(1.0, deadline - time.monotonic()) * 1000))
                    last = res[topic]
                    err = last["ErrorCode"]
                    if err in (0, rawkafka.TOPIC_ALREADY_EXISTS):
                        created = True
                        break
                    if err not in RETRIABLE_CREATE:
                        raise AssertionError("CreateTopics %s: error %d %s"
                                             % (topic, err, last.get("ErrorMessage")))
                except (OSError, rawkafka.ConnectionClosed) as e:
                    last = repr(e)
            if time.monotonic() > deadline:
                break
            time.sleep(0.2)
        if not created:
            raise AssertionError("CreateTopics %s did not succeed within %.0fs (last: %r)"
                                 % (topic, timeout, last))
        state = {}

        def ready():
            md = self.metadata([topic])
            if md is None:
                return None
            t = md["Topics"][0]
            state["last"] = t
            if t["ErrorCode"] != 0 or len(t["Partitions"]) != partitions:
                return None
            for p in t["Partitions"]:
                if p["LeaderId"] < 0 or p["ErrorCode"] != 0:
                    return None
                if full_isr and len(p["IsrNodes"]) < replication_factor:
                    return None
            return t

        return _wait(ready, max(1.0, deadline - time.monotonic()),
                     "topic %s: %d partitions with leaders%s"
                     % (topic, partitions, " and full ISR" if full_isr else ""), state)

    def coordinator_of(self, group, timeout=20.0, key_type=0):
        """FindCoordinator for a consumer group (key_type 1: a transactional
        id): the coordinator's node id."""
        last = {}

        def find():
            c = self._conn()
            if c is None:
                return None
            try:
                with c:
                    v = c.pick(rawkafka.API_FIND_COORDINATOR)
                    if v >= 4:
                        r = c.request(rawkafka.API_FIND_COORDINATOR, v,
                                      {"KeyType": key_type, "CoordinatorKeys": [group]})
                        r = r["Coordinators"][0]
                    else:
                        r = c.request(rawkafka.API_FIND_COORDINATOR, v,
                                      {"Key": group, "KeyType": key_type})
            except (OSError, rawkafka.ConnectionClosed, ValueError) as e:
                last["r"] = repr(e)
                return None
            last["r"] = r
            if r["ErrorCode"] == 0 and r["NodeId"] in self.nodes:
                return r["NodeId"]
            return None

        return _wait(find, timeout, "FindCoordinator for group %s" % group, last, interval=0.2)

    def high_watermark(self, topic, partition, timeout=10.0):
        """ListOffsets LATEST from the current leader."""
        def ask():
            lid = self.leader_of(topic, partition, timeout=timeout)
            c = self._conn(lid)
            if c is None:
                return None
            try:
                with c:
                    r = c.list_offset(topic, partition, rawkafka.LATEST)
            except (OSError, rawkafka.ConnectionClosed, ValueError):
                return None
            return (r["Offset"],) if r["ErrorCode"] == 0 else None
        return harness.wait_until(ask, timeout=timeout, interval=0.1,
                                  what="high watermark of %s/%d" % (topic, partition))[0]

    # -- diagnostics
    def log_tails(self, lines=40):
        out = []
        for n in self.nodes.values():
            state = "running" if n.running() else "down"
            if n.paused:
                state = "STOPPED"
            out.append("--- node %d (%s, %s, data %s) ---\n%s"
                       % (n.node_id, n.bootstrap, state, n.data_dir, n.log_tail(lines)))
        return "\n".join(out)

    def describe(self):
        return "%s: %s" % (self.name, ", ".join(repr(n) for n in self.nodes.values()))
