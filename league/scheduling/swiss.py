"""Swiss-style seating: each round seats units of similar standing together and avoids repeat meetings.

Input is the current standings order (best first) and the history of earlier rounds. Tables are filled from
the top: the best unseated unit opens a table and the next places go to the best-ranked units within a
short window below who have not met anyone already at it. Repeats that remain are removed by swaps with
the nearest tables that can fix them (one table away first, then further), so a fix moves no unit further
from its rank than it must.
A needed bye goes to the lowest-ranked unit among those with the fewest byes, as in Swiss chess.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence

from .model import History, Round, Unit
from .seating import _EMPTY, _check_units, _cost, build_round, team_members
from .sizes import MAX_PLAYERS, TableShape, table_sizes

# By default a repeat meeting outweighs any displacement in rank: rematches first, then ranks close, as in
# Swiss chess where a rematch is never allowed.
_REPEAT_WEIGHT = 10**6


def swiss_round(
    standings: Sequence[Unit],
    *,
    number: int,
    table_size: int,
    history: History | None = None,
    seed: object = 0,
    partnership: bool = False,
    teams: Mapping[Unit, Sequence[Hashable]] | None = None,
    window: int | None = None,
    max_shift: int | None = None,
    max_players: int = MAX_PLAYERS,
) -> Round:
    """Seat round `number` from `standings` (every active unit once, best first).

    `window`: how far below a table's opener to look for a unit it has not met (default three tables'
    worth). `max_shift`: None (the default) avoids every repeat meeting that can be avoided, however far a
    unit must move from its rank's table; a number accepts a repeat rather than moving a unit more than about
    that many tables away. `history` is not modified. No table seats more than `max_players` (the game's most).
    """
    shape = TableShape.for_table_size(table_size, partnership=partnership, max_players=max_players)
    history = history if history is not None else History()
    _check_units(standings)
    if partnership:
        for u in standings:
            team_members(u, teams)
    rng = random.Random(f"{seed}/swiss-round-{number}")
    sizes, n_byes = table_sizes(len(standings), shape)
    rank = {u: i for i, u in enumerate(standings)}
    byes = sorted(standings, key=lambda u: (history.byes[u], -rank[u]))[:n_byes]
    bye_set = set(byes)
    pool = [u for u in standings if u not in bye_set]
    if window is None:
        window = 3 * shape.target
    tables = _fill_from_top(list(pool), sizes, history, window)
    ideal = {}
    for table_index, members in enumerate(_chunks(pool, sizes)):
        for u in members:
            ideal[u] = table_index
    repeat_weight = _REPEAT_WEIGHT if max_shift is None else (max_shift + 1) ** 2 - 1
    _settle(tables, history, ideal, repeat_weight)
    for t in tables:
        t.sort(key=rank.__getitem__)
    return build_round(number, tables, byes, shape=shape, history=history, rng=rng, seed=str(seed), teams=teams)


def _chunks(pool: Sequence[Unit], sizes: Sequence[int]) -> list[list[Unit]]:
    out, i = [], 0
    for size in sizes:
        out.append(list(pool[i:i + size]))
        i += size
    return out


def _fill_from_top(pool: list[Unit], sizes: Sequence[int], history: History, window: int) -> list[list[Unit]]:
    meetings = history.meetings
    tables = []
    for size in sizes:
        table = [pool.pop(0)]
        while len(table) < size:
            pick, pick_cost = 0, None
            for i, cand in enumerate(pool[:window]):
                c = _cost(meetings.get(cand, _EMPTY), table)
                if c == 0:
                    pick = i
                    break
                if pick_cost is None or c < pick_cost:
                    pick, pick_cost = i, c
            table.append(pool.pop(pick))
        tables.append(table)
    return tables


def _settle(tables: list[list[Unit]], history: History, ideal: Mapping[Unit, int], repeat_weight: int) -> None:
    """Swap units between tables while that lowers meeting cost * `repeat_weight` + the squared distance of
    each unit from the table its rank belongs at (`ideal`).

    A unit who meets someone again looks at every table, nearest first, so a repeat is removed by the nearest
    swap that can remove it; a unit away from its table looks only as far as that table, to move back.
    """
    meetings = history.meetings
    n = len(tables)
    for _ in range(4 * n + 4):
        changed = False
        for a, ta in enumerate(tables):
            for u in list(ta):
                mu = meetings.get(u, _EMPTY)
                here_u = _cost(mu, ta, u)
                reach = n - 1 if here_u else abs(a - ideal[u])
                found = None
                for dist in range(1, reach + 1):
                    for b in (a + dist, a - dist):
                        if not 0 <= b < n:
                            continue
                        tb = tables[b]
                        for j, w in enumerate(tb):
                            mw = meetings.get(w, _EMPTY)
                            delta = (_cost(mu, tb, w) + _cost(mw, ta, u)) - (here_u + _cost(mw, tb, w))
                            delta *= repeat_weight
                            delta += (b - ideal[u]) ** 2 + (a - ideal[w]) ** 2
                            delta -= (a - ideal[u]) ** 2 + (b - ideal[w]) ** 2
                            if delta < 0:
                                found = (b, j, w)
                                break
                        if found:
                            break
                    if found:
                        break
                if found:
                    b, j, w = found
                    ta[ta.index(u)] = w
                    tables[b][j] = u
                    changed = True
        if not changed:
            return
