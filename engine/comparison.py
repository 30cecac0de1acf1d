"""Duplicate-deal pairs: is the candidate bot stronger than the baseline? (The test that decides: engine.sprt.)

Pair `i` is one deal (seed `{seed}/pair-{i}`) played twice: once with the candidate in the tested seat, once with
the baseline there, the same field bots in every other seat. Every field bot of game A and its twin in game B get
the same seed (`{seed}/pair-{i}/seat-{s}`), as do the candidate and the baseline, so the two games are identical
up to the tested seat's own choices: the only difference is the bot under test. The tested seat rotates from pair
to pair (pair i: seat i mod competitors; with partnerships the tested bot plays every seat of its team).

A pair's outcome is the candidate's duplicate score (engine.sprt.duplicate_score) from the tested seat's placement
scores: the share of the other competitors it finished ahead of in each game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .common.bot import Bot
from .games import game_type
from .sprt import duplicate_score, placement_score


@dataclass(frozen=True)
class Contestant:
    """A bot the comparison plays: an engine bot kind of the game, with its settings."""

    kind: str
    settings: dict[str, object] = field(default_factory=dict)

    def label(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in sorted(self.settings.items()))
        return f"{self.kind}({extra})" if extra else self.kind


@dataclass(frozen=True)
class PairSpec:
    """What every pair of a comparison plays."""

    game: str
    ruleset: Any  # the game's ruleset object (players included)
    candidate: Contestant
    baseline: Contestant
    field: Contestant
    seed: str = "comparison"

    def competitors(self) -> int:
        count: int = self.ruleset.team_count if self.game == "diamonds" else self.ruleset.players
        return count


@dataclass(frozen=True)
class PairResult:
    index: int
    tested_competitor: int  # a seat, or a team with partnerships
    deal_seed: str
    candidate_places: tuple[int, ...]  # per competitor, 1 = first
    baseline_places: tuple[int, ...]
    outcome: float  # the candidate's duplicate score, 0 .. 1
    records: tuple[dict[str, Any], dict[str, Any]] | None = None  # (candidate's game, baseline's game), when asked for


def deal_seed(spec: PairSpec, index: int) -> str:
    return f"{spec.seed}/pair-{index}"


def bot_seed(spec: PairSpec, index: int, seat: int) -> str:
    """The seed of whoever sits at `seat` in either game of pair `index`: the same in both games."""
    return f"{deal_seed(spec, index)}/seat-{seat}"


def seats_under_test(spec: PairSpec, index: int) -> tuple[int, set[int]]:
    """(tested competitor, its seats) of pair `index`: competitors rotate from pair to pair."""
    competitor = index % spec.competitors()
    if spec.game == "diamonds":
        return competitor, set(spec.ruleset.teams[competitor])
    return competitor, {competitor}


def competitor_places(spec: PairSpec, game: Any) -> tuple[int, ...]:
    """Each competitor's place (1 = first, ties share) in a finished game."""
    kind = game_type(spec.game)
    places = kind.standing(game)["places"]
    if spec.game == "diamonds":
        return tuple(places[spec.ruleset.teams[t][0]] for t in range(spec.ruleset.team_count))
    return tuple(places)


class _Observed(Bot):
    """A bot whose every decision is also told to `observe(seat, decision)`. It draws nothing itself, so it keeps no
    generator of its own (Bot.__init__ would seed one)."""

    def __init__(self, bot: Bot, seat: int, observe: Callable[[int, Any], None]):
        self.bot, self.seat, self.observe = bot, seat, observe

    def decide(self, view: Any) -> Any:
        decision = self.bot.decide(view)
        self.observe(self.seat, decision)
        return decision


def play_game_of_pair(spec: PairSpec, index: int, contestant: Contestant,
                      observe: Callable[[int, Any], None] | None = None) -> Any:
    """One game of pair `index`, `contestant` in the tested seat(s); the finished game. `observe`, if given, hears
    every decision in the order made, as (seat, decision)."""
    kind = game_type(spec.game)
    _, seats = seats_under_test(spec, index)
    players = spec.ruleset.players
    bots: list[Bot] = []
    for s in range(players):
        who = contestant if s in seats else spec.field
        bot = kind.make_bot(who.kind, seed=bot_seed(spec, index, s), **who.settings)
        bots.append(_Observed(bot, s, observe) if observe else bot)
    names = [f"{(contestant if s in seats else spec.field).kind}-{s + 1}" for s in range(players)]
    game = kind.new_game(spec.ruleset, deal_seed(spec, index), seats=names)
    kind.play_game(game, bots)
    return game


def play_pair(spec: PairSpec, index: int, with_records: bool = False) -> PairResult:
    competitor, _ = seats_under_test(spec, index)
    kind = game_type(spec.game)
    games = [play_game_of_pair(spec, index, who) for who in (spec.candidate, spec.baseline)]
    places = [competitor_places(spec, g) for g in games]
    outcome = duplicate_score(placement_score(places[0], competitor), placement_score(places[1], competitor))
    records = (kind.to_record(games[0]), kind.to_record(games[1])) if with_records else None
    return PairResult(index, competitor, deal_seed(spec, index), places[0], places[1], outcome, records)
