"""Reads about competitions: tournaments (their rounds, entries and the bots an organiser may still register),
leagues and their seasons, and ladders (their pools)."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import (
    Club,
    Ladder,
    League,
    Player,
    RoundStatus,
    Season,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentStatus,
)

# How many bots an organiser's registration form offers at most.
CANDIDATES_SHOWN = 200


def tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.all()


def tournament_pages() -> QuerySet[Tournament]:
    """Tournaments with what their page shows of them: the club, the season and its league."""
    return Tournament.objects.select_related("club", "season__league")


def tournaments_with_club() -> QuerySet[Tournament]:
    return Tournament.objects.select_related("club")


def open_tournaments() -> QuerySet[Tournament]:
    """Tournaments neither finished nor cancelled, with their club."""
    return (Tournament.objects.exclude(status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED])
            .select_related("club"))


def finished_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.filter(status=TournamentStatus.FINISHED).select_related("club")


def tournaments_of_club(club: Club) -> QuerySet[Tournament]:
    return Tournament.objects.filter(club=club)


def tournaments_of_season(season: Season) -> QuerySet[Tournament]:
    return Tournament.objects.filter(season=season)


def rounds_of(tournament: Tournament) -> QuerySet[TournamentRound]:
    """The tournament's rounds, first first."""
    return tournament.tournament_rounds.order_by("index")


def tournament(tournament_id: int) -> Tournament | None:
    return Tournament.objects.filter(pk=tournament_id).first()


def tournament_id_of_round(round_id: int) -> int | None:
    """The tournament a round belongs to (None for no such round)."""
    return TournamentRound.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()


def round_pages() -> QuerySet[TournamentRound]:
    """Rounds with their tournament and its club."""
    return TournamentRound.objects.select_related("tournament__club")


def round_by_id(round_id: int) -> TournamentRound:
    return TournamentRound.objects.get(pk=round_id)


def has_rounds(tournament: Tournament) -> bool:
    """Whether a round was ever seated: the next start begins the tournament if not."""
    return tournament.tournament_rounds.exists()


def round_stages(tournament: Tournament) -> list[int]:
    """Each seated round's stage (0 for a qualifying round)."""
    return list(tournament.tournament_rounds.values_list("stage", flat=True))


def round_in_play(tournament: Tournament) -> TournamentRound | None:
    """The round seated or being played (not closed yet), if any: while it is, no next round can be seated, so the
    organiser is not offered one."""
    return tournament.tournament_rounds.exclude(status=RoundStatus.CLOSED).order_by("index").first()


def closed_round_count(tournament: Tournament) -> int:
    return tournament.tournament_rounds.filter(status="closed").count()


def entries_of(tournament: Tournament) -> QuerySet[TournamentEntry]:
    """The tournament's entries with their players."""
    return tournament.entries.select_related("player")


def entries_for_round(tournament: Tournament, index: int) -> QuerySet[TournamentEntry]:
    """The active entries that may play round `index` (a late entry joins at its round), by player name."""
    return (TournamentEntry.objects.filter(tournament=tournament, active=True, joined_round__lte=index)
            .select_related("player").order_by("player__name", "id"))


def bots_to_register(tournament: Tournament) -> QuerySet[Player]:
    """The bots an organiser may still enter, by name: the club's (every bot for a tournament without a club), not
    entered yet. People enter themselves (league.permissions)."""
    pool = tournament.club.players.all() if tournament.club else Player.objects.all()
    return (pool.exclude(bot_kind="").exclude(tournament_entries__tournament=tournament)
            .order_by("name")[:CANDIDATES_SHOWN])


def leagues() -> QuerySet[League]:
    return League.objects.all()


def league_pages() -> QuerySet[League]:
    """Leagues with their club."""
    return League.objects.select_related("club")


def seasons_of(league: League) -> QuerySet[Season]:
    return league.seasons.all()


def seasons() -> QuerySet[Season]:
    """Seasons with their league."""
    return Season.objects.select_related("league")


def seasons_of_club(club: Club) -> QuerySet[Season]:
    """The seasons of the club's leagues (a club tournament may count towards one), with their league."""
    return Season.objects.filter(league__club=club).select_related("league").order_by("league__name", "-starts_on",
                                                                                     "name")


def season_pages() -> QuerySet[Season]:
    """Seasons with their league and its club."""
    return Season.objects.select_related("league__club")


def ladders() -> QuerySet[Ladder]:
    return Ladder.objects.all()


def ladders_with_pools() -> QuerySet[Ladder]:
    """Ladders with their pools' entries."""
    return Ladder.objects.prefetch_related("entries")


def ladder_pages() -> QuerySet[Ladder]:
    """Ladders with their club."""
    return Ladder.objects.select_related("club")


def active_ladders() -> QuerySet[Ladder]:
    return Ladder.objects.filter(active=True).select_related("club")


def ladders_of_club(club: Club) -> QuerySet[Ladder]:
    return Ladder.objects.filter(club=club)


def ladder(ladder_id: int) -> Ladder | None:
    return Ladder.objects.filter(pk=ladder_id).first()


def ladder_named(name: str) -> Ladder | None:
    return Ladder.objects.filter(name=name).first()


def pool_ids(ladder: Ladder) -> list[int]:
    """The ids of the players active in the ladder's pool."""
    return list(ladder.entries.filter(active=True).values_list("player_id", flat=True))


def pool_size(ladder: Ladder) -> int:
    return ladder.entries.filter(active=True).count()
