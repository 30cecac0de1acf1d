"""CSV exports neutralise formula cells (OWASP, CSV injection): a text cell a spreadsheet would run as a formula is
written with a leading apostrophe; numbers, negative ones included, stay numbers."""

from __future__ import annotations

import csv
import io

import pytest

from api.renderers import CSVRenderer
from league.services import create_bot_player
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament

pytestmark = pytest.mark.django_db

HOSTILE = ["=HYPERLINK(\"http://evil\",\"x\")", "+cmd|' /C calc'!A0", "-2+3+cmd|x", "@SUM(1+1)", "\tx", "\rx"]


def test_renderer_neutralises_every_formula_start_and_keeps_numbers():
    rows = [{"name": name, "points": -3, "metrics": 1.5} for name in HOSTILE]
    out = list(csv.DictReader(io.StringIO(CSVRenderer().render(rows).decode(), newline="")))
    assert [r["name"] for r in out] == ["'" + name for name in HOSTILE]
    assert {r["points"] for r in out} == {"-3"}


@pytest.mark.parametrize("name", HOSTILE[:4])
def test_standings_csv_of_a_player_named_like_a_formula(accounts, name):
    t = create_tournament(name="t", rounds=1, club=accounts["club"])
    bot = create_bot_player(name=name, kind="random", clubs=[accounts["club"]])
    register_players(tournament=t, players=[bot, accounts["players"]["random-1"]])
    r = accounts["clients"]["anon"].get(f"/api/v1/tournaments/{t.pk}/standings/?format=csv")
    assert r.status_code == 200
    cells = [cell for row in csv.reader(io.StringIO(r.content.decode())) for cell in row]
    assert "'" + name in cells and name not in cells
