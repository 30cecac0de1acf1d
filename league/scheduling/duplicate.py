"""Duplicate play: the same deals at several tables with the seats rotated, so the luck of the cards cancels out.

Definitions (what the tests pin):
- A round's tables of one size are split into *groups* of at most `n` tables (n = players at the table),
  as even as possible and of two tables or more whenever the round has two or more tables of that size
  (at tables of 2, three tables make one group of 3 rather than a group of 2 and a lone table).
  Every table of a group has the group's `deal_id` and engine `seed`.
- *Hand h* of a deal is what seat h receives when the seed is played unrotated: in every round of the game,
  the engine's shuffle for that seed. The first dealer is drawn from the seed too (R-SETUP-2), so it is
  the same seat at every table of the group.
- Table i of a group (0-based) has *rotation* i mod n: seat s receives hand (s - rotation) mod n. The dealer does not
  rotate with the hands, so in a full group (n tables) each hand is played once from every position relative
  to the dealer and to the neighbours it passes to (R-PASS-2).
- A player's (a team's) *duplicate score* on a deal is their game score minus the mean score of the others
  in the group who held the same hand(s). A team's hands are those of both its seats (R-TEAM-1).

Who sits at which table comes from the fixed-format seating (opponents and seats spread as there).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.diamonds.cards import Card, deck
from engine.diamonds.ruleset import Ruleset

from .model import History, Round, Schedule, Table, Unit
from .seating import fixed_schedule, seat_round


def hand_of_seat(seat: int, rotation: int, size: int) -> int:
    """The hand held at `seat` of a table with `rotation`."""
    return (seat - rotation) % size


def seat_of_hand(hand: int, rotation: int, size: int) -> int:
    return (hand + rotation) % size


def group_sizes(tables: int, size: int) -> list[int]:
    """How many tables go in each group: at most `size` (one rotation each), as even as possible, and never a
    table alone when there are two or more (only at tables of 2 does that make a group of 3)."""
    if tables <= 0:
        return []
    groups = -(-tables // size)
    if tables >= 2 and tables // groups < 2:
        groups = tables // 2
    base, extra = divmod(tables, groups)
    return [base + 1] * extra + [base] * (groups - extra)


def group_round(rnd: Round, seed: str) -> Round:
    """The same round with its tables put in deal groups: shared deal id and seed, rotation by position."""
    by_size: dict[int, list[Table]] = {}
    for t in rnd.tables:
        by_size.setdefault(t.size, []).append(t)
    tables: list[Table] = []
    group = 0
    for size in sorted(by_size, reverse=True):
        pending = by_size[size]
        i = 0
        for count in group_sizes(len(pending), size):
            group += 1
            deal_id = f"r{rnd.number}-d{group}"
            deal_seed = f"{seed}/round-{rnd.number}/deal-{group}"
            for j, t in enumerate(pending[i:i + count]):
                tables.append(replace(t, number=len(tables) + 1, deal_id=deal_id, seed=deal_seed, group=group,
                                      rotation=j % size))
            i += count
    return Round(number=rnd.number, tables=tuple(tables), byes=rnd.byes)


def duplicate_schedule(
    units: Sequence[Unit],
    *,
    rounds: int,
    table_size: int,
    seed: object = 0,
    partnership: bool = False,
    teams: Mapping[Unit, Sequence[Hashable]] | None = None,
) -> Schedule:
    """Seat every round as the fixed format does, then group each round's tables into deal groups."""
    fixed = fixed_schedule(units, rounds=rounds, table_size=table_size, seed=seed, partnership=partnership,
                           teams=teams)
    return Schedule(format="duplicate", table_size=fixed.table_size, partnership=partnership, units=fixed.units,
                    rounds=[group_round(r, str(seed)) for r in fixed.rounds], seed=str(seed))


def duplicate_round(
    units: Sequence[Unit],
    *,
    number: int,
    table_size: int,
    history: History | None = None,
    seed: object = 0,
    partnership: bool = False,
    teams: Mapping[Unit, Sequence[Hashable]] | None = None,
) -> Round:
    """One round of duplicate play given the earlier rounds (for seating a round at a time)."""
    rnd = seat_round(units, number=number, table_size=table_size, history=history, seed=seed,
                     partnership=partnership, teams=teams)
    return group_round(rnd, str(seed))


def rotated_deals(ruleset: Ruleset, seed: str, rotation: int) -> list[list[list[Card]]]:
    """Every round's hands for a table of a deal group, to pass as `Game(ruleset, seed, deals=...)`.

    Unrotated, these are the hands the engine deals itself from `seed` (R-DEAL-1: each round reshuffles the
    whole deck, so the deals do not depend on play); leave `first_dealer` unset so that it is drawn from the
    same seed at every table. A test pins that rotation 0 matches the engine's own deal.
    """
    n, size, rounds, ranks = ruleset.players, ruleset.hand_size, ruleset.rounds, ruleset.deck_ranks
    # A Ruleset fills in every rule its caller left as None (Ruleset.__post_init__).
    assert size is not None and rounds is not None and ranks is not None
    deals = []
    for r in range(rounds):
        cards = deck(ranks)
        random.Random(f"{seed}/round-{r}").shuffle(cards)
        hands = [cards[h * size:(h + 1) * size] for h in range(n)]
        deals.append([hands[hand_of_seat(s, rotation, n)] for s in range(n)])
    return deals


@dataclass(frozen=True)
class HandResult:
    """One competitor's result at a table of a deal group: the seat(s) they held and their game score."""

    competitor: Hashable
    seats: tuple[int, ...]
    score: int


@dataclass(frozen=True)
class DealTableResult:
    """The results of one table of a deal group."""

    rotation: int
    size: int  # players at the table
    results: Sequence[HandResult]


def duplicate_scores(tables: Sequence[DealTableResult]) -> dict[Hashable, Fraction]:
    """Each competitor's duplicate score on one deal: score minus the mean of the others who held the same
    hand(s) at the other tables of the group; 0 when no one else held them (a table played alone)."""
    holders: dict[tuple[int, ...], list[tuple[Hashable, int]]] = {}
    for table in tables:
        for res in table.results:
            hands = tuple(sorted(hand_of_seat(s, table.rotation, table.size) for s in res.seats))
            holders.setdefault((table.size, *hands), []).append((res.competitor, res.score))
    out: dict[Hashable, Fraction] = {}
    for same in holders.values():
        total = sum(score for _, score in same)
        for competitor, score in same:
            others = len(same) - 1
            value = Fraction(score) - Fraction(total - score, others) if others else Fraction(0)
            out[competitor] = out.get(competitor, Fraction(0)) + value
    return out


def deal_quality(schedule: Schedule) -> dict[str, int]:
    """Figures particular to duplicate play: deal groups, full groups (n tables), tables playing alone."""
    groups: dict[tuple[int, int], int] = {}
    sizes: dict[tuple[int, int], int] = {}
    for rnd in schedule.rounds:
        for t in rnd.tables:
            key = (rnd.number, t.group or 0)
            groups[key] = groups.get(key, 0) + 1
            sizes[key] = t.size
    return {
        "deal groups": len(groups),
        "full groups": sum(1 for k, c in groups.items() if c == sizes[k]),
        "lone tables": sum(1 for c in groups.values() if c == 1),
    }

