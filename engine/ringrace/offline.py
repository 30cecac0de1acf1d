"""The ring race results entered by hand (engine.common.offline): what a table's entry holds and the rules it must
agree with. Every list has one number per seat.

The entry: `dollars` and `set_rings` (G-SCORE-1). Only the 26 loose diamonds can be set (G-SETUP-1), a set
ring is worth 1,000 to 6,000 dollars, seven rings of each value; without `debts` no total is negative.
"""

from __future__ import annotations

from ..common.offline import OfflineResult, ResultChecker
from ..common.referee import ranked_places
from .rules import LOOSE, RINGS_PER_VALUE, VALUES, Ruleset

# The figures an entry asks for, per seat, in form order.
FIGURES = ("dollars", "set_rings")


def check_result(ruleset: Ruleset, entry: object) -> OfflineResult:
    """The ring race's dollars and set rings (see the module docstring)."""
    check = ResultChecker(entry, ("dollars", "set_rings"), "The ring race")
    n = ruleset.players
    debts = bool(ruleset.debts)
    dollars = check.numbers("dollars", n, minimum=None if debts else 0, negative_rule="G-SCORE-1",
                            negative_note=": only the debts variant scores an empty ring as minus its value")
    set_rings = check.numbers("set_rings", n)
    if set_rings is not None and sum(set_rings) > LOOSE:
        check.fail("set_rings", f"only the {LOOSE} loose diamonds can be set on rings; the table has "
                                f"{sum(set_rings)} set rings", "G-SETUP-1")
    if dollars is not None:
        step = VALUES[0]
        for s, d in enumerate(dollars):
            if d % step:
                check.fail(f"dollars.{s}", f"rings are worth whole thousands of dollars; seat {s + 1} has {d}",
                           "G-SETUP-1")
    if dollars is not None and set_rings is not None and sum(set_rings) <= LOOSE:
        # The most a seat's set rings can be worth: its count of the highest values (seven rings of each).
        values = sorted((v for v in VALUES for _ in range(RINGS_PER_VALUE)), reverse=True)
        for s in range(n):
            top = sum(values[:set_rings[s]])
            if dollars[s] > top:
                check.fail(f"dollars.{s}", f"seat {s + 1}'s {set_rings[s]} set rings are worth at most {top} "
                                           f"dollars, not {dollars[s]}", "G-SCORE-1")
            elif not debts and set_rings[s] and dollars[s] < set_rings[s] * VALUES[0]:
                check.fail(f"dollars.{s}", f"seat {s + 1}'s {set_rings[s]} set rings are worth at least "
                                           f"{set_rings[s] * VALUES[0]} dollars, not {dollars[s]}", "G-SCORE-1")
        best = sum(values[:sum(set_rings)])
        if sum(dollars) > best:
            check.fail("dollars", f"{sum(set_rings)} set rings are worth at most {best} dollars in all, not "
                                  f"{sum(dollars)}", "G-SCORE-1")
    check.done()
    assert dollars is not None and set_rings is not None  # check.done() raised otherwise
    places = ranked_places(list(zip(dollars, set_rings)))  # G-SCORE-1: dollars, then set rings, then shared
    winners = [s for s in range(n) if places[s] == 1]
    return OfflineResult(
        figures={"dollars": dollars, "set_rings": set_rings},
        result={"totals": dollars, "set_rings": set_rings, "places": places, "winners": winners, "reason": "table"},
        score=list(dollars), tiebreak=list(set_rings), places=places, winners=winners)
