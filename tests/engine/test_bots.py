"""Bots: only legal decisions in every variant, reproducible from their seed, blind to what their seat cannot
see, and the greedy bot clearly stronger than the random one."""

from __future__ import annotations

import random

import pytest

from engine import Game, Ruleset, SeatView, to_record
from engine.diamonds.bots import BOTS, make_bot, play_game
from engine.diamonds.bots.knowledge import Knowledge
from engine.diamonds.cards import deck
from engine.diamonds.game import CLUBS_TARGET, PASS_CARDS, PASS_COUNT, PLAY, Decision

VARIANTS = [
    Ruleset(2), Ruleset(3), Ruleset(4), Ruleset(5), Ruleset(6),
    Ruleset(4, partnerships=True), Ruleset(6, partnerships=True),
    Ruleset(2, perfect=True), Ruleset(3, perfect=True), Ruleset(4, perfect=True), Ruleset(5, perfect=True),
    Ruleset(5, clubs="choose"),
]
FAST = {"search": {"playouts": 12}}  # enough to exercise the search, small enough for a quick test


def bot(name: str, seed: str):
    return make_bot(name, seed=seed, **FAST.get(name, {}))


def play_checked(game: Game, bots) -> Game:
    """Like play_game, but every decision is checked against the seat's legal options first."""
    views = [SeatView(game, s) for s in range(game.n)]
    while game.pending is not None:
        pending = game.pending
        for seat in pending.seats:
            decision = bots[seat].decide(views[seat])
            assert isinstance(decision, Decision) and decision.kind == pending.kind
            legal = game.legal(seat)
            if decision.kind == PASS_CARDS:
                assert len(decision.value) == pending.count and len(set(decision.value)) == pending.count
                assert set(decision.value) <= set(legal)
            else:
                assert decision.value in legal, (decision, legal)
            game.apply(seat, decision)
    return game


@pytest.mark.parametrize("ruleset", VARIANTS, ids=lambda r: f"{r.players}p-{r.clubs}"
                         + ("-partners" if r.partnerships else "") + ("-perfect" if r.perfect else ""))
def test_every_bot_plays_only_legal_decisions_in_every_variant(ruleset: Ruleset):
    names = sorted(BOTS)
    seats = [names[(i + ruleset.players) % len(names)] for i in range(ruleset.players)]
    game = play_checked(Game(ruleset, f"legal/{ruleset}"), [bot(name, f"b{s}") for s, name in enumerate(seats)])
    assert game.over and game.result is not None


@pytest.mark.parametrize("name", ["greedy", "search"])
@pytest.mark.parametrize("ruleset", [Ruleset(4), Ruleset(2), Ruleset(6, partnerships=True)],
                         ids=["4p", "2p", "6p-partners"])
def test_all_seats_one_bot_kind(name: str, ruleset: Ruleset):
    game = play_checked(Game(ruleset, f"same/{name}"), [bot(name, f"{name}{s}") for s in range(ruleset.players)])
    assert game.over


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_are_deterministic_for_a_seed(name: str):
    def record(seed: str) -> dict:
        bots = [bot(name, f"{seed}/{s}") for s in range(4)]
        return to_record(play_game(Game(Ruleset(4), "determinism"), bots))

    assert record("x") == record("x")


# ---- the search bot sees only its seat's information ------------------------------------------------------


def _choices_until(game: Game, bots, hero: int, stop_at: int) -> list[tuple[int, Decision]]:
    """Drive `game` until `hero` has faced `stop_at` card-play or clubs decisions; return every choice made."""
    views = [SeatView(game, s) for s in range(game.n)]
    choices: list[tuple[int, Decision]] = []
    faced = 0
    while True:
        pending = game.pending
        if pending.kind in (PLAY, CLUBS_TARGET) and hero in pending.seats and len(game.legal(hero)) > 1:
            faced += 1
            if faced == stop_at:
                return choices
        for seat in pending.seats:
            decision = bots[seat].decide(views[seat])
            choices.append((seat, decision))
            game.apply(seat, decision)


