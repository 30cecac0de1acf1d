"""Seat a field at tables round after round, spreading opponents and seat positions: the fixed-schedule format.

A round is built in three steps, all plain Python over unit ids:
1. `table_sizes` decides the tables (and byes, only when nothing else fits; a bye goes to whoever has had
   the fewest, so no one gets a second while someone has none).
2. `compose_tables` fills them: each unit, in a seeded random order, goes to the first open table (scanned
   from a random start) where it meets no one again, else to the least bad one; then swaps between tables
   remove repeat meetings. The cost of a meeting grows fast with the times the pair already met, so a third
   meeting is avoided before a second one is.
3. `order_seats` orders each table: every arrangement is tried (at most 6! = 720) and the one is kept whose
   units took those positions least often before, and where the fewest sat again directly left of the same
   neighbour.
Where an exact construction exists (see `algebraic`), the first rounds use it instead of step 2.
Everything is deterministic given the seed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Mapping, Sequence

from .algebraic import AFFINE_ORDERS, affine_plane_rounds, round_robin_pairs
from .model import History, Round, Schedule, Table, Unit
from .quality import measure
from .sizes import TableShape, table_sizes

# Extra cost of seating a pair that already met c times: 4**c grows fast enough that one third meeting
# costs more than several second ones, which keeps the most-times-met figure as low as it can be.
_MEET_COST = [0] + [(4**c - 1) // 3 for c in range(1, 12)]
_SEAT_WEIGHT = 2  # seat-position balance counts more than left-neighbour balance
_SEAT_COST = (0, 1, 6, 36, 216, 1296)
_LEFT_WEIGHT = 1
_EMPTY: dict = {}


def _meet_cost(c: int) -> int:
    return _MEET_COST[c] if c < len(_MEET_COST) else 4**c


def _cost(mine: Mapping[Unit, int], others: Sequence[Unit], skip: Unit = None) -> int:
    """Cost of seating a unit (whose meeting counts are `mine`) with `others`, leaving out `skip`."""
    total = 0
    for v in others:
        if v != skip:
            c = mine.get(v)
            if c:
                total += _meet_cost(c)
    return total


def table_cost(units: Sequence[Unit], history: History) -> int:
    """Sum of the meeting costs of every pair at one table."""
    total = 0
    for i, a in enumerate(units):
        mine = history.meetings.get(a, _EMPTY)
        for b in units[i + 1:]:
            c = mine.get(b)
            if c:
                total += _meet_cost(c)
    return total


def choose_byes(units: Sequence[Unit], count: int, history: History, rng: random.Random) -> list[Unit]:
    """`count` units to sit out: those with the fewest byes so far, at random among equals."""
    if count == 0:
        return []
    keyed = sorted(units, key=lambda u: (history.byes[u], rng.random()))
    return keyed[:count]


def compose_tables(
    units: Sequence[Unit], sizes: Sequence[int], history: History, rng: random.Random, *, attempts: int = 1
) -> list[list[Unit]]:
    """Split `units` into tables of `sizes` (which must add up), meeting as few earlier opponents as possible.

    Tries `attempts` seeded constructions and keeps the cheapest; each is improved by swaps.
    """
    if sum(sizes) != len(units):
        raise ValueError(f"{len(units)} units do not fill tables of {list(sizes)}")
    best: list[list[Unit]] | None = None
    best_cost = None
    for _ in range(max(1, attempts)):
        tables = _construct(units, sizes, history, rng)
        _improve(tables, history, rng)
        cost = sum(table_cost(t, history) for t in tables)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    assert best is not None
    return best


def _construct(units: Sequence[Unit], sizes: Sequence[int], history: History, rng: random.Random) -> list[list]:
    order = list(units)
    rng.shuffle(order)
    tables: list[list[Unit]] = [[] for _ in sizes]
    open_tables = [t for t, s in enumerate(sizes) if s > 0]
    meetings = history.meetings
    for u in order:
        mine = meetings.get(u, _EMPTY)
        n_open = len(open_tables)
        start = rng.randrange(n_open)
        pick, pick_cost = start, None
        if mine:
            for i in range(n_open):
                pos = start + i
                if pos >= n_open:
                    pos -= n_open
                c = _cost(mine, tables[open_tables[pos]])
                if c == 0:
                    pick = pos
                    break
                if pick_cost is None or c < pick_cost:
                    pick, pick_cost = pos, c
        t = open_tables[pick]
        tables[t].append(u)
        if len(tables[t]) == sizes[t]:
            open_tables[pick] = open_tables[-1]
            open_tables.pop()
    return tables


def _improve(tables: list[list[Unit]], history: History, rng: random.Random, *, sweeps: int = 30) -> None:
    """Swap units between tables while that lowers the total meeting cost.

    Only a unit that meets someone again can take part in an improving swap, so only those are tried, each
    against every unit at every other table. When no swap improves, a few cost-neutral swaps are allowed to
    leave the plateau (a budget, so it ends).
    """
    meetings = history.meetings
    where = {u: ti for ti, t in enumerate(tables) for u in t}
    n_tables = len(tables)
    if n_tables < 2:
        return
    sideways = 2 * len(where)
    for _ in range(sweeps):
        conflicted = [u for t in tables for u in t if _cost(meetings.get(u, _EMPTY), t, u)]
        if not conflicted:
            return
        rng.shuffle(conflicted)
        changed = False
        for u in conflicted:
            a = where[u]
            ta = tables[a]
            mu = meetings.get(u, _EMPTY)
            here_u = _cost(mu, ta, u)
            if not here_u:
                continue
            start = rng.randrange(n_tables)
            found = None
            neutral = None
            for k in range(n_tables):
                b = (start + k) % n_tables
                if b == a:
                    continue
                tb = tables[b]
                for j, w in enumerate(tb):
                    mw = meetings.get(w, _EMPTY)
                    delta = (_cost(mu, tb, w) + _cost(mw, ta, u)) - (here_u + _cost(mw, tb, w))
                    if delta < 0:
                        found = (b, j, w)
                        break
                    if delta == 0 and neutral is None:
                        neutral = (b, j, w)
                if found:
                    break
            if found is None and neutral is not None and sideways > 0:
                sideways -= 1
                found = neutral
            if found is not None:
                b, j, w = found
                ta[ta.index(u)] = w
                tables[b][j] = u
                where[u], where[w] = b, a
                changed = True
        if not changed:
            return


def order_seats(units: Sequence[Unit], history: History, rng: random.Random) -> tuple[Unit, ...]:
    """The arrangement of one table's units that best evens out positions and left neighbours."""
    k = len(units)
    start = list(units)
    rng.shuffle(start)  # ties between equally good arrangements go to chance, not to input order
    pos = [history.positions.get(u, (0,) * 6) for u in start]
    # Convex in the excess over the unit's least-used position, so one unit taking a seat a third time
    # costs more than two units each taking theirs a second time.
    seat_cost = []
    for p in pos:
        low = min(p[:k])
        seat_cost.append([_SEAT_COST[min(p[j] - low, len(_SEAT_COST) - 1)] for j in range(k)])
    if k > 2:
        left = [[history.left.get(a, _EMPTY).get(b, 0) for b in start] for a in start]
    else:
        left = None
    best, best_cost = None, None
    for perm in itertools.permutations(range(k)):
        cost = 0
        for j in range(k):
            cost += _SEAT_WEIGHT * seat_cost[perm[j]][j]
        if left is not None:
            for j in range(k):
                cost += _LEFT_WEIGHT * left[perm[j]][perm[(j + 1) % k]]
        if best_cost is None or cost < best_cost:
            best, best_cost = perm, cost
            if cost == 0:
                break
    assert best is not None
    return tuple(start[i] for i in best)


