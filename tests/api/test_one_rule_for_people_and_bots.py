"""One set of rules for people and bots (issue 27): club admission, tournaments' registration windows, the members-only
rule and rated tables apply to whoever is entered, person or bot, whether a bot is acted for by its owner's session
or by its own token. Each test names the finding it covers; each answer a person gets, a bot gets."""

from __future__ import annotations

from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.utils import timezone

from api.tokens import issue_token
from league.models import (
    LadderEntry,
    LobbyTable,
    Membership,
    MembershipRequest,
    Player,
    RequestStatus,
    TournamentEntry,
)
from league.services import create_club, create_person_player, create_tournament, register_players, start_tournament
from league.services.ladders import create_ladder
from league.services.lobby import LobbyRefused, create_table, join_table, start_with_bots
from league.services.players import add_club_admin, create_external_bot
from league.services.rounds import seat_round

from .conftest import client_for

pytestmark = pytest.mark.django_db


def verified_account(name: str):
    """An account with a confirmed address: it takes part, and so do its bots."""
    user = get_user_model().objects.create_user(name, password=f"pw-{name}-123")
    EmailAddress.objects.create(user=user, email=f"{name}@example.com", verified=True, primary=True)
    return user


@pytest.fixture
def author(accounts):
    """Ada, a person with a bot of her own (adabot, with its token), neither a member of the club; the three ways
    to act: Ada for herself, Ada for her bot, the bot with its own token."""
    ada_user = verified_account("ada")
    ada = create_person_player(user=ada_user, name="ada")
    bot = create_external_bot(name="adabot", owner=ada_user)
    session, token = client_for(ada_user), client_for(token=issue_token(bot.user))
    return {"person": ada, "bot": bot, "session": session, "token": token,
            # (who is entered, the client that asks): the person herself, her bot by her session, by its own token
            "sides": {"person": (ada, session), "owner": (bot, session), "token": (bot, token)}}


SIDES = ["person", "owner", "token"]


def join(client, club, player):
    return client.post(f"/api/v1/clubs/{club.pk}/members/", {"player": player.pk}, format="json")


# ---- club admission -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("side", SIDES)
def test_a_club_on_request_takes_a_request_from_a_bot_as_from_a_person(accounts, author, side):
    """Finding: an owner's bot, or the bot's own token, became a member of a club "on request" with no request (201).
    Now a bot's joining is a request (202) that the organisers answer, exactly as a person's."""
    club = create_club(name="Selective", membership=Membership.REQUEST)
    add_club_admin(club=club, user=accounts["organiser"])
    player, client = author["sides"][side]
    asked = join(client, club, player)
    assert asked.status_code == 202, asked.content
    assert not player.clubs.filter(pk=club.pk).exists()
    pending = MembershipRequest.objects.get(club=club, player=player, status=RequestStatus.PENDING)
    assert join(client, club, player).status_code == 202  # asking twice keeps the one request
    assert MembershipRequest.objects.filter(club=club, player=player).count() == 1
    # the asker sees their request (the owner their bot's); the organisers see it and answer it
    assert pending.pk in [r["id"] for r in client.get(f"/api/v1/clubs/{club.pk}/requests/").json()]
    organiser = accounts["clients"]["organiser"]
    assert player.pk in [r["player"] for r in organiser.get(f"/api/v1/clubs/{club.pk}/requests/").json()]
    assert organiser.post(f"/api/v1/clubs/{club.pk}/requests/{pending.pk}/accept/").status_code == 200
    assert player.clubs.filter(pk=club.pk).exists()


@pytest.mark.parametrize("side", SIDES)
def test_an_open_club_takes_a_bot_at_once_as_a_person(author, side):
    """Finding (the other policy): an open club admits a bot at once, as it admits a person."""
    club = create_club(name="Open Doors")
    player, client = author["sides"][side]
    assert join(client, club, player).status_code == 201
    assert player.clubs.filter(pk=club.pk).exists()
    assert join(client, club, player).status_code == 409  # a member already, as for a person


