"""Standings from match results: pure functions, no Django (the selectors load results and call these).

Competitors are players, or teams in partnership play (R-TEAM-5: score and tie-break are per team). They are
ranked by a list of *metrics* taken in a configurable precedence, as Tabbycat ranks teams: sorted on the
first metric, ties separated by the next, and so on; those still tied on every metric share the place, with
competition ranking (1, 2, 2, 4).

Every game gives each competitor a *score* and a *tie-break* (engine.games): Diamonds' score (2 x vault +
showroom, R-SCORE-1) and vault; Diamoniak's castle size and diamond cards; the ring race's dollars (G-SCORE-1)
and set rings. Nothing here depends on which game it was: the tie-break is one number, higher better.

Decisions:
- Placement at a table, unless given: higher score first, then the higher tie-break; equal score and tie-break
  share the place. For Diamonds that is R-WIN-1 (score, then vault). An entry may carry its own `placement`, and
  when every entry of a match has one it is used as given: the league stores each game's own places (Diamoniak's
  first complete castle is placed 1st at once, K-WIN-1), and a service that records a forfeit puts that player
  last whatever the score. `forfeit_places` is how the league's services place a table with forfeits: those who
  played on by score and tie-break, then every forfeit last.
- Match points come from a points table per number of competitors at the table (default: competitors minus
  the place, so 3-2-1-0 for four players and 1-0 for two teams). Competitors sharing a place share the points
  of the places they cover, averaged (two tied first of four get (3 + 2) / 2 = 2.5 each), so a table hands out
  the same total whatever the ties; `ties="higher"` gives them all the better place's points instead. Values
  are exact `Fraction`s, so thirds compare equal where they should.
- Default precedence: match points, total game score, total tie-break (Diamonds: vault), wins (first places,
  shared ones count), head-to-head, opponents' match points. Head-to-head looks only at the matches between the
  competitors still tied when it is reached: +1 for each of them one finished above, -1 for each one finished below.
- The tie-break metric is named "tiebreak"; "vault", its name from when only Diamonds was played, stays an alias
  of it, so tie-break orders stored then (Tournament.tiebreaks) still read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from league.scheduling.duplicate import DealTableResult, HandResult, duplicate_scores

Competitor = Hashable
Number = int | Fraction


@dataclass(frozen=True)
class Entry:
    """One competitor's result in one match, as the game gives it: `score` and `tiebreak` (Diamonds: score and
    vault). `showroom` is Diamonds' only (R-SCORE-1: score = 2 x vault + showroom; a showroom given is checked
    against it). `seat` is the seat, or a team's seats (needed for duplicate play only). `placement` is optional:
    see `table_places`. The winners of a match are the entries placed 1 (a tie for the win is shared)."""

    competitor: Competitor
    score: int
    tiebreak: int
    showroom: int | None = None
    seat: int | tuple[int, ...] | None = None
    placement: int | None = None


@dataclass(frozen=True)
class MatchResult:
    """A finished match. `deal_id` and `rotation` are set in duplicate play (see league.scheduling.duplicate)."""

    entries: Sequence[Entry]
    match_id: Hashable = None
    round: int | None = None
    deal_id: str | None = None
    rotation: int = 0
    table_size: int | None = None  # players at the table; by default one per entry (two per team entry)


Metric = Callable[["Tally", Sequence[Competitor]], Mapping[Competitor, Number]]

DEFAULT_PRECEDENCE = ("points", "score", "tiebreak", "wins", "head_to_head", "opponent_points")


@dataclass(frozen=True)
class StandingsConfig:
    """How to rank.

    `points[n][place]` overrides the default points for tables of n competitors (players, or teams: a
    partnership table of 4 has 2); `ties` is "average" or "higher"; `precedence` names metrics of `METRICS`
    or gives metric functions, best first; `extra` metrics are shown, not used; a bye earns `bye_points`."""

    points: Mapping[int, Mapping[int, Number]] = field(default_factory=dict)
    ties: str = "average"
    precedence: Sequence[str | Metric] = DEFAULT_PRECEDENCE
    extra: Sequence[str | Metric] = ()
    bye_points: Number = 0

    def __post_init__(self) -> None:
        if self.ties not in ("average", "higher"):
            raise ValueError(f"ties must be 'average' or 'higher', not {self.ties!r}")
        # Aliases become the metric's name here, so a standing's metrics are keyed by one name whatever was stored.
        object.__setattr__(self, "precedence", tuple(canonical_metrics(self.precedence)))
        object.__setattr__(self, "extra", tuple(canonical_metrics(self.extra)))


@dataclass(frozen=True)
class Placed:
    """An entry with its place at the table and the match points it earned."""

    entry: Entry
    place: int
    points: Fraction


@dataclass
class Tally:
    """Everything the metrics read: per competitor, their placed entries, match by match."""

    matches: list[tuple[MatchResult, list[Placed]]]
    by_competitor: dict[Competitor, list[tuple[int, Placed]]]  # (match index, placed entry)
    byes: Mapping[Competitor, int]
    config: StandingsConfig

    _points: dict[Competitor, Fraction] | None = field(default=None, init=False, repr=False, compare=False)

    def competitors(self) -> list[Competitor]:
        return list(self.by_competitor)

    def points(self) -> dict[Competitor, Fraction]:
        """Every competitor's match points, byes included: computed once, as most metrics and every tie level read
        them."""
        if self._points is None:
            bye = Fraction(self.config.bye_points)
            self._points = {c: sum((pl.points for _, pl in placed), Fraction(0)) + bye * self.byes.get(c, 0)
                            for c, placed in self.by_competitor.items()}
        return self._points


@dataclass(frozen=True)
class Standing:
    """One line of the standings: `metrics` holds every metric of the precedence and the extras (a
    head-to-head value only where a tie reached it, else None)."""

    rank: int
    competitor: Competitor
    shared: bool  # another competitor holds the same rank
    games: int
    metrics: dict[str, Number | None]


# ---- placement and points ------------------------------------------------------------------------------


def table_places(entries: Sequence[Entry]) -> list[int]:
    """Places for one table, competition-style (1, 1, 3): score, then tie-break (R-WIN-1 for Diamonds); the
    entries' own `placement`, when every entry has one, is used as given."""
    if entries and all(e.placement is not None for e in entries):
        return [int(e.placement) for e in entries if e.placement is not None]
    if any(e.placement is not None for e in entries):
        raise ValueError("give a placement for every entry of a match or for none")
    keys = [(e.score, e.tiebreak) for e in entries]
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def forfeit_places(keys: Sequence[tuple[int, int]], forfeited: Sequence[bool]) -> list[int]:
    """Places at a table where some competitors forfeited (a missed turn deadline that forfeits).

    `keys` are the (score, tie-break) of each competitor, `forfeited` whether it forfeited. Those who did not are
    placed among themselves by score then tie-break (R-WIN-1 for Diamonds), competition-style; every forfeit comes
    after them, whatever its score, sharing the place after the last of them (so a single forfeit earns exactly the
    table's last-place match points, and several share the last places' points as any tie does). With no forfeit
    this is the plain order."""
    playing = [k for k, f in zip(keys, forfeited) if not f]
    return [len(playing) + 1 if f else 1 + sum(1 for other in playing if other > k) for k, f in zip(keys, forfeited)]


