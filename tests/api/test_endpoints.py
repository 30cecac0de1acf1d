"""Every resource endpoint in each role: reads open to all, writes for staff or the club's organisers, tokens for
external bots, standings in JSON and CSV, ratings with history, corrections with their audit trail, rate limits,
and the schema and docs pages."""

from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from league.models import Match, MatchStatus, Player, ResultCorrection

from .conftest import client_for, live_match, snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def test_reads_are_open_and_lists_are_paginated_and_filtered(accounts):
    anon = accounts["clients"]["anon"]
    live_match(accounts, ["ann", "greedy-1", "bob"])
    assert anon.get("/api/v1/clubs/").json()["results"][0]["name"] == "Diamond Club"
    players = anon.get("/api/v1/players/?kind=external_bot").json()
    assert {p["name"] for p in players["results"]} == {"ext-1", "ext-2"} and players["count"] == 2
    assert anon.get("/api/v1/players/?kind=engine_bot&page_size=1").json()["count"] == 2
    ann = accounts["players"]["ann"]
    matches = anon.get(f"/api/v1/matches/?player={ann.pk}&status=running").json()
    assert matches["count"] == 1
    match = matches["results"][0]
    assert match["seed"] is None  # the seed decides every deal: hidden while the match is played
    assert anon.get(f"/api/v1/matches/?club={accounts['club'].pk}&status=finished").json()["count"] == 0
    assert anon.get("/api/v1/matches/?status=nonsense").status_code == 400
    assert anon.get(f"/api/v1/matches/{match['id']}/tricks/").json()["count"] >= 0
    state = anon.get(f"/api/v1/matches/{match['id']}/state/").json()
    assert state["seat"] is None and "hand" not in state and "vault" not in state


def test_me_and_token_sign_in(accounts):
    me = accounts["clients"]["ext-1"].get("/api/v1/me/").json()
    assert me["username"] == "bot-ext-1" and me["players"][0]["kind"] == "external_bot"
    r = APIClient().post("/api/v1/auth/token/", {"username": "ann", "password": "pw-ann-123"}, format="json")
    assert r.status_code == 200
    assert client_for(token=r.json()["token"]).get("/api/v1/me/").json()["players"][0]["name"] == "ann"
    assert accounts["clients"]["anon"].get("/api/v1/me/").status_code in (401, 403)
    assert client_for(token="not-a-token").get("/api/v1/me/").status_code == 401


def test_clubs_are_created_by_staff_and_organisers_are_named_by_organisers(accounts):
    c = accounts["clients"]
    assert c["staff"].post("/api/v1/clubs/", {"name": "Spades"}, format="json").status_code == 201
    assert c["organiser"].post("/api/v1/clubs/", {"name": "Hearts"}, format="json").status_code == 403
    assert c["anon"].post("/api/v1/clubs/", {"name": "Hearts"}, format="json").status_code in (401, 403)
    club = accounts["club"].pk
    assert c["outsider"].post(f"/api/v1/clubs/{club}/admins/", {"username": "ann"}, format="json").status_code == 403
    assert c["organiser"].post(f"/api/v1/clubs/{club}/admins/", {"username": "ann"},
                               format="json").status_code == 201
    assert c["ann"].post(f"/api/v1/clubs/{club}/admins/", {"username": "nobody"}, format="json").status_code == 400


def test_organisers_register_players_and_an_external_bots_token_works(accounts):
    c, club = accounts["clients"], accounts["club"].pk
    r = c["organiser"].post("/api/v1/players/", {"kind": "external_bot", "name": "robo", "club": club}, format="json")
    assert r.status_code == 201 and r.json()["kind"] == "external_bot"
    assert client_for(token=r.json()["token"]).get("/api/v1/me/").json()["players"][0]["name"] == "robo"
    r = c["organiser"].post("/api/v1/players/", {"kind": "engine_bot", "name": "g2", "bot_kind": "greedy",
                                                 "club": club}, format="json")
    assert r.status_code == 201 and r.json()["kind"] == "engine_bot"
    assert c["organiser"].post("/api/v1/players/", {"kind": "engine_bot", "name": "g3", "bot_kind": "nope",
                                                    "club": club}, format="json").status_code == 400
    # A person's account is registered by that person only (league.permissions), who then joins the club.
    assert c["organiser"].post("/api/v1/players/", {"kind": "person", "username": "otto", "club": club},
                               format="json").status_code == 403
    assert c["outsider"].post("/api/v1/players/", {"kind": "person", "username": "otto", "club": club},
                              format="json").status_code == 201
    assert c["outsider"].post("/api/v1/players/", {"kind": "person", "username": "otto", "club": club},
                              format="json").status_code == 409  # the name is taken
    assert c["outsider"].post("/api/v1/players/", {"kind": "engine_bot", "name": "x", "bot_kind": "random",
                                                   "club": club}, format="json").status_code == 403
    assert c["organiser"].post("/api/v1/players/", {"kind": "engine_bot", "name": "x", "bot_kind": "random"},
                               format="json").status_code == 403  # without a club: staff only
    rnd = Player.objects.get(name="random-1")
    other = c["staff"].post("/api/v1/clubs/", {"name": "Other"}, format="json").json()["id"]
    assert c["organiser"].post(f"/api/v1/clubs/{other}/members/", {"player": rnd.pk},
                               format="json").status_code == 403
    assert c["staff"].post(f"/api/v1/clubs/{other}/members/", {"player": rnd.pk}, format="json").status_code == 201