def team_members(unit: Unit, teams: Mapping[Unit, Sequence[Hashable]] | None) -> tuple[Hashable, ...]:
    """The two partners of a team unit: from `teams`, or the unit itself when it is a tuple of players."""
    members = teams[unit] if teams is not None else unit
    if not isinstance(members, Sequence) or isinstance(members, str) or len(members) != 2:
        raise ValueError(f"a partnership team needs exactly 2 players, got {members!r} for {unit!r}")
    return tuple(members)


def seat_players(
    units: Sequence[Unit],
    shape: TableShape,
    history: History,
    teams: Mapping[Unit, Sequence[Hashable]] | None,
) -> tuple[Hashable, ...]:
    """Players in seat order for units already in unit order.

    With partnerships (R-TEAM-1) the team in unit position j takes seats j and j + k; which partner takes
    the lower seat alternates with the team's tables played, so both partners see both seats.
    """
    if shape.players_per_unit == 1:
        return tuple(units)
    k = len(units)
    seats: list[Hashable] = [None] * (2 * k)
    for j, u in enumerate(units):
        a, b = team_members(u, teams)
        if history.played[u] % 2:
            a, b = b, a
        seats[j], seats[j + k] = a, b
    return tuple(seats)


def build_round(
    number: int,
    tables: Sequence[Sequence[Unit]],
    byes: Sequence[Unit],
    *,
    shape: TableShape,
    history: History,
    rng: random.Random,
    seed: str,
    teams: Mapping[Unit, Sequence[Hashable]] | None = None,
) -> Round:
    """Order each table's seats and wrap everything as a `Round` (history is not updated here)."""
    out = []
    for i, members in enumerate(tables, start=1):
        ordered = order_seats(members, history, rng)
        out.append(
            Table(
                number=i,
                units=ordered,
                seats=seat_players(ordered, shape, history, teams),
                deal_id=f"r{number}-t{i}",
                seed=f"{seed}/round-{number}/table-{i}",
            )
        )
    return Round(number=number, tables=tuple(out), byes=tuple(byes))