def default_points(competitors: int, place: int) -> int:
    """Competitors at the table minus the place: 3-2-1-0 for four players, 1-0 for two teams."""
    return competitors - place


def match_points(places: Sequence[int], config: StandingsConfig | None = None) -> list[Fraction]:
    """Points for each place at one table of `len(places)` competitors, ties shared as `config.ties` says."""
    config = config or StandingsConfig()
    n = len(places)
    table = config.points.get(n)

    def value(place: int) -> Fraction:
        if table is None:
            return Fraction(default_points(n, place))
        if place not in table:
            raise ValueError(f"the points table for {n} competitors has no place {place}")
        return Fraction(table[place])

    out = []
    for p in places:
        tied = sum(1 for q in places if q == p)
        if tied == 1 or config.ties == "higher":
            out.append(value(p))
        else:
            out.append(sum((value(q) for q in range(p, p + tied)), Fraction(0)) / tied)
    return out


def _merge_entries(entries: Sequence[Entry], team_of: Mapping[Hashable, Competitor] | None) -> list[Entry]:
    """One entry per competitor: partners' per-player entries (same team score) become one team entry."""
    merged: dict[Competitor, Entry] = {}
    for e in entries:
        comp = team_of.get(e.competitor, e.competitor) if team_of else e.competitor
        seats = () if e.seat is None else (e.seat if isinstance(e.seat, tuple) else (e.seat,))
        if comp in merged:
            prev = merged[comp]
            if (prev.score, prev.tiebreak, prev.placement) != (e.score, e.tiebreak, e.placement):
                raise ValueError(f"partners of {comp!r} disagree on the team's result in one match")
            prev_seats = prev.seat if isinstance(prev.seat, tuple) else ()
            merged[comp] = Entry(comp, prev.score, prev.tiebreak, prev.showroom, tuple(sorted(prev_seats + seats)),
                                 prev.placement)
        else:
            merged[comp] = Entry(comp, e.score, e.tiebreak, e.showroom, seats or None, e.placement)
    return list(merged.values())