@pytest.mark.parametrize("side", SIDES)
def test_a_request_is_withdrawn_and_a_member_leaves_by_the_same_rule(author, side):
    """Finding: a bot had no way to withdraw its request or leave; its owner (or its token) now does what a person
    does."""
    club = create_club(name="Selective", membership=Membership.REQUEST)
    player, client = author["sides"][side]
    join(client, club, player)
    left = client.post(f"/api/v1/clubs/{club.pk}/leave/", {"player": player.pk}, format="json")
    assert left.status_code == 200, left.content
    assert MembershipRequest.objects.get(club=club, player=player).status == RequestStatus.WITHDRAWN
    player.clubs.add(club)
    assert client.post(f"/api/v1/clubs/{club.pk}/leave/", {"player": player.pk}, format="json").status_code == 200
    assert not player.clubs.filter(pk=club.pk).exists()


def test_nobody_else_asks_for_a_bot_or_takes_it_out(accounts, author):
    """Finding: admission is the player's own side's. Someone else (another person, an organiser of a club the bot is
    not in) neither asks for an author's bot nor takes it out; an organiser does not bind it to their club."""
    bot = author["bot"]
    club = create_club(name="Selective", membership=Membership.REQUEST)
    add_club_admin(club=club, user=accounts["organiser"])
    assert join(accounts["clients"]["bob"], club, bot).status_code == 403
    refused = join(accounts["clients"]["organiser"], club, bot)
    assert refused.status_code == 403 and "owner" in refused.json()["detail"]
    assert not bot.clubs.exists() and not MembershipRequest.objects.filter(player=bot).exists()
    bot.clubs.add(club)
    r = accounts["clients"]["bob"].post(f"/api/v1/clubs/{club.pk}/leave/", {"player": bot.pk}, format="json")
    assert r.status_code == 403 and bot.clubs.filter(pk=club.pk).exists()


def test_a_bots_token_on_the_persons_join_is_told_how_to_ask(accounts, author):
    """Finding: a bot's own token asking to join as a person gets a clear 4xx saying how its request is made."""
    club = create_club(name="Selective", membership=Membership.REQUEST)
    refused = author["token"].post(f"/api/v1/clubs/{club.pk}/join/")
    assert refused.status_code == 403 and f"/api/v1/clubs/{club.pk}/members/" in refused.json()["detail"]
    assert not MembershipRequest.objects.exists()


def test_the_organisers_add_the_clubs_bots_at_once_and_that_answers_a_pending_request(accounts, author):
    """Finding: the club's organisers admit at once the bots they add (bots without an owner), whatever the policy;
    such a bot asking with its own token is a request like anyone's, which their adding it accepts. An author's bot
    they do not add: they answer its request."""
    club = accounts["club"]
    club.membership = Membership.REQUEST
    club.save()
    organiser = accounts["clients"]["organiser"]
    unowned = create_external_bot(name="club-made")
    assert join(client_for(token=issue_token(unowned.user)), club, unowned).status_code == 202
    assert join(organiser, club, unowned).status_code == 201
    assert unowned.clubs.filter(pk=club.pk).exists()
    assert MembershipRequest.objects.get(club=club, player=unowned).status == RequestStatus.ACCEPTED
    bot = author["bot"]
    assert join(author["session"], club, bot).status_code == 202
    assert join(organiser, club, bot).status_code == 403 and not bot.clubs.exists()


def test_registering_a_player_in_a_club_goes_by_the_clubs_policy(accounts, author):
    """Finding (the same class, another way in): registering one's player with `club` made it a member of a club on
    request at once. It is a request there, as every other way in."""
    club = create_club(name="Selective", membership=Membership.REQUEST)
    r = author["session"].post("/api/v1/players/", {"kind": "person", "username": "ada", "name": "ada-again",
                                                    "club": club.pk}, format="json")
    assert r.status_code == 201, r.content
    again = Player.objects.get(name="ada-again")
    assert not again.clubs.exists()
    assert MembershipRequest.objects.filter(club=club, player=again, status=RequestStatus.PENDING).exists()


