"""How many tables of which size seat N units in one round, and how many byes that leaves.

The target size is preferred; a field that does not divide mixes in tables one smaller (never below 2
units), and only when that cannot work (too few units) tables one larger. Byes are the last resort: the
fewest that make the rest seatable. Sizes are in *units*: players, or teams at partnership tables.
"""

from __future__ import annotations

from dataclasses import dataclass

# R-ROUNDS-1: Diamonds plays 2 to 6 at a table (so does the ring race, G-SETUP-1; Diamoniak at most 4, given as
# max_players)
MIN_PLAYERS, MAX_PLAYERS = 2, 6
PARTNERSHIP_SIZES = (4, 6)  # R-TEAM-1: 2 or 3 teams of 2


@dataclass(frozen=True)
class TableShape:
    """What a table holds, in units, and how units map to players."""

    target: int  # units per table wanted
    min_units: int
    max_units: int
    players_per_unit: int  # 1, or 2 for partnerships

    @classmethod
    def for_table_size(cls, table_size: int, *, partnership: bool = False,
                       max_players: int = MAX_PLAYERS) -> TableShape:
        """`table_size` is in players, as the engine's `Ruleset.players`. `max_players` is the most the game seats
        at a table (engine.games: Diamoniak 4), so a field that does not divide never gets a table one larger
        than the game allows."""
        if not MIN_PLAYERS <= max_players <= MAX_PLAYERS:
            raise ValueError(f"max_players is {MIN_PLAYERS} to {MAX_PLAYERS}, not {max_players}")
        if partnership:
            if table_size not in PARTNERSHIP_SIZES:
                raise ValueError(f"R-TEAM-1: partnership tables seat 4 or 6 players, not {table_size}")
            return cls(target=table_size // 2, min_units=2, max_units=3, players_per_unit=2)
        if not MIN_PLAYERS <= table_size <= max_players:
            raise ValueError(f"a table seats {MIN_PLAYERS} to {max_players} players, not {table_size}")
        return cls(target=table_size, min_units=MIN_PLAYERS, max_units=max_players, players_per_unit=1)


def _split(m: int, t: int, shape: TableShape) -> list[int] | None:
    """Sizes for exactly m units using t and t-1 (as few tables of t-1 as possible), else t and t+1."""
    if m == 0:
        return []
    smaller, larger = t - 1, t + 1
    k = -(-m // t)  # fewest tables
    short = k * t - m  # tables that must take one unit less
    if short <= k and (short == 0 or smaller >= shape.min_units):
        return [t] * (k - short) + [smaller] * short
    k = m // t
    extra = m - k * t
    if k >= 1 and extra <= k and (extra == 0 or larger <= shape.max_units):
        return [larger] * extra + [t] * (k - extra)
    return None


def table_sizes(units: int, shape: TableShape) -> tuple[list[int], int]:
    """(sizes of the tables, largest first; number of byes) for `units` units in one round.

    For any k tables, k*(t-1) <= m <= k*(t+1) is exactly what a mix of t-1, t, t+1 can seat, and the two
    splits tried cover the only k that can work (ceil(m/t) and floor(m/t)), so mixing all three never helps.
    """
    if units < 0:
        raise ValueError("units must be >= 0")
    for byes in range(units + 1):
        sizes = _split(units - byes, shape.target, shape)
        if sizes is not None:
            return sizes, byes
    raise AssertionError("unreachable: zero units always fit")