def test_organisers_create_matches_that_start(accounts):
    c, p = accounts["clients"], accounts["players"]
    body = {"players": [p["ann"].pk, p["greedy-1"].pk, p["random-1"].pk], "club": accounts["club"].pk,
            "ruleset": {"clubs": "choose"}, "turn_deadline_seconds": 60, "deadline_fallback": "greedy"}
    assert c["outsider"].post("/api/v1/matches/", body, format="json").status_code == 403
    r = c["organiser"].post("/api/v1/matches/", body, format="json")
    assert r.status_code == 201, r.content
    match = Match.objects.get(pk=r.json()["id"])
    assert match.turn_deadline_seconds == 60 and match.ruleset["clubs"] == "choose"
    assert match.match_seats.filter(awaiting=True).exists() or match.status != MatchStatus.PENDING
    bad = {**body, "ruleset": {"partnerships": True}}  # partnerships need 4 or 6 players
    assert c["organiser"].post("/api/v1/matches/", bad, format="json").status_code == 400
    bots = {"players": [p["greedy-1"].pk, p["random-1"].pk], "club": accounts["club"].pk}
    r = c["organiser"].post("/api/v1/matches/", bots, format="json")
    assert Match.objects.get(pk=r.json()["id"]).status == MatchStatus.FINISHED  # engine bots play at once


def test_results_are_corrected_by_organisers_with_an_audit_trail(accounts):
    c, p = accounts["clients"], accounts["players"]
    running = live_match(accounts, ["ann", "greedy-1"], {"players": 2})
    body = {"reason": "scoring slip", "score": [10, 9], "vault": [3, 2], "showroom": [4, 5]}
    bad = {**body, "score": [11, 9]}  # R-SCORE-1: 2 x 3 + 4 is 10
    assert c["organiser"].post(f"/api/v1/matches/{running.pk}/corrections/", body,
                               format="json").status_code == 409
    r = c["organiser"].post("/api/v1/matches/", {"players": [p["greedy-1"].pk, p["random-1"].pk],
                                                 "club": accounts["club"].pk}, format="json")
    match = Match.objects.get(pk=r.json()["id"])
    before = match.result
    assert c["outsider"].post(f"/api/v1/matches/{match.pk}/corrections/", body, format="json").status_code == 403
    assert c["organiser"].post(f"/api/v1/matches/{match.pk}/corrections/", {**body, "vault": [1]},
                               format="json").status_code == 400
    r = c["organiser"].post(f"/api/v1/matches/{match.pk}/corrections/", bad, format="json")
    assert r.status_code == 400 and "R-SCORE-1" in r.content.decode()
    r = c["organiser"].post(f"/api/v1/matches/{match.pk}/corrections/", body, format="json")
    assert r.status_code == 201 and r.json()["before"] == before and r.json()["corrected_by"] == "olga"
    match.refresh_from_db()
    assert match.result["winners"] == [0] and match.match_seats.get(seat=0).placement == 1
    trail = c["anon"].get(f"/api/v1/matches/{match.pk}/corrections/").json()
    assert [t["reason"] for t in trail] == ["scoring slip"] and ResultCorrection.objects.count() == 1


