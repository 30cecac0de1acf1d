"""The club evening through the API: check-ins (who may, what is refused), late entries, the final ranking and the
tournament's evening settings. Every refusal is a 4xx in the API's error shape and changes nothing."""

from __future__ import annotations

import pytest

from league.models import CheckIn, TournamentEntry
from league.services import create_tournament, register_players
from league.services.advancing import start_round
from league.services.rounds import seat_round

pytestmark = pytest.mark.django_db


def evening(accounts, **settings):
    settings = {"name": "Thursday", "rounds": 2, "table_size": 2, "club": accounts["club"], "seed": "thu",
                "auto_advance": False, "check_in_required": True, **settings}
    t = create_tournament(**settings)
    p = accounts["players"]
    register_players(tournament=t, players=[p["ann"], p["bob"], p["greedy-1"], p["random-1"]])
    return t


def post_check_in(client, t, player):
    return client.post(f"/api/v1/tournaments/{t.pk}/check-ins/", {"player": player.pk}, format="json")


def assert_error(response, status):
    assert response.status_code == status, response.content
    body = response.json()
    assert "detail" in body and "code" in body  # api.errors' one shape


def test_the_organiser_checks_anyone_in_and_out(accounts):
    t = evening(accounts)
    c, p = accounts["clients"]["organiser"], accounts["players"]
    r = post_check_in(c, t, p["greedy-1"])
    assert r.status_code == 201
    assert r.json()["round"] == 1
    assert {row["name"]: row["checked_in"] for row in r.json()["players"]}["greedy-1"] is True
    r = c.post(f"/api/v1/tournaments/{t.pk}/check-outs/", {"player": p["greedy-1"].pk}, format="json")
    assert r.status_code == 200 and not CheckIn.objects.exists()
    anon = accounts["clients"]["anon"].get(f"/api/v1/tournaments/{t.pk}/check-ins/")
    assert anon.status_code == 200 and len(anon.json()["players"]) == 4


@pytest.mark.parametrize("self_check_in", [True, False])
def test_self_check_in_is_for_yourself_only(accounts, self_check_in):
    t = evening(accounts, self_check_in=self_check_in)
    c, p = accounts["clients"]["ann"], accounts["players"]
    r = post_check_in(c, t, p["ann"])
    if self_check_in:
        assert r.status_code == 201
    else:
        assert_error(r, 403)
    assert_error(post_check_in(c, t, p["bob"]), 403)  # somebody else, either way
    assert_error(post_check_in(accounts["clients"]["outsider"], t, p["bob"]), 403)
    anon = post_check_in(accounts["clients"]["anon"], t, p["bob"])
    assert anon.status_code in (401, 403) and "code" in anon.json()  # signed-in accounts only
    assert set(CheckIn.objects.values_list("entry__player__name", flat=True)) == ({"ann"} if self_check_in else set())


def test_check_in_refusals_are_4xx_and_change_nothing(accounts):
    c, p = accounts["clients"]["organiser"], accounts["players"]
    plain = evening(accounts, check_in_required=False, name="plain")
    assert_error(post_check_in(c, plain, p["ann"]), 409)  # this tournament takes no check-in
    t = evening(accounts, name="evening")
    assert_error(post_check_in(c, t, p["ext-1"]), 400)  # not entered
    assert_error(c.post(f"/api/v1/tournaments/{t.pk}/check-ins/", {"player": "ann"}, format="json"), 400)
    assert_error(c.post(f"/api/v1/tournaments/{t.pk}/check-ins/", ["x"], format="json"), 400)
    assert_error(c.post(f"/api/v1/tournaments/{t.pk}/check-ins/", {"player": 10**12}, format="json"), 400)
    TournamentEntry.objects.filter(tournament=t, player=p["bob"]).update(active=False)
    assert_error(post_check_in(c, t, p["bob"]), 409)  # dropped
    assert not CheckIn.objects.exists()


