"""One set of rules for people and bots on the website (issue 27): My bots asks for a bot to join a club by the
club's policy, as the club page does for a person, and enters it in a tournament only within the window a person
keeps to and by the same members-only rule. Each test names the finding it covers; the bot is acted for by its
owner's session and by its own account, each answer compared with the person's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from league.models import Membership, MembershipRequest, RequestStatus, TournamentEntry
from league.services import (
    create_bot_player,
    create_club,
    create_person_player,
    create_tournament,
    register_players,
    start_tournament,
)
from league.services.players import add_club_admin, create_external_bot

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from runtime.throttling import STORE

    cache.clear()
    STORE.clear_local()


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def world():
    """A club on request with an organiser; Ada, a person, and her bot, adabot; a client for Ada and one for the
    bot's own account."""
    User = get_user_model()
    club = create_club(name="Selective", membership=Membership.REQUEST)
    organiser = User.objects.create_user("olga")
    add_club_admin(club=club, user=organiser)
    ada_user = User.objects.create_user("ada")
    ada = create_person_player(user=ada_user, name="ada")
    bot = create_external_bot(name="adabot", owner=ada_user)
    return {"club": club, "organiser": signed_in(organiser), "ada": ada, "bot": bot, "owner": signed_in(ada_user),
            "bot_account": signed_in(bot.user)}


SIDES = ["owner", "bot_account"]


def page_text(response) -> str:
    return response.content.decode()


@pytest.mark.parametrize("side", SIDES)
def test_my_bots_asks_a_club_on_request_and_its_organisers_answer(world, side):
    """Finding: a bot became a member of a club "on request" with no request. On the website, as the person's Join
    button does, asking for the bot records a request; the organisers accept it on the club's page."""
    club, bot = world["club"], world["bot"]
    assert f'<option value="{club.pk}">Selective' in page_text(world["owner"].get("/bots/"))
    r = world[side].post(f"/bots/{bot.pk}/join-club/", {"club": club.pk}, follow=True)
    assert r.status_code == 200 and "organisers will answer" in page_text(r)
    assert not bot.clubs.exists()
    request = MembershipRequest.objects.get(club=club, player=bot, status=RequestStatus.PENDING)
    assert "request pending" in page_text(world["owner"].get("/bots/"))
    # the person's own request goes the same way
    world["owner"].post(f"/clubs/{club.pk}/join/")
    assert not world["ada"].clubs.exists()
    assert MembershipRequest.objects.filter(club=club, player=world["ada"], status=RequestStatus.PENDING).exists()
    assert "adabot" in page_text(world["organiser"].get(f"/clubs/{club.pk}/"))
    world["organiser"].post(f"/clubs/{club.pk}/requests/{request.pk}/accept/")
    assert bot.clubs.filter(pk=club.pk).exists()


@pytest.mark.parametrize("side", SIDES)
def test_an_open_club_takes_the_bot_at_once_and_it_leaves_as_a_person_does(world, side):
    """Finding: the other policy, and leaving: an open club admits the bot at once; the owner (or the bot) takes it
    out, and withdraws a pending request."""
    club, bot = world["club"], world["bot"]
    club.membership = Membership.OPEN
    club.save()
    world[side].post(f"/bots/{bot.pk}/join-club/", {"club": club.pk})
    assert bot.clubs.filter(pk=club.pk).exists()
    world[side].post(f"/bots/{bot.pk}/leave-club/", {"club": club.pk})
    assert not bot.clubs.exists()
    club.membership = Membership.REQUEST
    club.save()
    world[side].post(f"/bots/{bot.pk}/join-club/", {"club": club.pk})
    world[side].post(f"/bots/{bot.pk}/leave-club/", {"club": club.pk})
    assert MembershipRequest.objects.get(club=club, player=bot).status == RequestStatus.WITHDRAWN


def test_nobody_else_asks_for_the_bot(world):
    """Finding: nobody but the bot's own side asks for it; the club's organisers do not bind an author's bot."""
    club, bot = world["club"], world["bot"]
    bob = signed_in(get_user_model().objects.create_user("bob"))
    for client in (bob, world["organiser"]):
        assert client.post(f"/bots/{bot.pk}/join-club/", {"club": club.pk}).status_code == 403
    bot.clubs.add(club)
    assert bob.post(f"/bots/{bot.pk}/leave-club/", {"club": club.pk}).status_code == 403
    assert bot.clubs.filter(pk=club.pk).exists() and not MembershipRequest.objects.exists()


