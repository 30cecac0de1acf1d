"""A bot author's writes through the API: renewing and revoking the bot's token (the old one refused with 401 at
once), resuming a paused bot; only the owner (or, for a club's bot, its organisers). And the real path to a pause:
a bot that lets deadlines pass has them counted on its seat and, at the match's end, towards pausing it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from league.models import Match, MatchSeat, MatchStatus, Player
from league.services import create_tournament
from league.services.ladders import create_ladder
from workers.tasks import enforce_turn_deadlines

from .conftest import client_for, live_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def annbot(accounts):
    r = accounts["clients"]["ann"].post("/api/v1/players/", {"kind": "external_bot", "name": "annbot"}, format="json")
    assert r.status_code == 201, r.content
    return Player.objects.get(pk=r.json()["id"]), r.json()["token"]


def test_the_owner_regenerates_the_token_and_the_old_one_is_refused_at_once(accounts, annbot):
    bot, old = annbot
    assert client_for(token=old).get("/api/v1/me/").status_code == 200
    r = accounts["clients"]["ann"].post(f"/api/v1/players/{bot.pk}/regenerate-token/")
    assert r.status_code == 200, r.content
    new = r.json()["token"]
    assert new and new != old
    r = client_for(token=old).get("/api/v1/me/")
    assert r.status_code == 401 and r.json()["code"] == "authentication_failed"
    assert [p["name"] for p in client_for(token=new).get("/api/v1/me/").json()["players"]] == ["annbot"]


def test_the_owner_revokes_the_token_and_the_bot_can_no_longer_sign_in(accounts, annbot):
    bot, token = annbot
    r = accounts["clients"]["ann"].post(f"/api/v1/players/{bot.pk}/revoke-token/")
    assert r.status_code == 200 and r.json()["name"] == "annbot"
    assert client_for(token=token).get("/api/v1/me/").status_code == 401
    # revoking again is harmless; a new token brings it back
    assert accounts["clients"]["ann"].post(f"/api/v1/players/{bot.pk}/revoke-token/").status_code == 200
    new = accounts["clients"]["ann"].post(f"/api/v1/players/{bot.pk}/regenerate-token/").json()["token"]
    assert client_for(token=new).get("/api/v1/me/").status_code == 200


@pytest.mark.parametrize("who", ["bob", "outsider", "organiser", "anon", "bot-itself"])
def test_nobody_else_touches_someone_elses_bot(accounts, annbot, who):
    bot, token = annbot
    Player.objects.filter(pk=bot.pk).update(paused_at=timezone.now(), paused_reason="testing")
    client = client_for(token=token) if who == "bot-itself" else accounts["clients"][who]
    for action in ("regenerate-token", "revoke-token", "resume"):
        r = client.post(f"/api/v1/players/{bot.pk}/{action}/")
        assert r.status_code in (401, 403), (action, r.content)
        assert set(r.json()) >= {"detail", "code"}
    # nothing changed: the token still works and the bot is still paused
    assert client_for(token=token).get("/api/v1/me/").status_code == 200
    assert Player.objects.get(pk=bot.pk).is_paused


def test_a_clubs_external_bot_is_managed_by_its_organisers(accounts):
    ext = accounts["players"]["ext-1"]
    assert accounts["clients"]["ann"].post(f"/api/v1/players/{ext.pk}/revoke-token/").status_code == 403
    assert accounts["clients"]["organiser"].post(f"/api/v1/players/{ext.pk}/revoke-token/").status_code == 200
    assert client_for(token=accounts["tokens"]["ext-1"]).get("/api/v1/me/").status_code == 401


def test_tokens_are_an_external_bots_only(accounts):
    greedy = accounts["players"]["greedy-1"]
    r = accounts["clients"]["organiser"].post(f"/api/v1/players/{greedy.pk}/regenerate-token/")
    assert r.status_code == 409 and r.json()["code"] == "conflict"
    person = accounts["players"]["ann"]
    assert accounts["clients"]["ann"].post(f"/api/v1/players/{person.pk}/regenerate-token/").status_code == 403


def test_the_owner_resumes_a_paused_bot_and_a_paused_bot_cannot_be_entered(accounts, annbot):
    bot, _ = annbot
    ladder = create_ladder(name="Open Ladder")
    ann = accounts["clients"]["ann"]
    Player.objects.filter(pk=bot.pk).update(paused_at=timezone.now(), paused_reason="kept missing", missed_in_row=5)
    body = ann.get(f"/api/v1/players/{bot.pk}/").json()
    assert body["status"] == "paused" and body["paused_reason"] == "kept missing"
    r = ann.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [bot.pk]}, format="json")
    assert r.status_code == 409 and "paused" in r.json()["detail"]
    assert not ladder.entries.exists()
    tournament = create_tournament(name="Open Cup", rounds=1)
    r = ann.post(f"/api/v1/tournaments/{tournament.pk}/entries/", {"players": [bot.pk]}, format="json")
    assert r.status_code == 409 and "paused" in r.json()["detail"] and not tournament.entries.exists()
    r = ann.post(f"/api/v1/players/{bot.pk}/resume/")
    assert r.status_code == 200 and r.json()["status"] == "active" and r.json()["paused_at"] is None
    assert Player.objects.get(pk=bot.pk).missed_in_row == 0
    assert ann.post(f"/api/v1/players/{bot.pk}/resume/").status_code == 409  # not paused any more
    assert ann.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [bot.pk]}, format="json").status_code == 201


@pytest.mark.django_db(transaction=True)
def test_a_bot_that_lets_deadlines_pass_has_them_counted_and_is_paused(accounts, settings):
    settings.DIAMONDS_BOT_PAUSE_AFTER = 1
    match = live_match(accounts, ["ann", "ext-1"], {"players": 2}, turn_deadline_seconds=5)
    for _ in range(1000):
        Match.objects.filter(pk=match.pk, deadline_at__isnull=False).update(
            deadline_at=timezone.now() - timedelta(seconds=1))
        enforce_turn_deadlines()
        match.refresh_from_db()
        if match.status != MatchStatus.RUNNING:
            break
    assert match.status == MatchStatus.FINISHED
    seats = {ms.player.name: ms for ms in MatchSeat.objects.filter(match=match).select_related("player")}
    assert seats["ext-1"].timeouts > 0 and seats["ann"].timeouts > 0
    ext = Player.objects.get(name="ext-1")
    assert ext.is_paused and ext.missed_in_row == 1 and f"match {match.pk}" in ext.paused_reason
    assert not Player.objects.get(name="ann").is_paused  # people are never paused