def test_a_tournament_is_organised_over_the_api_with_standings_and_ratings(accounts):
    c = accounts["clients"]
    from league.services import create_bot_player

    bots = [create_bot_player(name=f"t-bot-{i}", kind="random", clubs=[accounts["club"]]) for i in range(4)]
    body = {"name": "Autumn Cup", "rounds": 2, "table_size": 4, "club": accounts["club"].pk}
    assert c["outsider"].post("/api/v1/tournaments/", body, format="json").status_code == 403
    r = c["organiser"].post("/api/v1/tournaments/", body, format="json")
    assert r.status_code == 201, r.content
    tid = r.json()["id"]
    assert c["organiser"].post(f"/api/v1/tournaments/{tid}/entries/", {"players": [b.pk for b in bots]},
                               format="json").status_code == 201
    assert c["organiser"].post(f"/api/v1/tournaments/{tid}/entries/", {"players": [999999]},
                               format="json").status_code == 400
    assert c["outsider"].post(f"/api/v1/tournaments/{tid}/start-round/").status_code == 403
    r = c["organiser"].post(f"/api/v1/tournaments/{tid}/start-round/")
    assert r.status_code == 201, r.content  # eager: the bots play the whole tournament at once
    t = c["anon"].get(f"/api/v1/tournaments/{tid}/").json()
    assert t["status"] == "finished"
    assert len(c["anon"].get(f"/api/v1/tournaments/{tid}/rounds/").json()) == 2
    assert c["anon"].get(f"/api/v1/matches/?tournament={tid}").json()["count"] == 2
    standings = c["anon"].get(f"/api/v1/tournaments/{tid}/standings/").json()
    assert len(standings) == 4 and standings[0]["rank"] == 1 and "points" in standings[0]["metrics"]
    for response in (c["anon"].get(f"/api/v1/tournaments/{tid}/standings/?format=csv"),
                     c["anon"].get(f"/api/v1/tournaments/{tid}/standings/", HTTP_ACCEPT="text/csv")):
        assert response["Content-Type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert [r["name"] for r in rows] == [s["name"] for s in standings] and "points" in rows[0]
    assert c["organiser"].post(f"/api/v1/tournaments/{tid}/start-round/").status_code == 409  # it is over
    # The standings are cached, but a corrected result shows at once.
    first = Match.objects.filter(tournament_round__tournament_id=tid).order_by("pk").first()
    n = len(first.result["score"])
    r = c["organiser"].post(f"/api/v1/matches/{first.pk}/corrections/", {
        "reason": "penalty", "vault": [200] + [0] * (n - 1), "showroom": [100] * n},
        format="json")
    assert r.status_code == 201
    leader = first.match_seats.get(seat=0).player_id
    corrected = c["anon"].get(f"/api/v1/tournaments/{tid}/standings/").json()
    # Points by placement still come first, so the corrected seat need not lead; its score must show the fix.
    row = next(s for s in corrected if leader in s["players"])
    assert corrected != standings and float(row["metrics"]["score"]) >= 2 * 200 + 100
    ratings = c["anon"].get("/api/v1/ratings/?scope=global").json()
    assert ratings["count"] == 4
    rating = ratings["results"][0]
    history = c["anon"].get(f"/api/v1/ratings/{rating['id']}/history/").json()
    assert history["count"] == 2 and history["results"][-1]["ordinal"] == pytest.approx(rating["ordinal"])
    assert c["anon"].get(f"/api/v1/rating-history/?player={rating['player']}").json()["count"] == 2


def test_writes_are_rate_limited_with_429(accounts, settings):
    settings.DIAMONDS_RATE_LIMITS = {"writes": "2/min", "decisions": "2/min"}  # read at each request
    match = live_match(accounts, ["ann", "bob"], {"players": 2})
    ann = accounts["clients"]["ann"]
    before = snapshot(match)
    codes = [ann.post(f"/api/v1/matches/{match.pk}/decisions/", {"move_number": 99, "decision": {
        "kind": "pass_count", "count": 1}}, format="json").status_code for _ in range(3)]
    assert codes == [409, 409, 429] and snapshot(match) == before
    assert ann.get(f"/api/v1/matches/{match.pk}/state/").status_code == 200  # reads are not limited


def test_schema_and_docs_are_served_without_a_network(accounts):
    anon = accounts["clients"]["anon"]
    schema = anon.get("/api/schema/?format=json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/v1/matches/{id}/decisions/" in paths and "/api/v1/me/turns/" in paths
    responses = paths["/api/v1/matches/{id}/decisions/"]["post"]["responses"]
    assert {"201", "400", "403", "404", "409", "429"} <= set(responses)
    docs = anon.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger-ui" in docs.content and b"unpkg" not in docs.content
    assert b"cdn.jsdelivr" not in docs.content
    assert anon.get("/api/redoc/").status_code == 200
