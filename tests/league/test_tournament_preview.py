"""Issue 28: the tournament preview (league.services.tournament_setup.preview_tournament) says what the seating code
will seat, round by round, and creates nothing; the presets (league.presets) are settings the service accepts; and
changeable_settings is what update_tournament lets change."""

from __future__ import annotations

from fractions import Fraction

import pytest

from league.models import Tournament, TournamentStatus
from league.presets import EVENING_POINTS, PRESETS, stored_points
from league.scheduling import duplicate_schedule, fixed_schedule
from league.services import create_tournament
from league.services.tournament_setup import (
    CHANGEABLE,
    CHANGEABLE_WHILE_RUNNING,
    FINAL_SETTINGS,
    changeable_settings,
    preview_tournament,
)
from league.standings import StandingsConfig


def _first_round(schedule):
    rnd = schedule.rounds[0]
    return tuple(sorted((t.size for t in rnd.tables), reverse=True)), len(rnd.byes)


@pytest.mark.parametrize("table_size", [2, 3, 4, 5, 6])
def test_the_preview_is_the_fixed_schedules_tables_for_every_small_field(table_size):
    """From 0 to 40 players, the preview's tables and byes are those of the schedule seated for the field."""
    for players in range(0, 41):
        preview = preview_tournament(entrants=players, rounds=2, table_size=table_size)
        if players < 2:
            assert preview.rounds == (), players
            continue
        schedule = fixed_schedule(list(range(players)), rounds=1, table_size=table_size, seed="preview")
        tables, byes = _first_round(schedule)
        assert [(r.tables, r.byes) for r in preview.rounds] == [(tables, byes)] * 2, players


def test_a_duplicate_preview_shows_the_deal_groups_the_schedule_forms():
    for players in (8, 10, 13, 16, 23):
        preview = preview_tournament(entrants=players, rounds=1, table_size=4, format="duplicate")
        rnd = duplicate_schedule(list(range(players)), rounds=1, table_size=4, seed="dup").rounds[0]
        groups: dict[int, list[int]] = {}
        for table in rnd.tables:
            groups.setdefault(table.group, []).append(table.size)
        expected = tuple(sorted(((sizes[0], len(sizes)) for sizes in groups.values()), key=lambda g: -g[0]))
        assert tuple(sorted(preview.rounds[0].deal_groups, key=lambda g: -g[0])) == expected, players


def test_partnerships_seat_teams_and_the_final_is_planned():
    preview = preview_tournament(entrants=11, rounds=1, table_size=4, ruleset={"partnerships": True})
    assert (preview.units, preview.unpaired, preview.partnerships) == (5, 1, True)
    assert preview.rounds[0].tables == (6, 4)
    final = preview_tournament(entrants=10, rounds=3, table_size=4, format="swiss", final_size=8, final_stages=2,
                               final_advance=2)
    assert final.final == ((4, 4), (4,)) and not final.final_short
    assert preview_tournament(entrants=6, rounds=3, table_size=4, final_size=8, final_stages=2,
                              final_advance=2).final_short


@pytest.mark.django_db
def test_a_preview_checks_the_settings_as_create_does_and_creates_nothing():
    with pytest.raises(ValueError, match="1 to 50 rounds"):
        preview_tournament(entrants=10, rounds=0)
    with pytest.raises(ValueError, match="seats 2 to 4"):
        preview_tournament(entrants=10, rounds=3, game="diamoniak", table_size=6)
    with pytest.raises(ValueError, match="unknown metric"):
        preview_tournament(entrants=10, rounds=3, tiebreaks=["luck"])
    for entrants in (-1, 10_001, True, "10"):
        with pytest.raises(ValueError, match="a preview seats 0 to"):
            preview_tournament(entrants=entrants, rounds=3)
    with pytest.raises(TypeError):
        preview_tournament(entrants=10, rounds=3, seed="mine")  # not a setting the preview reads
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_every_preset_is_a_tournament_the_service_creates():
    for preset in PRESETS:
        tournament = create_tournament(name=preset.key, **preset.full_settings())
        assert tournament.seed and tournament.game == preset.full_settings()["game"]


def test_the_evening_points_give_every_table_size_the_same_top_and_average():
    config = StandingsConfig(points={int(n): {int(p): Fraction(str(v)) for p, v in places.items()}
                                     for n, places in EVENING_POINTS.items() if n != "bye"})
    for n in range(2, 7):
        places = config.points[n]
        assert (places[1], places[n], sum(places.values()) / n) == (3, 0, Fraction(3, 2))
    assert Fraction(str(EVENING_POINTS["bye"])) == Fraction(3, 2)
    assert [stored_points(Fraction(v)) for v in ("3", "3/2", "12/5", "1/3")] == [3, 1.5, 2.4, "1/3"]


@pytest.mark.django_db
def test_changeable_settings_are_what_update_tournament_allows():
    tournament = create_tournament(name="t", rounds=2)
    assert changeable_settings(tournament) == CHANGEABLE
    tournament.status = TournamentStatus.RUNNING
    assert changeable_settings(tournament) == CHANGEABLE_WHILE_RUNNING | FINAL_SETTINGS
    tournament.status = TournamentStatus.FINISHED
    assert changeable_settings(tournament) == CHANGEABLE_WHILE_RUNNING
