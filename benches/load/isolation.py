"""What the isolation benchmarks (issue 20) share: rounds that alternate a
solo measurement of a live pair (`tmk bench e2e`) with one beside some
interference, and the solo-against-beside table of medians.

Used by backlogbench.py (a catch-up reader), hotbench.py (a hot
partition) and burstbench.py (a burst), which also share `tmk` and
`fresh` from here.
"""
import json
import statistics
import subprocess
import time

METRICS = (("ack_p50", "publish-ack p50 ms"), ("ack_p99", "publish-ack p99 ms"),
           ("e2e_p50", "publish-to-consume p50 ms"), ("e2e_p99", "publish-to-consume p99 ms"))


def alternate(rounds, solo, beside, beside_mode, extra):
    """`rounds` rounds of `solo()` and `beside()` (each returning the e2e
    result and what the interference did, or None), the order swapped every
    round; `extra(what) -> dict` adds the interference's figures to a row.
    Prints each row as JSON; returns the rows."""
    rows = []
    for r in range(rounds):
        order = ["solo", beside_mode] if r % 2 == 0 else [beside_mode, "solo"]
        for mode in order:
            res, what = solo() if mode == "solo" else beside()
            row = {"round": r, "mode": mode,
                   "ack_p50": res["publish_ack_ms"]["p50"],
                   "ack_p99": res["publish_ack_ms"]["p99"],
                   "e2e_p50": res["publish_to_consume_ms"]["p50"],
                   "e2e_p99": res["publish_to_consume_ms"]["p99"],
                   "live_rps": res["records_per_sec"]}
            if what:
                row.update(extra(what))
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def print_table(rows, beside_mode, title, beside_title):
    """The medians solo and beside, and their ratio, as a Markdown table."""
    print("| %s | solo (median) | %s (median) | ratio |" % (title, beside_title))
    print("|---|---|---|---|")
    for k, what in METRICS:
        solo = statistics.median(x[k] for x in rows if x["mode"] == "solo")
        beside = statistics.median(x[k] for x in rows if x["mode"] == beside_mode)
        print("| %s | %.2f | %.2f | %.2fx |" % (what, solo, beside, beside / solo))


def tmk(args, b, argv, timeout=900):
    """Runs `args.tmk` against broker `b`; its stdout, or RuntimeError with
    the end of its stderr."""
    p = subprocess.run([args.tmk, "--brokers", b.bootstrap] + argv, capture_output=True,
                       timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError("tmk %s: %s" % (" ".join(argv), p.stderr.decode()[-500:]))
    return p.stdout.decode()


def fresh(args, b, topic, partitions, configs=()):
    """(Re)creates `topic` with `configs` ("key=value"), so that what the
    last phase wrote is deleted (and is not being deleted by retention
    beside the next measurement)."""
    subprocess.run([args.tmk, "--brokers", b.bootstrap, "topic", "delete", topic],
                   capture_output=True, timeout=60)
    extra = [x for c in configs for x in ("-c", c)]
    for _ in range(50):
        p = subprocess.run([args.tmk, "--brokers", b.bootstrap, "topic", "create", topic,
                            "-p", str(partitions)] + extra, capture_output=True, timeout=60)
        if p.returncode == 0:
            return
        time.sleep(0.2)
    raise RuntimeError("could not create %s: %s" % (topic, p.stderr.decode()[-300:]))
