"""The standings cache (league.selectors.standings_cache): concurrent readers share the fingerprint and the cold
computation and are never answered with a run begun before they asked; the fingerprint follows every input; a
watched tournament's table is ready when a match ends; the website reads the same cache."""

from __future__ import annotations

import threading

import pytest

from league.selectors.standings_cache import Flights, standings_fingerprint


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
    from league.services.advancing import start_round
    from league.services.match_finished import on_match_finished
    from league.services.registration import register_players, withdraw_player
    from league.services.rounds import seat_round
    from league.services.tournament_setup import create_tournament, update_tournament
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


# ---- the table ready when a match ends, for a tournament somebody reads ----------------------------------------


def _count_computations(monkeypatch) -> list[int]:
    from league.selectors import standings_cache

    computed: list[int] = []
    real = standings_cache.tournament_standings

    def counting(*, tournament):
        computed.append(tournament.pk)
        return real(tournament=tournament)

    monkeypatch.setattr(standings_cache, "tournament_standings", counting)
    return computed


@pytest.mark.django_db
def test_a_watched_tournament_s_table_is_computed_when_a_match_ends_so_its_readers_wait_for_nothing(monkeypatch):
    from django.core.cache import cache

    from league.models import Match, Tournament
    from league.selectors.standings_cache import cached_tournament_standings
    from league.services.advancing import start_tournament
    from league.services.match_finished import on_match_finished
    from league.services.registration import register_players
    from league.services.tournament_setup import create_tournament
    from tests.league.tournament_support import bot_field, store_result

    cache.clear()
    computed = _count_computations(monkeypatch)
    watched = create_tournament(name="watched", rounds=1, table_size=2, auto_advance=False, seed="w")
    unread = create_tournament(name="unread", rounds=1, table_size=2, auto_advance=False, seed="u")
    for t in (watched, unread):
        register_players(tournament=t, players=bot_field(4, prefix=t.name))
        start_tournament(tournament=t)  # its tables wait: what it sends after commit is not run here
    assert [r.games for r in cached_tournament_standings(watched)] == [0, 0, 0, 0]
    assert computed == [watched.pk]  # a reader's table: the tournament is watched from now on
    for t in (watched, unread):
        match = Match.objects.filter(tournament_round__tournament=t).order_by("table_number").first()
        store_result(match, {0: (30, 10), 1: (12, 5)})
        on_match_finished(match_id=match.pk)  # as the worker does after a match
    assert computed == [watched.pk, watched.pk]  # the watched one's new table, at once; none for the other
    rows = cached_tournament_standings(Tournament.objects.get(pk=watched.pk))
    assert computed == [watched.pk, watched.pk]  # its reader found it ready
    assert sorted(r.games for r in rows) == [0, 0, 1, 1]
    cache.clear()


@pytest.mark.django_db
def test_the_tournament_page_reads_the_cached_standings_and_sees_a_result_at_once(client, monkeypatch):
    from django.core.cache import cache
    from django.urls import reverse

    from league.models import Match
    from league.services.advancing import start_tournament
    from league.services.registration import register_players
    from league.services.tournament_setup import create_tournament
    from tests.league.tournament_support import bot_field, store_result

    cache.clear()
    computed = _count_computations(monkeypatch)
    t = create_tournament(name="paged", rounds=1, table_size=2, auto_advance=False, seed="p")
    register_players(tournament=t, players=bot_field(4, prefix="paged"))
    start_tournament(tournament=t)
    url = reverse("web:tournament", args=[t.pk])
    client.get(url)
    client.get(url)
    assert computed == [t.pk]  # the second view read the cache
    match = Match.objects.filter(tournament_round__tournament=t).order_by("table_number").first()
    store_result(match, {0: (30, 10), 1: (12, 5)})
    html = client.get(url).content.decode()
    assert computed == [t.pk, t.pk]  # a finished match is a new table
    assert "paged-" in html and "Standings" in html
    cache.clear()


@pytest.mark.django_db
def test_a_new_tournament_that_reuses_a_deleted_one_s_id_never_gets_its_table():
    import copy
    from datetime import timedelta

    from league.services.registration import register_players
    from league.services.tournament_setup import create_tournament
    from tests.league.tournament_support import bot_field

    old = create_tournament(name="old", rounds=1, table_size=2, auto_advance=False, seed="o")
    register_players(tournament=old, players=bot_field(2, prefix="old"))
    # SQLite gives a deleted last row's id again (PostgreSQL's sequences never do): the same id, entries and rounds,
    # created later, is another tournament.
    same_rows_later = copy.copy(old)
    same_rows_later.created_at = old.created_at + timedelta(seconds=1)
    assert standings_fingerprint(copy.copy(old)) == standings_fingerprint(old)
    assert standings_fingerprint(same_rows_later) != standings_fingerprint(old)


@pytest.mark.django_db
def test_a_season_s_table_is_cached_until_one_of_its_tournaments_of_the_game_changes(monkeypatch):
    from django.core.cache import cache

    from league.models import League, Match, Season
    from league.selectors import standings_cache
    from league.selectors.standings import season_standings
    from league.services import create_club
    from league.services.advancing import start_tournament
    from league.services.registration import register_players
    from league.services.tournament_setup import create_tournament
    from tests.league.tournament_support import bot_field, store_result

    cache.clear()
    computed = []
    monkeypatch.setattr(standings_cache, "season_standings",
                        lambda **kw: computed.append(kw["game"]) or season_standings(**kw))
    season = Season.objects.create(league=League.objects.create(club=create_club(name="c"), name="l"), name="s")

    def tournament(name: str, game: str = "diamonds"):
        t = create_tournament(name=name, rounds=1, table_size=2, auto_advance=False, seed=name, season=season,
                              game=game)
        register_players(tournament=t, players=bot_field(2, prefix=name))
        start_tournament(tournament=t)  # its table waits: what it sends after commit is not run here
        return t

    first = tournament("first")
    table = standings_cache.cached_season_standings(season)
    assert standings_cache.cached_season_standings(season, "diamonds") == table and computed == ["diamonds"]
    store_result(Match.objects.get(tournament_round__tournament=first), {0: (30, 10), 1: (12, 5)})
    assert [r.games for r in standings_cache.cached_season_standings(season)] == [1, 1]
    assert computed == ["diamonds"] * 2  # a finished match
    tournament("second")
    assert len(standings_cache.cached_season_standings(season)) == 4 and len(computed) == 3  # another tournament
    tournament("other-game", game="diamoniak")
    standings_cache.cached_season_standings(season, "diamonds")
    assert len(computed) == 3  # another game's tournament is another table
    assert standings_cache.cached_season_standings(season, "diamoniak") and computed[-1] == "diamoniak"
    cache.clear()