def test_a_round_seats_only_those_checked_in_and_then_check_in_is_for_the_next(accounts):
    t = evening(accounts)
    c, p = accounts["clients"]["organiser"], accounts["players"]
    for name in ("ann", "greedy-1"):
        post_check_in(c, t, p[name])
    rnd = seat_round(tournament=t)
    assert sorted(pid for table in rnd.tables for pid in table["seats"]) == sorted([p["ann"].pk, p["greedy-1"].pk])
    r = post_check_in(c, t, p["bob"])
    assert r.status_code == 201 and r.json()["round"] == 2


def test_a_late_entry_through_the_entries_endpoint_joins_the_next_round(accounts):
    t = evening(accounts, check_in_required=False)
    start_round(tournament_round=seat_round(tournament=t))
    r = accounts["clients"]["organiser"].post(f"/api/v1/tournaments/{t.pk}/entries/",
                                              {"players": [accounts["players"]["ext-1"].pk]}, format="json")
    assert r.status_code == 201
    assert TournamentEntry.objects.get(tournament=t, player=accounts["players"]["ext-1"]).joined_round == 2


def test_the_ranking_endpoint(accounts):
    t = evening(accounts, check_in_required=False, final_size=2)
    r = accounts["clients"]["anon"].get(f"/api/v1/tournaments/{t.pk}/ranking/")
    assert r.status_code == 200
    body = r.json()
    assert body["final"] and body["provisional"] and body["mode"] == "final_decides"
    assert len(body["rows"]) == 4 and {"rank", "qualifying_rank", "stage", "dropped", "metrics"} <= set(body["rows"][0])
    assert "vault" in body["rows"][0]["metrics"]  # the tie-break as in the standings
    assert_error(accounts["clients"]["anon"].get("/api/v1/tournaments/999999/ranking/"), 404)


def test_evening_settings_through_the_api(accounts):
    c = accounts["clients"]["organiser"]
    base = {"name": "Friday", "rounds": 2, "table_size": 4, "club": accounts["club"].pk}
    r = c.post("/api/v1/tournaments/", {**base, "check_in_required": True, "self_check_in": True,
                                        "late_entry_points": "bye", "final_size": 8, "final_stages": 2,
                                        "final_advance": 2, "final_ranking": "added"}, format="json")
    assert r.status_code == 201, r.content
    assert {k: r.json()[k] for k in ("final_size", "final_stages", "final_advance", "final_ranking")} == {
        "final_size": 8, "final_stages": 2, "final_advance": 2, "final_ranking": "added"}
    for bad in ({"final_size": 9}, {"final_size": 4, "ruleset": {"partnerships": True}},
                {"late_entry_points": "some"}, {"final_ranking": "best"}, {"final_size": -1},
                {"final_size": 8, "final_stages": 2, "final_advance": 4}):
        assert_error(c.post("/api/v1/tournaments/", {**base, **bad}, format="json"), 400)
    assert_error(accounts["clients"]["ann"].post("/api/v1/tournaments/", {**base, "final_size": 4}, format="json"),
                 403)


def test_a_dropped_player_is_marked_in_the_standings(accounts):
    t = evening(accounts, check_in_required=False)
    r = accounts["clients"]["ann"].post(f"/api/v1/tournaments/{t.pk}/withdraw/",
                                        {"player": accounts["players"]["ann"].pk}, format="json")
    assert r.status_code == 200
    rows = accounts["clients"]["anon"].get(f"/api/v1/tournaments/{t.pk}/standings/").json()
    assert {row["name"]: row["dropped"] for row in rows} == {"ann": True, "bob": False, "greedy-1": False,
                                                             "random-1": False}
    ranking = accounts["clients"]["anon"].get(f"/api/v1/tournaments/{t.pk}/ranking/").json()
    assert [row["name"] for row in ranking["rows"] if row["dropped"]] == ["ann"]
