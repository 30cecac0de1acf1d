"""api.caching.Flights: concurrent readers share the standings' fingerprint and cold computation, and are never
answered with a run begun before they asked."""

from __future__ import annotations

import threading

import pytest

from api.caching import Flights, standings_fingerprint


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


# ---- what the fingerprint follows ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_standings_fingerprint_moves_with_every_input_of_the_standings_and_only_with_them():
    from django.contrib.auth import get_user_model

    from league.models import Match, ResultCorrection, Tournament
    from league.services.tournaments import (
        create_tournament,
        on_match_finished,
        register_players,
        seat_round,
        start_round,
        update_tournament,
        withdraw_player,
    )
    from tests.league.tournament_support import bot_field, store_result

    t = create_tournament(name="prints", rounds=2, table_size=2, auto_advance=False, seed="fp")
    other = create_tournament(name="elsewhere", rounds=1, table_size=2, auto_advance=False, seed="fp2")
    players = bot_field(4)
    seen = [standings_fingerprint(t)]

    def moved() -> bool:
        t.refresh_from_db()
        seen.append(standings_fingerprint(t))
        return seen[-1] != seen[-2]

    register_players(tournament=t, players=players)
    assert moved()  # entries
    assert not moved()  # nothing changed
    register_players(tournament=other, players=bot_field(2, prefix="other"))
    assert not moved()  # another tournament's field
    update_tournament(tournament=Tournament.objects.get(pk=t.pk), match_points={"2": {"1": 3, "2": 0}})
    assert moved()  # the points table (it may change until the tournament starts)
    rnd = seat_round(tournament=t)
    assert moved()  # a round
    start_round(tournament_round=rnd)  # its tables wait: what it sends after commit is not run here
    first, second = Match.objects.filter(tournament_round=rnd).order_by("table_number")
    store_result(first, {0: (30, 10), 1: (12, 5)})
    assert moved()  # a match finished in a round still open
    store_result(second, {0: (8, 4), 1: (20, 7)})
    assert moved()
    on_match_finished(match_id=second.pk)
    rnd.refresh_from_db()
    assert rnd.status == "closed"
    assert moved()  # the round closed: its matches are now counted as a closed round's
    assert not moved()
    organiser = get_user_model().objects.create_user("fp-organiser")
    # (league.services.corrections writes the row with the seats' new results; the row is what the print follows)
    ResultCorrection.objects.create(match=first, corrected_by=organiser, reason="slip", before={}, after={})
    assert moved()  # a corrected result
    update_tournament(tournament=Tournament.objects.get(pk=t.pk), name="renamed")
    assert not moved()  # a name is not an input
    withdraw_player(tournament=t, player=players[0])
    assert moved()  # an entry made inactive