def tally(
    results: Iterable[MatchResult],
    *,
    config: StandingsConfig | None = None,
    team_of: Mapping[Hashable, Competitor] | None = None,
    competitors: Iterable[Competitor] = (),
    byes: Mapping[Competitor, int] | None = None,
) -> Tally:
    """Place every match and give out match points."""
    config = config or StandingsConfig()
    matches: list[tuple[MatchResult, list[Placed]]] = []
    by_comp: dict[Competitor, list[tuple[int, Placed]]] = {c: [] for c in competitors}
    for c in byes or {}:
        by_comp.setdefault(c, [])
    for result in results:
        for e in result.entries:
            # Only Diamonds entries carry a showroom; their tie-break is the vault.
            if e.showroom is not None and e.score != 2 * e.tiebreak + e.showroom:
                raise ValueError(f"R-SCORE-1: {e.competitor!r} in match {result.match_id!r} has score {e.score}, "
                                 f"not 2 x {e.tiebreak} + {e.showroom}")
        entries = _merge_entries(result.entries, team_of)
        if len(entries) < 2:
            raise ValueError(f"match {result.match_id!r} needs at least two competitors")
        places = table_places(entries)
        pts = match_points(places, config)
        placed = [Placed(e, p, q) for e, p, q in zip(entries, places, pts)]
        index = len(matches)
        matches.append((result, placed))
        for pl in placed:
            by_comp.setdefault(pl.entry.competitor, []).append((index, pl))
    return Tally(matches=matches, by_competitor=by_comp, byes=dict(byes or {}), config=config)


# ---- metrics: each maps competitors to a value, higher is better -----------------------------------------


def metric_points(t: Tally, group: Sequence[Competitor]) -> dict[Competitor, Number]:
    points = t.points()
    return {c: points[c] for c in group}


def metric_score(t: Tally, group: Sequence[Competitor]) -> dict[Competitor, Number]:
    return {c: sum(pl.entry.score for _, pl in t.by_competitor[c]) for c in group}


def metric_tiebreak(t: Tally, group: Sequence[Competitor]) -> dict[Competitor, Number]:
    """The game's tie-break over the whole event: its total (Diamonds: points in vault, R-WIN-1; Diamoniak: diamond
    cards; the ring race: set rings)."""
    return {c: sum(pl.entry.tiebreak for _, pl in t.by_competitor[c]) for c in group}


def metric_wins(t: Tally, group: Sequence[Competitor]) -> dict[Competitor, Number]:
    """First places, shared ones included (R-WIN-1: a tie for the win is shared)."""
    return {c: sum(1 for _, pl in t.by_competitor[c] if pl.place == 1) for c in group}


def metric_average_points(t: Tally, group: Sequence[Competitor]) -> dict[Competitor, Number]:
    points = metric_points(t, group)
    return {c: Fraction(points[c]) / max(1, len(t.by_competitor[c]) + t.byes.get(c, 0)) for c in group}


