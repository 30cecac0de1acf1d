"""People read seats, rounds, tables and tricks from 1 on the website; the API's seats stay 0-based."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league.models import MatchSeat

pytestmark = pytest.mark.django_db


def test_the_tournament_page_counts_seats_rounds_and_tables_from_one(client, site):
    html = client.get(reverse("web:tournament", args=[site["tournament"].pk])).content.decode()
    assert "Seat 1:" in html and "Seat 0:" not in html
    assert "Round 1" in html and "Round 0" not in html and "Table 1" in html and "Table 0" not in html


def test_the_player_page_shows_the_seat_a_person_would_count(client, site):
    seat = MatchSeat.objects.filter(seat=0).select_related("player").first()
    html = client.get(reverse("web:player", args=[seat.player_id])).content.decode()
    row = re.search(rf'Match {seat.match_id}</a>.*?</tr>', html, re.S).group(0)
    assert re.findall(r"<td>(\d+)</td>", row)[0] == "1"
    # the API's own seats stay as they are documented: 0-based
    api = client.get(f"/api/v1/matches/{seat.match_id}/").json()
    assert sorted(s["seat"] for s in api["seat_players"])[0] == 0
