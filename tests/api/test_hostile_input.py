"""Hostile input (issue 15): whatever a stranger's bot or form sends, the answer is a 4xx that says why and nothing is
stored; never a 5xx. Each test here failed on the code before the fix it pins."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from league.models import Match, Player, Tournament, TournamentEntry
from league.services.tournament_setup import create_tournament

from .conftest import live_match

pytestmark = pytest.mark.django_db

BIG = 2**31  # one past a PostgreSQL integer column


def _raw_post(client, url: str, body: str | bytes):
    return client.generic("POST", url, body, content_type="application/json")


def _deep(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


@pytest.mark.parametrize("url", ["/api/v1/matches/", "/api/v1/tournaments/", "/api/v1/players/",
                                 "/api/v1/clubs/{club}/members/", "/api/v1/auth/token/"])
def test_json_nested_1000_deep_is_a_json_400_saying_why(accounts, url):
    r = _raw_post(accounts["clients"]["organiser"], url.format(club=accounts["club"].pk), _deep(1000))
    assert r.status_code == 400, r.content[:200]
    assert r["Content-Type"].startswith("application/json") and "deep" in r.json()["detail"]


def test_json_a_little_nested_is_still_fine(accounts):
    body = {"name": "deep-ok", "rounds": 1, "club": accounts["club"].pk, "ruleset": {"a": {"b": {"c": 1}}}}
    r = accounts["clients"]["organiser"].post("/api/v1/tournaments/", body, format="json")
    assert r.status_code == 400 and "deep" not in json.dumps(r.json())  # refused by the ruleset, not the parser


def test_a_10_mb_body_is_a_json_413_saying_why(accounts):
    body = json.dumps({"name": "x" * (10 * 1024 * 1024)})
    r = _raw_post(accounts["clients"]["organiser"], "/api/v1/tournaments/", body)
    assert r.status_code == 413 and r["Content-Type"].startswith("application/json")
    assert "bytes" in r.json()["detail"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("field", ["turn_deadline_seconds"])
def test_huge_integers_in_match_creation_are_400(accounts, field):
    players = [accounts["players"][n].pk for n in ("greedy-1", "random-1")]
    r = accounts["clients"]["organiser"].post("/api/v1/matches/", {
        "players": players, "club": accounts["club"].pk, field: BIG}, format="json")
    assert r.status_code == 400 and field in r.json()["errors"]
    assert not Match.objects.exists()


@pytest.mark.parametrize("field,value", [("turn_deadline_seconds", BIG), ("rounds", BIG), ("table_size", BIG),
                                         ("rounds", 10**30)])
def test_huge_integers_in_tournament_creation_are_400(accounts, field, value):
    body = {"name": "t", "rounds": 2, "club": accounts["club"].pk, field: value}
    r = accounts["clients"]["organiser"].post("/api/v1/tournaments/", body, format="json")
    assert r.status_code == 400, r.content[:300]
    assert not Tournament.objects.exists()


def test_huge_turn_deadline_on_a_match_is_400(accounts):
    match = live_match(accounts, ["ann", "greedy-1"])
    r = accounts["clients"]["organiser"].post(f"/api/v1/matches/{match.pk}/deadline/",
                                              {"turn_deadline_seconds": BIG}, format="json")
    assert r.status_code == 400 and Match.objects.get(pk=match.pk).turn_deadline_seconds == match.turn_deadline_seconds


def test_huge_ladder_tables_per_tick_is_400(accounts):
    r = accounts["clients"]["organiser"].post("/api/v1/ladders/", {
        "name": "l", "club": accounts["club"].pk, "max_tables_per_tick": BIG}, format="json")
    assert r.status_code == 400
    r = accounts["clients"]["organiser"].post("/api/v1/ladders/", {"name": "l", "club": accounts["club"].pk},
                                              format="json")
    r = accounts["clients"]["organiser"].patch(f"/api/v1/ladders/{r.json()['id']}/", {"max_tables_per_tick": BIG},
                                               format="json")
    assert r.status_code == 400


@pytest.mark.parametrize("field", ["vault", "showroom"])
def test_huge_integers_in_a_correction_are_400(accounts, field):
    p = accounts["players"]
    r = accounts["clients"]["organiser"].post("/api/v1/matches/", {
        "players": [p["greedy-1"].pk, p["random-1"].pk], "club": accounts["club"].pk}, format="json")
    match = Match.objects.get(pk=r.json()["id"])  # engine bots: played to the end at once
    before = Match.objects.get(pk=match.pk).result
    body = {"reason": "typo", "vault": [1, 1], "showroom": [1, 1]}
    body[field] = [BIG, 1]
    r = accounts["clients"]["organiser"].post(f"/api/v1/matches/{match.pk}/corrections/", body, format="json")
    assert r.status_code == 400 and f"{field}.0" in r.json()["errors"]  # the refused field by its dotted path
    assert Match.objects.get(pk=match.pk).result == before


def test_nul_bytes_in_bot_settings_are_400(accounts):
    r = accounts["clients"]["organiser"].post("/api/v1/players/", {
        "kind": "engine_bot", "name": "nul-bot", "bot_kind": "random", "club": accounts["club"].pk,
        "bot_settings": {"a\u0000b": "c\u0000"}}, format="json")
    assert r.status_code == 400 and "NUL" in json.dumps(r.json())
    assert not Player.objects.filter(name="nul-bot").exists()


def test_nul_bytes_in_match_points_keys_are_400(accounts):
    r = accounts["clients"]["organiser"].post("/api/v1/tournaments/", {
        "name": "t", "rounds": 1, "club": accounts["club"].pk, "match_points": {"4\u0000": {"1": 3}}}, format="json")
    assert r.status_code == 400 and not Tournament.objects.exists()


def test_lone_surrogates_are_400(accounts):
    r = _raw_post(accounts["clients"]["organiser"], "/api/v1/tournaments/",
                  '{"name": "\\ud800", "rounds": 1, "club": ' + str(accounts["club"].pk) + "}")
    assert r.status_code == 400 and not Tournament.objects.exists()


@pytest.mark.parametrize("points", [{"1": "x"}, {"4": {"1": "x"}}, {"4": {"one": 3}}, {"x": {"1": 3}},
                                    {"4": [3, 2, 1, 0]}, {"bye": "lots"}, {"4": {"1": 1e300}}, {"4": {"0": 3}},
                                    {"4": {"1": 10**40}}, {"4": {"1": 3}}, {"99999999999999999999": {"1": 3}},
                                    [1, 2], "points"])
def test_a_points_table_that_could_not_be_read_is_refused_when_written(accounts, points):
    client = accounts["clients"]["organiser"]
    r = client.post("/api/v1/tournaments/", {"name": "t", "rounds": 1, "club": accounts["club"].pk,
                                             "match_points": points}, format="json")
    assert r.status_code == 400, r.content[:300]
    assert not Tournament.objects.exists()
    t = create_tournament(name="ok", rounds=1, club=accounts["club"])
    r = client.patch(f"/api/v1/tournaments/{t.pk}/", {"match_points": points}, format="json")
    assert r.status_code == 400
    assert Tournament.objects.get(pk=t.pk).match_points == {}
    assert client.get(f"/api/v1/tournaments/{t.pk}/standings/").status_code == 200


def test_infinite_numbers_are_400(accounts):
    club = accounts["club"].pk
    body = '{"name": "t", "rounds": 1, "club": ' + str(club) + ', "match_points": {"bye": 1e999}}'
    r = _raw_post(accounts["clients"]["organiser"], "/api/v1/tournaments/", body)
    assert r.status_code == 400 and not Tournament.objects.exists()


def test_a_good_points_table_is_kept(accounts):
    points = {"4": {"1": 5, "2": 3, "3": 1.5, "4": 0}, "bye": 2}
    r = accounts["clients"]["organiser"].post("/api/v1/tournaments/", {
        "name": "t", "rounds": 1, "club": accounts["club"].pk, "match_points": points}, format="json")
    assert r.status_code == 201 and r.json()["match_points"] == points


@pytest.mark.parametrize("tiebreaks", [["nonsense"], "points", [1], [["points"]], ["points", "points"]])
def test_a_tiebreak_order_that_could_not_be_read_is_400(accounts, tiebreaks):
    r = accounts["clients"]["organiser"].post("/api/v1/tournaments/", {
        "name": "t", "rounds": 1, "club": accounts["club"].pk, "tiebreaks": tiebreaks}, format="json")
    assert r.status_code == 400 and not Tournament.objects.exists()


@pytest.mark.parametrize("bot_settings", [{"depth": "deep"}, {"unknown_setting": 1}, [1]])
def test_bot_settings_the_bot_cannot_take_are_400(accounts, bot_settings):
    r = accounts["clients"]["organiser"].post("/api/v1/players/", {
        "kind": "engine_bot", "name": "b", "bot_kind": "greedy", "club": accounts["club"].pk,
        "bot_settings": bot_settings}, format="json")
    assert r.status_code == 400 and not Player.objects.filter(name="b").exists()


def test_registering_an_entered_player_again_is_409(accounts):
    t = create_tournament(name="t", rounds=1, club=accounts["club"])
    client = accounts["clients"]["organiser"]
    bot = accounts["players"]["greedy-1"].pk
    assert client.post(f"/api/v1/tournaments/{t.pk}/entries/", {"players": [bot]}, format="json").status_code == 201
    r = client.post(f"/api/v1/tournaments/{t.pk}/entries/", {"players": [bot]}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "conflict"
    assert TournamentEntry.objects.filter(tournament=t).count() == 1


def test_registering_a_player_twice_in_one_request_is_409(accounts):
    t = create_tournament(name="t", rounds=1, club=accounts["club"])
    bot = accounts["players"]["greedy-1"].pk
    r = accounts["clients"]["organiser"].post(f"/api/v1/tournaments/{t.pk}/entries/", {"players": [bot, bot]},
                                              format="json")
    assert r.status_code in (400, 409) and not TournamentEntry.objects.exists()


def test_registering_an_entered_player_again_on_the_website_is_a_message_not_a_500(accounts):
    t = create_tournament(name="t", rounds=1, club=accounts["club"])
    bot = accounts["players"]["greedy-1"]
    browser = Client()
    browser.force_login(accounts["organiser"])
    url = f"/tournaments/{t.pk}/register/"
    assert browser.post(url, {"players": [bot.pk]}).status_code == 302
    r = browser.post(url, {"players": [bot.pk]}, follow=True)
    assert r.status_code == 200 and b"already" in r.content
    assert TournamentEntry.objects.filter(tournament=t).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("body", [
    {"move_number": 0, "decision": {"kind": "pass_count", "count": 2, "extra": 1}},
    {"move_number": 0, "decision": {"kind": "pass_count", "count": 2}, "extra": 1},
])
def test_unknown_keys_in_a_decision_are_400(accounts, body):
    match = live_match(accounts, ["ann", "ext-1", "bob", "ext-2"])
    state = accounts["clients"]["anon"].get(f"/api/v1/matches/{match.pk}/state/").json()
    dealer = ["ann", "ext-1", "bob", "ext-2"][state["dealer"]]
    r = accounts["clients"][dealer].post(f"/api/v1/matches/{match.pk}/decisions/", body, format="json")
    assert r.status_code == 400 and "extra" in r.json()["detail"]
    assert Match.objects.get(pk=match.pk).move_number == 0


@pytest.mark.parametrize("url", ["/api/v1/clubs/abc/", "/api/v1/clubs/-1.5e-98/", "/api/v1/nothing-here/"])
def test_an_api_url_no_view_matches_is_a_json_404(accounts, url):
    r = accounts["clients"]["anon"].get(url)
    assert r.status_code == 404 and r["Content-Type"].startswith("application/json") and r.json()["detail"]


def test_a_refused_field_says_why_in_detail_and_keeps_its_field(accounts):
    r = accounts["clients"]["organiser"].post("/api/v1/tournaments/", {"name": "t", "rounds": "many",
                                                                       "club": accounts["club"].pk}, format="json")
    assert r.status_code == 400 and "rounds" in r.json()["errors"]
    assert isinstance(r.json()["detail"], str) and "rounds" in r.json()["detail"]


@pytest.mark.parametrize("body", ["null", "[1, 2]", '"text"', "3"])
def test_a_body_that_is_not_an_object_is_400(accounts, body):
    r = _raw_post(accounts["clients"]["organiser"], f"/api/v1/clubs/{accounts['club'].pk}/members/", body)
    assert r.status_code == 400 and "object" in r.json()["detail"]


def test_duplicate_names_are_409(accounts):
    c, club = accounts["clients"], accounts["club"].pk
    assert c["staff"].post("/api/v1/clubs/", {"name": "Diamond Club"}, format="json").status_code == 409
    league = c["organiser"].post("/api/v1/leagues/", {"club": club, "name": "L"}, format="json").json()["id"]
    assert c["organiser"].post("/api/v1/leagues/", {"club": club, "name": "L"}, format="json").status_code == 409
    assert c["organiser"].post("/api/v1/seasons/", {"league": league, "name": "S"}, format="json").status_code == 201
    assert c["organiser"].post("/api/v1/seasons/", {"league": league, "name": "S"}, format="json").status_code == 409
    assert c["organiser"].post("/api/v1/ladders/", {"club": club, "name": "Lad"}, format="json").status_code == 201
    assert c["organiser"].post("/api/v1/ladders/", {"club": club, "name": "Lad"}, format="json").status_code == 409
    r = c["organiser"].post("/api/v1/players/", {"kind": "engine_bot", "name": "greedy-1", "bot_kind": "greedy",
                                                 "club": club}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "conflict"
