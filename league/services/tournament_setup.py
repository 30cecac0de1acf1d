"""Setting a tournament up: create it with its settings checked, change them while they may still change, delete it
before it has seated a round. Entering its players is league.services.registration; seating and playing its rounds,
league.services.rounds and league.services.advancing.

A tournament is of one game (Tournament.game, a name of engine.games): its tables seat between the game's
min_players and max_players, its ruleset is the game's, its engine-bot entrants play with a bot the game has
(league.services.competition). Duplicate play deals the same cards at every table of a deal group; it is Diamonds'
only (the newer games' decks are not dealt in hands to rotate).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from engine.fairness import new_seed
from engine.games import game_type
from league.finals import plan_stages
from league.scheduling import TableShape, table_sizes
from league.scheduling.duplicate import group_sizes

from ..limits import (
    MAX_TOURNAMENT_ROUNDS,
    check_clock,
    check_round_minutes,
    check_turn_deadline,
    checked_match_points,
    checked_tiebreaks,
)
from ..models import (
    Club,
    DeadlineAction,
    FinalRanking,
    LateEntryPoints,
    Season,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from .competition import TournamentError, check_entrants_can_play, competition_game, shared_ruleset
from .decisions import FALLBACK_BOTS
from .finals import check_final_settings


@transaction.atomic
def create_tournament(
    *,
    name: str,
    rounds: int,
    game: str = "diamonds",
    table_size: int = 4,
    format: str = TournamentFormat.FIXED,
    ruleset: dict | None = None,
    club: Club | None = None,
    season: Season | None = None,
    match_points: dict | None = None,
    tiebreaks: Sequence[str] = (),
    auto_advance: bool = True,
    rated: bool = True,
    seed: str | None = None,
    deal_salt: str | None = None,
    turn_deadline_seconds: int | None = None,
    deadline_action: str = DeadlineAction.FALLBACK,
    deadline_fallback: str = "random",
    check_in_required: bool = False,
    self_check_in: bool = False,
    late_entry_points: str = LateEntryPoints.ZERO,
    final_size: int = 0,
    final_stages: int = 1,
    final_advance: int = 1,
    final_ranking: str = FinalRanking.FINAL_DECIDES,
    offline_tables: bool = False,
    registration_closes_at=None,
    members_only: bool = False,
    round_minutes: int | None = None,
    clock_bank_seconds: int | None = None,
    clock_increment_seconds: int = 0,
) -> Tournament:
    """A tournament of `game` open for registration. Raises ValueError for a game, format, table size, ruleset or
    tie-break the engine or the standings do not know (a table size outside the game's players, the duplicate
    format for a game other than Diamonds), and for a turn deadline under a second, an unknown deadline action or a
    fallback bot that is not one of the fast ones (league.services.decisions.FALLBACK_BOTS), or a chess clock out of
    league.limits.check_clock's bounds (every table's match gets the clock: league.services.clocks).

    `seed` orders the seating; the deals come from `deal_salt` (secret, from the CSPRNG unless given: give the
    same one, on a server with the same key, to deal a tournament again exactly, as the chaos benchmark does)."""
    settings = _checked_settings(
        game=game, rounds=rounds, table_size=table_size, format=format, ruleset=ruleset, tiebreaks=tiebreaks,
        turn_deadline_seconds=turn_deadline_seconds, deadline_action=deadline_action,
        deadline_fallback=deadline_fallback, match_points=match_points, check_in_required=check_in_required,
        self_check_in=self_check_in, late_entry_points=late_entry_points, final_size=final_size,
        final_stages=final_stages, final_advance=final_advance, final_ranking=final_ranking,
        round_minutes=round_minutes, clock_bank_seconds=clock_bank_seconds,
        clock_increment_seconds=clock_increment_seconds)
    return Tournament.objects.create(
        name=name, club=club, season=season, auto_advance=auto_advance,
        rated=rated, seed=seed if seed is not None else secrets.token_hex(8), offline_tables=bool(offline_tables),
        registration_closes_at=registration_closes_at, members_only=members_only,
        deal_salt=deal_salt if deal_salt is not None else new_seed(), **settings)


# The most entrants a preview seats (a club's evening is tens; a large online event a few thousand).
MAX_PREVIEW_ENTRANTS = 10_000


@dataclass(frozen=True)
class RoundPreview:
    """One qualifying round as it would be seated: players per table (largest first), the units (players, or
    teams of partners) sitting out with a bye, and in duplicate play the deal groups as (table size, tables)."""

    number: int
    tables: tuple[int, ...]
    byes: int
    deal_groups: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class TournamentPreview:
    """How `entrants` would be seated: `units` are the players, or the teams of two with partnerships (`unpaired`
    players left over); `rounds` is empty when they cannot fill one table (`min_units`); `final` the table sizes
    of each stage of the final, and `final_short` whether fewer than its finalists are expected."""

    entrants: int
    units: int
    unpaired: int
    partnerships: bool
    min_units: int
    rounds: tuple[RoundPreview, ...]
    final: tuple[tuple[int, ...], ...]
    final_short: bool


def preview_tournament(*, entrants: int, game: str = "diamonds", rounds: int, table_size: int = 4,
                       format: str = TournamentFormat.FIXED, ruleset: dict | None = None,
                       **settings) -> TournamentPreview:
    """The rounds, tables and byes a tournament of these settings (create_tournament's, checked the same way:
    ValueError) would seat for `entrants` present every round, creating nothing. The table sizes are
    league.scheduling's, which seats every round of every format (a fixed schedule's exact constructions leave
    the same tables one smaller): what the first round is seated with, and every later one while the field stays.
    `settings` are the others of PREVIEWED_SETTINGS."""
    unknown = set(settings) - set(PREVIEWED_SETTINGS)
    if unknown:
        raise TypeError(f"preview_tournament() got unexpected settings {sorted(unknown)}")  # a caller's bug
    if isinstance(entrants, bool) or not isinstance(entrants, int) or not 0 <= entrants <= MAX_PREVIEW_ENTRANTS:
        raise ValueError(_("a preview seats 0 to %(most)s players, not %(n)s") % {
            "most": MAX_PREVIEW_ENTRANTS, "n": repr(entrants)})
    checked = _checked_settings(game=game, rounds=rounds, table_size=table_size, format=format, ruleset=ruleset,
                                **{"tiebreaks": (), "turn_deadline_seconds": None,
                                   "deadline_action": DeadlineAction.FALLBACK, "deadline_fallback": "random",
                                   "match_points": None, **settings})
    kind = game_type(checked["game"])
    partnerships = bool(checked["ruleset"].get("partnerships"))
    shape = TableShape.for_table_size(table_size, partnership=partnerships, max_players=kind.max_players)
    units = entrants // shape.players_per_unit
    planned: list[RoundPreview] = []
    if units >= shape.min_units:
        sizes, byes = table_sizes(units, shape)
        players = tuple(size * shape.players_per_unit for size in sizes)
        groups = _deal_groups(players) if checked["format"] == TournamentFormat.DUPLICATE else ()
        planned = [RoundPreview(number, players, byes, groups) for number in range(1, checked["rounds"] + 1)]
    final: list[list[int]] = []
    if checked["final_size"]:
        final = plan_stages(checked["final_size"], checked["final_stages"], checked["final_advance"], table_size,
                            min_players=kind.min_players, max_players=kind.max_players)
    return TournamentPreview(entrants=entrants, units=units, unpaired=entrants - units * shape.players_per_unit,
                             partnerships=partnerships, min_units=shape.min_units, rounds=tuple(planned),
                             final=tuple(tuple(stage) for stage in final),
                             final_short=checked["final_size"] > units)


def _deal_groups(tables: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """A duplicate round's deal groups, as league.scheduling.duplicate.group_round forms them: the tables of each
    size, largest first, in groups of group_sizes."""
    return tuple((size, count) for size in sorted(set(tables), reverse=True)
                 for count in group_sizes(tables.count(size), size))


def _checked_settings(*, game: str, rounds: int, table_size: int, format: str, ruleset: dict | None,
                      tiebreaks: Sequence[str], turn_deadline_seconds: int | None, deadline_action: str,
                      deadline_fallback: str, match_points: dict | None, check_in_required: bool = False,
                      self_check_in: bool = False, late_entry_points: str = LateEntryPoints.ZERO,
                      final_size: int = 0, final_stages: int = 1, final_advance: int = 1,
                      final_ranking: str = FinalRanking.FINAL_DECIDES, round_minutes: int | None = None,
                      clock_bank_seconds: int | None = None, clock_increment_seconds: int | None = 0) -> dict:
    """The settings a tournament is created or changed with, checked (ValueError: see create_tournament), in the
    form they are stored."""
    ruleset = shared_ruleset(ruleset)
    if format not in TournamentFormat.values:
        raise ValueError(_("format must be one of %(formats)s, not %(format)s") % {
            "formats": ", ".join(TournamentFormat.values), "format": repr(format)})
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_TOURNAMENT_ROUNDS:
        raise ValueError(_("a tournament has 1 to %(most)s rounds, not %(rounds)s") % {
            "most": MAX_TOURNAMENT_ROUNDS, "rounds": repr(rounds)})
    kind = competition_game(game, table_size, ruleset)
    if format == TournamentFormat.DUPLICATE and kind.name != "diamonds":
        raise ValueError(_("the duplicate format deals the same Diamonds hands at every table of a group; "
                           "%(game)s tournaments are fixed or Swiss") % {"game": kind.title})
    partnerships = bool(ruleset.get("partnerships"))
    TableShape.for_table_size(table_size, partnership=partnerships, max_players=kind.max_players)
    tiebreaks = checked_tiebreaks(tiebreaks)  # ValueError naming the known ones; "vault" stored as "tiebreak"
    check_turn_deadline(turn_deadline_seconds)
    check_round_minutes(round_minutes)
    clock_bank_seconds, clock_increment_seconds = check_clock(clock_bank_seconds, clock_increment_seconds)
    if deadline_action not in DeadlineAction.values:
        raise ValueError(_("deadline_action must be one of %(actions)s, not %(action)s") % {
            "actions": ", ".join(DeadlineAction.values), "action": repr(deadline_action)})
    if deadline_fallback not in FALLBACK_BOTS:  # names for every game (each GameType's fallback_bots)
        raise ValueError(_("the fallback bot is one of %(bots)s, not %(bot)s") % {
            "bots": ", ".join(FALLBACK_BOTS), "bot": repr(deadline_fallback)})
    for name, value in (("check_in_required", check_in_required), ("self_check_in", self_check_in)):
        if not isinstance(value, bool):
            raise ValueError(_("%(name)s is true or false, not %(value)r") % {"name": name, "value": value})
    if late_entry_points not in LateEntryPoints.values:
        raise ValueError(_("late_entry_points must be one of %(choices)s, not %(value)r")
                         % {"choices": ", ".join(LateEntryPoints.values), "value": late_entry_points})
    if final_ranking not in FinalRanking.values:
        raise ValueError(_("final_ranking must be one of %(choices)s, not %(value)r")
                         % {"choices": ", ".join(FinalRanking.values), "value": final_ranking})
    check_final_settings(final_size=final_size, final_stages=final_stages, final_advance=final_advance,
                         table_size=table_size, game=kind.name, format=format, partnerships=partnerships)
    return {"game": kind.name, "rounds": rounds, "table_size": table_size, "format": format, "ruleset": ruleset,
            "tiebreaks": tiebreaks, "turn_deadline_seconds": turn_deadline_seconds,
            "deadline_action": deadline_action, "deadline_fallback": deadline_fallback,
            "match_points": checked_match_points(match_points), "check_in_required": check_in_required,
            "self_check_in": self_check_in, "late_entry_points": late_entry_points, "final_size": final_size,
            "final_stages": final_stages, "final_advance": final_advance, "final_ranking": final_ranking,
            "round_minutes": round_minutes, "clock_bank_seconds": clock_bank_seconds,
            "clock_increment_seconds": clock_increment_seconds}


# What an organiser may still change once the tournament runs: nothing that would reseat or rescore played rounds.
CHANGEABLE_WHILE_RUNNING = frozenset({"name", "auto_advance", "turn_deadline_seconds", "deadline_action",
                                      "deadline_fallback", "check_in_required", "self_check_in", "offline_tables",
                                      "round_minutes", "clock_bank_seconds", "clock_increment_seconds"})
# The final's settings may change while the evening runs, until its first stage is seated.
FINAL_SETTINGS = frozenset({"final_size", "final_stages", "final_advance", "final_ranking"})
CHANGEABLE = CHANGEABLE_WHILE_RUNNING | FINAL_SETTINGS | {
    "game", "rounds", "table_size", "format", "ruleset", "club", "season", "match_points", "tiebreaks", "rated",
    "late_entry_points", "registration_closes_at", "members_only"}
_CHECKED = ("game", "rounds", "table_size", "format", "ruleset", "tiebreaks", "turn_deadline_seconds",
            "deadline_action", "deadline_fallback", "match_points", "check_in_required", "self_check_in",
            "late_entry_points", "final_size", "final_stages", "final_advance", "final_ranking", "round_minutes",
            "clock_bank_seconds", "clock_increment_seconds")
# What a preview reads of the settings (preview_tournament): the checked ones, checked as create_tournament does.
PREVIEWED_SETTINGS = _CHECKED


def changeable_settings(tournament: Tournament) -> frozenset[str]:
    """The settings update_tournament changes now: every one before the first round; after it, those of
    CHANGEABLE_WHILE_RUNNING, and the final's while it runs until the final's first stage is seated."""
    if tournament.status == TournamentStatus.REGISTERING:
        return CHANGEABLE
    if tournament.status == TournamentStatus.RUNNING and not tournament.tournament_rounds.filter(stage__gt=0).exists():
        return CHANGEABLE_WHILE_RUNNING | FINAL_SETTINGS
    return CHANGEABLE_WHILE_RUNNING


@transaction.atomic
def update_tournament(*, tournament: Tournament, **changes) -> Tournament:
    """Change a tournament's settings (the names are Tournament's fields). Before its first round anything
    create_tournament takes may change, checked the same way (registered engine bots included); once it runs, only
    its name, whether rounds follow on by themselves, and the turn deadlines and clocks of tables seated from then
    on. Raises
    TournamentError for a setting that can no longer change, ValueError for a bad value; either way nothing
    changes."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    unknown = set(changes) - CHANGEABLE
    if unknown:
        raise ValueError(_("no such tournament setting: %(names)s") % {"names": ", ".join(sorted(unknown))})
    if tournament.status != TournamentStatus.REGISTERING:
        open_now = changeable_settings(tournament)
        frozen = sorted(k for k, v in changes.items() if k not in open_now and v != getattr(tournament, k))
        if frozen:
            raise TournamentError(_("%(tournament)s is %(status)s: %(fields)s can no longer change") % {
                "tournament": tournament, "status": tournament.get_status_display(), "fields": ", ".join(frozen)})
    if "name" in changes and not str(changes["name"]).strip():
        raise ValueError(_("a tournament needs a name"))
    checked = _checked_settings(**{k: changes.get(k, getattr(tournament, k)) for k in _CHECKED})
    if checked["game"] != tournament.game:
        check_entrants_can_play(checked["game"], [e.player for e in tournament.entries.select_related("player")])
    for name, value in changes.items():
        setattr(tournament, name, checked[name] if name in checked else value)
    tournament.save()
    return tournament


@transaction.atomic
def delete_tournament(*, tournament: Tournament) -> None:
    """Delete a tournament that has seated no round (its registrations go with it). Once a round is seated, its
    matches and results stay: TournamentError."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != TournamentStatus.REGISTERING or tournament.tournament_rounds.exists():
        raise TournamentError(_("%(tournament)s is %(status)s: a tournament that has seated a round keeps its "
                                "results, so it cannot be deleted") % {"tournament": tournament,
                                                                       "status": tournament.get_status_display()})
    tournament.delete()

