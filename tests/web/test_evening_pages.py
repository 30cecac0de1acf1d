"""The club evening's pages: the organiser's check-in list (one tap per person), a player's own check-in button,
and the final's ranking on the tournament page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import CheckIn
from league.services import create_bot_player, create_club, create_person_player, create_tournament, register_players
from league.services.players import add_club_admin

from .support import administrators_account

PASSWORD = "pw-evening-1"
pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    User = get_user_model()
    club = create_club(name="Evening Club")
    organiser = administrators_account("olive", password=PASSWORD)  # signs in on the website (the e2e check-in)
    add_club_admin(club=club, user=organiser)
    ann = create_person_player(user=User.objects.create_user("ann", password=PASSWORD), name="ann", clubs=[club])
    bob = create_person_player(user=User.objects.create_user("bob", password=PASSWORD), name="bob", clubs=[club])
    bots = [create_bot_player(name=f"eve-{i}", kind="random", clubs=[club]) for i in range(3)]
    t = create_tournament(name="Thursday", rounds=2, table_size=2, club=club, seed="thu", auto_advance=False,
                          check_in_required=True, self_check_in=True, final_size=2)
    register_players(tournament=t, players=[ann, bob, *bots])
    return {"t": t, "organiser": organiser, "ann": ann, "bob": bob, "bots": bots}


def toggle(client, t, player, on: bool, **extra):
    return client.post(f"/tournaments/{t.pk}/check-in/toggle/",
                       {"player": player.pk, "checked_in": "1" if on else "0", **extra})


def test_the_organiser_taps_players_in_on_the_check_in_list_and_seats_those_present(client, evening):
    t = evening["t"]
    client.force_login(evening["organiser"])
    page = client.get(f"/tournaments/{t.pk}/check-in/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Check-in for round 1" in html and html.count('class="check-in"') == 5
    assert 'name="viewport"' in html  # the site's phone layout
    for p in (evening["ann"], *evening["bots"][:2]):
        r = toggle(client, t, p, True, back="list")
        assert r.status_code == 302 and r["Location"].endswith("/check-in/")
    toggle(client, t, evening["bots"][1], False, back="list")  # a wrong tap undone
    html = client.get(f"/tournaments/{t.pk}/check-in/").content.decode()
    assert "2 of 5 checked in" in html
    client.post(f"/tournaments/{t.pk}/start-round/")
    rnd = t.tournament_rounds.get()
    assert sorted(pid for table in rnd.tables for pid in table["seats"]) == sorted(
        [evening["ann"].pk, evening["bots"][0].pk])
    assert "Check-in for round 2" in client.get(f"/tournaments/{t.pk}/check-in/").content.decode()


def test_a_player_checks_themselves_in_and_nobody_else(client, evening):
    t = evening["t"]
    client.force_login(evening["ann"].user)
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Check ann in for round 1" in html and "Check bob in" not in html
    assert toggle(client, t, evening["ann"], True).status_code == 302
    assert CheckIn.objects.filter(entry__player=evening["ann"], round_index=1).exists()
    assert "ann is checked in for round 1" in client.get(f"/tournaments/{t.pk}/").content.decode()
    assert toggle(client, t, evening["bob"], True).status_code == 403  # someone else
    assert client.get(f"/tournaments/{t.pk}/check-in/").status_code == 403  # the list is the organiser's
    assert not CheckIn.objects.filter(entry__player=evening["bob"]).exists()


def test_without_self_check_in_a_player_waits_for_the_organiser(client, evening):
    t = evening["t"]
    t.self_check_in = False
    t.save()
    client.force_login(evening["ann"].user)
    assert "the organisers check players in" in client.get(f"/tournaments/{t.pk}/").content.decode()
    assert toggle(client, t, evening["ann"], True).status_code == 403
    assert not CheckIn.objects.exists()


def test_a_hostile_toggle_changes_nothing(client, evening):
    t = evening["t"]
    client.force_login(evening["organiser"])
    assert client.post(f"/tournaments/{t.pk}/check-in/toggle/", {"player": "x"}).status_code == 302
    assert client.post(f"/tournaments/{t.pk}/check-in/toggle/", {"player": "999999", "checked_in": "1"}
                       ).status_code == 302
    assert client.get(f"/tournaments/{t.pk}/check-in/toggle/").status_code == 405
    assert not CheckIn.objects.exists()
    client.logout()
    assert toggle(client, t, evening["ann"], True).status_code == 302  # to the sign-in page
    assert not CheckIn.objects.exists()


def test_the_tournament_page_shows_the_provisional_ranking_of_a_tournament_with_a_final(client, evening):
    html = client.get(f"/tournaments/{evening['t'].pk}/").content.decode()
    assert "Ranking (provisional)" in html and "Qualifying standings" in html
    assert "The final decides places 1 to 2" in html


def test_the_organiser_registers_a_bot_late_and_a_dropped_player_is_marked(client, evening):
    from league.models import TournamentEntry
    from league.services.advancing import start_round
    from league.services.registration import withdraw_player
    from league.services.rounds import seat_round

    t = evening["t"]
    t.check_in_required = False
    t.save()
    start_round(tournament_round=seat_round(tournament=t))
    late = create_bot_player(name="eve-late", kind="random", clubs=[t.club])
    withdraw_player(tournament=t, player=evening["bots"][0])
    client.force_login(evening["organiser"])
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "eve-late" in html and "dropped" in html
    client.post(f"/tournaments/{t.pk}/register/", {"players": [late.pk]})
    assert TournamentEntry.objects.get(tournament=t, player=late).joined_round == 2
    assert "joined at round 2" in client.get(f"/tournaments/{t.pk}/").content.decode()
