"""Reads about a season's divisions: who is in which, each division's standings with its promotion and relegation
zones (live while the season runs, as decided once it is closed), who moved at the end of a closed season, and which
of a league's seasons is the current one (league.divisions has the rules, league.services.divisions the writes)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q, QuerySet

from ..divisions import ZoneProblem, live_zones, zone_problems, zone_sizes
from ..models import Division, DivisionMember, League, Movement, Player, Season, TournamentEntry
from .standings import StandingRow, season_game
from .standings_cache import cached_season_division_standings


def divisions_of(season: Season) -> list[Division]:
    """The season's divisions, top first (none for a season of one table)."""
    return list(Division.objects.filter(season=season).order_by("number"))


def division_count(season: Season) -> int:
    """How many divisions the season has: 1 for a season of one table (no Division rows)."""
    return max(1, Division.objects.filter(season=season).count())


def member_ids(season: Season) -> list[list[int]]:
    """Each division's player ids (top division first), in the order they were placed."""
    by_division: dict[int, list[int]] = {d.pk: [] for d in divisions_of(season)}
    for division_id, player_id in (DivisionMember.objects.filter(season=season).order_by("division__number", "id")
                                   .values_list("division_id", "player_id")):
        by_division[division_id].append(player_id)
    return list(by_division.values())


def placements(season: Season) -> dict[int, int]:
    """{player id: division number} for everyone placed in one of the season's divisions."""
    return dict(DivisionMember.objects.filter(season=season).values_list("player_id", "division__number"))


def members_of_division(division: Division) -> QuerySet[DivisionMember]:
    return division.members.select_related("player").order_by("player__name")


@dataclass
class DivisionTable:
    """One division's standings: `zones` maps a player id to "up" or "down" (the zone they are in while the season
    runs; once it is closed, the move decided then), `up` and `down` the zones' sizes, `problem` set when the
    division has too few players for them (the season cannot close so)."""

    division: Division
    rows: list[StandingRow]
    zones: dict[int, str]
    up: int
    down: int
    problem: ZoneProblem | None = None
    closed: bool = False


@dataclass
class SeasonDivisions:
    """What a season's page shows of its divisions: the tables (empty for a season of one table), the game they are
    ranked by, and the players who played in its tournaments but are in no division."""

    game: str
    tables: list[DivisionTable] = field(default_factory=list)
    unplaced: list[Player] = field(default_factory=list)

    @property
    def divided(self) -> bool:
        return bool(self.tables)


def season_divisions(season: Season, game: str | None = None) -> SeasonDivisions:
    """Each division's standings with its zones (see DivisionTable), ranked by `game` (by default the season's first
    game: the one closing the season decides by)."""
    game = season_game(season, game)
    divisions = divisions_of(season)
    if not divisions:
        return SeasonDivisions(game)
    ids = member_ids(season)
    standings = cached_season_division_standings(season, ids, game)
    count = len(divisions)
    problems = {p.index: p for p in zone_problems([len(i) for i in ids], season.promoted, season.relegated)}
    moved: dict[int, str] = {}
    if season.closed_at is not None:
        moved = {pid: move for pid, move in DivisionMember.objects.filter(season=season)
                 .exclude(movement=Movement.STAYS).values_list("player_id", "movement") if move}
    tables = []
    for index, (division, rows) in enumerate(zip(divisions, standings)):
        order = [row.player_ids[0] for row in rows]
        if season.closed_at is not None:
            zones = {pid: moved[pid] for pid in order if pid in moved}
        else:
            zones = live_zones(order, index, count, season.promoted, season.relegated)
        up, down = zone_sizes(index, count, season.promoted, season.relegated)
        tables.append(DivisionTable(division, rows, zones, up, down, problems.get(index),
                                    closed=season.closed_at is not None))
    placed = {pid for i in ids for pid in i}
    played = set(TournamentEntry.objects.filter(tournament__season=season, tournament__game=game)
                 .values_list("player_id", flat=True))
    unplaced = list(Player.objects.filter(pk__in=played - placed).order_by("name"))
    return SeasonDivisions(game, tables, unplaced)


@dataclass(frozen=True)
class Moves:
    """Who crossed one boundary at the end of a closed season: `up` went from `lower` to `upper`, `down` the other
    way (their final places in their division, best first)."""

    upper: Division
    lower: Division
    up: list[Player]
    down: list[Player]


def moves_of(season: Season) -> list[Moves]:
    """The promotions and relegations a closed season decided, boundary by boundary from the top (empty while it
    runs, or for a season of one table)."""
    if season.closed_at is None:
        return []
    divisions = divisions_of(season)
    rows = (DivisionMember.objects.filter(season=season).exclude(movement__in=["", Movement.STAYS])
            .select_related("player").order_by("final_rank", "id"))
    went: dict[tuple[int, str], list[Player]] = {}
    for m in rows:
        went.setdefault((m.division_id, m.movement), []).append(m.player)
    return [Moves(upper, lower, went.get((lower.pk, Movement.UP), []), went.get((upper.pk, Movement.DOWN), []))
            for upper, lower in zip(divisions, divisions[1:])]


def current_season(league: League) -> Season | None:
    """The season a league's page shows: the newest one not closed, else the newest."""
    seasons = Season.objects.filter(league=league).order_by("-created_at", "-pk")
    return seasons.filter(closed_at__isnull=True).first() or seasons.first()


def last_closed_season(league: League) -> Season | None:
    return Season.objects.filter(league=league, closed_at__isnull=False).order_by("-closed_at", "-pk").first()


def previous_season(season: Season) -> Season | None:
    """The league's season made before this one (the one its divisions are put together from by default)."""
    return (Season.objects.filter(league_id=season.league_id, created_at__lte=season.created_at)
            .exclude(pk=season.pk).order_by("-created_at", "-pk").first())


def latest_season(league: League) -> Season | None:
    return Season.objects.filter(league=league).order_by("-created_at", "-pk").first()


def placeable_players(season: Season) -> QuerySet[Player]:
    """Who the organiser may put in the season's divisions, by name: the club's members (guests and bots included),
    and whoever is placed already (even if they have left the club since)."""
    return (Player.objects.filter(Q(clubs=season.league.club_id) | Q(division_places__season=season))
            .distinct().order_by("name"))
