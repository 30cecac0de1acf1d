"""Fixtures for the website's tests: a club with a league season, a finished tournament and a ladder played by bots,
and a person (with a password) at a table with three bots.

The data is made with the league's services on the transactional database, so matches are played as their tasks
are sent after commit (in-process), as in the embedded setup.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import League, Match, Season
from league.services import (
    create_bot_player,
    create_club,
    create_match,
    create_person_player,
    create_tournament,
    join_ladder,
    register_players,
    start_tournament,
)
from league.services.accounts import mark_made_by_administrator
from league.services.decisions import start_live_match
from league.services.ladders import create_ladder, seat_ladder_tables
from league.services.players import add_club_admin

PASSWORD = "pw-web-test-1"


@pytest.fixture(scope="session", autouse=True)
def _free_the_test_database(django_db_setup, django_db_blocker):
    """At the end of the run, end any database session the live server's threads left behind, so that the test
    database can be dropped (PostgreSQL refuses while another session uses it)."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")



@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # test accounts only


@pytest.fixture
def site(db, django_capture_on_commit_callbacks):
    """A club, its league and season with a finished one-round tournament of four bots, a ladder whose bots have
    played two tables, an organiser, a staff user and two people.

    In a test inside one transaction, what the services send after commit (the bots' play) is run as it is sent."""
    return _site(lambda: django_capture_on_commit_callbacks(execute=True))


def _site(played):
    User = get_user_model()
    club = create_club(name="Crystal Club")
    league = League.objects.create(club=club, name="Thursday League")
    season = Season.objects.create(league=league, name="Spring")
    bots = [create_bot_player(name=f"bot-{i}", kind="random" if i % 2 else "greedy", clubs=[club]) for i in range(4)]
    tournament = create_tournament(name="Spring Open", rounds=1, ruleset={"rounds": 1}, club=club, season=season,
                                   seed="web-tournament")
    register_players(tournament=tournament, players=bots)
    with played():
        start_tournament(tournament=tournament)
    ladder = create_ladder(name="Bot Ladder", ruleset={"rounds": 1}, club=club)
    join_ladder(ladder=ladder, players=bots)
    for tick in (1, 2):
        with played():
            seat_ladder_tables(ladder=ladder, seed=f"web-ladder-{tick}")
    organiser = User.objects.create_user("olive", password=PASSWORD)
    add_club_admin(club=club, user=organiser)
    staff = User.objects.create_user("stan", password=PASSWORD, is_staff=True, is_superuser=True)
    ann_user = User.objects.create_user("ann", password=PASSWORD)
    bob_user = User.objects.create_user("bob", password=PASSWORD)
    for made in (organiser, ann_user, bob_user):  # accounts an administrator made (verified without an address)
        mark_made_by_administrator(made)
    ann = create_person_player(user=ann_user, name="ann", clubs=[club])
    bob = create_person_player(user=bob_user, name="bob", clubs=[club])
    return {"club": club, "league": league, "season": season, "tournament": tournament, "ladder": ladder,
            "bots": bots, "organiser": organiser, "staff": staff, "ann": ann, "bob": bob}


def table_with_bots(person, bots, *, seed: str = "web-table", **ruleset) -> Match:
    """A started match: the person at seat 0, three bots after; the bots have played up to the person's turn."""
    match = create_match(players=[person, *bots[:3]], ruleset={"players": 4, "rounds": 1, **ruleset}, seed=seed)
    start_live_match(match=match)
    match.refresh_from_db()
    return match


from .browser import chromium, site_server  # noqa: E402, F401  (fixtures for the end-to-end tests)