# ---- tournaments: the self-entry window, and members only ----------------------------------------------------------


def entries(client, tournament, players):
    return client.post(f"/api/v1/tournaments/{tournament.pk}/entries/", {"players": [p.pk for p in players]},
                       format="json")


def enter(side, author, tournament):
    player, client = author["sides"][side]
    if side == "person":
        return client.post(f"/api/v1/tournaments/{tournament.pk}/enter/")
    return entries(client, tournament, [player])


@pytest.mark.parametrize("side", SIDES)
def test_nobody_enters_after_registration_closed_person_or_bot(accounts, author, side):
    """Finding: a bot was entered after registration closed (201). Its owner and its own token now get the person's
    409, on the self-entry endpoint and on the entries endpoint alike."""
    closed = create_tournament(name="Closed", rounds=1, ruleset={"rounds": 1}, club=accounts["club"],
                               registration_closes_at=timezone.now() - timedelta(minutes=1))
    player, client = author["sides"][side]
    player.clubs.add(accounts["club"])  # a member, so that only the window is in the way
    for r in (enter(side, author, closed), entries(client, closed, [player])):
        assert r.status_code == 409 and "closed" in r.json()["detail"], r.content
    assert not TournamentEntry.objects.filter(tournament=closed).exists()


@pytest.mark.parametrize("side", SIDES)
def test_nobody_enters_once_round_1_started_person_or_bot(accounts, author, side):
    """Finding: a bot was entered after round 1 started (201): a late entry that only the organisers register."""
    p = accounts["players"]
    running = create_tournament(name="Running", rounds=3, ruleset={"rounds": 1}, club=accounts["club"],
                                auto_advance=False)
    register_players(tournament=running, players=[p["greedy-1"], p["random-1"], p["ext-1"], p["ext-2"]])
    start_tournament(tournament=running)
    player, _client = author["sides"][side]
    player.clubs.add(accounts["club"])  # a member, so that only the window is in the way
    r = enter(side, author, running)
    assert r.status_code == 409 and "started" in r.json()["detail"], r.content
    assert not TournamentEntry.objects.filter(tournament=running, player=player).exists()


@pytest.mark.parametrize("side", SIDES)
def test_nobody_enters_once_round_1_is_seated_before_it_starts(accounts, author, side):
    """Finding: round control seats round 1 before starting it; an entry then was a late one (joining at round 2)
    made on the entrant's own side. The window closes when round 1 is seated, for people and bots alike, and the
    organisers still register late entries."""
    p = accounts["players"]
    seated = create_tournament(name="Seated", rounds=3, ruleset={"rounds": 1}, club=accounts["club"],
                               auto_advance=False)
    register_players(tournament=seated, players=[p["greedy-1"], p["random-1"], p["ext-1"], p["ext-2"]])
    seat_round(tournament=seated)
    player, _client = author["sides"][side]
    player.clubs.add(accounts["club"])
    r = enter(side, author, seated)
    assert r.status_code == 409 and "started" in r.json()["detail"], r.content
    assert not TournamentEntry.objects.filter(tournament=seated, player=player).exists()
    late = create_external_bot(name="late-club-bot", clubs=[accounts["club"]])
    assert entries(accounts["clients"]["organiser"], seated, [late]).status_code == 201
    assert TournamentEntry.objects.get(tournament=seated, player=late).joined_round == 2


def test_a_partnership_team_of_ones_own_bots_keeps_to_the_window(accounts, author):
    """Finding: entering bots as a partnership team on their own side is an entry like any other."""
    partner = create_external_bot(name="adabot-2", owner=author["bot"].owner)
    closed = create_tournament(name="Pairs", rounds=1, ruleset={"rounds": 1, "partnerships": True},
                               registration_closes_at=timezone.now() - timedelta(minutes=1))
    for client in (author["session"], client_for(token=issue_token(author["bot"].user))):
        r = client.post(f"/api/v1/tournaments/{closed.pk}/entries/",
                        {"teams": [[author["bot"].pk, partner.pk]]}, format="json")
        assert r.status_code in (403, 409), r.content  # the token speaks for its own bot only
    assert not TournamentEntry.objects.filter(tournament=closed).exists()


