"""`python manage.py demo`, the README's "run it" command: a club of bots plays a tournament to its standings."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from league.models import Club, Match, MatchStatus, Tournament, TournamentStatus


@pytest.mark.django_db(transaction=True)  # rounds start on commit, as in the real command
def test_demo_runs_a_club_tournament_to_its_standings(capsys):
    call_command("demo", players=8, rounds=2, bots="greedy,random")
    out = capsys.readouterr().out
    tournament = Tournament.objects.get()
    assert tournament.status == TournamentStatus.FINISHED
    assert tournament.club == Club.objects.get(name="Demo Club")
    matches = Match.objects.filter(tournament_round__tournament=tournament)
    assert matches.count() == 4 and all(m.status == MatchStatus.FINISHED for m in matches)
    assert "Standings: Demo Club night" in out
    for name in ("greedy-1", "greedy-4", "random-1", "random-4"):
        assert name in out
    assert set(tournament.club.players.values_list("name", flat=True)) >= {"greedy-1", "random-4"}


@pytest.mark.django_db(transaction=True)  # rounds start on commit, as in the real command
def test_demo_again_reuses_the_club_and_its_players(capsys):
    call_command("demo", players=4, rounds=1, bots="random")
    call_command("demo", players=4, rounds=1, bots="random")
    assert Club.objects.filter(name="Demo Club").count() == 1
    assert Tournament.objects.filter(status=TournamentStatus.FINISHED).count() == 2
    assert Match.objects.filter(status=MatchStatus.FINISHED).count() == 2