def metric_opponent_points(t: Tally, group: Sequence[Competitor]) -> dict[Competitor, Number]:
    """Sum of the match points of every opponent, once per match played against them (a Buchholz)."""
    everyone = t.points()
    out: dict[Competitor, Number] = {}
    for c in group:
        met = Counter(other.entry.competitor for index, _ in t.by_competitor[c] for other in t.matches[index][1]
                      if other.entry.competitor != c)
        out[c] = sum((everyone[o] * n for o, n in met.items()), Fraction(0))
    return out


def metric_average_opponent_points(t: Tally, group: Sequence[Competitor]) -> dict[Competitor, Number]:
    totals = metric_opponent_points(t, group)
    out: dict[Competitor, Number] = {}
    for c in group:
        met = sum(len(t.matches[i][1]) - 1 for i, _ in t.by_competitor[c])
        out[c] = Fraction(totals[c]) / met if met else Fraction(0)
    return out


def metric_head_to_head(t: Tally, group: Sequence[Competitor]) -> dict[Competitor, Number]:
    """Among `group` only: +1 per member finished above, -1 per member finished below, in shared matches."""
    members = set(group)
    out: dict[Competitor, Number] = {c: 0 for c in group}
    if len(members) < 2:
        return out
    seen: set[int] = set()
    for c in group:
        for index, _ in t.by_competitor[c]:
            if index in seen:
                continue
            seen.add(index)
            inside = [pl for pl in t.matches[index][1] if pl.entry.competitor in members]
            for a in inside:
                for b in inside:
                    if a.place < b.place:
                        out[a.entry.competitor] += 1
                        out[b.entry.competitor] -= 1
    return out


def metric_duplicate(t: Tally, group: Sequence[Competitor]) -> dict[Competitor, Number]:
    """Total duplicate score: against those who held the same cards at the other tables of each deal group."""
    by_deal: dict[str, list[DealTableResult]] = {}
    for result, placed in t.matches:
        if result.deal_id is None:
            continue
        size = result.table_size or sum(len(p.entry.seat) if isinstance(p.entry.seat, tuple) else 1 for p in placed)
        hands = []
        for p in placed:
            seat = p.entry.seat
            if seat is None:
                raise ValueError(f"duplicate match {result.match_id!r} needs every entry's seat")
            hands.append(HandResult(p.entry.competitor, seat if isinstance(seat, tuple) else (seat,), p.entry.score))
        by_deal.setdefault(result.deal_id, []).append(DealTableResult(result.rotation, size, hands))
    totals: dict[Competitor, Fraction] = {}
    for tables in by_deal.values():
        for c, v in duplicate_scores(tables).items():
            totals[c] = totals.get(c, Fraction(0)) + v
    return {c: totals.get(c, Fraction(0)) for c in group}


def metric_games(t: Tally, group: Sequence[Competitor]) -> dict[Competitor, Number]:
    return {c: len(t.by_competitor[c]) for c in group}


METRICS: dict[str, Metric] = {
    "points": metric_points,
    "score": metric_score,
    "tiebreak": metric_tiebreak,
    "wins": metric_wins,
    "average_points": metric_average_points,
    "opponent_points": metric_opponent_points,
    "average_opponent_points": metric_average_opponent_points,
    "head_to_head": metric_head_to_head,
    "duplicate": metric_duplicate,
    "games": metric_games,
}
# Old names of metrics, still accepted wherever a metric is named (a tie-break order stored before other games).
TIEBREAK_METRIC = "tiebreak"
METRIC_ALIASES = {"vault": TIEBREAK_METRIC}
# Metrics whose value depends on who else is still tied: computed within each tie, never over the field.
GROUP_METRICS = {metric_head_to_head}


def canonical_metrics(names: Iterable[str | Metric]) -> list[str | Metric]:
    """Metric names with aliases replaced by the metric's name (metric functions pass through); ValueError for a
    name that is neither."""
    out: list[str | Metric] = []
    for m in names:
        if isinstance(m, str):
            m = METRIC_ALIASES.get(m, m)
            if m not in METRICS:
                known = ", ".join(sorted((*METRICS, *METRIC_ALIASES)))
                raise ValueError(f"unknown metric {m!r}: expected one of {known}")
        out.append(m)
    return out