def test_the_organisers_register_late_entries_whoever_they_enter(accounts):
    """Finding (the organisers' side, by design): the club's organisers register late entries, the club's bots and
    themselves alike; nobody else does."""
    organiser_user = accounts["organiser"]
    EmailAddress.objects.create(user=organiser_user, email="olga@example.com", verified=True, primary=True)
    olga = create_person_player(user=organiser_user, name="olga", clubs=[accounts["club"]])
    closed = create_tournament(name="Closed", rounds=1, ruleset={"rounds": 1}, club=accounts["club"],
                               registration_closes_at=timezone.now() - timedelta(minutes=1))
    organiser = accounts["clients"]["organiser"]
    assert entries(organiser, closed, [accounts["players"]["greedy-1"]]).status_code == 201
    assert organiser.post(f"/api/v1/tournaments/{closed.pk}/enter/").status_code == 201
    assert TournamentEntry.objects.filter(tournament=closed, player=olga).exists()
    # the same closed tournament, for a club member who does not organise it
    assert accounts["clients"]["ann"].post(f"/api/v1/tournaments/{closed.pk}/enter/").status_code == 409
    # and a club's bot by its own token
    assert entries(accounts["clients"]["ext-1"], closed, [accounts["players"]["ext-1"]]).status_code == 409


@pytest.mark.parametrize("side", SIDES)
def test_members_only_is_one_rule_for_people_and_bots(accounts, author, side):
    """Finding: the members-only rule applied to bots always and to people only when the tournament said so. Now a
    non-member, person or bot, enters a tournament open to all and not one for members only (nor a club's ladder)."""
    club = accounts["club"]
    anyone = create_tournament(name="Anyone", rounds=1, ruleset={"rounds": 1}, club=club)
    members = create_tournament(name="Members", rounds=1, ruleset={"rounds": 1}, club=club, members_only=True)
    ladder = create_ladder(name="Club ladder", club=club)
    player, client = author["sides"][side]
    assert enter(side, author, anyone).status_code == 201
    assert enter(side, author, members).status_code == 403
    assert client.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [player.pk]},
                       format="json").status_code == 403
    player.clubs.add(club)
    assert enter(side, author, members).status_code == 201
    assert client.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [player.pk]},
                       format="json").status_code == 201
    assert LadderEntry.objects.filter(ladder=ladder, player=player, active=True).exists()


# ---- rated tables ----------------------------------------------------------------------------------------------------


def test_no_bot_sits_at_a_rated_table_whatever_let_it_in(accounts, author):
    """Finding: a rated lobby table is for people only. A rated table that allows bots is refused when made (API),
    a bot's token cannot take a seat at one, and a table that would start with a house bot at a rated table (its row
    changed behind the service's back) does not start."""
    ann = accounts["clients"]["ann"]
    r = ann.post("/api/v1/lobby/tables/", {"game": "diamonds", "seats": 2, "rated": True, "bot_kind": "random"},
                 format="json")
    assert r.status_code == 400 and not LobbyTable.objects.exists()
    table = create_table(user=accounts["players"]["ann"].user, game="diamonds", seats=2, rated=True)
    assert author["token"].post(f"/api/v1/lobby/tables/{table.pk}/join/", {}, format="json").status_code == 403
    LobbyTable.objects.filter(pk=table.pk).update(bot_kind="random")
    with pytest.raises(LobbyRefused, match="people only"):
        start_with_bots(user=accounts["players"]["ann"].user, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == "open" and table.match_id is None
    # people only, it starts
    LobbyTable.objects.filter(pk=table.pk).update(bot_kind="")
    join_table(user=accounts["players"]["bob"].user, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == "started" and table.match_id is not None
