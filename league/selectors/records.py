"""Export a stored match as a `diamonds-record/1` document, built from its rows alone.

`engine.from_record(match_record(match))` replays it and must agree with every stored row. An unfinished
match's record lists the tricks that have at least one play, and passes only once all seats have passed
(as the engine's own record does).
"""

from __future__ import annotations

from typing import Any

from engine import FORMAT, Ruleset

from ..models import Match, MatchRound, SuitAction, Trick


def match_record(match: Match) -> dict[str, Any]:
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
