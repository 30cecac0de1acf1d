"""The organiser's round control (issue 28): seat a round without starting it, see its tables, swap two players
between tables until a result is in, seat a round again while it has no results; refusals change nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league.models import ClubAdmin, Match, MatchSeat, RoundStatus, TournamentRound
from league.services import create_bot_player, create_club, create_person_player, register_players
from league.services.tournament_setup import create_tournament

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def evening():
    club = create_club(name="Club")
    organiser = User.objects.create_user("org")
    ClubAdmin.objects.create(club=club, user=organiser)
    people = [create_person_player(user=User.objects.create_user(f"p{i}"), name=f"Name{i}", clubs=[club])
              for i in range(8)]
    tournament = create_tournament(name="Thursday", rounds=2, club=club, offline_tables=True)
    register_players(tournament=tournament, players=people)
    client = Client()
    client.force_login(organiser)
    return {"club": club, "tournament": tournament, "people": people, "organiser": client}


def seats_of(rnd):
    return {ms.player_id: (ms.match.table_number, ms.seat)
            for ms in MatchSeat.objects.filter(match__tournament_round=rnd).select_related("match")}


def stored_seats(rnd):
    rnd.refresh_from_db()
    return {pid: (t["number"], i) for t in rnd.tables for i, pid in enumerate(t["seats"])}


def test_seat_check_swap_and_start(evening, django_capture_on_commit_callbacks):
    t, client = evening["tournament"], evening["organiser"]
    response = client.post(f"/tournaments/{t.pk}/seat-round/")
    assert response.status_code == 302
    rnd = TournamentRound.objects.get(tournament=t)
    assert rnd.status == RoundStatus.SEATED
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Round 1 is seated, not started" in page and "Swap two players" in page and "Start round 1" in page
    before = seats_of(rnd)
    a, b = sorted(before, key=lambda pid: before[pid])[0], sorted(before, key=lambda pid: before[pid])[-1]
    assert before[a][0] != before[b][0]  # two tables
    client.post(f"/tournaments/{t.pk}/swap/", {"first": a, "second": b})
    after = seats_of(rnd)
    assert after[a] == before[b] and after[b] == before[a]
    assert stored_seats(rnd) == after  # the round's stored seating says the same as the tables
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/tournaments/{t.pk}/start-round/")
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.RUNNING and TournamentRound.objects.filter(tournament=t).count() == 1


def test_a_table_with_a_result_keeps_its_players(evening, django_capture_on_commit_callbacks):
    t, client = evening["tournament"], evening["organiser"]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/tournaments/{t.pk}/start-round/")
    rnd = TournamentRound.objects.get(tournament=t)
    tables = list(Match.objects.filter(tournament_round=rnd).order_by("table_number"))
    entered = tables[0]
    player = MatchSeat.objects.filter(match=entered, seat=0).select_related("player__user").get().player
    at_table = Client()
    at_table.force_login(player.user)
    figures = {f"vault_{i}": "5" for i in range(4)} | {f"showroom_{i}": "2" for i in range(4)}
    at_table.post(f"/matches/{entered.pk}/result/", figures)
    before = seats_of(rnd)
    other = MatchSeat.objects.filter(match=tables[1], seat=0).get().player_id
    response = client.post(f"/tournaments/{t.pk}/swap/", {"first": player.pk, "second": other}, follow=True)
    assert "has begun or has a result" in response.content.decode()
    assert seats_of(rnd) == before
    # Swapping within the tables without a result still works in a started round (real cards).
    third = MatchSeat.objects.filter(match=tables[1], seat=1).get().player_id
    client.post(f"/tournaments/{t.pk}/swap/", {"first": other, "second": third})
    assert seats_of(rnd)[other] == before[third]
    # Seating the round again is refused while a table has a result.
    response = client.post(f"/tournaments/{t.pk}/reseat/", follow=True)
    assert "cannot be seated again" in response.content.decode()
    assert TournamentRound.objects.get(tournament=t).pk == rnd.pk


def test_reseat_takes_in_a_late_arrival(evening):
    t, client = evening["tournament"], evening["organiser"]
    client.post(f"/tournaments/{t.pk}/seat-round/")
    rnd = TournamentRound.objects.get(tournament=t)
    assert len(seats_of(rnd)) == 8
    late = create_person_player(user=User.objects.create_user("late"), name="Late", clubs=[evening["club"]])
    register_players(tournament=t, players=[late])
    client.post(f"/tournaments/{t.pk}/reseat/")
    fresh = TournamentRound.objects.get(tournament=t)
    assert fresh.status == RoundStatus.SEATED and fresh.index == 1
    assert late.pk in seats_of(fresh) or late.pk in fresh.byes
    assert not Match.objects.filter(pk__in=[m for m in [x["match"] for x in rnd.tables]]).exists()


def test_only_the_clubs_organisers_and_bad_input_changes_nothing(evening):
    t, client = evening["tournament"], evening["organiser"]
    client.post(f"/tournaments/{t.pk}/seat-round/")
    rnd = TournamentRound.objects.get(tournament=t)
    before = seats_of(rnd)
    a, b = list(before)[:2]
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    other_club = create_club(name="Other")
    rival = User.objects.create_user("rival")
    ClubAdmin.objects.create(club=other_club, user=rival)
    rival_client = Client()
    rival_client.force_login(rival)
    for who in (stranger, rival_client):
        for path, data in (("swap/", {"first": a, "second": b}), ("reseat/", {}), ("seat-round/", {})):
            assert who.post(f"/tournaments/{t.pk}/{path}", data).status_code == 403
    assert Client().post(f"/tournaments/{t.pk}/swap/", {"first": a, "second": b}).status_code == 302  # sign in
    outsider = create_bot_player(name="outsider-bot", kind="random")
    for data in ({"first": a, "second": a}, {"first": a, "second": outsider.pk}, {"first": "x", "second": "9" * 40},
                 {}, {"first": a, "second": 10**12}):
        response = client.post(f"/tournaments/{t.pk}/swap/", data)
        assert response.status_code == 302
    assert seats_of(rnd) == before and TournamentRound.objects.get(tournament=t).pk == rnd.pk


def test_a_round_clock_counts_down_on_every_table_page_and_the_projector(evening, django_capture_on_commit_callbacks):
    """Issue 28: a round timer shown on every table page and on the projector, from the round's start."""
    from datetime import timedelta

    from league.services.tournament_setup import update_tournament

    t, client = evening["tournament"], evening["organiser"]
    update_tournament(tournament=t, round_minutes=40)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/tournaments/{t.pk}/start-round/")
    rnd = TournamentRound.objects.get(tournament=t)
    ends = (rnd.started_at + timedelta(minutes=40)).isoformat()
    table = Match.objects.filter(tournament_round=rnd).first()
    player = MatchSeat.objects.filter(match=table).select_related("player__user").first().player.user
    at_table = Client()
    at_table.force_login(player)
    for page in (at_table.get(f"/matches/{table.pk}/"), Client().get(f"/tournaments/{t.pk}/projector/"),
                 Client().get(f"/tournaments/{t.pk}/")):
        html = page.content.decode()
        assert 'role="timer"' in html and f'data-ends-at="{ends}"' in html and "clock.js" in html
    update_tournament(tournament=t, round_minutes=None)  # changeable while it runs; no clock, nothing shown
    assert 'role="timer"' not in Client().get(f"/tournaments/{t.pk}/projector/").content.decode()


