"""Chess clocks (issue 29): a time bank per seat plus an increment per decision, exact on the server, surviving a
restart; a seat whose time runs out gets the table's policy (the fallback bot plays on, or it forfeits).

Time is the test's: `django.utils.timezone.now` is replaced by a clock the test moves on by hand, so every figure
is exact and nothing depends on how fast the machine is (no test measures wall time).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from league.models import Match, MatchSeat, MatchStatus
from league.selectors.clocks import match_clocks
from league.selectors.games import GAME_CACHE
from league.services import create_match
from league.services.decisions import advance_match, play_overdue
from workers.tasks import enforce_turn_deadlines

from .conftest import snapshot

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
# Ahead of the real time: rows whose defaults take the real time when they are made (the outbox's send_after) are
# then due at the test's.
T0 = (datetime.now(UTC) + timedelta(days=1)).replace(microsecond=0)


class Clock:
    """The time every timezone.now() answers while a test runs; moved on with `+=`."""

    def __init__(self, start: datetime):
        self.now = start

    def __iadd__(self, seconds: float):
        self.now += timedelta(seconds=seconds)
        return self


@pytest.fixture
def clock(monkeypatch):
    c = Clock(T0)
    monkeypatch.setattr(timezone, "now", lambda: c.now)
    return c


def clocked_match(accounts, seats: list[str], *, bank: int, increment: int = 0, action: str = "fallback") -> Match:
    players = [accounts["players"][name] for name in seats]
    match = create_match(players=players, ruleset={"players": len(players)}, seed="clock-seed", first_dealer=0,
                         club=accounts["club"], clock_bank_seconds=bank, clock_increment_seconds=increment,
                         deadline_action=action)
    advance_match(match_id=match.pk)
    match.refresh_from_db()
    return match


def seat_of(match: Match, name: str, accounts) -> MatchSeat:
    return MatchSeat.objects.get(match=match, player=accounts["players"][name])


def decide(client, match: Match, expect: int = 201):
    legal = client.get(f"/api/v1/matches/{match.pk}/legal/").json()
    assert legal["my_turn"], legal
    decision = (legal["decisions"][0] if legal["decisions"] else
                {"kind": "pass_cards", "cards": legal["pass_cards"]["from"][:legal["pass_cards"]["count"]]})
    r = client.post(f"/api/v1/matches/{match.pk}/decisions/", {"move_number": legal["move_number"],
                                                               "decision": decision}, format="json")
    assert r.status_code == expect, r.content
    return r.json()


def clock_of(answer: dict, seat: int) -> dict:
    return next(c for c in answer["seats"] if c["seat"] == seat)


def test_each_decision_takes_its_time_off_the_bank_and_earns_the_increment(accounts, clock):
    match = clocked_match(accounts, ["ext-1", "greedy-1"], bank=60, increment=5)
    ext = seat_of(match, "ext-1", accounts)
    assert ext.awaiting and ext.clock_ms == 60_000 and ext.clock_started_at == T0
    assert seat_of(match, "greedy-1", accounts).clock_ms is None  # engine bots play at once: no clock
    assert match.deadline_at == T0 + timedelta(seconds=60)  # the decision's deadline is its clock's
    client = accounts["clients"]["ext-1"]

    clock += 7.25
    state = client.get(f"/api/v1/matches/{match.pk}/state/").json()
    assert clock_of(state["clock"], ext.seat) == {"seat": ext.seat, "remaining_ms": 52_750, "running": True,
                                                  "out_of_time": False}
    assert (state["clock"]["bank_seconds"], state["clock"]["increment_seconds"]) == (60, 5)
    answer = decide(client, match)
    # 60 s - 7.25 s + 5 s; the engine bot then played at the same instant, so the seat's next turn has begun.
    assert clock_of(answer["clock"], ext.seat)["remaining_ms"] == 57_750
    ext.refresh_from_db()
    assert ext.clock_ms == 57_750 and ext.awaiting and ext.clock_started_at == clock.now
    match.refresh_from_db()
    assert match.deadline_at == clock.now + timedelta(milliseconds=57_750)
    clock += 2
    turns = client.get("/api/v1/me/turns/").json()["turns"]
    assert [t["clock_remaining_ms"] for t in turns] == [55_750]
    legal = client.get(f"/api/v1/matches/{match.pk}/legal/").json()
    assert clock_of(legal["clock"], ext.seat)["remaining_ms"] == 55_750


def test_a_seat_not_to_decide_keeps_its_time_and_nobody_is_charged_for_the_bots(accounts, clock):
    match = clocked_match(accounts, ["ann", "ext-1", "greedy-1"], bank=120, increment=0)
    ann, ext = seat_of(match, "ann", accounts), seat_of(match, "ext-1", accounts)
    clients = {ann.seat: accounts["clients"]["ann"], ext.seat: accounts["clients"]["ext-1"]}
    spent = {ann.seat: 0, ext.seat: 0}
    for step in range(12):
        match.refresh_from_db()
        if match.status != MatchStatus.RUNNING:
            break
        waiting = sorted(MatchSeat.objects.filter(match=match, awaiting=True).values_list("seat", flat=True))
        clock += 1.5
        for seat in waiting:
            spent[seat] += 1500
        decide(clients[waiting[0]], match)
        # A seat that was not awaited was charged nothing; one still awaited (cards passed at once) still runs.
        for row in MatchSeat.objects.filter(match=match, seat__in=list(clients)):
            shown = match_clocks(Match.objects.get(pk=match.pk))
            assert clock_of(shown, row.seat)["remaining_ms"] == 120_000 - spent[row.seat], (step, row.seat)
            assert clock_of(shown, row.seat)["running"] == row.awaiting


def test_a_seat_out_of_time_is_refused_and_the_fallback_bot_plays_it_to_the_end(accounts, clock):
    match = clocked_match(accounts, ["ext-1", "greedy-1"], bank=10)
    ext = seat_of(match, "ext-1", accounts)
    client = accounts["clients"]["ext-1"]
    legal = client.get(f"/api/v1/matches/{match.pk}/legal/").json()
    clock += 10  # the bank is spent to the millisecond: the decision arrives with nothing left
    r = client.post(f"/api/v1/matches/{match.pk}/decisions/",
                    {"move_number": legal["move_number"], "decision": legal["decisions"][0]
                     if legal["decisions"] else {"kind": "pass_count", "count": 1}}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "out_of_time"
    ext.refresh_from_db()
    match.refresh_from_db()
    # The policy applied at once: the fallback bot plays the seat from then on, so a table of bots plays to its end.
    assert (ext.out_of_time, ext.clock_ms, ext.clock_started_at, ext.timeouts) == (True, 0, None, 1)
    assert match.status == MatchStatus.FINISHED and not ext.forfeited and ext.placement is not None
    shown = match_clocks(match)
    assert clock_of(shown, ext.seat) == {"seat": ext.seat, "remaining_ms": 0, "running": False, "out_of_time": True}


def test_the_beat_task_applies_forfeit_when_a_bank_runs_out(accounts, clock):
    match = clocked_match(accounts, ["ann", "ext-1", "greedy-1"], bank=30, action="forfeit")
    waiting = list(MatchSeat.objects.filter(match=match, awaiting=True))
    assert waiting and match.deadline_at == T0 + timedelta(seconds=30)
    clock += 29.999
    assert enforce_turn_deadlines() == []  # a millisecond left: nothing is overdue
    clock += 0.001
    assert enforce_turn_deadlines() == [match.pk]
    for row in waiting:
        row.refresh_from_db()
        assert row.forfeited and row.out_of_time and row.clock_ms == 0 and not row.awaiting
    r = accounts["clients"]["ann"].get(f"/api/v1/matches/{match.pk}/state/").json()
    for row in waiting:
        assert clock_of(r["clock"], row.seat)["remaining_ms"] == 0


def test_a_bank_never_goes_below_nothing_however_late_the_sweep_comes(accounts, clock):
    match = clocked_match(accounts, ["ext-1", "ext-2"], bank=5)
    clock += 3600  # the beat task was down for an hour
    shown = match_clocks(Match.objects.get(pk=match.pk))
    assert all(c["remaining_ms"] == 0 for c in shown["seats"] if c["running"])
    enforce_turn_deadlines()
    assert not MatchSeat.objects.filter(match=match, clock_ms__lt=0).exists()
    assert MatchSeat.objects.filter(match=match, out_of_time=True).exists()


def test_the_clocks_are_the_databases_a_fresh_read_and_a_sweep_after_a_restart_agree(accounts, clock):
    """Everything a clock is lives in its rows: forgetting every process's state (the game cache, the objects in
    hand) and reading again gives the same figures, and the sweep of a freshly started worker finds the flag at the
    exact millisecond."""
    match = clocked_match(accounts, ["ext-1", "greedy-1"], bank=45, increment=2)
    client = accounts["clients"]["ext-1"]
    clock += 4
    decide(client, match)
    clock += 6
    before = match_clocks(Match.objects.get(pk=match.pk))
    GAME_CACHE.clear()
    fresh = match_clocks(Match.objects.get(pk=match.pk))
    assert fresh == before
    ext = seat_of(match, "ext-1", accounts)
    assert ext.awaiting
    flag = ext.clock_started_at + timedelta(milliseconds=ext.clock_ms)
    assert play_overdue(match_id=match.pk, now=flag - timedelta(milliseconds=1)).status == "not_overdue"
    assert play_overdue(match_id=match.pk, now=flag).decisions >= 1
    ext.refresh_from_db()
    assert ext.out_of_time and ext.clock_ms == 0


@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="a second process needs a database it can open "
                    "(PostgreSQL); the embedded test database is in this process's memory")
def test_another_process_reads_the_same_clock_and_applies_the_policy_on_time(accounts, clock):
    """A real restart: a new Python process, with nothing of this one's memory, reads the clocks and runs the sweep
    at a given moment."""
    from tests.workers.conftest import worker_database_url

    match = clocked_match(accounts, ["ext-1", "greedy-1"], bank=45, increment=2, action="forfeit")
    ext = seat_of(match, "ext-1", accounts)
    flag = ext.clock_started_at + timedelta(milliseconds=ext.clock_ms)
    script = (
        "import django, json, sys; from datetime import datetime; django.setup();"
        "from league.models import Match; from league.selectors.clocks import match_clocks;"
        "from league.services.decisions import play_overdue;"
        "now = datetime.fromisoformat(sys.argv[2]); m = Match.objects.get(pk=int(sys.argv[1]));"
        "print(json.dumps({'clock': match_clocks(m, now),"
        "'overdue': play_overdue(match_id=m.pk, now=now).status if sys.argv[3] == '1' else None}))"
    )
    env = {**os.environ, "DATABASE_URL": worker_database_url(), "DJANGO_SETTINGS_MODULE": "config.settings"}

    def other_process(now: datetime, sweep: bool) -> dict:
        out = subprocess.run([sys.executable, "-c", script, str(match.pk), now.isoformat(), "1" if sweep else "0"],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    later = T0 + timedelta(seconds=20)
    seen = other_process(later, sweep=False)
    assert seen["clock"] == match_clocks(Match.objects.get(pk=match.pk), later)
    assert clock_of(seen["clock"], ext.seat)["remaining_ms"] == 25_000
    assert other_process(flag - timedelta(milliseconds=1), sweep=True)["overdue"] == "not_overdue"
    assert other_process(flag, sweep=True)["overdue"] != "not_overdue"
    ext.refresh_from_db()
    assert ext.forfeited and ext.out_of_time


@pytest.mark.parametrize("body", [
    {"clock_bank_seconds": 0},
    {"clock_bank_seconds": -60},
    {"clock_bank_seconds": "ten"},
    {"clock_bank_seconds": 7 * 24 * 3600 + 1},
    {"clock_bank_seconds": 60, "clock_increment_seconds": -1},
    {"clock_bank_seconds": 60, "clock_increment_seconds": 3601},
    {"clock_increment_seconds": 5},
    {"clock_bank_seconds": True},
])
def test_nonsense_clocks_are_refused_and_create_nothing(accounts, body):
    p = accounts["players"]
    count = Match.objects.count()
    r = accounts["clients"]["organiser"].post("/api/v1/matches/", {"players": [p["ann"].pk, p["greedy-1"].pk],
                                                                   "club": accounts["club"].pk, **body},
                                              format="json")
    assert r.status_code == 400, r.content
    assert Match.objects.count() == count
    r = accounts["clients"]["ann"].post("/api/v1/lobby/tables/", {"game": "diamonds", "seats": 2, **body},
                                        format="json")
    assert r.status_code == 400, r.content
    r = accounts["clients"]["organiser"].post("/api/v1/tournaments/", {
        "name": "Clocked", "club": accounts["club"].pk, "rounds": 1, **body}, format="json")
    assert r.status_code == 400, r.content


def test_a_match_lobby_table_and_tournament_created_with_a_clock_keep_it(accounts, clock):
    p = accounts["players"]
    r = accounts["clients"]["organiser"].post("/api/v1/matches/", {
        "players": [p["ann"].pk, p["greedy-1"].pk], "club": accounts["club"].pk, "clock_bank_seconds": 300,
        "clock_increment_seconds": 3, "deadline_action": "forfeit"}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert (body["clock_bank_seconds"], body["clock_increment_seconds"], body["deadline_action"]) == (300, 3,
                                                                                                     "forfeit")
    assert MatchSeat.objects.get(match_id=body["id"], player=p["ann"]).clock_ms == 300_000
    r = accounts["clients"]["ann"].post("/api/v1/lobby/tables/", {"game": "diamonds", "seats": 2, "bot_kind":
                                        "greedy", "clock_bank_seconds": 180, "clock_increment_seconds": 2},
                                        format="json")
    assert r.status_code == 201 and (r.json()["clock_bank_seconds"], r.json()["clock_increment_seconds"]) == (180, 2)
    started = accounts["clients"]["ann"].post(f"/api/v1/lobby/tables/{r.json()['id']}/start/", format="json")
    assert started.status_code == 200, started.content
    match = Match.objects.get(pk=started.json()["match"])
    assert (match.clock_bank_seconds, match.clock_increment_seconds) == (180, 2)
    r = accounts["clients"]["organiser"].post("/api/v1/tournaments/", {
        "name": "Blitz night", "club": accounts["club"].pk, "rounds": 1, "clock_bank_seconds": 600,
        "clock_increment_seconds": 5}, format="json")
    assert r.status_code == 201 and r.json()["clock_bank_seconds"] == 600


def test_a_refused_decision_of_a_clocked_seat_changes_nothing(accounts, clock):
    match = clocked_match(accounts, ["ext-1", "greedy-1"], bank=60, increment=5)
    before = snapshot(match)
    clocks_before = list(MatchSeat.objects.filter(match=match).values_list("clock_ms", "clock_started_at"))
    clock += 3
    r = accounts["clients"]["ext-1"].post(f"/api/v1/matches/{match.pk}/decisions/",
                                          {"move_number": match.move_number + 5,
                                           "decision": {"kind": "pass_count", "count": 1}}, format="json")
    assert r.status_code == 409
    assert snapshot(match) == before
    assert list(MatchSeat.objects.filter(match=match).values_list("clock_ms", "clock_started_at")) == clocks_before
