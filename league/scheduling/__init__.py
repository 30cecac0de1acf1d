"""Seating algorithms for seated tournaments: fixed schedules, Swiss-style rounds and duplicate deal groups.

Pure Python over plain objects (no Django): the league services load stored rounds into a `History`, call
one of these, and store the `Round`s they return. The public interface:

    fixed_schedule(units, rounds=8, table_size=4, seed="cup")        # all rounds up front -> Schedule
    seat_round(units, number=3, table_size=4, history=h, seed="cup")  # one fixed-format round -> Round
                                                    # (the units present; for a field that changes between rounds)
    swiss_round(standings, number=3, table_size=4, history=h, seed="cup")
    duplicate_schedule(...) / duplicate_round(...); duplicate_scores(tables) for a deal group's results
    measure(schedule) -> Quality                                      # repeat meetings, seat balance, byes

Small fields that fit a resolvable design (Kirkman triple systems, affine spaces, ...) get repeat-free rounds
from an exact construction: see README.md here and `algebraic`, `designs`.
"""

from .duplicate import (
    DealTableResult,
    HandResult,
    duplicate_round,
    duplicate_schedule,
    duplicate_scores,
    hand_of_seat,
    rotated_deals,
)
from .model import FORMATS, History, Round, Schedule, Table
from .quality import Quality, measure
from .seating import fixed_schedule, seat_round
from .sizes import TableShape, table_sizes
from .swiss import swiss_round

__all__ = [
    "DealTableResult", "FORMATS", "HandResult", "History", "Quality", "Round", "Schedule", "Table", "TableShape",
    "duplicate_round", "duplicate_schedule", "duplicate_scores", "fixed_schedule", "hand_of_seat", "measure",
    "rotated_deals", "seat_round", "swiss_round", "table_sizes",
]