def test_the_round_clock_is_checked_like_every_setting(evening):
    from league.services.tournament_setup import update_tournament

    t = evening["tournament"]
    for bad in (0, 601, -5, 2.5, True, "40"):
        with pytest.raises(ValueError):
            update_tournament(tournament=t, round_minutes=bad)
    t.refresh_from_db()
    assert t.round_minutes is None


def test_the_evening_dashboard_says_each_tables_state_and_the_next_step(evening, django_capture_on_commit_callbacks):
    """Issue 28: the organiser sees each table's state with one tap to it, and what to do next."""
    t, client = evening["tournament"], evening["organiser"]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/tournaments/{t.pk}/start-round/")
    rnd = TournamentRound.objects.get(tournament=t)
    tables = list(Match.objects.filter(tournament_round=rnd).order_by("table_number"))
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Round 1 at a glance" in page and "wait for the 2 tables still playing" in page
    for table in tables:
        assert f'<a href="/matches/{table.pk}/">Table {table.table_number}</a>' in page
    seats = {ms.seat: ms.player.user for ms in MatchSeat.objects.filter(match=tables[0]).select_related("player")}
    figures = {f"vault_{i}": "5" for i in range(4)} | {f"showroom_{i}": "2" for i in range(4)}
    first, second = Client(), Client()
    first.force_login(seats[0])
    second.force_login(seats[1])
    first.post(f"/matches/{tables[0].pk}/result/", figures)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "one result waits for a second player" in page and 'class="state-entered"' in page
    second.post(f"/matches/{tables[0].pk}/result/", figures | {"vault_0": "6"})
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "settle the disputed table" in page and 'class="state-disputed"' in page
    # Players see no dashboard.
    assert "at a glance" not in first.get(f"/tournaments/{t.pk}/").content.decode()
