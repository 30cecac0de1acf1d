"""A match's record keeps the seat names it was made with (Match.seats: the record is kept as played, its exports and
caches stay valid), while the pages name each seat's player as they are called now, and say beside what the record
calls them: after a guest's history is claimed by an account or merged into another guest (issue 28), or a player
is renamed. The API gives both: `seats` as the record has them, `seat_players[].name` as they are now."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from league.models import ClubAdmin, Match, MatchSeat, MatchStatus, Player
from league.selectors.live import public_record
from league.selectors.matches import played_as, seat_names
from league.services import create_club, create_person_player, start_tournament
from league.services.accounts import ensure_person, update_profile
from league.services.offline_results import enter_result
from league.services.registration import register_players
from league.services.roster import add_guests, claim_guest, issue_claim_code, merge_guests
from league.services.tournament_setup import create_tournament

from .conftest import table_with_bots

pytestmark = pytest.mark.django_db
User = get_user_model()


def _evening(names, run_on_commit):
    """A club's one-table evening with real cards: the guests `names` and people to make four, its result final."""
    club = create_club(name="Club")
    organiser = User.objects.create_user("org")
    ClubAdmin.objects.create(club=club, user=organiser)
    guests = add_guests(club=club, names=names)
    people = [create_person_player(user=User.objects.create_user(f"p{i}"), name=f"P{i}", clubs=[club])
              for i in range(4 - len(guests))]
    t = create_tournament(name="Night", rounds=1, club=club, offline_tables=True)
    register_players(tournament=t, players=[*guests, *people])
    with run_on_commit(execute=True):
        match = Match.objects.get(tournament_round=start_tournament(tournament=t))
    with run_on_commit(execute=True):
        enter_result(match=match, user=organiser, figures={"vault": [10, 4, 0, 7], "showroom": [3, 8, 12, 2]})
    return club, guests, match


def test_a_claimed_guests_table_names_the_account_and_says_what_the_record_calls_them(
        django_capture_on_commit_callbacks):
    club, (gina,), match = _evening(["Gina Rossi"], django_capture_on_commit_callbacks)
    seat = MatchSeat.objects.get(match=match, player=gina).seat
    recorded = list(match.seats)
    account = User.objects.create_user("gina")
    EmailAddress.objects.create(user=account, email="gina@example.org", verified=True, primary=True)
    _profile, person = ensure_person(account, name="Gina R")
    claim_guest(user=account, code=issue_claim_code(guest=gina, by=None))
    match.refresh_from_db()
    assert list(match.seats) == recorded  # the record as played
    assert seat_names(match)[seat] == "Gina R" and [(p.seat, p.then, p.now) for p in played_as(match)] == [
        (seat, "Gina Rossi", "Gina R")]
    html = Client().get(reverse("web:match", args=[match.pk])).content.decode()
    assert f"Seat {seat + 1}, Gina R, played as “Gina Rossi”." in html
    assert html.count("Gina Rossi") == 1  # only there: the seating and the result name the account's player
    api = Client().get(f"/api/v1/matches/{match.pk}/").json()
    assert api["seats"] == recorded
    assert next(s for s in api["seat_players"] if s["seat"] == seat)["name"] == "Gina R"


def test_a_guest_merged_into_another_is_shown_by_the_others_name(django_capture_on_commit_callbacks):
    club, (gina_b, _gus), match = _evening(["Gina B", "Gus"], django_capture_on_commit_callbacks)
    gina = add_guests(club=club, names=["Gina"])[0]
    merge_guests(club=club, source=gina_b, target=gina)
    html = Client().get(reverse("web:match", args=[match.pk])).content.decode()
    seat = MatchSeat.objects.get(match=match, player=gina).seat
    assert f"Seat {seat + 1}, Gina, played as “Gina B”." in html


def test_a_renamed_person_is_named_now_at_their_live_table(site, client):
    """The live table (and its polled updates) draws the seats with the names of now."""
    ann = site["ann"]
    match = table_with_bots(ann, site["bots"])
    update_profile(user=ann.user, display_name="Annie")
    client.force_login(ann.user)
    html = client.get(reverse("web:match", args=[match.pk])).content.decode()
    assert "Seat 1, Annie, played as “ann”." in html
    table = html.split('id="table"', 1)[1]
    assert "Annie" in table and not re.search(r"\bann\b", table)
    live = client.get(reverse("web:match-live", args=[match.pk]), {"move": "-1", "status": "x"}).json()
    assert "Annie" in live["html"] and not re.search(r"\bann\b", live["html"])
    assert list(Match.objects.get(pk=match.pk).seats)[0] == "ann"


def test_a_replay_names_the_seats_as_now_and_the_record_stays_as_played(site, client):
    """A player renamed since (the admin renames any player): the replay draws them by the name of now; the record,
    exported by the API, keeps the one it was made with."""
    match = Match.objects.filter(status=MatchStatus.FINISHED, tournament_round__isnull=False).first()
    seat = MatchSeat.objects.filter(match=match).select_related("player").order_by("seat").first()
    old = seat.player.name
    Player.objects.filter(pk=seat.player_id).update(name="Robo Renamed")
    html = client.get(reverse("web:match-replay", args=[match.pk])).content.decode()
    assert f"Seat 1, Robo Renamed, played as “{old}”." in html
    frames = html.split('class="frame"', 1)[1]
    assert "Robo Renamed" in frames and not re.search(rf"\b{re.escape(old)}\b", frames)
    assert public_record(Match.objects.get(pk=match.pk))["seats"][0] == old
    assert client.get(f"/api/v1/matches/{match.pk}/record/").json()["seats"][0] == old
