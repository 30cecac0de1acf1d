"""/api/v1/comparisons/: create (per role), list by bot, detail with the state and pairs, stop; the error shape for
bad input, and never the salt."""

from __future__ import annotations

import pytest

from league.models import Comparison, ComparisonPair, Match
from league.services import play_bot_match
from league.services.comparisons import close_pair

pytestmark = pytest.mark.django_db

URL = "/api/v1/comparisons/"


def _body(accounts, candidate="greedy-1", baseline="random-1", **kw):
    p = accounts["players"]
    return {"candidate": p[candidate].pk, "baseline": p[baseline].pk, "ruleset": {"players": 4, "rounds": 1},
            "elo0": 0, "elo1": 100, "max_pairs": 20, **kw}


def test_create_read_list_and_stop(accounts):
    c = accounts["clients"]
    assert c["anon"].post(URL, _body(accounts), format="json").status_code in (401, 403)
    r = c["outsider"].post(URL, _body(accounts), format="json")  # engine bots: anyone signed in
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["status"] == "running" and body["state"]["pairs"] == 0 and len(body["pairs"]) == 1
    assert body["state"]["lower_bound"] < 0 < body["state"]["upper_bound"]
    assert "salt" not in body and Comparison.objects.get().salt not in r.content.decode()
    cid = body["id"]

    pair = ComparisonPair.objects.get()
    for match_id in (pair.candidate_match_id, pair.baseline_match_id):
        play_bot_match(match_id=match_id)
    close_pair(pair_id=pair.pk)
    detail = c["anon"].get(f"{URL}{cid}/").json()
    first = detail["pairs"][0]
    assert first["status"] == "done" and first["outcome"] is not None and first["llr"] == detail["state"]["llr"]
    assert detail["state"]["pairs"] == 1 and len(detail["pairs"]) == 2

    greedy = accounts["players"]["greedy-1"].pk
    assert [x["id"] for x in c["anon"].get(f"{URL}?bot={greedy}").json()["results"]] == [cid]
    assert c["anon"].get(f"{URL}?bot={accounts['players']['ann'].pk}").json()["results"] == []
    assert c["anon"].get(f"{URL}?bot=abc").status_code == 400

    assert c["ann"].post(f"{URL}{cid}/stop/").status_code == 403  # not the author
    r = c["outsider"].post(f"{URL}{cid}/stop/")
    assert r.status_code == 200 and r.json()["status"] == "stopped"
    assert not Match.objects.filter(status__in=["pending", "running"]).exists()
    assert c["outsider"].post(f"{URL}{cid}/stop/").json()["status"] == "stopped"  # again: as it is


def test_external_bots_by_their_owner_or_an_organiser_only(accounts):
    c = accounts["clients"]
    r = c["outsider"].post(URL, _body(accounts, candidate="ext-1"), format="json")
    assert r.status_code == 403 and "ext-1" in r.json()["detail"]
    assert c["organiser"].post(URL, _body(accounts, candidate="ext-1"), format="json").status_code == 201


@pytest.mark.parametrize("change", [
    {"elo0": 50, "elo1": 10}, {"alpha": 0}, {"max_pairs": 0}, {"max_pairs": 10**9}, {"candidate": 10**6},
    {"candidate": "x"}, {"ruleset": {"players": 4, "partnerships": True}}, {"ruleset": {"players": 4}, "players": 4},
    {"game": "nope"}, {"field_kind": "search", "field_settings": {"playouts": -5}}, {"ruleset": [1, 2]},
    {"difference0": 0.0}, {"difference0": 0.2, "difference1": 0.1}, {"difference0": 0, "difference1": 1.5},
])
def test_bad_input_is_a_400_in_the_error_shape_and_stores_nothing(accounts, change):
    r = accounts["clients"]["outsider"].post(URL, {**_body(accounts), **change}, format="json")
    assert r.status_code == 400, r.content
    assert {"detail", "code"} <= set(r.json())
    assert not Comparison.objects.exists() and not Match.objects.exists()


def test_a_person_cannot_be_compared(accounts):
    r = accounts["clients"]["ann"].post(URL, _body(accounts, candidate="ann"), format="json")
    assert r.status_code == 403


def test_the_twin_of_an_external_bots_game_stays_secret_until_both_end(accounts):
    """The baseline's game (engine bots only) ends long before the external candidate has played its own: its
    cards must not be readable meanwhile, by the bot's author, its token or anyone, since they are the same deal."""
    from api.tokens import issue_token
    from league.services.players import create_external_bot

    from .conftest import client_for

    ann = accounts["players"]["ann"].user
    bot = create_external_bot(name="ann-bot", owner=ann)
    r = accounts["clients"]["ann"].post(URL, _body(accounts, candidate="greedy-1", baseline="random-1")
                                        | {"candidate": bot.pk}, format="json")
    assert r.status_code == 201, r.content
    pair = ComparisonPair.objects.get()
    assert play_bot_match(match_id=pair.baseline_match_id).status == "finished"
    twin = pair.baseline_match_id
    readers = [accounts["clients"]["ann"], client_for(token=issue_token(bot.user)), accounts["clients"]["anon"]]
    for client in readers:
        assert client.get(f"/api/v1/matches/{twin}/record/").status_code == 403
        assert client.get(f"/api/v1/matches/{twin}/tricks/").status_code == 403
    assert accounts["clients"]["anon"].get(f"/matches/{twin}/replay/").status_code == 404
    # Once the candidate's game has ended too (here: the comparison stopped, its game cancelled), the twin is public.
    assert accounts["clients"]["ann"].post(f"{URL}{r.json()['id']}/stop/").status_code == 200
    record = accounts["clients"]["anon"].get(f"/api/v1/matches/{twin}/record/")
    assert record.status_code == 200 and record.json()["rounds"][0]["hands"]


def test_bounds_as_a_placement_score_difference_are_stored_as_elo(accounts):
    r = accounts["clients"]["outsider"].post(URL, {**_body(accounts), "difference0": 0.0, "difference1": 0.1},
                                             format="json")
    assert r.status_code == 201, r.content
    assert r.json()["elo0"] == 0.0 and 34 < r.json()["elo1"] < 35  # logistic Elo of a 0.55 pair score
