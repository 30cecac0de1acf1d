"""Helpers for league and worker tests: bot players, matches, and an uninterrupted reference run of a match
played by the engine alone, with the same per-decision bot seeding the league uses."""

from __future__ import annotations

from engine import Game, Ruleset, SeatView, to_record
from engine.diamonds.bots import make_bot
from league.models import Match, MatchStep, Player
from league.services import create_bot_player, create_match
from league.services.play import seeded_for

# Every variant the record format covers: 2-6 players, thief and choose clubs, partnerships 4 and 6, perfect.
VARIANTS = {
    "2p": {"players": 2},
    "2p-perfect": {"players": 2, "perfect": True},
    "3p-thief": {"players": 3},
    "3p-choose": {"players": 3, "clubs": "choose"},
    "3p-perfect": {"players": 3, "perfect": True},
    "4p-thief": {"players": 4},
    "4p-choose": {"players": 4, "clubs": "choose"},
    "4p-partners": {"players": 4, "partnerships": True},
    "4p-perfect": {"players": 4, "perfect": True},
    "5p-thief": {"players": 5},
    "5p-choose": {"players": 5, "clubs": "choose"},
    "5p-perfect": {"players": 5, "perfect": True},
    "6p-thief": {"players": 6},
    "6p-choose": {"players": 6, "clubs": "choose"},
    "6p-partners": {"players": 6, "partnerships": True},
}


def stored_play(match_id: int) -> tuple:
    """Everything stored of a match's play, as bytes: its row's moves and its steps (first choice, choices)."""
    moves = bytes(Match.objects.get(pk=match_id).moves)
    steps = MatchStep.objects.filter(match_id=match_id).order_by("first").values_list("first", "choices")
    return moves, [(first, bytes(choices)) for first, choices in steps]


def stored_tricks(match_id: int) -> int:
    """The completed tricks of a Diamonds match's stored play (derived by replaying it)."""
    from league.selectors import load_match_game

    game, _ = load_match_game(Match.objects.get(pk=match_id))
    return sum(1 for r in game.rounds for t in r.tricks if t.winner is not None)


def stored_choice_count(match_id: int) -> int:
    """How many choices of a match are stored (in its moves and its steps)."""
    from league.selectors.games import stored_choices

    return len(stored_choices(Match.objects.get(pk=match_id)))


def bot_players(count: int = 6, kind: str = "random") -> list[Player]:
    return [
        Player.objects.filter(name=f"{kind}-{i}").first() or create_bot_player(name=f"{kind}-{i}", kind=kind)
        for i in range(count)
    ]


def bot_match(ruleset: dict, seed: str = "test-seed") -> Match:
    return create_match(players=bot_players(ruleset["players"]), ruleset=ruleset, seed=seed)


def reference_record(match: Match) -> dict:
    """The record of the match played start to end in memory, never stored: what any run must reproduce."""
    kinds = [(ms.player.bot_kind, ms.player.bot_settings) for ms in match.match_seats.order_by("seat")]
    game = Game(Ruleset.from_dict(match.ruleset), match.seed, match.seats, first_dealer=match.first_dealer)
    while not game.over:
        for seat in game.pending.seats:
            kind, settings = kinds[seat]
            bot = seeded_for(make_bot(kind, **settings), match, seat, game.move_number)
            game.apply(seat, bot.decide(SeatView(game, seat)))
    return to_record(game)
