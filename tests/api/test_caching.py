"""api.caching.Flights: concurrent readers share the standings' fingerprint and cold computation, and are never
answered with a run begun before they asked."""

from __future__ import annotations

import threading

from api.caching import Flights


def _wait_for_callers(flights: Flights, key, count: int) -> None:
    """Until `count` callers are inside flights.fresh(key) (so the test knows who waits before it lets a run end)."""
    for _ in range(2000):
        with flights._cond:
            flight = flights._flights.get(key)
            if flight is not None and flight.users >= count:
                return
        threading.Event().wait(0.005)
    raise AssertionError(f"{count} callers never waited for {key!r}")


def _run_in_thread(target):
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("value", target()))
    thread.start()
    return thread, out


def test_a_caller_arriving_during_a_run_gets_a_later_run_never_the_one_under_way():
    flights, runs = Flights(), []
    first_started, release_first = threading.Event(), threading.Event()

    def work():
        runs.append(len(runs) + 1)
        if len(runs) == 1:
            first_started.set()
            release_first.wait(10)
        return runs[-1]

    t1, out1 = _run_in_thread(lambda: flights.fresh("k", work))
    first_started.wait(10)
    t2, out2 = _run_in_thread(lambda: flights.fresh("k", work))  # arrives while run 1 is under way
    _wait_for_callers(flights, "k", 2)
    release_first.set()
    t1.join(10)
    t2.join(10)
    assert out1["value"] == 1
    assert out2["value"] == 2  # its own run, begun after it arrived
    assert flights._flights == {}  # nothing kept once nobody waits


def test_callers_waiting_together_share_one_run_and_join_running_shares_the_run_under_way():
    flights, runs = Flights(), []
    started, release = threading.Event(), threading.Event()

    def work():
        runs.append(1)
        started.set()
        release.wait(10)
        return len(runs)

    t1, out1 = _run_in_thread(lambda: flights.fresh("k", work, join_running=True))
    started.wait(10)
    joiners = [_run_in_thread(lambda: flights.fresh("k", work, join_running=True)) for _ in range(5)]
    _wait_for_callers(flights, "k", 6)
    release.set()
    for t, _ in [(t1, out1), *joiners]:
        t.join(10)
    assert len(runs) == 1
    assert {out["value"] for _, out in joiners} == {1}


def test_a_failed_run_is_run_again_by_a_waiter():
    flights, calls = Flights(), []
    started, release = threading.Event(), threading.Event()

    def failing():
        calls.append("fail")
        started.set()
        release.wait(10)
        raise RuntimeError("database went away")

    def failing_caller():
        try:
            flights.fresh("k", failing, join_running=True)
        except RuntimeError:
            return "raised"

    t1, out1 = _run_in_thread(failing_caller)
    started.wait(10)
    t2, out2 = _run_in_thread(lambda: flights.fresh("k", lambda: calls.append("ok") or "fine", join_running=True))
    _wait_for_callers(flights, "k", 2)
    release.set()
    t1.join(10)
    t2.join(10)
    assert out1["value"] == "raised"
    assert out2["value"] == "fine"
    assert calls == ["fail", "ok"]
