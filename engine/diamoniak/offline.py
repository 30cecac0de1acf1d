"""Diamoniak results entered by hand (engine.common.offline): what a table's entry holds and the rules it must
agree with. Every list has one number per seat.

The entry: `castle` (castle cards of the seat's colour, 0-6) and `diamonds` (diamond cards held, 0-20 in all).
A complete castle (6) ends the game at once (K-WIN-1), so at most one seat has one and that seat is the winner;
without one the game ended at the turn limit and seats rank by castle, then diamond cards. `winner` (a seat,
0-based) may be given and must agree.
"""

from __future__ import annotations

from ..common.offline import OfflineResult, ResultChecker
from ..common.referee import ranked_places
from .rules import CASTLE_SIZE, DIAMOND_CARDS, Ruleset

# The figures an entry asks for, per seat, in form order.
FIGURES = ("castle", "diamonds")


def check_result(ruleset: Ruleset, entry: object) -> OfflineResult:
    """Diamoniak's castles and diamond cards, and the winner of a castle win (see the module docstring)."""
    check = ResultChecker(entry, ("castle", "diamonds", "winner"), "Diamoniak")
    n = ruleset.players
    castle = check.numbers("castle", n)
    diamonds = check.numbers("diamonds", n)
    winner = check.seat("winner", n)
    if castle is not None:
        for s, size in enumerate(castle):
            if size > CASTLE_SIZE:
                check.fail(f"castle.{s}", f"a castle has at most {CASTLE_SIZE} cards; seat {s + 1} has {size}",
                           "K-WIN-1")
        complete = [s for s, size in enumerate(castle) if size == CASTLE_SIZE]
        if len(complete) > 1:
            check.fail("castle", f"seats {', '.join(str(s + 1) for s in complete)} each have a complete castle: the "
                                 "first to complete one wins at once, so only one can", "K-WIN-1")
        elif complete and winner is not None and winner != complete[0]:
            check.fail("winner", f"seat {complete[0] + 1} completed a castle, so seat {complete[0] + 1} won, not seat "
                                 f"{winner + 1}", "K-WIN-1")
        elif not complete and winner is not None:
            check.fail("winner", f"nobody completed a castle of {CASTLE_SIZE}: a game ended by the turn limit has no "
                                 "single winner to name; the places follow castles, then diamond cards", "K-WIN-1")
    if diamonds is not None:
        if any(d > DIAMOND_CARDS for d in diamonds) or sum(diamonds) > DIAMOND_CARDS:
            check.fail("diamonds", f"the game has {DIAMOND_CARDS} diamond cards; the table holds {sum(diamonds)}",
                       "K-SETUP-1")
    check.done()
    assert castle is not None and diamonds is not None  # check.done() raised otherwise
    keys = [(castle[s], diamonds[s]) for s in range(n)]
    complete = [s for s in range(n) if castle[s] == CASTLE_SIZE]
    if complete:
        keys[complete[0]] = (CASTLE_SIZE + 1, 0)  # K-WIN-1: the castle wins, whatever the others hold
    places = ranked_places(keys)
    winners = [s for s in range(n) if places[s] == 1]
    reason = "castle" if complete else "turns"
    return OfflineResult(
        figures={"castle": castle, "diamonds": diamonds},
        result={"winners": winners, "castle": castle, "diamonds": diamonds, "places": places, "reason": reason},
        score=list(castle), tiebreak=list(diamonds), places=places, winners=winners)