def shown_metrics(rows: Sequence[Any]) -> list[str]:
    """The metric columns a table of standings shows, in precedence order. A metric computed only inside a tie
    (head to head) has a value only where a tie reached it: its column is left out when no tie needed it, rather than
    shown empty on every line. `rows` are anything with a `metrics` mapping (Standing, or a selector's row)."""
    if not rows:
        return []
    names = list(rows[0].metrics)
    return [n for n in names if any(row.metrics.get(n) is not None for row in rows)]


def _metric(m: str | Metric) -> tuple[str, Metric]:
    if isinstance(m, str):
        return m, METRICS[m]
    return getattr(m, "__name__", repr(m)), m


# ---- ranking -------------------------------------------------------------------------------------------


def _split(t: Tally, group: list[Competitor], metrics: Sequence[tuple[str, Metric]],
           seen: dict[Competitor, dict[str, Number | None]]) -> list[list[Competitor]]:
    """Order `group` by the metrics in turn; returns the blocks still tied on all of them, best first."""
    if len(group) <= 1 or not metrics:
        return [group]
    (name, fn), rest = metrics[0], metrics[1:]
    values = fn(t, group)
    for c in group:
        seen[c][name] = values[c]
    blocks: dict[Number, list[Competitor]] = {}
    for c in group:
        blocks.setdefault(values[c], []).append(c)
    out = []
    for value in sorted(blocks, reverse=True):
        out.extend(_split(t, blocks[value], rest, seen))
    return out


def rank(t: Tally, among: Iterable[Competitor] | None = None) -> list[Standing]:
    """Rank a tally by its config's precedence: competition ranking, still-tied competitors share a place.

    `among` ranks only those competitors (a division of a season): their points, scores and tie-breaks still come
    from every match of the tally, whoever they met, while head-to-head looks only at those of them still tied (as
    it always looks only at the tied). Each must be in the tally (give them as `competitors` to `tally`)."""
    metrics = [_metric(m) for m in t.config.precedence]
    shown = metrics + [_metric(m) for m in t.config.extra]
    pool = t.competitors() if among is None else list(dict.fromkeys(among))
    missing = [c for c in pool if c not in t.by_competitor]
    if missing:
        raise ValueError(f"not in the tally: {missing!r}")
    everyone = sorted(pool, key=repr)  # a stable order inside shared places
    seen: dict[Competitor, dict[str, Number | None]] = {c: {} for c in everyone}
    blocks = _split(t, everyone, metrics, seen)
    for name, fn in shown:
        if fn in GROUP_METRICS:
            continue  # only meaningful inside a tie: shown where it was used, else left out
        values = fn(t, everyone)
        for c in everyone:
            seen[c][name] = values[c]
    standings = []
    position = 1
    for block in blocks:
        for c in block:
            names = [n for n, _ in shown]
            row = {n: seen[c].get(n) for n in names}
            standings.append(Standing(position, c, len(block) > 1, len(t.by_competitor[c]), row))
        position += len(block)
    return standings


def compute_standings(
    results: Iterable[MatchResult],
    *,
    config: StandingsConfig | None = None,
    team_of: Mapping[Hashable, Competitor] | None = None,
    competitors: Iterable[Competitor] = (),
    byes: Mapping[Competitor, int] | None = None,
    among: Iterable[Competitor] | None = None,
) -> list[Standing]:
    """Standings of an event from its finished matches, best first.

    `team_of` maps players to teams when per-player entries are given for partnership matches (partners'
    entries then merge into one team entry); `competitors` adds entrants who have not played yet; `byes`
    counts byes per competitor, worth `config.bye_points` each; `among` ranks only those (see `rank`), who are
    added to the competitors.
    """
    among = None if among is None else list(among)
    competitors = list(competitors) + (among or [])
    return rank(tally(results, config=config, team_of=team_of, competitors=competitors, byes=byes), among)
