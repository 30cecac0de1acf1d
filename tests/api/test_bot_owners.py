"""A bot author on their own: any person's account creates an external bot (it is the bot's `owner`), gets its
token once and enters it in a ladder; nobody else can enter it, take it out or create bots with a bot's token."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from league.models import LadderEntry, Player
from league.services.ladders import create_ladder, join_ladder

from .conftest import client_for

pytestmark = pytest.mark.django_db


def make_bot(client, name="annbot"):
    # a hostile form's `owner` is not a field: the owner is whoever creates the bot
    return client.post("/api/v1/players/", {"kind": "external_bot", "name": name, "owner": "bob"}, format="json")


def test_a_person_creates_their_own_bot_and_enters_it_in_a_ladder(accounts):
    ladder = create_ladder(name="Open Ladder")
    r = make_bot(accounts["clients"]["ann"])
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["owner"] == "ann" and body["kind"] == "external_bot" and body["clubs"] == [] and body["token"]
    bot = Player.objects.get(pk=body["id"])
    assert bot.owner.username == "ann" and bot.user.username == "bot-annbot"
    # the token is shown once: reading the bot never shows it again
    assert "token" not in accounts["clients"]["ann"].get(f"/api/v1/players/{bot.pk}/").json()
    r = accounts["clients"]["ann"].post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [bot.pk]}, format="json")
    assert r.status_code == 201, r.content
    assert LadderEntry.objects.get(ladder=ladder, player=bot).active
    # and the bot, with its own token, plays as itself
    me = client_for(token=body["token"]).get("/api/v1/me/").json()
    assert [p["name"] for p in me["players"]] == ["annbot"]


def test_nobody_enters_someone_elses_bot_nor_takes_it_out(accounts):
    ladder = create_ladder(name="Open Ladder")
    bot = Player.objects.get(pk=make_bot(accounts["clients"]["ann"]).json()["id"])
    bob = accounts["clients"]["bob"]
    r = bob.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [bot.pk]}, format="json")
    assert r.status_code == 403
    assert not LadderEntry.objects.filter(player=bot).exists()
    # not even hidden among one's own players
    r = bob.post(f"/api/v1/ladders/{ladder.pk}/join/",
                 {"players": [accounts["players"]["bob"].pk, bot.pk]}, format="json")
    assert r.status_code == 403 and not LadderEntry.objects.filter(ladder=ladder).exists()
    # someone else's engine bot or the club's external bots are not anyone's to enter either
    for other in ("ext-1", "greedy-1"):
        r = bob.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [accounts["players"][other].pk]},
                     format="json")
        assert r.status_code == 403
    join_ladder(ladder=ladder, players=[bot])
    r = bob.post(f"/api/v1/ladders/{ladder.pk}/leave/", {"player": bot.pk}, format="json")
    assert r.status_code == 403 and LadderEntry.objects.get(player=bot).active
    r = accounts["clients"]["anon"].post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [bot.pk]}, format="json")
    assert r.status_code in (401, 403)


def test_a_bot_token_cannot_breed_bots_and_a_club_bot_needs_its_organiser(accounts):
    before = Player.objects.count()
    r = make_bot(accounts["clients"]["ext-1"], name="spawn")
    assert r.status_code == 403
    r = accounts["clients"]["bob"].post("/api/v1/players/", {"kind": "external_bot", "name": "clubbot",
                                                             "club": accounts["club"].pk}, format="json")
    assert r.status_code == 403
    r = accounts["clients"]["anon"].post("/api/v1/players/", {"kind": "external_bot", "name": "anon"},
                                         format="json")
    assert r.status_code in (401, 403)
    assert Player.objects.count() == before


def test_a_taken_name_is_a_409_and_changes_nothing(accounts):
    assert make_bot(accounts["clients"]["ann"], name="twice").status_code == 201
    before = Player.objects.count()
    r = make_bot(accounts["clients"]["bob"], name="twice")
    assert r.status_code == 409 and Player.objects.count() == before


def test_the_command_makes_a_bot_with_its_owner_in_a_ladder_or_nothing(accounts, capsys):
    ladder = create_ladder(name="Demo ladder")
    call_command("create_external_bot", "cmdbot", owner="ann", ladder="Demo ladder")
    token = capsys.readouterr().out.strip()
    bot = Player.objects.get(name="cmdbot")
    assert bot.owner.username == "ann" and LadderEntry.objects.filter(ladder=ladder, player=bot).exists()
    assert client_for(token=token).get("/api/v1/me/").json()["players"][0]["name"] == "cmdbot"
    with pytest.raises(CommandError, match="no ladder named 'nope'"):
        call_command("create_external_bot", "lost", ladder="nope")
    with pytest.raises(CommandError, match="no account named 'nobody'"):
        call_command("create_external_bot", "lost", owner="nobody")
    with pytest.raises(CommandError, match="taken"):
        call_command("create_external_bot", "cmdbot")
    assert not Player.objects.filter(name="lost").exists()


def test_a_name_like_anothers_is_a_409_and_a_house_bots_a_400(accounts):
    before = Player.objects.count()
    for look_alike in ("\u0430nn", "ANN", "ann\u200b", "ext-l"):  # Cyrillic a; another case; a zero-width space
        r = make_bot(accounts["clients"]["bob"], name=look_alike)
        assert r.status_code == 409 and "detail" in r.json(), look_alike
    r = make_bot(accounts["clients"]["bob"], name="house-random-5")
    assert r.status_code == 400 and "house" in str(r.json())
    profile = accounts["clients"]["bob"].patch("/api/v1/me/profile/", {"display_name": "\u0430nn"}, format="json")
    assert profile.status_code == 409
    assert Player.objects.count() == before


@pytest.mark.parametrize("name", ["\u200b\u200b", "\u202e", " \u2060 ", "\ufdfa" * 20])
def test_a_name_with_nothing_visible_or_too_long_once_normalised_is_a_400_and_changes_nothing(accounts, name):
    # "\ufdfa" is one character that NFKC spells out in 18: twenty of them pass a length check on the raw form
    before = Player.objects.count()
    r = make_bot(accounts["clients"]["bob"], name=name)
    assert r.status_code == 400, (name, r.status_code, r.content)
    profile = accounts["clients"]["bob"].patch("/api/v1/me/profile/", {"display_name": name}, format="json")
    assert 400 <= profile.status_code < 500, (name, profile.status_code, profile.content)
    assert Player.objects.count() == before
    assert not Player.objects.filter(name="").exists()