def _twin_deal(game: Game, hero: int, rng: random.Random) -> list[list[int]]:
    """The round's deal with hidden cards moved between the other seats and the unseen rest, keeping each
    seat's suit counts (so every past play stays legal) and every passed and played card where it was."""
    log = game.rounds[-1]
    dealt = [list(h) for h in log.hands]
    fixed = set(dealt[hero]) | {c for p in (log.passes or []) for c in p}
    fixed |= {p.card for t in log.tricks for p in t.plays}
    dealt_all = {c for h in dealt for c in h}
    aside = [c for c in deck(game.ruleset.deck_ranks) if c not in dealt_all]
    slots = [(s, i) for s in range(game.n) if s != hero for i, c in enumerate(dealt[s]) if c not in fixed]
    slots += [(-1, i) for i in range(len(aside))]

    def card_at(slot):
        s, i = slot
        return aside[i] if s < 0 else dealt[s][i]

    for suit in range(4):
        same = [slot for slot in slots if card_at(slot) >> 4 == suit]
        cards = [card_at(slot) for slot in same]
        rng.shuffle(cards)
        for (s, i), c in zip(same, cards):
            if s >= 0:
                dealt[s][i] = c
    return dealt


@pytest.mark.parametrize("ruleset", [Ruleset(4), Ruleset(4, partnerships=True), Ruleset(2), Ruleset(5, clubs="choose")],
                         ids=["4p-thief", "4p-partners", "2p", "5p-choose"])
@pytest.mark.parametrize("stop_at", [1, 4, 7])
@pytest.mark.parametrize("selection", ["halving", "ucb"])
def test_search_decides_from_its_information_set_only(ruleset: Ruleset, stop_at: int, selection: str):
    hero = 1
    bots = [make_bot("greedy", seed=f"g{s}") for s in range(ruleset.players)]
    game_a = Game(ruleset, "info-set/a", first_dealer=0)
    choices = _choices_until(game_a, bots, hero, stop_at)
    # the same game from seat 1, but other hands (and another seed, so no later deal is shared either)
    deal_b = _twin_deal(game_a, hero, random.Random(stop_at))
    game_b = Game(ruleset, "info-set/b", first_dealer=0, deals=[deal_b], auto_clubs=True)
    for seat, decision in choices:
        game_b.apply(seat, decision)
    assert game_b.pending == game_a.pending and hero in game_a.pending.seats
    assert game_b.hands[hero] == game_a.hands[hero]
    assert [sorted(h) for h in game_b.hands] != [sorted(h) for h in game_a.hands], "the twin must differ"
    view_a, view_b = SeatView(game_a, hero), SeatView(game_b, hero)
    assert view_a.events == view_b.events

    decide = lambda view: make_bot("search", seed="same", playouts=60, selection=selection).decide(view)  # noqa: E731
    assert decide(view_a) == decide(view_b)
    # and the determinized games the search plays out are the same too
    ka, kb = Knowledge(view_a), Knowledge(view_b)
    hands_a, hands_b = ka.sample_hands(random.Random(5)), kb.sample_hands(random.Random(5))
    assert hands_a == hands_b
    ga, gb = view_a.determinize(hands_a, "s"), view_b.determinize(hands_b, "s")
    assert _state(ga) == _state(gb)


def _state(g: Game) -> dict:
    skip = {"seats", "_deals"}  # names and the (cleared) deals of the copy
    return {k: (v if not isinstance(v, list) else repr(v)) for k, v in vars(g).items()
            if k not in skip and k not in ("_log", "_trick", "_plays")} | {"plays": repr(g._plays)}


