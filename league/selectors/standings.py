"""Standings of a tournament and of a league season, read from the stored MatchSeat rows and ranked by the pure
functions of league.standings.

Competitors are players, or partnerships (their team number) in a partnership tournament. In duplicate play the
match's engine seats are the deal's hands (league.services.rounds seats rotated tables so), so every table of
a deal group is given rotation 0 and players who held the same hand are compared directly.

Every game's seats carry a score and a tie-break (MatchSeat.tiebreak: Diamonds' vault, Diamoniak's diamond cards,
the ring race's set rings) and the game's own placement, which the ranking uses as stored. A row's `metrics` are
keyed by column name: the metric names of league.standings, except that the score and tie-break metrics are shown
under the game's labels (`metric_columns`: engine.games' score_label and tiebreak_label), so the API's JSON and CSV
header and the website say "score" and "vault" for Diamonds, "castle cards" and "diamond cards" for Diamoniak,
"dollars" and "set rings" for the ring race.

Seasons: match points, scores and tie-breaks of different games do not add up (a castle is not dollars), so a
season is ranked one game at a time: `season_standings(season=..., game=...)` over the season's tournaments of that
game; without a game, the first of the season's games in engine.games order (Diamonds first). `season_games`
lists them, for a page that shows each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from engine.games import GAMES, game_type

from ..models import (
    LateEntryPoints,
    MatchSeat,
    MatchStatus,
    Player,
    Season,
    Tournament,
    TournamentEntry,
    TournamentFormat,
)
from ..standings import (
    DEFAULT_PRECEDENCE,
    TIEBREAK_METRIC,
    Entry,
    MatchResult,
    Standing,
    StandingsConfig,
    compute_standings,
    rank,
    tally,
)

# Duplicate play ranks on the comparison with those who held the same cards first.
DUPLICATE_PRECEDENCE = ("duplicate", "points", "score", TIEBREAK_METRIC, "wins")


def metric_columns(game: str) -> dict[str, str]:
    """The names a standings table of `game` gives its score and tie-break metrics (engine.games' labels)."""
    kind = game_type(game)
    return {"score": kind.score_label, TIEBREAK_METRIC: kind.tiebreak_label}


@dataclass(frozen=True)
class StandingRow:
    """One line of a standings table: the pure Standing with the names of the players behind the competitor;
    `metrics` keyed by column name (the tie-break under the game's label, see the module docstring)."""

    rank: int
    shared: bool
    competitor: Hashable
    name: str
    player_ids: tuple[int, ...]
    games: int
    metrics: dict
    dropped: bool = False  # left the tournament: not seated any more, results kept


def _fraction(value) -> Fraction:
    return Fraction(str(value))


def standings_config(tournament: Tournament) -> StandingsConfig:
    """The tournament's points table, bye points and tie-break order as a StandingsConfig."""
    table = dict(tournament.match_points or {})
    bye = _fraction(table.pop("bye", 0))
    points = {int(n): {int(place): _fraction(v) for place, v in places.items()} for n, places in table.items()}
    if tournament.tiebreaks:
        precedence = tuple(tournament.tiebreaks)
    elif tournament.format == TournamentFormat.DUPLICATE:
        precedence = DUPLICATE_PRECEDENCE
    else:
        precedence = DEFAULT_PRECEDENCE
    return StandingsConfig(points=points, precedence=precedence, bye_points=bye)


# What standings read of a finished match's seat, as plain tuples: a tournament of 10,000 matches has 40,000 seat
# rows, and building a seat, a match and a round model for each was most of a cold standings computation.
_SEAT_COLUMNS = ("match_id", "player_id", "score", "tiebreak", "showroom", "seat", "placement",
                 "match__tournament_round_id", "match__table_number", "match__tournament_round__index")


def _finished_seats(**match_filter):
    """The seats of the finished matches that `match_filter` selects, as _SEAT_COLUMNS tuples, by match and seat."""
    return (
        MatchSeat.objects.filter(match__status=MatchStatus.FINISHED, **match_filter)
        .order_by("match_id", "seat")
        .values_list(*_SEAT_COLUMNS)
    )


def _results(seat_rows, deal_of: dict[tuple[int, int], str] | None = None) -> list[MatchResult]:
    """MatchResults from _finished_seats rows (ordered by match), one per match."""
    results = []
    rows: list = []
    for row in seat_rows:
        if rows and rows[0][0] != row[0]:
            results.append(_result(rows, deal_of))
            rows = []
        rows.append(row)
    if rows:
        results.append(_result(rows, deal_of))
    return results


def _result(rows: list, deal_of: dict[tuple[int, int], str] | None) -> MatchResult:
    match_id, *_, round_id, table_number, round_index = rows[0]
    entries = [Entry(player, score, tiebreak, showroom, seat, placement)
               for _, player, score, tiebreak, showroom, seat, placement, *_ in rows]
    deal_id = deal_of.get((round_id, table_number)) if deal_of is not None and round_id is not None else None
    return MatchResult(entries, match_id=match_id, round=round_index, deal_id=deal_id, rotation=0,
                       table_size=len(rows))


def tournament_results(tournament: Tournament, *, include_final: bool = False) -> list[MatchResult]:
    """The finished matches of the qualifying rounds (and of the final's stages too with `include_final`)."""
    deal_of = None
    if tournament.format == TournamentFormat.DUPLICATE:
        deal_of = {(rnd.pk, t["number"]): t["deal_id"] for rnd in tournament.tournament_rounds.all()
                   for t in rnd.tables}
    rounds = {} if include_final else {"match__tournament_round__stage": 0}
    return _results(_finished_seats(match__tournament_round__tournament=tournament, **rounds), deal_of)


def tournament_units(tournament: Tournament) -> tuple[list[Hashable], dict[Hashable, tuple[int, ...]]]:
    """The tournament's competitors (player ids, or team numbers with partnerships) with their players."""
    entries = list(TournamentEntry.objects.filter(tournament=tournament).order_by("id"))
    if not tournament.partnerships:
        return [e.player_id for e in entries], {e.player_id: (e.player_id,) for e in entries}
    teams: dict[Hashable, tuple[int, ...]] = {}
    for e in entries:
        teams[e.team] = (*teams.get(e.team, ()), e.player_id)
    return list(teams), teams


def tournament_byes(tournament: Tournament) -> Counter:
    """Byes per competitor, each worth the bye's points: the rounds it sat out, and, when the tournament gives late
    entries a bye's points (Tournament.late_entry_points), the rounds before it joined."""
    byes = Counter(u for rnd in tournament.tournament_rounds.all() for u in rnd.byes)
    if tournament.late_entry_points == LateEntryPoints.BYE:
        late = TournamentEntry.objects.filter(tournament=tournament, joined_round__gt=1)
        for unit, joined in {(e.team if tournament.partnerships else e.player_id, e.joined_round) for e in late}:
            byes[unit] += joined - 1
    return byes


def dropped_players(tournament: Tournament) -> set[int]:
    return set(TournamentEntry.objects.filter(tournament=tournament, active=False).values_list("player_id",
                                                                                            flat=True))


def tournament_standings(*, tournament: Tournament, include_final: bool = False) -> list[StandingRow]:
    """The tournament's standings from the finished matches of its qualifying rounds (and of its final, with
    `include_final`), best first (every entrant appears; those who dropped marked)."""
    units, members = tournament_units(tournament)
    team_of: dict[Hashable, Hashable] | None = (
        {pid: unit for unit, pids in members.items() for pid in pids} if tournament.partnerships else None)
    standings = compute_standings(tournament_results(tournament, include_final=include_final),
                                  config=standings_config(tournament), team_of=team_of, competitors=units,
                                  byes=tournament_byes(tournament))
    return _rows(standings, members, tournament.game, dropped_players(tournament))


def season_games(season: Season) -> list[str]:
    """The games the season's tournaments play, in engine.games order."""
    played = set(Tournament.objects.filter(season=season).values_list("game", flat=True))
    return [name for name in GAMES if name in played]


def season_game(season: Season, game: str | None) -> str:
    """The game a season's table ranks: `game`, or by default the first of `season_games` (Diamonds for a season
    without tournaments); ValueError for an unknown game (an error, not an empty table)."""
    if game is None:
        games = season_games(season)
        game = games[0] if games else "diamonds"
    game_type(game)
    return game


def _season_inputs(season: Season, game: str, config: StandingsConfig | None):
    """What a season's table of `game` is ranked from: its finished matches' results, the config (default points and
    precedence, the first tournament's bye points, unless `config` is given), its players and their byes."""
    tournaments = list(Tournament.objects.filter(season=season, game=game))
    byes: Counter = Counter()
    players: set[int] = set()
    for t in tournaments:
        units, members = tournament_units(t)
        players.update(pid for pids in members.values() for pid in pids)
        for unit, count in tournament_byes(t).items():
            for pid in members.get(unit, ()):
                byes[pid] += count
    if config is None and tournaments:
        config = StandingsConfig(bye_points=standings_config(tournaments[0]).bye_points)
    results = _results(_finished_seats(match__tournament_round__tournament__season=season,
                                       match__tournament_round__tournament__game=game))
    return results, config, players, byes


def season_standings(*, season: Season, game: str | None = None,
                     config: StandingsConfig | None = None) -> list[StandingRow]:
    """The players of a season ranked over every finished match of its tournaments of `game` (by default the first
    of `season_games`: see the module docstring), with default points and precedence unless `config` is given;
    byes count as in each tournament. Partnership tables count each partner with the team's result at a table of
    players."""
    game = season_game(season, game)
    results, config, players, byes = _season_inputs(season, game, config)
    standings = compute_standings(results, config=config, competitors=sorted(players), byes=byes)
    return _rows(standings, {pid: (pid,) for pid in players}, game)


def season_division_standings(*, season: Season, divisions: Sequence[Sequence[int]], game: str | None = None,
                              config: StandingsConfig | None = None) -> list[list[StandingRow]]:
    """One table per division (each a list of player ids): the season's standings of `game` ranked among each
    division's players only. Points, scores and tie-breaks come from every match of the season's tournaments,
    whoever the player met there (league.standings.rank's `among`); a player who has not played is ranked with
    nothing."""
    game = season_game(season, game)
    results, config, players, byes = _season_inputs(season, game, config)
    everyone = sorted(players | {pid for ids in divisions for pid in ids})
    counted = tally(results, config=config, competitors=everyone, byes=byes)
    members: dict[Hashable, tuple[int, ...]] = {pid: (pid,) for pid in everyone}
    return [_rows(rank(counted, among=ids), members, game) for ids in divisions]


def _player_ids(competitor: Hashable, members: dict[Hashable, tuple[int, ...]]) -> tuple[int, ...]:
    """The players behind a competitor: its members, or itself (a competitor no unit names is a player id)."""
    if competitor in members:
        return members[competitor]
    return (cast(int, competitor),)


def _rows(standings: list[Standing], members: dict[Hashable, tuple[int, ...]], game: str,
          dropped: Collection[int] = frozenset()) -> list[StandingRow]:
    ids = {pid for s in standings for pid in _player_ids(s.competitor, members)}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    columns = metric_columns(game)
    rows = []
    for s in standings:
        pids = _player_ids(s.competitor, members)
        metrics = {columns.get(name, name): value for name, value in s.metrics.items()}
        rows.append(StandingRow(s.rank, s.shared, s.competitor, " & ".join(names.get(p, str(p)) for p in pids),
                                tuple(pids), s.games, metrics, dropped=any(p in dropped for p in pids)))
    return rows
