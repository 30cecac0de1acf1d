"""Limits and control on the website: an organiser (or staff) cancels a match or a tournament from its page, through
the same service as the API's cancel; anyone else is refused (403, or the sign-in page) and nothing changes. The form
that makes a ruleset refuses what it does not offer with a 400."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Match, MatchStatus, Tournament, TournamentStatus
from league.services import create_tournament, register_players, seat_round

from .conftest import table_with_bots

pytestmark = pytest.mark.django_db


def signed_in(client, user):
    client.force_login(user)  # the sign-in form itself is django-axes' (tests/api/test_abuse_throttles.py)
    return client


def club_table(site) -> Match:
    match = table_with_bots(site["ann"], site["bots"], seed="web-cancel")
    Match.objects.filter(pk=match.pk).update(club=site["club"])
    return match


def test_an_organiser_sees_the_button_and_cancels_a_match(client, site):
    match = club_table(site)
    page = signed_in(client, site["organiser"]).get(reverse("web:match", args=[match.pk]))
    assert b"Cancel this match" in page.content
    response = client.post(reverse("web:match-cancel", args=[match.pk]), {"reason": "players left"})
    assert response.status_code == 302 and response.url == reverse("web:match", args=[match.pk])
    match.refresh_from_db()
    assert match.status == MatchStatus.CANCELLED and match.error == "cancelled by olive: players left"
    page = client.get(reverse("web:match", args=[match.pk]))
    assert b"Cancel this match" not in page.content and b"cancelled" in page.content


@pytest.mark.parametrize("who", ["ann", "bob", None])
def test_players_and_visitors_neither_see_nor_use_the_match_button(client, site, who):
    match = club_table(site)
    if who:
        signed_in(client, site[who].user)
    assert b"Cancel this match" not in client.get(reverse("web:match", args=[match.pk])).content
    response = client.post(reverse("web:match-cancel", args=[match.pk]))
    assert response.status_code == (403 if who else 302)  # a visitor is sent to sign in
    assert Match.objects.get(pk=match.pk).status == match.status


def test_a_reason_too_long_cancels_nothing(client, site):
    match = club_table(site)
    signed_in(client, site["organiser"]).post(reverse("web:match-cancel", args=[match.pk]), {"reason": "x" * 501})
    assert Match.objects.get(pk=match.pk).status == match.status


def test_an_organiser_cancels_a_tournament_from_its_page_and_others_may_not(client, site):
    t = create_tournament(name="Web Cancel Cup", rounds=2, ruleset={"rounds": 1}, club=site["club"], seed="web-cc")
    register_players(tournament=t, players=site["bots"])
    rnd = seat_round(tournament=t)
    signed_in(client, site["bob"].user)
    assert client.post(reverse("web:tournament-cancel", args=[t.pk])).status_code == 403
    assert Tournament.objects.get(pk=t.pk).status == TournamentStatus.REGISTERING
    client.logout()
    page = signed_in(client, site["organiser"]).get(reverse("web:tournament", args=[t.pk]))
    assert b"Cancel the tournament" in page.content
    response = client.post(reverse("web:tournament-cancel", args=[t.pk]), {"reason": "hall flooded"})
    assert response.status_code == 302
    assert Tournament.objects.get(pk=t.pk).status == TournamentStatus.CANCELLED
    assert set(rnd.matches.values_list("status", flat=True)) == {MatchStatus.CANCELLED}
    page = client.get(reverse("web:tournament", args=[t.pk]))
    assert b"Cancel the tournament" not in page.content and b"Seat and start" not in page.content


def test_a_finished_tournament_keeps_its_results(client, site):
    signed_in(client, site["staff"]).post(reverse("web:tournament-cancel", args=[site["tournament"].pk]))
    assert Tournament.objects.get(pk=site["tournament"].pk).status == TournamentStatus.FINISHED


@pytest.mark.parametrize("form", [{"rounds": 1000000}, {"rounds": "ten"}, {"game": "chess"},
                                  {"clubs": "steal"}, {"game": "ringrace", "bots": "search"}])
def test_the_bot_table_form_refuses_what_it_does_not_offer_with_a_400_and_creates_nothing(client, site, form):
    """The website's one form that makes a ruleset offers one round or a full game (R-ROUNDS-1's rulebook count):
    anything else is a 400 naming the field, never a match."""
    client.force_login(site["ann"].user)
    before = Match.objects.count()
    response = client.post(reverse("web:play-bots"), form)
    assert response.status_code == 400
    assert Match.objects.count() == before
