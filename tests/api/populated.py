"""A database with something in every table the API reads: a club with its organiser, a league and a season, a
finished tournament in it (rounds, standings, a corrected result), a ladder that has rated its players (ratings and
their history), and a live match awaiting an external bot (a seat). The schema tests read every endpoint over it.
"""

from __future__ import annotations

import datetime

from api.tokens import issue_token
from league.models import Match, MatchStatus, Notification, RatingHistory, ResultCorrection, WebhookEndpoint
from league.services import create_bot_player
from league.services.advancing import start_tournament
from league.services.comparisons import create_comparison
from league.services.corrections import correct_result
from league.services.ladders import create_ladder, join_ladder, seat_ladder_tables
from league.services.leagues import create_league, create_season
from league.services.lobby import create_table
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament

from .conftest import live_match


def resource_of(path: str) -> str:
    """The resource a path's {id} names: "matches", "lobby/tables", "me/webhooks"..."""
    return path.removeprefix("/api/v1/").split("/{id}", 1)[0].rstrip("/")


def populate(accounts, run_on_commit) -> dict:
    """Fill the database (`run_on_commit`: pytest-django's django_capture_on_commit_callbacks, so that the engine
    bots' games are played by the eager workers inside the test's transaction). Returns the ids of one object of
    each resource (`ids`) and the tokens of the roles (`tokens`)."""
    club = accounts["club"]
    league = create_league(club=club, name="Thursday league")
    season = create_season(league=league, name="2026", starts_on=datetime.date(2026, 1, 1),
                           ends_on=datetime.date(2026, 12, 31))
    bots = [create_bot_player(name=f"schema-bot-{i}", kind="random", clubs=[club]) for i in range(4)]
    with run_on_commit(execute=True):
        tournament = create_tournament(name="Spring cup", rounds=1, table_size=4, seed="schema", club=club,
                                       season=season, rated=True)
        register_players(tournament=tournament, players=bots)
        start_tournament(tournament=tournament)
    finished = Match.objects.filter(tournament_round__tournament=tournament).get()
    assert finished.status == MatchStatus.FINISHED, finished.error
    correct_result(match=finished, user=accounts["organiser"], reason="a miscounted showroom",
                   vault=[1, 2, 3, 4], showroom=[4, 3, 2, 1])

    ladder = create_ladder(name="Bot ladder", table_size=2, club=club)
    join_ladder(ladder=ladder, players=bots[:2])
    with run_on_commit(execute=True):
        seat_ladder_tables(ladder=ladder, seed="schema-ladder")
    history = RatingHistory.objects.filter(ladder=ladder).select_related("player").first()
    assert history is not None and ResultCorrection.objects.exists()
    rating = history.player.ratings.get(ladder=ladder)

    live = live_match(accounts, ["ext-1", "ann", "bob", "greedy-1"], seed="schema-live")
    # The seat's own /me/ objects (each is 404 to every other account): a notification and a webhook endpoint.
    seat_user = accounts["players"]["ext-1"].user
    notification = Notification.objects.create(recipient=seat_user, kind="match_finished", text="Your match is over")
    endpoint = WebhookEndpoint.objects.create(owner=seat_user, url="https://hooks.example.org/diamonds",
                                              secret="schema-secret", events=["match.finished"])
    lobby_table = create_table(user=accounts["players"]["ann"].user, game="diamonds", seats=4)
    with run_on_commit(execute=True):  # one pair, played, and the comparison ended at its maximum
        comparison = create_comparison(user=accounts["organiser"], candidate=bots[0], baseline=bots[1],
                                       ruleset={"players": 4, "rounds": 1}, max_pairs=1)
    return {
        "ids": {"clubs": club.pk, "players": bots[0].pk, "matches": [live.pk, finished.pk],
                "tournaments": tournament.pk, "leagues": league.pk, "seasons": season.pk, "ladders": ladder.pk,
                "ratings": rating.pk, "rating-history": history.pk, "lobby/tables": lobby_table.pk,
                "me/notifications": notification.pk, "me/webhooks": endpoint.pk, "comparisons": comparison.pk},
        "tokens": {"anonymous": None, "seat": accounts["tokens"]["ext-1"],
                   "organiser": issue_token(accounts["organiser"])},
        "live": live.pk,
    }