def test_sampled_hands_respect_voids_and_passed_cards():
    game = Game(Ruleset(4), "voids", first_dealer=0)
    bots = [make_bot("random", seed=f"r{s}") for s in range(4)]
    _choices_until(game, bots, 1, 6)
    k = Knowledge(SeatView(game, 1))
    rng = random.Random(1)
    for _ in range(50):
        hands = k.sample_hands(rng)
        seen = set(k.hand) | k.played
        for s in range(4):
            if s == 1:
                continue
            assert len(hands[s]) == len(game.hands[s])
            assert not {c >> 4 for c in hands[s]} & k.voids[s]
            assert k.known[s] <= set(hands[s])
            assert not set(hands[s]) & seen
        assert len({c for h in hands for c in h}) == sum(len(h) for h in hands)


def test_pass_decisions_are_legal_for_every_count():
    game = Game(Ruleset(4), "passing", first_dealer=0)
    for name in ("greedy", "search"):
        for count in (1, 2, 3):
            g = game.clone()
            g.apply(0, Decision.pass_count(count))
            view = SeatView(g, 2)
            decision = bot(name, "p").decide(view)
            assert decision.kind == PASS_CARDS and len(set(decision.value)) == count
            assert set(decision.value) <= set(view.hand)
    assert bot("greedy", "p").decide(SeatView(game, 0)).kind == PASS_COUNT


def test_greedy_beats_random():
    wins = 0.0
    for i in range(40):
        hero = i % 4
        bots = [make_bot("greedy" if s == hero else "random", seed=f"gr{i}/{s}") for s in range(4)]
        result = play_game(Game(Ruleset(4), f"greedy-vs-random/{i}"), bots).result
        if hero in result.winners:
            wins += 1 / len(result.winners)
    assert wins >= 20, wins  # fair share is 10 of 40; greedy wins about 80% of such games


@pytest.mark.parametrize("ruleset", [Ruleset(4), Ruleset(4, partnerships=True), Ruleset(3)],
                         ids=["4p", "4p-partners", "3p"])
def test_search_passes_from_its_own_hand_only(ruleset: Ruleset):
    hero, n, size = 1, ruleset.players, ruleset.hand_size
    cards = deck(ruleset.deck_ranks)
    random.Random(3).shuffle(cards)
    mine, rest = cards[:size], cards[size:]

    def game(shuffle_seed: int, seed: str) -> Game:
        others = list(rest)
        random.Random(shuffle_seed).shuffle(others)
        hands = [others[i * size:(i + 1) * size] for i in range(n - 1)]
        return Game(ruleset, seed, first_dealer=hero, deals=[hands[:hero] + [mine] + hands[hero:]])

    game_a, game_b = game(1, "pass/a"), game(2, "pass/b")
    assert game_a.hands != game_b.hands and game_a.hands[hero] == game_b.hands[hero]
    decide = lambda g: make_bot("search", seed="same", playouts=40).decide(SeatView(g, hero))  # noqa: E731
    count = decide(game_a)
    assert count == decide(game_b) and count.kind == PASS_COUNT
    for g in (game_a, game_b):
        g.apply(hero, count)
        g.apply(0, Decision.pass_cards(g.hands[0][: count.value]))  # a pass the hero cannot see
    assert decide(game_a) == decide(game_b)


@pytest.mark.parametrize("bot_settings, named", [
    ({"playouts": 10**9}, "playouts"), ({"playouts": 0}, "playouts"), ({"playouts": "800"}, "playouts"),
    ({"playouts": True}, "playouts"), ({"seconds": 10**6}, "seconds"), ({"seconds": -1}, "seconds"),
    ({"seconds": "1"}, "seconds"), ({"exploration": 1e300}, "exploration"), ({"exploration": None}, "exploration"),
])
def test_the_search_bot_s_settings_are_bounded(bot_settings, named):
    """A bot thinks between two looks at its match's status: its settings bound how long one decision may take."""
    from engine.diamonds.bots.search import MAX_PLAYOUTS, MAX_SECONDS

    with pytest.raises(ValueError, match=named):
        make_bot("search", seed="bounded", **bot_settings)
    assert make_bot("search", playouts=MAX_PLAYOUTS, seconds=MAX_SECONDS).playouts == MAX_PLAYOUTS
    assert make_bot("search", seconds=0).seconds == 0  # 0: no time cap (the arena's seconds=0)