def running_tournament(club, **fields):
    t = create_tournament(name="Running", rounds=3, ruleset={"rounds": 1}, club=club, auto_advance=False, **fields)
    register_players(tournament=t, players=[create_bot_player(name=f"field-{i}", kind="random", clubs=[club])
                                            for i in range(4)])
    start_tournament(tournament=t)
    return t


@pytest.mark.parametrize("side", SIDES)
def test_no_bot_enters_after_registration_closed_or_round_1_started(world, side):
    """Finding: a bot was entered after registration closed, or after round 1 started (201 on the website). Now it
    gets the person's refusal, and My bots offers neither tournament."""
    club, bot = world["club"], world["bot"]
    closed = create_tournament(name="Closed", rounds=1, ruleset={"rounds": 1}, club=club,
                               registration_closes_at=timezone.now() - timedelta(minutes=1))
    running = running_tournament(club)
    open_one = create_tournament(name="Open", rounds=1, ruleset={"rounds": 1}, club=club)
    bot.clubs.add(club)  # a member, so that only the window is in the way
    for tournament, why in ((closed, "closed at"), (running, "has started")):
        r = world[side].post(f"/bots/{bot.pk}/enter/", {"competition": f"tournament:{tournament.pk}"}, follow=True)
        assert not TournamentEntry.objects.filter(tournament=tournament, player=bot).exists(), tournament.name
        assert why in page_text(r), tournament.name
        # the person herself, on the tournament's page: the same refusal
        r = world["owner"].post(f"/tournaments/{tournament.pk}/enter/", follow=True)
        assert why in page_text(r) and not TournamentEntry.objects.filter(tournament=tournament,
                                                                          player=world["ada"]).exists()
    page = page_text(world["owner"].get("/bots/"))
    assert f"tournament:{open_one.pk}" in page
    assert f"tournament:{closed.pk}" not in page and f"tournament:{running.pk}" not in page
    world[side].post(f"/bots/{bot.pk}/enter/", {"competition": f"tournament:{open_one.pk}"})
    assert TournamentEntry.objects.filter(tournament=open_one, player=bot).exists()


@pytest.mark.parametrize("side", SIDES)
def test_the_members_only_rule_is_the_persons(world, side):
    """Finding: on the website a bot needed the club's membership for every tournament of the club, a person only
    for one for members only. Now both need it for members only, and neither for one open to all."""
    club, bot = world["club"], world["bot"]
    anyone = create_tournament(name="Anyone", rounds=1, ruleset={"rounds": 1}, club=club)
    members = create_tournament(name="Members", rounds=1, ruleset={"rounds": 1}, club=club, members_only=True)
    page = page_text(world["owner"].get("/bots/"))
    assert f"tournament:{anyone.pk}" in page and f"tournament:{members.pk}" not in page
    assert world[side].post(f"/bots/{bot.pk}/enter/", {"competition": f"tournament:{members.pk}"}).status_code == 403
    world["owner"].post(f"/tournaments/{members.pk}/enter/")
    assert not TournamentEntry.objects.filter(tournament=members).exists()
    world[side].post(f"/bots/{bot.pk}/enter/", {"competition": f"tournament:{anyone.pk}"})
    world["owner"].post(f"/tournaments/{anyone.pk}/enter/")
    assert set(TournamentEntry.objects.filter(tournament=anyone).values_list("player__name", flat=True)) == {
        "ada", "adabot"}


def test_the_organiser_registers_a_clubs_bot_late_by_design(world):
    """Finding (the organisers' side): late entries are the organisers' to register, by design (a late comer at a
    club evening joins at the next round); the same tournament refuses the bot's owner."""
    club = world["club"]
    running = running_tournament(club)
    club_bot = create_bot_player(name="late-bot", kind="random", clubs=[club])
    world["organiser"].post(f"/tournaments/{running.pk}/register/", {"players": [club_bot.pk]})
    assert TournamentEntry.objects.get(tournament=running, player=club_bot).joined_round == 2
    world["bot"].clubs.add(club)
    world["owner"].post(f"/bots/{world['bot'].pk}/enter/", {"competition": f"tournament:{running.pk}"})
    assert not TournamentEntry.objects.filter(tournament=running, player=world["bot"]).exists()
