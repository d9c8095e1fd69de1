"""The cluster checker's own logic (checker.check and checker.window) on
made-up histories: no broker needed."""

import pytest

import checker
from checker import Ack, Seen

pytestmark = pytest.mark.selftest

T = "t"


def _ack(p, off, key, seq, t):
    k = checker.key_name(key)
    return Ack(T, p, off, k, checker.make_value(k, seq), t)


def _seen(a):
    return Seen(a.partition, a.offset, a.key, a.value)


def _history():
    acked = [_ack(0, 0, 0, 0, 1.0), _ack(0, 1, 0, 1, 1.1), _ack(1, 0, 1, 0, 1.2),
             _ack(0, 2, 0, 2, 4.0), _ack(1, 1, 1, 1, 4.5)]
    log = [_seen(a) for a in acked]
    return acked, log


def _kinds(r):
    return sorted({k for k, _ in r.problems})


def test_a_clean_history_passes():
    acked, log = _history()
    r = checker.check("clean", acked, log[:3], log, faults=[("kill", 2.0)])
    assert r.ok, r.problems
    assert r.window_s() == pytest.approx(4.0 - 1.2)
    r.assert_ok()
    line = r.summary()
    assert "scenario=clean acked=5 errors=0 observed-during=3 window_s=2.800" in line
    assert "result=ok" in line


def test_a_lost_ack_is_reported():
    acked, log = _history()
    r = checker.check("lost", acked, [], [s for s in log if (s.partition, s.offset) != (0, 2)],
                      hw={0: 2, 1: 2})
    assert _kinds(r) == ["lost"]
    assert "high watermark 2" in r.problems[0][1]
    with pytest.raises(AssertionError, match="lost"):
        r.assert_ok()


def test_records_below_the_log_start_were_deleted_by_retention():
    acked, log = _history()
    # Retention deleted partition 0's first two records: not lost, and no
    # gap, when the log start says so; lost when it does not.
    kept = [s for s in log if not (s.partition == 0 and s.offset < 2)]
    r = checker.check("retention", acked, log[:2], kept, log_start={0: 2, 1: 0})
    assert r.ok, r.problems
    assert r.gaps == 0
    assert "acked_below_log_start=2" in r.summary()
    r = checker.check("retention-unsaid", acked, log[:2], kept, log_start={0: 1})
    assert _kinds(r) == ["lost", "read-then-lost"]


def test_an_ack_without_offset_is_found_by_value():
    # librdkafka's implicit acks (idempotent producer) carry no offset.
    acked, log = _history()
    implicit = [a._replace(offset=None) if a.offset == 1 else a for a in acked]
    r = checker.check("implicit", implicit, [], log)
    assert r.ok, r.problems
    assert "acked_without_offset=2" in r.summary()
    # ... and must still be in the log, in key order
    r = checker.check("implicit-lost", implicit, [],
                      [s for s in log if (s.partition, s.offset) != (1, 1)])
    assert _kinds(r) == ["lost"]
    swapped = [Seen(0, 1, log[3].key, log[3].value), Seen(0, 2, log[1].key, log[1].value)]
    both = [a._replace(offset=None) if a.partition == 0 and a.offset > 0 else a for a in acked]
    r = checker.check("implicit-order", both, [], [log[0], *swapped, log[2], log[4]])
    assert _kinds(r) == ["order"]


def test_a_changed_record_is_reported():
    acked, log = _history()
    log[1] = Seen(0, 1, log[1].key, b"something else")
    r = checker.check("changed", acked, [], log)
    assert _kinds(r) == ["changed"]


def test_per_key_order_is_checked():
    acked, log = _history()
    # key 0's sequence 2 acknowledged at an offset before sequence 1
    acked[1], acked[3] = acked[1]._replace(offset=2), acked[3]._replace(offset=1)
    log = [_seen(a) for a in acked]
    r = checker.check("order", acked, [], log)
    assert _kinds(r) == ["order"]


def test_a_read_record_that_is_later_lost_or_changed_is_reported():
    acked, log = _history()
    ghost = Seen(1, 2, checker.key_name(1), checker.make_value(checker.key_name(1), 2))
    changed = Seen(0, 0, log[0].key, b"other")
    r = checker.check("ghost", acked, [ghost, changed], log)
    assert _kinds(r) == ["read-then-changed", "read-then-lost"]


def test_duplicates_fail_only_with_idempotence():
    acked, log = _history()
    log.append(Seen(0, 3, log[0].key, log[0].value))  # a retried message written twice
    r = checker.check("dup", acked, [], log, idempotence=False)
    assert r.ok and r.duplicates == 1
    r = checker.check("dup", acked, [], log, idempotence=True)
    assert _kinds(r) == ["duplicate"]


def test_gaps_are_counted_not_failed():
    acked, log = _history()
    log.append(Seen(1, 5, b"x", b"y"))
    r = checker.check("gaps", acked, [], log)
    assert r.ok and r.gaps == 3


def test_window_edges():
    acked, _ = _history()
    assert checker.window(acked, 0.5) is None  # nothing before
    assert checker.window(acked, 5.0) is None  # nothing after
    assert checker.window(acked, 1.15) == pytest.approx(0.1)


def test_report_appends_to_the_file(tmp_path, monkeypatch, capsys):
    path = tmp_path / "report.txt"
    monkeypatch.setenv(checker.REPORT_ENV, str(path))
    checker.report("scenario=a acked=1")
    checker.report("scenario=b acked=2")
    assert path.read_text() == "scenario=a acked=1\nscenario=b acked=2\n"
    assert "scenario=b" in capsys.readouterr().out


def test_longest_gap_after_a_fault():
    acked, _ = _history()  # acks at 1.0 1.1 1.2 4.0 4.5
    assert checker.longest_gap(acked, 1.15) == pytest.approx(2.8)
    assert checker.longest_gap(acked, 1.15, until=1.2) == pytest.approx(0.1)
    assert checker.longest_gap(acked, 0.5) is None
    r = checker.check("gap", acked, [], [_seen(a) for a in acked],
                      faults=[("b", 4.2), ("a", 1.15)])
    assert [lbl for lbl, _ in r.windows] == ["a", "b"]
    assert r.gaps_after[0][1] == pytest.approx(2.8) and r.gaps_after[1][1] == pytest.approx(0.5)
    assert "max_pause_s=2.800" in r.summary()


def test_window_of_one_partition():
    acked, _ = _history()  # partition 0 acks at 1.0 1.1 4.0; partition 1 at 1.2 4.5
    assert checker.window(acked, 1.15, partition=0) == pytest.approx(2.9)
    assert checker.longest_gap(acked, 1.25, partition=1) == pytest.approx(3.3)
    r = checker.check("p", acked, [], [_seen(a) for a in acked], faults=[("f", 1.15, 0)])
    assert r.window_s() == pytest.approx(2.9)
