"""Diamonds results entered by hand (engine.common.offline): what a table's entry holds and the rules it must
agree with. Every list has one number per seat (per team with partnerships).

The entry: `vault` and `showroom`, the final totals (R-SCORE-1 gives the score: a `score` given must agree), or
`rounds`, each round's totals at its end (`[{"vault": [...], "showroom": [...]}, ...]`, every round of the game:
R-ROUNDS-1), the last being the final ones. Crystals only move between the supply, showrooms and vaults
(R-ACT-*), so the table's crystals total at least what R-SETUP-1 put out (3 a player) and at most the supply
(235); round by round no vault shrinks and the table never holds fewer crystals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..common.offline import OfflineResult, ResultChecker
from ..common.referee import ranked_places
from .ruleset import STARTING_SHOWROOM, SUPPLY_POINTS, Ruleset

# The figures an entry asks for, per seat (per team with partnerships), in form order.
FIGURES = ("vault", "showroom")


def _check_totals(check: ResultChecker, ruleset: Ruleset, vault: list[int], showroom: list[int],
                  prefix: str = "") -> None:
    """What any moment of a Diamonds game holds: crystals come from the supply and never go back to it (R-ACT-*)."""
    total = sum(vault) + sum(showroom)
    if total > SUPPLY_POINTS:
        check.fail(f"{prefix}vault", f"the table holds {total} points of crystals, more than the supply's "
                                     f"{SUPPLY_POINTS}", "R-ACT-D")
    start = STARTING_SHOWROOM * ruleset.players
    if total < start:
        check.fail(f"{prefix}showroom", f"the table holds {total} points of crystals, fewer than the {start} it "
                                        "started with: crystals never go back to the supply", "R-SETUP-1")


def _diamonds_rounds(check: ResultChecker, ruleset: Ruleset,
                     what: str) -> tuple[list[int] | None, list[int] | None, list[dict[str, Any]]]:
    """Each round's totals at its end (`rounds`, oldest first): every round there (R-ROUNDS-1), each a possible
    moment of the game, no vault ever smaller than the round before (no Suit Action takes from a vault) and no fewer
    crystals on the table (none goes back to the supply). The final totals are the last round's."""
    rounds = check.entry.get("rounds")
    teams = ruleset.team_count
    if "vault" in check.entry or "showroom" in check.entry:
        check.fail("rounds", "give either each round's totals or the final totals, not both")
    if not isinstance(rounds, list | tuple):
        check.fail("rounds", "rounds is a list of each round's totals: {\"vault\": [...], \"showroom\": [...]}")
        return None, None, []
    if len(rounds) != ruleset.rounds:
        check.fail("rounds", f"this game has {ruleset.rounds} rounds, not {len(rounds)}", "R-ROUNDS-1")
        return None, None, []  # nothing more is read of a list that long (or short)
    snapshots, stored = [], []
    for i, r in enumerate(rounds):
        prefix = f"rounds.{i}."
        if not isinstance(r, Mapping):
            check.fail(f"rounds.{i}", f"round {i + 1} is an object of vault and showroom")
            continue
        for name in sorted(set(r) - {"vault", "showroom"}):
            check.fail(f"{prefix}{name}", f"a round's totals are its vault and showroom, not {name!r}")
        v = check.numbers("vault", teams, what=what, source=r, prefix=prefix)
        s = check.numbers("showroom", teams, what=what, source=r, prefix=prefix)
        if v is not None and s is not None:
            _check_totals(check, ruleset, v, s, prefix)
            snapshots.append((i, v, s))
            stored.append({"vault": v, "showroom": s})
    for (i, v0, s0), (j, v1, s1) in zip(snapshots, snapshots[1:]):
        if j != i + 1:
            continue
        for t in range(teams):
            if v1[t] < v0[t]:
                check.fail(f"rounds.{j}.vault.{t}", f"{what} {t + 1}'s vault went down from {v0[t]} to {v1[t]} in "
                                                    f"round {j + 1}: no Suit Action takes from a vault")
        if sum(v1) + sum(s1) < sum(v0) + sum(s0):
            check.fail(f"rounds.{j}", f"the table holds fewer crystals after round {j + 1} than after round {i + 1}: "
                                      "none goes back to the supply")
    if not snapshots or len(snapshots) != len(rounds):
        return None, None, stored
    return snapshots[-1][1], snapshots[-1][2], stored


def check_result(ruleset: Ruleset, entry: object) -> OfflineResult:
    """Diamonds' final totals, or each round's (see the module docstring)."""
    check = ResultChecker(entry, ("vault", "showroom", "score", "rounds"), "Diamonds")
    teams = ruleset.team_count
    what = "team" if ruleset.partnerships else "seat"
    per_round = None
    if "rounds" in check.entry:
        vault, showroom, per_round = _diamonds_rounds(check, ruleset, what)
    else:
        vault = check.numbers("vault", teams, what=what)
        showroom = check.numbers("showroom", teams, what=what)
        if vault is not None and showroom is not None:
            _check_totals(check, ruleset, vault, showroom)
    given_score = check.numbers("score", teams, what=what) if "score" in check.entry else None
    if vault is not None and showroom is not None:
        score = [2 * v + s for v, s in zip(vault, showroom)]  # R-SCORE-1
        if given_score is not None and given_score != score:
            check.fail("score", f"score is 2 x vault + showroom: {score}, not {given_score}", "R-SCORE-1")
    check.done()
    assert vault is not None and showroom is not None  # check.done() raised otherwise
    key = list(zip(score, vault))  # R-WIN-1: score, then vault; still tied: shared
    best = max(key)
    team_winners = [t for t in range(teams) if key[t] == best]
    team_places = ranked_places(key)
    seat_team = [next(t for t, members in enumerate(ruleset.teams) if s in members) for s in range(ruleset.players)]
    places = [team_places[seat_team[s]] for s in range(ruleset.players)]
    figures: dict[str, Any] = {"vault": vault, "showroom": showroom}
    if per_round is not None:
        figures["rounds"] = per_round
    return OfflineResult(
        figures=figures,
        result={"score": score, "vault": vault, "showroom": showroom, "winners": team_winners},
        score=[score[t] for t in seat_team], tiebreak=[vault[t] for t in seat_team], places=places,
        winners=[s for s in range(ruleset.players) if places[s] == 1],
        showroom=[showroom[t] for t in seat_team])
