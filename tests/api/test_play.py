"""Playing over HTTP: whole matches between people, external bots and engine bots; the turns long-poll."""

from __future__ import annotations

import pytest

from engine import from_record
from league.models import Match, MatchStatus

from .conftest import live_match
from .support import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_people_and_two_external_bots_play_a_whole_match_over_http(accounts):
    match = live_match(accounts, ["ann", "ext-1", "bob", "ext-2"])
    clients = [accounts["clients"][n] for n in ("ann", "ext-1", "bob", "ext-2")]
    made = play_out(clients, match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and made == match.move_number
    record = accounts["clients"]["anon"].get(f"/api/v1/matches/{match.pk}/record/").json()
    assert record["result"] == match.result
    assert from_record(record).result._asdict() == match.result  # the exported record replays to the result


@pytest.mark.parametrize("ruleset", [{"players": 3}, {"players": 4, "partnerships": True}, {"players": 2},
                                     {"players": 3, "clubs": "choose"}])
def test_people_with_engine_bots_wait_only_for_the_people(accounts, ruleset):
    names = ["ann", "greedy-1", "random-1", "bob"][: ruleset["players"]]
    if ruleset["players"] == 2:
        names = ["ann", "greedy-1"]
    match = live_match(accounts, names, ruleset)
    people = [accounts["clients"][n] for n in names if n in ("ann", "bob")]
    play_out(people, match.pk)
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED, match.error


def test_turns_long_poll_answers_with_the_callers_awaited_matches(accounts):
    match = live_match(accounts, ["ext-1", "greedy-1", "ann"])
    pending = match.match_seats.filter(awaiting=True).values_list("seat", flat=True)
    ext = accounts["clients"]["ext-1"]
    turns = ext.get("/api/v1/me/turns/?wait=0").json()["turns"]
    assert [t["seat"] for t in turns] == [s for s in pending if s == 0]
    # A caller with nothing to do waits the time asked for, then gets an empty list.
    body = accounts["clients"]["outsider"].get("/api/v1/me/turns/?wait=0.3").json()
    assert body["turns"] == [] and body["waited"] >= 0.3


def test_a_tournament_table_with_a_person_is_played_over_http_and_closes_its_round(accounts):
    from league.models import Rating, Tournament
    from league.services import create_bot_player
    from league.services.advancing import start_tournament
    from league.services.registration import register_players
    from league.services.tournament_setup import create_tournament

    bots = [create_bot_player(name=f"cup-{i}", kind="random") for i in range(3)]
    t = create_tournament(name="cup", rounds=2, table_size=4, seed="cup")
    register_players(tournament=t, players=[accounts["players"]["ann"], *bots])
    start_tournament(tournament=t)
    ann = accounts["clients"]["ann"]
    for _ in range(2):  # each round: the long-poll finds ann's table, she plays it out, the next round is seated
        turns = ann.get("/api/v1/me/turns/?wait=1").json()["turns"]
        assert len(turns) == 1
        play_out([ann], turns[0]["match"])
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == "finished"
    assert Rating.objects.filter(player=accounts["players"]["ann"], ladder=None).get().matches == 2
    assert ann.get(f"/api/v1/tournaments/{t.pk}/standings/").json()[0]["games"] == 2
