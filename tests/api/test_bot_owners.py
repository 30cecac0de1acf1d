"""A bot author on their own: any verified person's account creates an external bot (it is the bot's `owner`), gets
its token once and enters it in a ladder; nobody else can enter it, take it out or create bots with a bot's token, and
a bot takes part only while its owner is verified."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from league.models import LadderEntry, Membership, MembershipRequest, Player, TournamentEntry
from league.services import create_tournament
from league.services.ladders import create_ladder, join_ladder

from .conftest import client_for, confirm_address, signed_up

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


def test_an_unverified_account_makes_no_bot_and_its_bot_takes_part_in_nothing(accounts, capsys):
    """Finding (issue 27, verification): an unverified account created an external bot and, through it (its own
    session or the bot's token), joined a club that admits members on request, joined ladders and entered
    tournaments, each 201. A bot acts for its owner: every one of those is refused until the owner confirms."""
    newt, owner = signed_up("newt")
    before = Player.objects.count()
    r = make_bot(owner, name="newtbot")
    assert r.status_code == 403 and "Confirm your email" in r.json()["detail"]
    assert Player.objects.count() == before

    # A bot of theirs made anyway (before this rule, or by an administrator's command naming them its owner).
    call_command("create_external_bot", "newtbot", owner="newt")
    bot = Player.objects.get(name="newtbot")
    as_bot = client_for(token=capsys.readouterr().out.strip())
    club = accounts["club"]
    club.membership = Membership.REQUEST
    club.save()
    ladder = create_ladder(name="Open Ladder")
    tournament = create_tournament(name="Open Cup", rounds=1, ruleset={"rounds": 1})
    for client in (owner, as_bot):
        r = client.post(f"/api/v1/clubs/{club.pk}/members/", {"player": bot.pk}, format="json")
        assert r.status_code == 403, r.content
        r = client.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [bot.pk]}, format="json")
        assert r.status_code == 403, r.content
        r = client.post(f"/api/v1/tournaments/{tournament.pk}/entries/", {"players": [bot.pk]}, format="json")
        assert r.status_code == 403, r.content
    r = as_bot.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [bot.pk]}, format="json")
    assert "owner has not confirmed" in r.json()["detail"]  # the bot's token is told whose confirmation is missing
    assert not bot.clubs.exists() and not MembershipRequest.objects.filter(player=bot).exists()
    assert not LadderEntry.objects.filter(player=bot).exists()
    assert not TournamentEntry.objects.filter(player=bot).exists()

    # Once the owner confirms their address, the same requests go through: the refusals were the verification.
    confirm_address("newt")
    r = as_bot.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [bot.pk]}, format="json")
    assert r.status_code == 201, r.content
    r = owner.post(f"/api/v1/tournaments/{tournament.pk}/entries/", {"players": [bot.pk]}, format="json")
    assert r.status_code == 201, r.content
    assert make_bot(owner, name="newtbot2").status_code == 201


def test_a_club_or_a_commands_bot_without_an_owner_takes_part_as_its_club(accounts):
    """Verification follows a bot's owner; a bot with none was registered by a club's organisers or an
    administrator's command, and its token enters it as before."""
    ladder = create_ladder(name="Club Ladder", club=accounts["club"])
    r = accounts["clients"]["ext-1"].post(f"/api/v1/ladders/{ladder.pk}/join/",
                                          {"players": [accounts["players"]["ext-1"].pk]}, format="json")
    assert r.status_code == 201, r.content
