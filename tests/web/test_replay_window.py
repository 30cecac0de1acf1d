"""A finished game's replay is shown one window of steps per page (web.games.replay): the page of a long game holds
only its window and links to the windows around it, the last window ends with the game's end, any `?step=` is
answered without an error page, and a window's frames are exactly those frames of the whole replay."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from engine.games import game_type
from league.models import MatchStatus
from league.selectors.live import match_game
from league.services import create_bot_player, create_match
from league.services.decisions import start_live_match
from web.games import presenter_for
from web.games.replay import REPLAY_WINDOW

from .support import every_replay_page, replay_link, replay_steps_on_page

SEATS = ["ann", "bob", "cy", "di"]
# A bot per game that makes a long game: Diamonds' full game, and random play that rarely completes a castle.
LONG_GAME_BOTS = {"diamonds": "greedy", "diamoniak": "random", "ringrace": "random"}


def long_record(game_name: str, seed: str) -> dict:
    """The record of a whole game of four engine bots, long enough for several windows."""
    kind = game_type(game_name)
    game = kind.new_game({"players": 4}, seed=seed, seats=SEATS)
    bots = [kind.make_bot(LONG_GAME_BOTS[game_name], seed=f"{seed}/{s}") for s in range(4)]
    while not game.over:
        seat = game.pending.seats[0]
        game.apply(seat, bots[seat].decide(kind.view(game, seat)))
    return kind.to_record(game)


@pytest.fixture
def long_diamoniak_match(db, django_capture_on_commit_callbacks):
    """A finished Diamoniak match of four random bots lasting more than two windows."""
    bots = [create_bot_player(name=f"long-{i}", kind="random") for i in range(4)]
    for i in range(20):
        with django_capture_on_commit_callbacks(execute=True):
            match = create_match(players=bots, ruleset={"players": 4}, game="diamoniak", seed=f"long-replay-{i}")
            start_live_match(match=match)
        match.refresh_from_db()
        assert match.status == MatchStatus.FINISHED
        if match_game(match).turn > 2 * REPLAY_WINDOW:
            return match
    raise AssertionError("no seed in 20 makes a long Diamoniak game")


@pytest.mark.parametrize("game_name, seed", [("diamonds", "window-1"), ("diamoniak", "window-1"),
                                             ("ringrace", "window-1")])
def test_a_windows_frames_are_those_of_the_whole_replay(game_name, seed):
    presenter = presenter_for(game_name)
    record = long_record(game_name, seed)
    every = presenter.replay_frames(record)
    assert len(every) > 2 * REPLAY_WINDOW
    for step in (1, REPLAY_WINDOW, REPLAY_WINDOW + 1, len(every)):
        window = presenter.replay_window(record, step)
        assert window.total == len(every) and window.start < step <= window.last_step
        assert window.frames == every[window.start:window.start + REPLAY_WINDOW]
    # The windows, one after the other, are the whole replay once.
    joined, step = [], 1
    while step is not None:
        window = presenter.replay_window(record, step)
        joined += window.frames
        step = window.next_step
    assert joined == every


def test_a_long_replay_page_holds_only_its_window_and_links_the_next(client, long_diamoniak_match):
    url = reverse("web:match-replay", args=[long_diamoniak_match.pk])
    html = client.get(url).content.decode()
    assert replay_steps_on_page(html) == list(range(1, REPLAY_WINDOW + 1))
    assert "<h2>The start</h2>" in html and "the game ends" not in html
    assert replay_link(html, "prev") is None and replay_link(html, "next") == REPLAY_WINDOW + 1
    total = replay_link(html, "last")
    assert f"Steps 1–{REPLAY_WINDOW} of {total}" in html and total > 2 * REPLAY_WINDOW

    second = client.get(f"{url}?step={REPLAY_WINDOW + 1}").content.decode()
    assert replay_steps_on_page(second) == list(range(REPLAY_WINDOW + 1, 2 * REPLAY_WINDOW + 1))
    assert replay_link(second, "prev") == REPLAY_WINDOW  # stepping back lands on the first window's last step
    assert 'data-shown="21"' in second


def test_the_pages_of_a_replay_cover_the_game_once_and_the_last_ends_it(client, long_diamoniak_match):
    url = reverse("web:match-replay", args=[long_diamoniak_match.pk])
    pages = every_replay_page(client, url)
    steps = [replay_steps_on_page(html) for html in pages]
    assert all(0 < len(s) <= REPLAY_WINDOW for s in steps)
    total = replay_link(pages[0], "last")
    assert [n for s in steps for n in s] == list(range(1, total + 1))
    last = pages[-1]
    titles = re.findall(r"<h2>(.*?)</h2>", last)
    assert titles[-1].endswith("— the game ends") and all("the game ends" not in t for t in titles[:-1])
    assert replay_link(last, "next") is None and replay_link(last, "first") == 1


@pytest.mark.parametrize("asked, shown", [("0", 1), ("-5", 1), ("1", 1), ("end", None), ("past", None),
                                          ("99999999999999999999", None)])
def test_any_whole_step_is_clamped_to_the_game(client, long_diamoniak_match, asked, shown):
    url = reverse("web:match-replay", args=[long_diamoniak_match.pk])
    total = replay_link(client.get(url).content.decode(), "last")
    asked = {"end": str(total), "past": str(total + 1)}.get(asked, asked)
    response = client.get(url, {"step": asked})
    assert response.status_code == 200
    html = response.content.decode()
    shown = shown or total
    assert f'data-shown="{shown}"' in html and shown in replay_steps_on_page(html)


@pytest.mark.parametrize("asked", ["abc", "1.5", "", "9" * 5000])
def test_a_step_that_is_no_whole_number_is_a_bad_request(client, long_diamoniak_match, asked):
    response = client.get(reverse("web:match-replay", args=[long_diamoniak_match.pk]), {"step": asked})
    assert response.status_code == 400 and "whole number" in response.content.decode()
