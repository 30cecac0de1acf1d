"""Chess clocks on the website (issue 29): chosen where a match is configured (the lobby's table form, the
organiser's tournament form), refused when they make no sense, and shown on the table with each seat's time, in the
page, in its polled JSON and in what its socket pushes."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from league.models import LobbyTable, Match, MatchSeat, Tournament
from league.services import create_match
from league.services.decisions import start_live_match
from web.clock_options import clock_initial

from .conftest import table_with_bots
from .test_organiser_create import club_site, filled_form, new_tournament_url  # noqa: F401, F811  (a fixture)

pytestmark = pytest.mark.django_db

LOBBY_FORM = {"game": "diamonds", "seats": 2, "rounds": 1, "clubs": "", "public": "on", "bot_kind": "",
              "turn_deadline": 120}


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from runtime.throttling import STORE

    cache.clear()
    STORE.clear_local()


@pytest.fixture
def ann(client, django_user_model):
    user = django_user_model.objects.create_user("ann")
    client.force_login(user)
    return client


@pytest.mark.parametrize("fields, bank, increment", [
    ({}, None, 0),
    ({"clock": "5+5"}, 300, 5),
    ({"clock": "3+2"}, 180, 2),
    ({"clock": "custom", "clock_minutes": 45, "clock_increment": 30}, 2700, 30),
    ({"clock": "custom", "clock_minutes": 1}, 60, 0),
    ({"clock": "", "clock_minutes": 45}, None, 0),  # no clock chosen: the custom fields are not taken
])
def test_the_lobby_form_opens_a_table_with_the_clock_chosen(ann, fields, bank, increment):
    answer = ann.post(reverse("web:lobby"), {**LOBBY_FORM, **fields})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    table = LobbyTable.objects.get()
    assert (table.clock_bank_seconds, table.clock_increment_seconds) == (bank, increment)


@pytest.mark.parametrize("fields", [
    {"clock": "custom"},  # no minutes
    {"clock": "custom", "clock_minutes": 0},
    {"clock": "custom", "clock_minutes": -5},
    {"clock": "custom", "clock_minutes": 10, "clock_increment": -1},
    {"clock": "custom", "clock_minutes": 10, "clock_increment": 99999},
    {"clock": "custom", "clock_minutes": 10 ** 9},
    {"clock": "7+7"},  # not a preset
    {"clock": "5+5; drop table"},
])
def test_a_nonsense_clock_on_the_lobby_form_is_a_400_and_opens_nothing(ann, fields):
    answer = ann.post(reverse("web:lobby"), {**LOBBY_FORM, **fields})
    assert answer.status_code == 400
    assert not LobbyTable.objects.exists()
    assert 'class="errorlist' in answer.content.decode()


def test_the_tournament_form_sets_a_clock_and_shows_it_again_in_the_settings(client, club_site):  # noqa: F811
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    data = filled_form(client, club)
    assert "clock" in data and data["clock"] == ""  # the form offers the clock, none by default
    response = client.post(new_tournament_url(club), {**data, "name": "Blitz night", "action": "save",
                                                      "clock": "custom", "clock_minutes": 12,
                                                      "clock_increment": 4})
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(name="Blitz night")
    assert (tournament.clock_bank_seconds, tournament.clock_increment_seconds) == (720, 4)
    settings_page = client.get(reverse("web:tournament-settings", args=[tournament.pk])).content.decode()
    assert re.search(r'<option value="custom" selected>', settings_page)
    assert 'name="clock_minutes" value="12"' in settings_page
    response = client.post(new_tournament_url(club), {**data, "name": "Bad clock", "action": "save",
                                                      "clock": "custom"})
    assert response.status_code == 400 and not Tournament.objects.filter(name="Bad clock").exists()


def test_a_presets_clock_shows_as_the_preset_and_any_other_as_a_custom_clock():
    assert clock_initial(None, 0)["clock"] == ""
    assert clock_initial(300, 5)["clock"] == "5+5"
    assert clock_initial(90, 0) == {"clock": "custom", "clock_minutes": 2, "clock_increment": 0}


@pytest.fixture
def clocked_table(db, django_capture_on_commit_callbacks, django_user_model):
    from league.services import create_bot_player, create_person_player

    user = django_user_model.objects.create_user("cleo")
    person = create_person_player(user=user, name="cleo")
    bots = [create_bot_player(name=f"clock-bot-{i}", kind="greedy") for i in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        match = create_match(players=[person, *bots], ruleset={"players": 4, "rounds": 1}, seed="clock-page",
                             clock_bank_seconds=600, clock_increment_seconds=5)
        start_live_match(match=match)
    match.refresh_from_db()
    return match, user


CLOCK = re.compile(r'<span class="chess-clock[^"]*" role="timer" aria-label="([^"]*)" data-seat="(\d)" '
                   r'data-remaining-ms="(\d+)" data-running="([01])" data-taken-at="(\d+)">')


def seats_of(page: str) -> dict[int, str]:
    """Each seat's markup on a drawn table (a Diamonds seat, or a board's), by seat number."""
    return {int(seat): body for seat, body in
            re.findall(r'<section class="(?:dseat|seat) [^"]*" data-seat="(\d)"[^>]*>(.*?)</section>', page, re.S)}


def clocks_by_seat(page: str) -> dict[int, tuple]:
    """The clocks drawn in each seat: {seat: (its name, the seat it names, ms left, running)}."""
    return {seat: found[0][:4] for seat, body in seats_of(page).items() if (found := CLOCK.findall(body))}


def test_the_table_shows_each_clocked_seats_time_and_the_live_answer_carries_the_clocks(client, clocked_table):
    match, user = clocked_table
    page = client.get(reverse("web:match", args=[match.pk])).content.decode()
    assert "chess_clock.js" in page and len(CLOCK.findall(page)) == 1
    clocks = clocks_by_seat(page)
    assert list(clocks) == [0]  # in the person's own seat only: bots play at once and have no clock
    name, seat, left, running = clocks[0]
    assert name == "cleo's clock" and seat == "0" and running == "1"
    assert 0 < int(left) <= 600_000
    assert 'class="chess-clocks"' not in page  # no list of clocks above the table: the time control only
    assert "Chess clock: 10 minutes each, plus 5 seconds a decision." in page
    live = client.get(reverse("web:match-live", args=[match.pk]), {"move": "-1", "status": "x"}).json()
    assert live["clock"]["bank_seconds"] == 600 and live["clock"]["seats"][0]["seat"] == 0
    assert list(clocks_by_seat(live["html"])) == [0] and 'class="clock-summary" data-clock-now="' in live["html"]
    # Asked with what the page shows already: the figures, without the table.
    same = client.get(reverse("web:match-live", args=[match.pk]),
                      {"move": str(match.move_number), "status": match.status}).json()
    assert "html" not in same and same["clock"]["seats"][0]["remaining_ms"] <= int(left)


@pytest.mark.parametrize("game", ["diamoniak", "ringrace"])
def test_the_boards_seats_show_their_own_clocks(client, db, django_capture_on_commit_callbacks, django_user_model,
                                               game):
    from league.services import create_bot_player, create_person_player

    person = create_person_player(user=django_user_model.objects.create_user("iris"), name="iris")
    bots = [create_bot_player(name=f"board-bot-{i}", kind="random") for i in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        match = create_match(players=[person, *bots], ruleset={"players": 4}, game=game, seed="clock-board",
                             clock_bank_seconds=300, clock_increment_seconds=0)
        start_live_match(match=match)
    page = client.get(reverse("web:match", args=[match.pk])).content.decode()
    clocks = clocks_by_seat(page)
    assert list(clocks) == [0] and clocks[0][0] == "iris's clock"
    assert "Chess clock: 5 minutes each, no time added." in page


def test_a_table_without_a_clock_shows_none(client, db, django_capture_on_commit_callbacks, django_user_model):
    from league.services import create_bot_player, create_person_player

    person = create_person_player(user=django_user_model.objects.create_user("dora"), name="dora")
    bots = [create_bot_player(name=f"plain-bot-{i}", kind="greedy") for i in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        match = table_with_bots(person, bots)
    page = client.get(reverse("web:match", args=[match.pk])).content.decode()
    assert "chess-clock" not in page and "clock-summary" not in page and "chess_clock.js" not in page
    assert "clock" not in client.get(reverse("web:match-live", args=[match.pk])).json()


@pytest.mark.django_db(transaction=True)
def test_a_pushed_table_carries_the_clocks_as_they_stand_after_the_move(settings, django_user_model):
    """The socket's message after a decision: the seat's clock with its new figure, drawn after the table."""
    from channels.db import database_sync_to_async

    from league.services import create_bot_player, create_person_player

    from .test_live_push import decide, match_socket, session_of, until_move

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    user = django_user_model.objects.create_user("eve")
    person = create_person_player(user=user, name="eve")
    bots = [create_bot_player(name=f"push-bot-{i}", kind="greedy") for i in range(3)]
    match = create_match(players=[person, *bots], ruleset={"players": 4, "rounds": 1}, seed="clock-push",
                         clock_bank_seconds=300, clock_increment_seconds=2)
    start_live_match(match=match)
    match.refresh_from_db()

    session = session_of(user)

    async def scenario():
        socket = match_socket(match, session)
        assert (await socket.connect())[0]
        await decide(match, user, random.Random(3), seat=0)
        now = await database_sync_to_async(Match.objects.get)(pk=match.pk)
        got = await until_move(socket, now.move_number)
        await socket.disconnect()
        return got[-1]

    pushed = asyncio.run(scenario())
    seat = MatchSeat.objects.get(match=match, seat=0)
    assert pushed["clock"]["seats"][0]["seat"] == 0
    assert pushed["clock"]["seats"][0]["remaining_ms"] <= seat.clock_ms  # as stored, less any time since
    assert list(clocks_by_seat(pushed["html"])) == [0]
    assert json.dumps(pushed).count("data-remaining-ms") == 1
