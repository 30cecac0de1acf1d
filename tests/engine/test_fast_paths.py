"""The engine's fast paths decide and record exactly what their plain spellings would (issue 19).

`play_game`, `RandomBot` and the search bot's playouts take short cuts for speed: the card play read without
building a `Pending`, `SeatView.cards_to_play` instead of `pending` and `legal`, the standard library's
random draws inlined (engine.fastrandom), the legal cards of a playout computed in its loop. Each is checked
here against a plain reference written in this file with only the public API and the standard library: the
same seeds must give the same records, choices and events, byte for byte.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import Game, Ruleset, SeatView, to_record
from engine.diamonds.bots import make_bot, play_game
from engine.diamonds.bots import search as search_module
from engine.diamonds.bots.greedy import choose_pass_cards
from engine.diamonds.game import CLUBS_TARGET, OVER, PASS_CARDS, PLAY, Decision

VARIANTS = [
    Ruleset(2), Ruleset(3), Ruleset(4), Ruleset(5), Ruleset(6),
    Ruleset(4, partnerships=True), Ruleset(6, partnerships=True),
    Ruleset(2, perfect=True), Ruleset(3, perfect=True), Ruleset(4, clubs="choose"),
]
IDS = [f"{r.players}p-{r.clubs}" + ("-partners" if r.partnerships else "") + ("-perfect" if r.perfect else "")
       for r in VARIANTS]


class PlainRandomBot:
    """The random bot as the standard library spells it: `randrange` over `view.legal`, `sample` to pass."""

    def __init__(self, seed: str):
        self.rng = random.Random(seed)

    def decide(self, view: SeatView) -> Decision:
        pending, legal = view.pending, view.legal
        if pending.kind == PASS_CARDS:
            return Decision(PASS_CARDS, tuple(self.rng.sample(legal, pending.count)))
        return Decision(pending.kind, legal[self.rng.randrange(len(legal))])


def plain_play_game(game: Game, bots) -> Game:
    """The bots' loop with nothing but `pending` and `apply`."""
    views = [SeatView(game, s) for s in range(game.n)]
    while game.pending is not None:
        for seat in game.pending.seats:
            game.apply(seat, bots[seat].decide(views[seat]))
    return game


def everything(game: Game) -> str:
    """All a game recorded, as JSON: the record, the choices in order, the events and a seat's view."""
    return json.dumps({
        "record": to_record(game),
        "choices": [(seat, d.to_json()) for seat, d in game.choices],
        "events": [list(e) for e in game.events],
        "view": SeatView(game, 0).to_dict(),
    }, sort_keys=True)


@pytest.mark.parametrize("ruleset", VARIANTS, ids=IDS)
def test_random_bots_through_play_game_record_what_plain_random_bots_through_apply_record(ruleset):
    for i in range(12):
        seeds = [f"fast/{i}/{s}" for s in range(ruleset.players)]
        fast = Game(ruleset, f"fast/{i}", auto_clubs=i % 3 != 0)
        play_game(fast, [make_bot("random", seed=seed) for seed in seeds])
        plain = Game(ruleset, f"fast/{i}", auto_clubs=i % 3 != 0)
        plain_play_game(plain, [PlainRandomBot(seed) for seed in seeds])
        assert fast.over and everything(fast) == everything(plain)


@pytest.mark.parametrize("ruleset", VARIANTS[:7], ids=IDS[:7])
def test_greedy_bots_decide_alike_through_either_loop(ruleset):
    for i in range(3):
        fast, plain = Game(ruleset, f"greedy/{i}"), Game(ruleset, f"greedy/{i}")
        play_game(fast, [make_bot("greedy", seed=f"{i}/{s}") for s in range(ruleset.players)])
        plain_play_game(plain, [make_bot("greedy", seed=f"{i}/{s}") for s in range(ruleset.players)])
        assert everything(fast) == everything(plain)


def test_cards_to_play_is_legal_when_a_card_is_owed_and_none_otherwise():
    for i, ruleset in enumerate(VARIANTS):
        game = Game(ruleset, f"cards/{i}")
        bots = [PlainRandomBot(f"cards/{i}/{s}") for s in range(ruleset.players)]
        views = [SeatView(game, s) for s in range(ruleset.players)]
        seen_play = seen_other = 0
        while not game.over:
            pending = game.pending
            for view in views:
                owes_card = pending.kind == PLAY and view.seat in pending.seats
                assert view.cards_to_play() == (view.legal if owes_card else None)
                seen_play += owes_card
                seen_other += not owes_card
            for seat in pending.seats:
                game.apply(seat, bots[seat].decide(views[seat]))
        assert seen_play and seen_other
        assert all(view.cards_to_play() is None for view in views)


def plain_play_out(g: Game, rng, policy) -> None:
    """The search bot's playout loop spelled with `to_play`, `legal` and `pending` only."""
    while g.phase != OVER:
        if g.phase == PLAY:
            seat = g.to_play
            g.play(seat, policy(g, seat, g.legal(seat), rng))
        elif g.phase == CLUBS_TARGET:
            seat = g.pending.seats[0]
            showroom, team_of = g.showroom, g.team_of
            g.choose_clubs_target(seat, max(g.legal(seat), key=lambda s: (showroom[team_of(s)], -s)))
        else:
            for seat in g.pending.seats:
                g.pass_cards(seat, choose_pass_cards(g.hands[seat], g.pass_count))


@pytest.mark.parametrize("ruleset", [Ruleset(4), Ruleset(2), Ruleset(4, partnerships=True), Ruleset(5, clubs="choose")],
                         ids=["4p", "2p", "4p-partners", "5p-choose"])
def test_search_playouts_decide_as_the_plain_playout_loop(ruleset, monkeypatch):
    def play(seed: str) -> str:
        game = Game(ruleset, seed)
        bots = [make_bot("search", seed=f"{seed}/0", playouts=16, rollout=("random", "heuristic")[len(seed) % 2])]
        bots += [make_bot("greedy", seed=f"{seed}/{s}") for s in range(1, ruleset.players)]
        play_game(game, bots)
        return everything(game)

    seeds = ["search/a", "search/bb"]
    fast = [play(seed) for seed in seeds]
    monkeypatch.setattr(search_module, "_play_out", plain_play_out)
    assert [play(seed) for seed in seeds] == fast
