"""`python manage.py demo`, the README's demo command: a club of bots plays a tournament to its standings."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from league.models import Club, ClubAdmin, Ladder, Match, MatchStatus, Tournament, TournamentStatus


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
    assert "round 2/2: 4/4 matches" in out  # into a pipe too, the progress says how far it got
    for name in ("greedy-1", "greedy-4", "random-1", "random-4"):
        assert name in out
    assert set(tournament.club.players.values_list("name", flat=True)) >= {"greedy-1", "random-4"}


@pytest.mark.django_db(transaction=True)  # rounds start on commit, as in the real command
def test_demo_twice_shows_the_same_night_again_and_again_plays_another(capsys):
    call_command("demo", players=4, rounds=1, bots="greedy,random")
    first = capsys.readouterr().out
    call_command("demo", players=4, rounds=1, bots="greedy,random")
    second = capsys.readouterr().out
    assert Club.objects.filter(name="Demo Club").count() == 1
    assert Tournament.objects.count() == 1 and Match.objects.filter(ladder=None).count() == 1
    assert "has been played already" in second and "Standings: Demo Club night" in second
    assert Ladder.objects.filter(name="Demo ladder").count() == 1
    tournament, ladder = Tournament.objects.get(), Ladder.objects.get()
    for out in (first, second):  # both name the pages to open
        assert f"http://127.0.0.1:8000/tournaments/{tournament.pk}/" in out
        assert f"http://127.0.0.1:8000/ladders/{ladder.pk}/" in out and "python manage.py runserver" in out
    call_command("demo", players=4, rounds=1, bots="greedy,random", again=True)
    assert set(Tournament.objects.values_list("name", flat=True)) == {"Demo Club night", "Demo Club night 2"}
    assert Tournament.objects.filter(status=TournamentStatus.FINISHED).count() == 2


@pytest.mark.django_db(transaction=True)
def test_demo_opens_a_ladder_of_its_quick_bots_that_the_beat_schedule_seats():
    from workers.embedded_beat import EmbeddedBeat

    call_command("demo", players=8, rounds=1, bots="search,greedy,random")
    ladder = Ladder.objects.get(name="Demo ladder")
    pool = set(ladder.entries.filter(active=True).values_list("player__bot_kind", flat=True))
    assert pool == {"greedy", "random"}  # search thinks too long for a ladder's quick tables
    EmbeddedBeat({"ladder-tick": {"task": "workers.tasks.ladder_tick", "schedule": 15.0}}).run_due()
    assert Match.objects.filter(ladder=ladder, status=MatchStatus.FINISHED).count() == 1


@pytest.mark.django_db(transaction=True)  # rounds start on commit, as in the real command
@pytest.mark.parametrize("game,label", [("diamoniak", "diamond cards"), ("ringrace", "set rings")])
def test_demo_of_another_game_plays_it_with_its_bots(capsys, game, label):
    call_command("demo", game=game, players=6, rounds=2, table_size=3)
    out = capsys.readouterr().out
    tournament = Tournament.objects.get()
    assert tournament.status == TournamentStatus.FINISHED and tournament.game == game
    matches = Match.objects.filter(tournament_round__tournament=tournament)
    assert matches.count() == 4 and {m.game for m in matches} == {game}
    assert {m.status for m in matches} == {MatchStatus.FINISHED}
    assert label in out and "heuristic-1" in out and "random-3" in out  # the game's bots, in turn


@pytest.mark.django_db(transaction=True)
def test_run_tournament_refuses_a_bot_or_a_table_the_game_has_not():
    with pytest.raises(CommandError, match="Diamoniak has no bot search; its bots are heuristic, random"):
        call_command("run_tournament", game="diamoniak", players=4, bots="search,random")
    with pytest.raises(CommandError, match="Diamoniak seats 2 to 4 players at a table, not 5"):
        call_command("run_tournament", game="diamoniak", players=10, table_size=5)
    with pytest.raises(CommandError, match="duplicate format"):
        call_command("run_tournament", game="ringrace", players=4, format="duplicate")
    assert not Tournament.objects.exists()


@pytest.mark.django_db(transaction=True)  # rounds start on commit, as in the real command
def test_demo_prints_an_organiser_account_that_signs_in_and_runs_the_club(capsys):
    """The demo prints an organiser account (made by the command, not staff) that can sign in and sees the
    organiser controls of the Demo Club; a second run gives it a new password and the old one stops working."""
    call_command("demo", players=4, rounds=1, bots="greedy,random")
    out = capsys.readouterr().out
    username = re.search(r"username: (\S+)", out).group(1)
    password = re.search(r"password: (\S+)", out).group(1)
    club = Club.objects.get(name="Demo Club")
    assert f"/clubs/{club.pk}/" in out and "/accounts/login/" in out
    user = get_user_model().objects.get(username=username)
    assert not user.is_staff and ClubAdmin.objects.filter(club=club, user=user).exists()
    browser = Client()
    signed_in = browser.post("/accounts/login/", {"login": username, "password": password})
    assert signed_in.status_code == 302
    page = browser.get(f"/clubs/{club.pk}/").content.decode()
    assert 'id="run-the-club"' in page
    assert browser.get(f"/clubs/{club.pk}/organisers/").status_code == 200

    call_command("demo", players=4, rounds=1, bots="greedy,random")
    again = re.search(r"password: (\S+)", capsys.readouterr().out).group(1)
    assert again != password and get_user_model().objects.filter(username=username).count() == 1
    assert Client().post("/accounts/login/", {"login": username, "password": password}).status_code == 200
    assert Client().post("/accounts/login/", {"login": username, "password": again}).status_code == 302