def seat_round(
    units: Sequence[Unit],
    *,
    number: int,
    table_size: int,
    history: History | None = None,
    seed: object = 0,
    partnership: bool = False,
    teams: Mapping[Unit, Sequence[Hashable]] | None = None,
    attempts: int | None = None,
) -> Round:
    """Seat one round of the fixed format, given what earlier rounds did (`history`, not modified).

    `units` are player ids, or team ids with `partnership=True` (then `teams[team]` gives the two players;
    without `teams` a team id must itself be a pair of player ids). `table_size` counts players.
    """
    shape = TableShape.for_table_size(table_size, partnership=partnership)
    history = history if history is not None else History()
    rng = random.Random(f"{seed}/round-{number}")
    _check_units(units)
    sizes, n_byes = table_sizes(len(units), shape)
    byes = choose_byes(units, n_byes, history, rng)
    bye_set = set(byes)
    playing = [u for u in units if u not in bye_set]
    if attempts is None:
        attempts = _default_attempts(len(units))
    tables = compose_tables(playing, sizes, history, rng, attempts=attempts)
    return build_round(number, tables, byes, shape=shape, history=history, rng=rng, seed=str(seed), teams=teams)


def _default_attempts(n_units: int) -> int:
    # Small fields are where a bad first try shows; they are also cheap to try again.
    return 1 if n_units > 200 else 8 if n_units <= 48 else 3


def _check_units(units: Sequence[Unit]) -> None:
    if len(set(units)) != len(units):
        raise ValueError("every unit must be listed once")


def _exact_rounds(n_units: int, shape: TableShape, rounds: int) -> list[list[list[int]]]:
    """Rounds from an exact construction when one fits the field (possibly fewer than asked), else []."""
    q = shape.target
    sizes, byes = table_sizes(n_units, shape)
    if byes or any(s != q for s in sizes):
        return []
    if q == 2 and n_units % 2 == 0:
        return round_robin_pairs(n_units)[:rounds]
    if q in AFFINE_ORDERS and n_units == q * q:
        return affine_plane_rounds(q)[:rounds]
    return []


def fixed_schedule(
    units: Sequence[Unit],
    *,
    rounds: int,
    table_size: int,
    seed: object = 0,
    partnership: bool = False,
    teams: Mapping[Unit, Sequence[Hashable]] | None = None,
) -> Schedule:
    """Seat every round up front: everyone plays every round (byes only when nothing fits), opponents and
    seats spread as evenly as the field allows.

    Small fields get several complete tries and keep the best (fewest repeat meetings first), since there a
    choice in round 1 can decide whether round 5 can avoid repeats.
    """
    if rounds < 0:
        raise ValueError("rounds must be >= 0")
    shape = TableShape.for_table_size(table_size, partnership=partnership)
    _check_units(units)
    if partnership:
        for u in units:
            team_members(u, teams)
    tries = 1 if len(units) > 64 else 6
    best, best_key = None, None
    for attempt in range(tries):
        schedule = _one_fixed_schedule(units, rounds, shape, f"{seed}" if attempt == 0 else f"{seed}#{attempt}",
                                       str(seed), partnership, teams)
        q = measure(schedule)
        key = (q.max_meetings, q.repeated_pairs, q.max_seat_spread, q.max_left_repeats)
        if best_key is None or key < best_key:
            best, best_key = schedule, key
        if q.repeated_pairs == 0 and q.max_seat_spread <= 1:
            break
    assert best is not None
    return best


def _one_fixed_schedule(
    units: Sequence[Unit],
    rounds: int,
    shape: TableShape,
    rng_seed: str,
    seed: str,
    partnership: bool,
    teams: Mapping[Unit, Sequence[Hashable]] | None,
) -> Schedule:
    schedule = Schedule(format="fixed", table_size=shape.target * shape.players_per_unit, partnership=partnership,
                        units=tuple(units), seed=seed)
    history = History()
    rng = random.Random(f"{rng_seed}/exact")
    exact = _exact_rounds(len(units), shape, rounds)
    labels = list(units)
    rng.shuffle(labels)  # the construction's structure, our field's names at random
    for number in range(1, rounds + 1):
        if number <= len(exact):
            tables = [[labels[i] for i in t] for t in exact[number - 1]]
            rnd = build_round(number, tables, (), shape=shape, history=history,
                              rng=random.Random(f"{rng_seed}/round-{number}"), seed=seed, teams=teams)
        else:
            rnd = seat_round(units, number=number, table_size=schedule.table_size, history=history, seed=rng_seed,
                             partnership=partnership, teams=teams)
            rnd = _reseed(rnd, seed)
        history.record(rnd)
        schedule.rounds.append(rnd)
    return schedule


def _reseed(rnd: Round, seed: str) -> Round:
    """Table seeds come from the schedule's seed, whichever internal try produced the round."""
    tables = tuple(
        Table(number=t.number, units=t.units, seats=t.seats, deal_id=t.deal_id,
              seed=f"{seed}/round-{rnd.number}/table-{t.number}", group=t.group, rotation=t.rotation)
        for t in rnd.tables
    )
    return Round(number=rnd.number, tables=tables, byes=rnd.byes)
