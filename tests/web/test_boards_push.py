"""The drawn boards of Diamoniak and the ring race over the socket (issue 29: "the seat secrecy rules hold on every
pushed message"): three people play a whole game while each of them and a spectator hold the match page's socket.
After every decision each socket receives its own reader's table: a seat's board holds exactly its own legal
decisions when it is to decide and none otherwise, a spectator's none at all; no message names a card still face
down (the ring race's deck, Diamoniak's draw pile) or tells an untried ring-race position's secret; the seed appears
nowhere; and each board's moves (what its script animates and says) are the game's events, numbered as the game
numbers them.
"""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from engine.diamoniak.rules import card_name as diamoniak_card
from engine.ringrace.rules import card_name as ringrace_card
from league.models import Match
from league.selectors.live import match_game
from league.services import create_match, create_person_player
from league.services.decisions import start_live_match

from .test_live_push import _fresh_layer, decide, match_socket, session_of, until_move  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def decision_buttons(html: str) -> list[dict]:
    return [json.loads(v.replace("&quot;", '"')) for v in re.findall(r'name="decision" value="([^"]*)"', html)]


def alike(decision: dict) -> str:
    """A decision up to the cards no rule tells apart (Diamoniak's diamond cards, its fairies): the board offers one
    of each (test_game_presenters)."""
    card = decision.get("card", "")
    return json.dumps({**decision, "card": card.split("-")[0]} if card.startswith(("diamond-", "fairy-")) else decision,
                      sort_keys=True)


def named(html: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", html) is not None


def secrets_kept(html: str, game, reader: str) -> None:
    if type(game).__module__.startswith("engine.ringrace"):
        hidden = [ringrace_card(c) for c in game.deck]
        if not game.over:
            untried = [p for p, on in enumerate(game.on_board) if on and p not in game.revealed]
            drawn = re.findall(r'(<li class="rr-pos .*?</li>)', html)
            assert len(drawn) == 42 and len({re.sub(r"\d+", "#", drawn[p]) for p in untried}) == 1, \
                f"{reader} can tell loose from fixed"
    else:
        hidden = [] if game.reshuffles else [diamoniak_card(c) for c in game.draw_pile]
    assert [c for c in hidden if named(html, c)] == [], f"{reader} is sent a face-down card"


@pytest.mark.parametrize("game_name, ruleset", [("ringrace", {"players": 3}),
                                                ("diamoniak", {"players": 3, "max_turns": 12})])
def test_over_a_whole_game_each_seat_and_a_spectator_receive_only_their_own_board(site, game_name, ruleset):
    User = get_user_model()
    users = [User.objects.create_user(f"{game_name}-p{i}") for i in range(3)]
    people = [create_person_player(user=u, name=f"{game_name}-p{i}", clubs=[site["club"]]) for i, u in enumerate(users)]
    match = create_match(players=people, ruleset=ruleset, seed=f"boards-push-{game_name}", game=game_name,
                         club=site["club"])
    start_live_match(match=match)
    match.refresh_from_db()
    sessions = [session_of(u) for u in users]
    rng = random.Random(29)

    @database_sync_to_async
    def truth():
        m = Match.objects.get(pk=match.pk)
        return m, match_game(m)

    async def scenario():
        sockets = [match_socket(match, s) for s in sessions] + [match_socket(match)]
        for s in sockets:
            assert (await s.connect())[0]
        steps = 0
        while True:
            m, game = await truth()
            if m.status != "running":
                break
            seat = game.pending.seats[0]
            await decide(m, users[seat], rng, seat=seat)
            m, game = await truth()
            for reader, s in enumerate(sockets):
                name = f"seat {reader}" if reader < 3 else "the spectator"
                message = (await until_move(s, m.move_number))[-1]
                html = message["html"]
                assert m.seed not in html
                secrets_kept(html, game, name)
                offered = decision_buttons(html)
                if reader < 3 and not game.over and reader in game.pending.seats:
                    legal = [d.to_json() for d in game.legal(reader)]
                    assert all(d in legal for d in offered)
                    assert {alike(d) for d in offered} == {alike(d) for d in legal}, f"{name} at step {steps}"
                else:
                    assert offered == [] and 'class="decision' not in html, f"{name} may not decide at {steps}"
                # The board's moves are the game's latest events, each at its place in the game's events.
                indices = [int(i) for i in re.findall(r'<li data-i="(\d+)"', html)]
                assert indices and indices == sorted(indices, reverse=True) and indices[0] < len(game.events)
                assert f'data-events="{len(game.events)}"' in html
            steps += 1
        for s in sockets:
            await s.disconnect()
        return steps, m

    steps, final = asyncio.run(scenario())
    assert final.status == "finished" and steps > 10
