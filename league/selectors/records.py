"""Export a stored match as its game's record: `diamonds-record/1` built from its rows alone, or, for a game
stored as its choices, the game's own format (`GameType.to_record` of the game replayed from its MatchChoice rows).

`engine.games.by_format(record["format"]).from_record(match_record(match))` replays it and must agree with every
stored row. An unfinished Diamonds match's record lists the tricks that have at least one play, and passes only
once all seats have passed (as the engine's own record does). These are the whole records, seed included, as the engine
exports them (with_attestation adds the commitment and reveal): only league.selectors.live.public_record decides
what of them anyone may see.
"""

from __future__ import annotations

from typing import Any

from engine import FORMAT, Ruleset
from engine.games import game_type

from ..models import Match, MatchRound, SuitAction, Trick
from .games import load_match_game, stored_as_choices


def with_attestation(match: Match, record: dict[str, Any]) -> dict[str, Any]:
    """The record with the match's commitment and its reveal (seed and nonce: engine.fairness), for those who may
    see them; league.selectors.live.public_record drops the reveal while the deal is secret."""
    if match.commitment:
        record["commitment"] = match.commitment
        record["reveal"] = {"seed": match.seed, "nonce": match.nonce}
    return record


def match_record(match: Match) -> dict[str, Any]:
    if stored_as_choices(match.game):
        game, _ = load_match_game(match)
        return game_type(match.game).to_record(game)
    ruleset = Ruleset.from_dict(match.ruleset)
    rounds: list[dict[str, Any]] = []
    for r in MatchRound.objects.filter(match=match).order_by("index"):
        passes = r.passes
        if passes is not None and any(p is None for p in passes):
            passes = None  # some seat has yet to choose: the exchange has not happened
        rounds.append({
            "dealer": r.dealer,
            "hands": r.hands,
            "pass_count": r.pass_count,
            "passes": passes,
            "clubs_targets": list(r.clubs_targets),
            "tricks": [],
            "actions": [],
        })
    for t in Trick.objects.filter(match=match).order_by("round", "index"):
        rounds[t.round]["tricks"].append({"leader": t.leader, "plays": t.plays, "winner": t.winner})
    fields = ("round", "seat", "suit", "cause", "trick", "target", "moved")
    for a in SuitAction.objects.filter(match=match).order_by("round", "sequence").values_list(*fields):
        r, seat, suit, cause, trick, target, moved = a
        rounds[r]["actions"].append(
            {"seat": seat, "suit": suit, "cause": cause, "trick": trick, "target": target, "moved": moved}
        )
    record: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": ruleset.to_dict(),
        "seed": match.seed,
        "seats": list(match.seats),
        "teams": [list(t) for t in ruleset.teams] if ruleset.partnerships else None,
        "first_dealer": match.first_dealer,
        "rounds": rounds,
    }
    if match.result is not None:
        record["result"] = match.result
    return record
