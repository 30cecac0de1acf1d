"""Seat a field at tables round after round, spreading opponents and seat positions: the fixed-schedule format.

A round is built in three steps, all plain Python over unit ids:
1. `table_sizes` decides the tables (and byes, only when nothing else fits; a bye goes to whoever has had
   the fewest, so no one gets a second while someone has none).
2. `compose_tables` fills them: each unit, in a seeded random order, goes to the first open table (scanned
   from a random start) where it meets no one again and one of the positions it has taken least is still
   free, else to the least bad table; then swaps remove repeat meetings first, unwanted positions second.
   The cost of a meeting grows fast with the times the pair already met, so a third meeting is avoided
   before a second one is. Claiming positions while composing is what keeps seat counts within one: the
   tables are made of players who want different seats. If repeats remain, random kicks followed by more
   swaps (an iterated local search) look further; small fields, where this matters, are cheap to search.
3. `order_seats` orders each table: every arrangement is tried (at most 6! = 720) and the one is kept whose
   units took those positions least often before, and where the fewest sat again directly left of the same
   neighbour.
Where an exact construction exists (see `algebraic` and `designs`), the first rounds use it instead of step 2.
Once every round of a fixed schedule is seated, rounds that still hold a repeat are searched again against all the other
rounds (`_polish`), since an early round may be what corners a later one.
Everything is deterministic given the seed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable, Mapping, Sequence

from .algebraic import (
    BINARY_PLANES_MAX_DIMENSION,
    affine_dimension,
    affine_space_rounds,
    binary_plane_rounds,
    binary_rgdd_rounds,
    round_robin_pairs,
)
from .designs import BASE_CLASSES
from .model import History, Round, Schedule, Table, Unit
from .quality import measure
from .sizes import MAX_PLAYERS, TableShape, table_sizes

# Extra cost of seating a pair that already met c times: 4**c grows fast enough that one third meeting
# costs more than several second ones, which keeps the most-times-met figure as low as it can be.
_MEET_COST = [0] + [(4**c - 1) // 3 for c in range(1, 12)]
_SEAT_WEIGHT = 2  # seat-position balance counts more than left-neighbour balance
_SEAT_COST = (0, 1, 6, 36, 216, 1296)
_LEFT_WEIGHT = 1
# A meeting's cost always outweighs seat positions: an improvement of 1 in meetings beats losing 2 happy seats.
_MEET_OVER_SEAT = 3
# Kicks in a row without a better round before giving up: few where repeats are sure, more where they may not be.
_STALE_KICKS, _STALE_KICKS_HOPELESS = 40, 10
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
    units: Sequence[Unit],
    sizes: Sequence[int],
    history: History,
    rng: random.Random,
    *,
    attempts: int = 1,
    kicks: int | None = None,
    start: Sequence[Sequence[Unit]] | None = None,
    counts: PositionCounts | None = None,
) -> list[list[Unit]]:
    """Split `units` into tables of `sizes` (which must add up), meeting as few earlier opponents as possible.

    A unit's place in its table's list is the position it claims (see `_Wants`), so the tables come back
    with everyone, where possible, on a position they have taken least. Each of `attempts` seeded
    constructions is improved by swaps, then, while it still has a repeat meeting or an unwanted position,
    kicked up to `kicks` times (a few random swaps, improve again, keep it if no worse): an iterated local
    search, which finds repeat-free rounds in tight small fields that plain restarts miss. With `start`
    (tables that already hold `units`), the first attempt improves those instead of a new construction.
    `counts` says how positions are counted (`position_counts`; by default a unit's own positions).
    """
    if sum(sizes) != len(units):
        raise ValueError(f"{len(units)} units do not fill tables of {list(sizes)}")
    if kicks is None:
        kicks = min(100, 2000 // max(1, len(units)))
    wants = _Wants(counts or position_counts(history))
    stale_limit = _STALE_KICKS_HOPELESS if _repeats_unavoidable(units, sizes, history) else _STALE_KICKS

    def cost(tables: list[list[Unit]]) -> tuple[int, int]:
        # fewer meetings first, whatever the seats
        return (
            sum(table_cost(t, history) for t in tables),
            sum(wants.unhappy(u, j, len(t)) for t in tables for j, u in enumerate(t)),
        )

    best: list[list[Unit]] | None = None
    best_cost = None
    for attempt in range(max(1, attempts)):
        if start is not None and attempt == 0:
            tables = [list(t) for t in start]
        else:
            tables = _construct(units, sizes, history, wants, rng)
        _improve(tables, history, wants, rng)
        current = cost(tables)
        stale = 0
        for _ in range(kicks):
            # A field where repeats surely cannot all be avoided stops soon once kicks stop helping.
            if current == (0, 0) or len(tables) < 2 or stale >= stale_limit:
                break
            trial = _kick(tables, history, wants, rng)
            _improve(trial, history, wants, rng)
            trial_cost = cost(trial)
            stale = 0 if trial_cost < current else stale + 1
            if trial_cost <= current:
                tables, current = trial, trial_cost
        if best_cost is None or current < best_cost:
            best, best_cost = tables, current
        if current == (0, 0):
            break
    assert best is not None
    return best


def _repeats_unavoidable(units: Sequence[Unit], sizes: Sequence[int], history: History) -> bool:
    """True when some unit has met all but fewer than a table's worth of the others (so it must meet one
    again). Only a quick sufficient test: other rounds can be impossible to play without repeats too."""
    if not sizes:
        return False
    need = min(sizes) - 1
    others = len(units) - 1
    playing = set(units)
    for u in units:
        met = history.meetings.get(u)
        if met and others - sum(1 for v in met if v in playing) < need:
            return True
    return False


def _kick(tables: list[list[Unit]], history: History, wants: _Wants, rng: random.Random) -> list[list[Unit]]:
    """A copy of the tables with two random swaps, each moving a unit that meets someone again if any does,
    else one on a position it did not want."""
    out = [list(t) for t in tables]
    meetings = history.meetings
    pool = [(ti, j) for ti, t in enumerate(out) for j, u in enumerate(t) if _cost(meetings.get(u, _EMPTY), t, u)]
    if not pool:
        pool = [(ti, j) for ti, t in enumerate(out) for j, u in enumerate(t) if wants.unhappy(u, j, len(t))]
    if not pool:
        pool = [(ti, j) for ti, t in enumerate(out) for j in range(len(t))]
    for _ in range(2):
        ti, j = pool[rng.randrange(len(pool))]
        tb = rng.randrange(len(out))
        if tb == ti:
            tb = (tb + 1) % len(out)
        jb = rng.randrange(len(out[tb]))
        out[ti][j], out[tb][jb] = out[tb][jb], out[ti][j]
    return out


PositionCounts = Callable[[Unit, int], Sequence[int]]
_ZEROS = (0,) * 6


def position_counts(
    history: History, *, partnership: bool = False, teams: Mapping[Unit, Sequence[Hashable]] | None = None
) -> PositionCounts:
    """How often a unit took each position 0..k-1 of a table of k units, as the balance should see it.

    A player's positions are their seats. A team in position j puts one partner at seat j and the other at
    j + k, whichever way round suits them better (see `seat_players`), so the count for j is the better of
    the two ways of the partners' own seat counts: balancing that balances each player's seats.
    """
    if not partnership:
        return lambda u, size: history.positions.get(u, _ZEROS)[:size]

    def paired(u: Unit, size: int) -> list[int]:
        a, b = team_members(u, teams)
        ca, cb = history.seats.get(a, _ZEROS), history.seats.get(b, _ZEROS)
        return [min(ca[j] + cb[j + size], cb[j] + ca[j + size]) for j in range(size)]

    return paired


class _Wants:
    """For each unit and table size, the positions it has taken least (a bitmask): taking one of those every
    round keeps its counts within one of each other."""

    def __init__(self, counts: PositionCounts):
        self._counts = counts
        self._cache: dict[tuple[Unit, int], int] = {}

    def mask(self, u: Unit, size: int) -> int:
        key = (u, size)
        m = self._cache.get(key)
        if m is None:
            counts = self._counts(u, size)
            low = min(counts)
            m = sum(1 << j for j in range(size) if counts[j] == low)
            self._cache[key] = m
        return m

    def unhappy(self, u: Unit, position: int, size: int) -> int:
        return 0 if self.mask(u, size) >> position & 1 else 1


def _random_bit(mask: int, rng: random.Random) -> int:
    bits = [j for j in range(mask.bit_length()) if mask >> j & 1]
    return bits[rng.randrange(len(bits))] if len(bits) > 1 else bits[0]


def _construct(
    units: Sequence[Unit], sizes: Sequence[int], history: History, wants: _Wants, rng: random.Random
) -> list[list]:
    """Each unit in a seeded random order goes to the first open table, scanned from a random start, where it
    meets no one again and a position it wants is free; else to the least bad table."""
    order = list(units)
    rng.shuffle(order)
    tables: list[list] = [[None] * s for s in sizes]
    free = [(1 << s) - 1 for s in sizes]
    open_tables = [t for t, s in enumerate(sizes) if s > 0]
    meetings = history.meetings
    for u in order:
        mine = meetings.get(u, _EMPTY)
        n_open = len(open_tables)
        start = rng.randrange(n_open)
        pick, pick_key = start, None
        for i in range(n_open):
            pos = start + i
            if pos >= n_open:
                pos -= n_open
            t = open_tables[pos]
            c = _cost(mine, tables[t]) if mine else 0
            seat_miss = 0 if wants.mask(u, sizes[t]) & free[t] else 1
            if c == 0 and not seat_miss:
                pick = pos
                break
            key = (c, seat_miss)
            if pick_key is None or key < pick_key:
                pick, pick_key = pos, key
        t = open_tables[pick]
        wanted = wants.mask(u, sizes[t]) & free[t]
        j = _random_bit(wanted or free[t], rng)
        tables[t][j] = u
        free[t] &= ~(1 << j)
        if not free[t]:
            open_tables[pick] = open_tables[-1]
            open_tables.pop()
    return tables


def _improve(
    tables: list[list[Unit]], history: History, wants: _Wants, rng: random.Random, *, sweeps: int = 30
) -> None:
    """Swap units (between tables, or between positions at one table) while that lowers the cost.

    The cost is meetings (times `_MEET_OVER_SEAT`) plus units on a position they did not want; a swap leaves
    each unit on the position the other held. Only a unit that meets someone again or sits on an unwanted
    position can take part in an improving swap, so only those are tried, each against every unit at every
    table. When no swap improves, a budget of cost-neutral swaps helps leave a plateau.
    """
    meetings = history.meetings
    n_tables = len(tables)
    if not n_tables:
        return
    where: dict[Unit, int] = {}
    here: dict[Unit, int] = {}  # each unit's meeting cost at its table, kept up to date after every swap
    miss: dict[Unit, int] = {}  # 1 when the unit's position is not one it wanted
    masks: dict[Unit, dict[int, int]] = {}
    sizes = sorted({len(t) for t in tables})

    def refresh(ti: int) -> None:
        t = tables[ti]
        for j, u in enumerate(t):
            where[u] = ti
            here[u] = _cost(meetings.get(u, _EMPTY), t, u)
            miss[u] = 0 if masks[u][len(t)] >> j & 1 else 1

    for t in tables:
        for u in t:
            masks[u] = {size: wants.mask(u, size) for size in sizes}
    for ti in range(n_tables):
        refresh(ti)
    sideways = len(where) // 2
    for _ in range(sweeps):
        bad = [u for t in tables for u in t if here[u] or miss[u]]
        if not bad:
            return
        rng.shuffle(bad)
        changed = False
        for u in bad:
            here_u, miss_u = here[u], miss[u]
            if not here_u and not miss_u:
                continue
            a = where[u]
            ta = tables[a]
            size_a = len(ta)
            pu = ta.index(u)
            mu = meetings.get(u, _EMPTY)
            mask_u = masks[u]
            start = rng.randrange(n_tables)
            found = None
            neutral = None
            for k in range(n_tables):
                b = start + k
                if b >= n_tables:
                    b -= n_tables
                tb = tables[b]
                size_b = len(tb)
                u_fits = mask_u[size_b]
                for pw, w in enumerate(tb):
                    if w == u:
                        continue
                    if b == a:  # trading positions at one table changes no meetings
                        meet = 0
                    else:
                        meet = _cost(mu, tb, w) + _cost(meetings.get(w, _EMPTY), ta, u) - here_u - here[w]
                    seat = ((0 if u_fits >> pw & 1 else 1) + (0 if masks[w][size_a] >> pu & 1 else 1)
                            - miss_u - miss[w])
                    delta = meet * _MEET_OVER_SEAT + seat
                    if delta < 0:
                        found = (b, pw, w)
                        break
                    if delta == 0 and neutral is None and meet <= 0:
                        neutral = (b, pw, w)
                if found:
                    break
            if found is None and neutral is not None and sideways > 0:
                sideways -= 1
                found = neutral
            if found is not None:
                b, pw, w = found
                tables[a][pu] = w
                tables[b][pw] = u
                refresh(a)
                if b != a:
                    refresh(b)
                changed = True
        if not changed:
            return


def order_seats(
    units: Sequence[Unit], history: History, rng: random.Random, counts: PositionCounts | None = None
) -> tuple[Unit, ...]:
    """The arrangement of one table's units that best evens out positions and left neighbours."""
    k = len(units)
    start = list(units)
    rng.shuffle(start)  # ties between equally good arrangements go to chance, not to input order
    counts = counts or position_counts(history)
    pos = [counts(u, k) for u in start]
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

    With partnerships (R-TEAM-1) the team in unit position j takes seats j and j + k; the partners go the
    way round that gives each the seat they took less often, alternating with the team's tables played when
    both ways are as good.
    """
    if shape.players_per_unit == 1:
        return tuple(units)
    k = len(units)
    seats: list[Hashable] = [None] * (2 * k)
    for j, u in enumerate(units):
        a, b = team_members(u, teams)
        ca, cb = history.seats.get(a, _ZEROS), history.seats.get(b, _ZEROS)
        straight, crossed = ca[j] + cb[j + k], cb[j] + ca[j + k]
        if crossed < straight or (crossed == straight and history.played[u] % 2):
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
    counts = position_counts(history, partnership=shape.players_per_unit == 2, teams=teams)
    for i, members in enumerate(tables, start=1):
        ordered = order_seats(members, history, rng, counts)
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
    max_players: int = MAX_PLAYERS,
) -> Round:
    """Seat one round of the fixed format, given what earlier rounds did (`history`, not modified).

    `units` are player ids, or team ids with `partnership=True` (then `teams[team]` gives the two players;
    without `teams` a team id must itself be a pair of player ids). `table_size` counts players; no table seats
    more than `max_players` (the game's most, see TableShape.for_table_size).
    """
    shape = TableShape.for_table_size(table_size, partnership=partnership, max_players=max_players)
    history = history if history is not None else History()
    rng = random.Random(f"{seed}/round-{number}")
    _check_units(units)
    sizes, n_byes = table_sizes(len(units), shape)
    byes = choose_byes(units, n_byes, history, rng)
    bye_set = set(byes)
    playing = [u for u in units if u not in bye_set]
    if attempts is None:
        attempts = _default_attempts(len(units))
    counts = position_counts(history, partnership=partnership, teams=teams)
    tables = compose_tables(playing, sizes, history, rng, attempts=attempts, counts=counts)
    return build_round(number, tables, byes, shape=shape, history=history, rng=rng, seed=str(seed), teams=teams)


def _default_attempts(n_units: int) -> int:
    # Small fields are where a bad first try shows; they are also cheap to try again.
    return 1 if n_units > 200 else 2


def _check_units(units: Sequence[Unit]) -> None:
    if len(set(units)) != len(units):
        raise ValueError("every unit must be listed once")


def _exact_rounds(n_units: int, shape: TableShape, rounds: int) -> list[list[list[int]]]:
    """Rounds from an exact construction when one fits the field (possibly fewer than asked), else []."""
    return exact_construction(n_units, shape, rounds)[1]


def exact_construction(n_units: int, shape: TableShape, rounds: int) -> tuple[str, list[list[list[int]]]]:
    """(name, rounds) of the exact construction giving the most of `rounds` repeat-free rounds, ("", []) if none.

    A field one or two short of a design takes the design with that many points left out, points that never
    meet each other in it (so no table loses two); the rounds are still repeat-free, their tables one smaller
    where a point was left out, which is just what `table_sizes` asks of such a field.
    """
    best: tuple[str, list[list[list[int]]]] = ("", [])
    if rounds <= 0:
        return best
    q = shape.target
    sizes, byes = table_sizes(n_units, shape)
    if byes:
        return best
    for spare in range(3):
        if spare and n_units + spare <= q:
            break
        for name, design in _full_designs(n_units + spare, q):
            if spare:
                design = _leave_out(design, spare, sorted(sizes))
                name = f"{name} less {spare}"
            if min(len(design), rounds) > len(best[1]):
                best = (name, design[:rounds])
    return best


def _full_designs(n_points: int, q: int) -> list[tuple[str, list[list[list[int]]]]]:
    """The exact constructions seating n_points at full tables of q, named."""
    out: list[tuple[str, list[list[list[int]]]]] = []
    if n_points < 2 * q:  # a single table (or none) needs no construction
        return out
    if q == 2 and n_points % 2 == 0:
        out.append(("circle method", round_robin_pairs(n_points)))
    d = affine_dimension(n_points, q)
    if d is not None:
        out.append((f"AG({d},{q})", affine_space_rounds(q, d)))
    dimension = n_points.bit_length() - 1
    if q == 4 and n_points == 1 << dimension and 4 <= dimension <= BINARY_PLANES_MAX_DIMENSION:
        out.append((f"planes of GF(2)^{dimension}", binary_plane_rounds(dimension)))
    if q == 4 and n_points == 32:  # after the planes: it is chosen only where it gives more rounds (10)
        out.append(("RGDD(2^16) on GF(2)^5", binary_rgdd_rounds()))
    design = BASE_CLASSES.get((n_points, q))
    if design is not None:
        out.append((design.name, design.develop()))
    return out


def _leave_out(design: list[list[list[int]]], spare: int, sizes: list[int]) -> list[list[list[int]]]:
    """The design without `spare` points that never share a table in it, renumbered 0..n-1; [] if none such,
    or if the tables left are not of `sizes` (sorted)."""
    n_points = sum(len(t) for t in design[0])
    met: set[tuple[int, int]] = set()
    for rnd in design:
        for table in rnd:
            met.update(itertools.permutations(table, 2))
    for dropped in itertools.combinations(range(n_points - 1, -1, -1), spare):
        if any((a, b) in met for a, b in itertools.combinations(dropped, 2)):
            continue
        gone = set(dropped)
        number = {p: i for i, p in enumerate(p for p in range(n_points) if p not in gone)}
        out = [[[number[p] for p in table if p not in gone] for table in rnd] for rnd in design]
        if all(sorted(len(t) for t in rnd) == sizes for rnd in out):
            return out
        return []
    return []


def fixed_schedule(
    units: Sequence[Unit],
    *,
    rounds: int,
    table_size: int,
    seed: object = 0,
    partnership: bool = False,
    teams: Mapping[Unit, Sequence[Hashable]] | None = None,
    max_players: int = MAX_PLAYERS,
) -> Schedule:
    """Seat every round up front: everyone plays every round (byes only when nothing fits), opponents and
    seats spread as evenly as the field allows. No table seats more than `max_players`.

    Small fields get several complete tries and keep the best (fewest repeat meetings first), since there a
    choice in round 1 can decide whether round 5 can avoid repeats.
    """
    if rounds < 0:
        raise ValueError("rounds must be >= 0")
    shape = TableShape.for_table_size(table_size, partnership=partnership, max_players=max_players)
    _check_units(units)
    if partnership:
        for u in units:
            team_members(u, teams)
    tries = 1 if len(units) > 64 else 2
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
                             partnership=partnership, teams=teams, max_players=shape.max_units * shape.players_per_unit)
            rnd = _reseed(rnd, seed)
        history.record(rnd)
        schedule.rounds.append(rnd)
    _polish(schedule, shape, random.Random(f"{rng_seed}/polish"), seed, teams)
    _balance_seats(schedule, shape, random.Random(f"{rng_seed}/seats"))
    return schedule


def _balance_seats(schedule: Schedule, shape: TableShape, rng: random.Random, *, passes: int = 8) -> None:
    """Order every table's seats again against the seat counts of all the other rounds, while that helps.

    Rounds seated one after another order each table against the rounds before it only, which leaves some
    players on one seat a third time when an exact construction fixed the tables (they are not chosen for the
    seats their players want). Here each table in turn takes the arrangement where fewest of its players would
    have a seat spread (as `measure` counts it) past 1, then whose players sat least often on their seats in
    the rest of the schedule (the marginal of a square cost, so spreading is convex), then fewest repeated left
    neighbours. Tables, seeds and meetings are untouched; the result is kept only if the spread got better.
    Partnership tables keep their own ordering (teams fix two seats).
    """
    if shape.players_per_unit != 1 or not schedule.rounds:
        return
    before = measure(schedule)
    if before.max_seat_spread <= 1:
        return
    counts: dict[Unit, list[int]] = {}
    left: dict[tuple[Unit, Unit], int] = {}

    def tally(seats: Sequence[Unit], sign: int) -> None:
        k = len(seats)
        for j, p in enumerate(seats):
            counts.setdefault(p, [0] * MAX_PLAYERS)[j] += sign
            if k > 2:
                key = (p, seats[(j + 1) % k])
                left[key] = left.get(key, 0) + sign

    for rnd in schedule.rounds:
        for table in rnd.tables:
            tally(table.seats, 1)

    largest: dict[Unit, int] = {}
    for rnd in schedule.rounds:
        for table in rnd.tables:
            for p in table.seats:
                largest[p] = max(largest.get(p, 0), table.size)

    def cost(seats: Sequence[Unit]) -> tuple[int, int, int]:
        k = len(seats)
        over = seat = 0
        for j, p in enumerate(seats):
            mine = counts[p]
            seat += mine[j]
            mine[j] += 1
            spread = max(mine[:largest[p]]) - min(mine[:largest[p]])
            mine[j] -= 1
            over += max(0, spread - 1)
        lefts = sum(left.get((p, seats[(j + 1) % k]), 0) for j, p in enumerate(seats)) if k > 2 else 0
        return over, seat, lefts

    rounds = [[list(t.seats) for t in rnd.tables] for rnd in schedule.rounds]
    for _ in range(passes):
        changed = False
        for tables in rounds:
            for ti, seats in enumerate(tables):
                tally(seats, -1)
                best, best_cost = seats, cost(seats)
                options = list(itertools.permutations(seats))
                rng.shuffle(options)
                for option in options:
                    c = cost(option)
                    if c < best_cost:
                        best, best_cost = list(option), c
                if best is not seats:
                    tables[ti] = best
                    changed = True
                tally(tables[ti], 1)
        if not changed:
            break
    balanced = [
        Round(number=rnd.number, byes=rnd.byes, tables=tuple(
            Table(number=t.number, units=tuple(seats), seats=tuple(seats), deal_id=t.deal_id, seed=t.seed,
                  group=t.group, rotation=t.rotation)
            for t, seats in zip(rnd.tables, tables)))
        for rnd, tables in zip(schedule.rounds, rounds)
    ]
    trial = Schedule(format=schedule.format, table_size=schedule.table_size, partnership=schedule.partnership,
                     units=schedule.units, rounds=balanced, seed=schedule.seed)
    after = measure(trial)
    if (after.max_seat_spread, after.mean_seat_spread) < (before.max_seat_spread, before.mean_seat_spread):
        schedule.rounds[:] = balanced


def _polish(
    schedule: Schedule,
    shape: TableShape,
    rng: random.Random,
    seed: str,
    teams: Mapping[Unit, Sequence[Hashable]] | None,
    *,
    passes: int = 3,
) -> None:
    """Search each round again against all the other rounds, earlier and later, while repeats remain.

    Round-by-round seating cannot see that an early choice corners a later round; with every round seated,
    a round's meetings can be traded against the rest of the schedule. A round is replaced only when that
    lowers its meeting cost against the others (its byes stay), so the schedule never gets worse.
    """
    for _ in range(passes):
        if measure(schedule).repeated_pairs == 0:
            return
        improved = False
        order = list(range(len(schedule.rounds)))
        rng.shuffle(order)
        for i in order:
            rnd = schedule.rounds[i]
            others = History.from_rounds(r for j, r in enumerate(schedule.rounds) if j != i)
            start = [list(t.units) for t in rnd.tables]
            before = sum(table_cost(t, others) for t in start)
            if before == 0:
                continue
            playing = [u for t in start for u in t]
            counts = position_counts(others, partnership=shape.players_per_unit == 2, teams=teams)
            tables = compose_tables(playing, [len(t) for t in start], others, rng, start=start, counts=counts)
            if sum(table_cost(t, others) for t in tables) < before:
                schedule.rounds[i] = build_round(rnd.number, tables, rnd.byes, shape=shape, history=others, rng=rng,
                                                 seed=seed, teams=teams)
                improved = True
        if not improved:
            return


def _reseed(rnd: Round, seed: str) -> Round:
    """Table seeds come from the schedule's seed, whichever internal try produced the round."""
    tables = tuple(
        Table(number=t.number, units=t.units, seats=t.seats, deal_id=t.deal_id,
              seed=f"{seed}/round-{rnd.number}/table-{t.number}", group=t.group, rotation=t.rotation)
        for t in rnd.tables
    )
    return Round(number=rnd.number, tables=tables, byes=rnd.byes)
