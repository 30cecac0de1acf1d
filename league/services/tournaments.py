"""Tournaments: create one, register its field, seat its rounds with league.scheduling, start them on the workers,
and move on when a round's last match ends (`on_match_finished`).

A tournament is of one game (Tournament.game, a name of engine.games): its tables seat between the game's
min_players and max_players, its ruleset is the game's, its engine-bot entrants play with a bot the game has, and
every table's Match is of that game. Duplicate play deals the same cards at every table of a deal group; it is
Diamonds' only (the newer games' decks are not dealt in hands to rotate).

Seating loads the stored rounds into a scheduling `History`, calls the pure seating function of the format and
creates one Match per table. Every table's deal seed is drawn afresh from the CSPRNG when it is seated (never
formatted from the tournament's seed: see _with_deal_seeds). Duplicate tables of a deal group share the group's seed,
so the engine deals them the same hands seat for seat; the group's rotation is applied by seating the players rotated
instead of the cards (the player scheduled at seat s sits at engine seat s - rotation) and moving the first dealer
back by the rotation, which is the same game up to the seats' labels: every player keeps their neighbours and their
place relative to the dealer, and receives hand s - rotation as league.scheduling.duplicate defines it. The stored
records of a group therefore show identical dealt hands.

Starting a round records a `play_match` outbox row per table in the round's own transaction
(league.services.outbox), and closing a round seats and starts the next one in the closing transaction: no step of a
tournament depends on a message sent after a commit, so a broker outage or a killed process between two steps
loses nothing. Eager mode (no broker): the rows are relayed in this process once the transaction commits, which
plays the matches here; the relay is one flat loop (workers.outbox), so a tournament of many rounds keeps the
stack flat.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import replace

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import Game
from engine.fairness import derived_seed, new_seed
from engine.games import GameType, game_type
from league import scheduling
from league.scheduling import History, Round, Table, TableShape

from ..events import emit
from ..limits import MAX_TOURNAMENT_ROUNDS, check_turn_deadline, checked_match_points, checked_tiebreaks
from ..models import (
    Club,
    ComparisonPair,
    DeadlineAction,
    FinalRanking,
    LateEntryPoints,
    LobbyTable,
    Match,
    MatchStatus,
    OutboxKind,
    Player,
    RoundStatus,
    Season,
    Tournament,
    TournamentEntry,
    TournamentFormat,
    TournamentRound,
    TournamentStatus,
)
from ..models.match import ENDED
from ..selectors.prepared import PreparedValues
from ..selectors.standings_cache import warm_tournament_standings
from . import outbox
from .bot_pausing import count_match_conduct
from .comparisons import on_match_finished as close_comparison_pair
from .decisions import FALLBACK_BOTS
from .evening import present_entries
from .finals import check_final_settings, seat_final_stage
from .matches import create_match
from .ratings import apply_match_ratings, is_rated

DONE = ENDED  # finished, failed or cancelled (league.services.cancellation): a round closes without waiting for them


class TournamentError(ValueError):
    """An operation the tournament's state does not allow (registering once it runs, seating past the last round)."""


def table_ruleset(base: dict, players: int, game: str = "diamonds"):
    """The `game`'s engine ruleset of a table of `players` from the competition's shared fields (ValueError,
    the engine's InvalidRuleset for Diamonds, when the game cannot play it)."""
    return game_type(game).make_ruleset({**{k: v for k, v in base.items() if k != "players"}, "players": players})


def shared_ruleset(ruleset: object) -> dict:
    """A competition's ruleset as stored: the game's fields shared by every table, without `players` (each table's
    own). ValueError when it is not an object; its fields are the game's to judge (competition_game)."""
    if ruleset is None:
        return {}
    if not isinstance(ruleset, dict):
        raise ValueError(_("ruleset must be an object of the game's fields, not %(type)s") % {
            "type": type(ruleset).__name__})
    return {k: v for k, v in ruleset.items() if k != "players"}


def competition_game(game: str, table_size: int, ruleset: dict) -> GameType:
    """Check that `game` is one of engine.games and can seat tables of `table_size` with the shared `ruleset`
    (ValueError naming what is wrong); returns its GameType. Shared by tournaments and ladders."""
    kind = game_type(game)
    if not kind.min_players <= table_size <= kind.max_players:
        raise ValueError(_("%(game)s seats %(least)s to %(most)s players at a table, not %(size)s") % {
            "game": kind.title, "least": kind.min_players, "most": kind.max_players, "size": table_size})
    table_ruleset(ruleset, table_size, game)  # the game refuses a ruleset it cannot play
    return kind


def check_entrants_can_play(game: str, players: Iterable[Player]) -> None:
    """An engine bot plays only a game that has its bot kind (search is Diamonds', heuristic the newer games');
    people and external bots play any game. ValueError naming the players and the game's bots."""
    kind = game_type(game)
    wrong = [p for p in players if p.is_engine_bot and p.bot_kind not in kind.bots]
    if wrong:
        names = ", ".join(f"{p.name} ({p.bot_kind})" for p in wrong)
        raise TournamentError(_("%(game)s has no bot for %(names)s; its bots are %(bots)s") % {
            "game": kind.title, "names": names, "bots": ", ".join(sorted(kind.bots))})


def check_not_paused(players: Iterable[Player]) -> None:
    """A paused bot (league.services.bot_pausing) is entered nowhere until its owner resumes it: TournamentError
    naming it. Entrants already in a running tournament stay (see there)."""
    paused = [p.name for p in players if p.is_paused]
    if paused:
        raise TournamentError(_("%(names)s paused: its owner resumes it before it is entered anywhere.")
                              % {"names": ", ".join(paused)})


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
) -> Tournament:
    """A tournament of `game` open for registration. Raises ValueError for a game, format, table size, ruleset or
    tie-break the engine or the standings do not know (a table size outside the game's players, the duplicate
    format for a game other than Diamonds), and for a turn deadline under a second, an unknown deadline action or a
    fallback bot that is not one of the fast ones (league.services.decisions.FALLBACK_BOTS).

    `seed` orders the seating; the deals come from `deal_salt` (secret, from the CSPRNG unless given: give the
    same one, on a server with the same key, to deal a tournament again exactly, as the chaos benchmark does)."""
    settings = _checked_settings(
        game=game, rounds=rounds, table_size=table_size, format=format, ruleset=ruleset, tiebreaks=tiebreaks,
        turn_deadline_seconds=turn_deadline_seconds, deadline_action=deadline_action,
        deadline_fallback=deadline_fallback, match_points=match_points, check_in_required=check_in_required,
        self_check_in=self_check_in, late_entry_points=late_entry_points, final_size=final_size,
        final_stages=final_stages, final_advance=final_advance, final_ranking=final_ranking)
    return Tournament.objects.create(
        name=name, club=club, season=season, auto_advance=auto_advance,
        rated=rated, seed=seed if seed is not None else secrets.token_hex(8), offline_tables=bool(offline_tables),
        registration_closes_at=registration_closes_at, members_only=members_only,
        deal_salt=deal_salt if deal_salt is not None else new_seed(), **settings)


def _checked_settings(*, game: str, rounds: int, table_size: int, format: str, ruleset: dict | None,
                      tiebreaks: Sequence[str], turn_deadline_seconds: int | None, deadline_action: str,
                      deadline_fallback: str, match_points: dict | None, check_in_required: bool = False,
                      self_check_in: bool = False, late_entry_points: str = LateEntryPoints.ZERO,
                      final_size: int = 0, final_stages: int = 1, final_advance: int = 1,
                      final_ranking: str = FinalRanking.FINAL_DECIDES) -> dict:
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
    if deadline_action not in DeadlineAction.values:
        raise ValueError(_("deadline_action must be one of %(actions)s, not %(action)s") % {
            "actions": ", ".join(DeadlineAction.values), "action": repr(deadline_action)})
    if deadline_fallback not in FALLBACK_BOTS:  # names for every game (decisions.FALLBACK_BOT_OF_GAME)
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
            "final_stages": final_stages, "final_advance": final_advance, "final_ranking": final_ranking}


# What an organiser may still change once the tournament runs: nothing that would reseat or rescore played rounds.
CHANGEABLE_WHILE_RUNNING = frozenset({"name", "auto_advance", "turn_deadline_seconds", "deadline_action",
                                      "deadline_fallback", "check_in_required", "self_check_in", "offline_tables"})
# The final's settings may change while the evening runs, until its first stage is seated.
FINAL_SETTINGS = frozenset({"final_size", "final_stages", "final_advance", "final_ranking"})
CHANGEABLE = CHANGEABLE_WHILE_RUNNING | FINAL_SETTINGS | {
    "game", "rounds", "table_size", "format", "ruleset", "club", "season", "match_points", "tiebreaks", "rated",
    "late_entry_points", "registration_closes_at", "members_only"}
_CHECKED = ("game", "rounds", "table_size", "format", "ruleset", "tiebreaks", "turn_deadline_seconds",
            "deadline_action", "deadline_fallback", "match_points", "check_in_required", "self_check_in",
            "late_entry_points", "final_size", "final_stages", "final_advance", "final_ranking")


@transaction.atomic
def update_tournament(*, tournament: Tournament, **changes) -> Tournament:
    """Change a tournament's settings (the names are Tournament's fields). Before its first round anything
    create_tournament takes may change, checked the same way (registered engine bots included); once it runs, only
    its name, whether rounds follow on by themselves, and the turn deadlines of tables seated from then on. Raises
    TournamentError for a setting that can no longer change, ValueError for a bad value; either way nothing
    changes."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    unknown = set(changes) - CHANGEABLE
    if unknown:
        raise ValueError(_("no such tournament setting: %(names)s") % {"names": ", ".join(sorted(unknown))})
    if tournament.status != TournamentStatus.REGISTERING:
        open_now = CHANGEABLE_WHILE_RUNNING
        if tournament.status == TournamentStatus.RUNNING and not tournament.tournament_rounds.filter(stage__gt=0):
            open_now = open_now | FINAL_SETTINGS
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


class AlreadyEntered(TournamentError):
    """A player registered twice (or twice in one request)."""


def _check_not_entered(tournament: Tournament, players: Sequence[Player]) -> None:
    ids = [p.pk for p in players]
    twice = sorted({p.name for p in players if ids.count(p.pk) > 1})
    if twice:
        raise AlreadyEntered(_("%(names)s named more than once") % {"names": ", ".join(twice)})
    entered = Player.objects.filter(pk__in=ids, tournament_entries__tournament=tournament).order_by("name")
    names = list(entered.values_list("name", flat=True))
    if names:
        raise AlreadyEntered(_("%(names)s already entered in %(tournament)s") % {"names": ", ".join(names),
                                                                                  "tournament": tournament})


def _create_entries(entries: Iterable[TournamentEntry]) -> list[TournamentEntry]:
    """The entries, or AlreadyEntered when a concurrent registration of one of them won the race (the unique
    constraint is the last word; the savepoint keeps the caller's transaction usable)."""
    try:
        with transaction.atomic():
            return TournamentEntry.objects.bulk_create(list(entries))
    except IntegrityError:
        raise AlreadyEntered(_("a player was entered at the same moment by another request")) from None


def _open_for_registration(tournament: Tournament) -> tuple[Tournament, int]:
    """The tournament locked, and the round a new entry is first seated in: the next round not seated yet (never
    one seated or in play), while qualifying rounds are left; an entry joining after round 1 is a late entry."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status not in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
        raise TournamentError(_("%(tournament)s is %(status)s: registration is closed") % {
            "tournament": tournament, "status": tournament.get_status_display()})
    seated = TournamentRound.objects.filter(tournament=tournament, stage=0).count()
    if seated >= tournament.rounds:
        raise TournamentError(_("every qualifying round of %(tournament)s is seated: too late to enter")
                              % {"tournament": tournament})
    return tournament, seated + 1


@transaction.atomic
def register_players(*, tournament: Tournament, players: Iterable[Player]) -> list[TournamentEntry]:
    """Register players for a tournament without partnerships."""
    tournament, joins = _open_for_registration(tournament)
    if tournament.partnerships:
        raise TournamentError(_("a partnership tournament registers teams (register_team)"))
    players = list(players)
    check_entrants_can_play(tournament.game, players)
    check_not_paused(players)
    _check_not_entered(tournament, players)
    return _create_entries(TournamentEntry(tournament=tournament, player=p, joined_round=joins) for p in players)


def register_player(*, tournament: Tournament, player: Player) -> TournamentEntry:
    return register_players(tournament=tournament, players=[player])[0]


@transaction.atomic
def register_team(*, tournament: Tournament, players: Sequence[Player]) -> list[TournamentEntry]:
    """Register two partners as one team of a partnership tournament (R-TEAM-1)."""
    tournament, joins = _open_for_registration(tournament)
    if not tournament.partnerships:
        raise TournamentError(_("teams are for partnership tournaments"))
    if len(players) != 2 or players[0].pk == players[1].pk:
        raise TournamentError(_("a team is two different players"))
    check_entrants_can_play(tournament.game, players)
    check_not_paused(players)
    _check_not_entered(tournament, players)
    last = TournamentEntry.objects.filter(tournament=tournament).order_by("-team").values_list("team", flat=True)
    team = (last.first() or 0) + 1
    return _create_entries(TournamentEntry(tournament=tournament, player=p, team=team, joined_round=joins)
                           for p in players)


@transaction.atomic
def withdraw_player(*, tournament: Tournament, player: Player) -> None:
    """Drop the player (with their partner, at partnership tables): left out of the rounds seated from now on (a
    table already seated plays on), their results so far stay in the standings, marked dropped."""
    entry = TournamentEntry.objects.select_for_update().get(tournament=tournament, player=player)
    if entry.team is not None:
        TournamentEntry.objects.filter(tournament=tournament, team=entry.team).update(active=False)
    else:
        TournamentEntry.objects.filter(pk=entry.pk).update(active=False)


@transaction.atomic
def take_out(*, tournament: Tournament, player: Player) -> None:
    """Take a player out: before the tournament starts its entry goes (it may be entered again); once it runs, it is
    withdrawn from the rounds seated from now on (withdraw_player). Nothing for a player not entered."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    entry = TournamentEntry.objects.filter(tournament=tournament, player=player).first()
    if entry is None:
        return
    if tournament.status != TournamentStatus.REGISTERING:
        withdraw_player(tournament=tournament, player=player)
    elif entry.team is not None:  # a partnership is entered together and leaves together
        TournamentEntry.objects.filter(tournament=tournament, team=entry.team).delete()
    else:
        entry.delete()


# ---- seating ---------------------------------------------------------------------------------------------


def _stored_round(rnd: TournamentRound) -> Round:
    """A stored round as the scheduling package's Round (units back to tuples as JSON left them lists)."""
    tables = tuple(
        Table(number=t["number"], units=tuple(t["units"]), seats=tuple(t["seats"]), deal_id=t["deal_id"],
              seed=t["seed"], group=t.get("group"), rotation=t.get("rotation", 0))
        for t in rnd.tables
    )
    return Round(number=rnd.index, tables=tables, byes=tuple(rnd.byes))


def _swiss_order(tournament: Tournament, units: list, number: int) -> list:
    """The units best first by current standings; those sharing a place in a seeded random order."""
    from ..selectors.standings import tournament_standings

    rng = random.Random(f"{tournament.seed}/swiss-order-{number}")
    jitter = {u: rng.random() for u in units}
    rank = {row.competitor: row.rank for row in tournament_standings(tournament=tournament)}
    return sorted(units, key=lambda u: (rank.get(u, len(units) + 1), jitter[u]))


def _plan_round(tournament: Tournament, rounds: list[TournamentRound], units: list, teams: dict | None,
                max_players: int) -> Round:
    """The next round's seating. Fixed and duplicate rounds come from the whole schedule seated up front (it can
    use exact constructions and look at every round, so it repeats fewer meetings than seating round by round);
    it is recomputed, identically, for each round as long as the field is the one every earlier round seated.
    After a withdrawal, and in Swiss, a round is seated on its own from the history of the stored rounds. No table
    seats more than the game's `max_players`."""
    number = len(rounds) + 1
    stored = [_stored_round(r) for r in rounds]
    same_field = all({*r.units(), *r.byes} == set(units) for r in stored)
    if tournament.format != TournamentFormat.SWISS and same_field:
        whole = dict(rounds=tournament.rounds, table_size=tournament.table_size, seed=tournament.seed,
                     partnership=tournament.partnerships, teams=teams)
        if tournament.format == TournamentFormat.DUPLICATE:  # Diamonds only, which seats up to the default 6
            return scheduling.duplicate_schedule(units, **whole).rounds[number - 1]
        return scheduling.fixed_schedule(units, **whole, max_players=max_players).rounds[number - 1]
    common = dict(number=number, table_size=tournament.table_size, history=History.from_rounds(stored),
                  seed=tournament.seed, partnership=tournament.partnerships, teams=teams)
    if tournament.format == TournamentFormat.DUPLICATE:
        return scheduling.duplicate_round(units, **common)
    common["max_players"] = max_players
    if tournament.format == TournamentFormat.SWISS:
        return scheduling.swiss_round(_swiss_order(tournament, units, number), **common)
    return scheduling.seat_round(units, **common)


def _with_deal_seeds(tournament: Tournament, number: int, tables) -> list[Table]:
    """The tables with their deals' seeds in place of the planner's, which it formats from the tournament's seed,
    round and table numbers (a finished table's seed would otherwise give away every other table's hands).

    Each is HMAC-SHA256 under the server's key (DIAMONDS_DEAL_KEY, by default SECRET_KEY) of the tournament's
    secret `deal_salt`, the round and the table or deal group: nobody without both secrets can compute one from
    another, and the same tournament dealt again on the same server deals the same cards. A duplicate deal group's
    tables share one seed (the same deal, rotated) and nothing else does. Tournaments made before deal salts draw
    each seed fresh from the CSPRNG."""
    def seed_of(t: Table) -> str:
        place = f"deal-{t.group}" if t.group is not None else f"table-{t.number}"
        if not tournament.deal_salt:
            return new_seed()
        return derived_seed(django_settings.DIAMONDS_DEAL_KEY, f"{tournament.deal_salt}/round-{number}/{place}")

    seeds: dict[object, str] = {}
    return [replace(t, seed=seeds.setdefault(("group", t.group) if t.group is not None else ("table", t.number),
                                             seed_of(t)))
            for t in tables]


def _table_match(tournament: Tournament, table: Table, players: dict[int, Player],
                 first_dealer: int | None = None) -> Match:
    """The table's match: in duplicate play seated rotated as the module docstring says. `first_dealer` (a final's
    table) gives the seat that acts first, else the seed draws it."""
    n = table.size
    ruleset = table_ruleset(tournament.ruleset, n, tournament.game)
    seated = [players[pid] for pid in table.seats]
    if tournament.format == TournamentFormat.DUPLICATE and table.rotation:
        r = table.rotation % n
        seated = [seated[(q + r) % n] for q in range(n)]
        first_dealer = (Game(ruleset, table.seed).first_dealer - r) % n
    return create_match(players=seated, ruleset=ruleset, seed=table.seed, first_dealer=first_dealer,
                        club=tournament.club, game=tournament.game)


@transaction.atomic
def seat_round(*, tournament: Tournament) -> TournamentRound:
    """Seat the tournament's next round: plan it with league.scheduling and create its matches (not started).
    The previous round must be closed. Swiss rounds seat by the current standings."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    rounds = list(TournamentRound.objects.filter(tournament=tournament).order_by("index"))
    if tournament.status == TournamentStatus.CANCELLED:
        raise TournamentError(_("%(tournament)s was cancelled: no round is seated any more") % {
            "tournament": tournament})
    if tournament.status == TournamentStatus.FINISHED or len(rounds) >= tournament.rounds:
        raise TournamentError(_("%(tournament)s has no round left to seat") % {"tournament": tournament})
    if rounds and rounds[-1].status != RoundStatus.CLOSED:
        raise TournamentError(_("round %(number)s of %(tournament)s is not over yet") % {
            "number": rounds[-1].index, "tournament": tournament})
    if any(r.stage for r in rounds):
        raise TournamentError(_("the final of %(tournament)s has begun: no qualifying round is seated any more")
                              % {"tournament": tournament})
    entries = present_entries(tournament, len(rounds) + 1)
    players = {e.player_id: e.player for e in entries}
    teams = None
    if tournament.partnerships:
        teams = {}
        for e in entries:
            teams.setdefault(e.team, []).append(e.player_id)
        teams = {team: tuple(pids) for team, pids in teams.items() if len(pids) == 2}
        units = list(teams)
    else:
        units = list(players)
    max_players = game_type(tournament.game).max_players
    shape = TableShape.for_table_size(tournament.table_size, partnership=tournament.partnerships,
                                      max_players=max_players)
    if len(units) < shape.min_units:
        if tournament.check_in_required:
            raise TournamentError(_("%(tournament)s needs at least %(n)d checked-in entrants to seat a table")
                                  % {"tournament": tournament, "n": shape.min_units})
        raise TournamentError(_("%(tournament)s needs at least %(count)s entrants to seat a table") % {
            "tournament": tournament, "count": shape.min_units})
    plan = _plan_round(tournament, rounds, units, teams, max_players)
    rnd = TournamentRound.objects.create(tournament=tournament, index=plan.number, byes=list(plan.byes))
    stored = []
    for table in _with_deal_seeds(tournament, plan.number, plan.tables):
        match = _table_match(tournament, table, players)
        # The tournament's deadline goes onto each table, where live play and the beat task look for it
        # (league.services.decisions): the first awaited decision starts the clock.
        Match.objects.filter(pk=match.pk).update(
            tournament_round=rnd, table_number=table.number, turn_deadline_seconds=tournament.turn_deadline_seconds,
            deadline_action=tournament.deadline_action, deadline_fallback=tournament.deadline_fallback,
            offline=tournament.offline_tables)
        stored.append({"number": table.number, "units": list(table.units), "seats": list(table.seats),
                       "deal_id": table.deal_id, "seed": table.seed, "group": table.group,
                       "rotation": table.rotation, "match": match.pk})
    rnd.tables = stored
    rnd.save(update_fields=["tables"])
    emit("round.seated", tournament_id=tournament.pk, round_number=rnd.index, match_ids=[t["match"] for t in stored])
    return rnd


# ---- starting rounds, and what happens when a match ends ---------------------------------------------------

def start_round(*, tournament_round: TournamentRound) -> None:
    """Start a seated round: mark it running and record a `play_match` outbox row for each of its matches, in one
    transaction (the caller's, if any). Starting a round that is not seated does nothing."""
    _start_round(tournament_round.pk)


@transaction.atomic
def _start_round(round_id: int) -> None:
    rnd = TournamentRound.objects.select_for_update().get(pk=round_id)
    if rnd.status != RoundStatus.SEATED:
        return
    now = timezone.now()
    rnd.status, rnd.started_at = RoundStatus.RUNNING, now
    rnd.save(update_fields=["status", "started_at"])
    Tournament.objects.filter(pk=rnd.tournament_id, status=TournamentStatus.REGISTERING).update(
        status=TournamentStatus.RUNNING, started_at=now)
    # Tables played with real cards get no worker: their results are entered (league.services.offline_results).
    ids = list(Match.objects.filter(tournament_round=rnd, status=MatchStatus.PENDING, offline=False)
               .values_list("pk", flat=True))
    for match_id in ids:
        outbox.record(kind=OutboxKind.PLAY_MATCH, match_id=match_id)
    if not Match.objects.filter(tournament_round=rnd).exclude(status__in=DONE).exists():
        transaction.on_commit(lambda: _round_may_close(round_id))


def start_tournament(*, tournament: Tournament) -> TournamentRound:
    """Seat and start the first round, in one transaction. With auto_advance on and no broker, this plays the whole
    tournament (as the transaction commits)."""
    with transaction.atomic():
        rnd = seat_round(tournament=tournament)
        start_round(tournament_round=rnd)
    return rnd


def on_match_finished(*, match_id: int) -> None:
    """What follows the end of a match (finished or failed). Safe to call any number of times.

    Rates it if it is rated (once: league.services.ratings); if it is a tournament table and the last of its round
    to end, closes the round and then finishes the tournament, or, with auto_advance, seats and starts the next round;
    if it is a comparison's match and the last of its pair to end, records the pair and starts the next one.
    """
    found = _FINISHED_FACTS(match_id)
    if not found:
        return
    (status, ratings_applied, conduct_counted, ladder_id, round_id, tournament_id, tournament_rated, lobby_rated,
     in_comparison) = found[0]
    if status not in DONE:
        return
    rated = is_rated(ladder_id=ladder_id, round_id=round_id, tournament_rated=tournament_rated,
                     in_rated_table=lobby_rated)
    if status == MatchStatus.FINISHED and not ratings_applied and rated:
        apply_match_ratings(match_id=match_id)
    if status == MatchStatus.FINISHED and not conduct_counted:
        count_match_conduct(match_id=match_id)
    if round_id is not None:
        _round_may_close(round_id)
        # Its readers find the new table ready instead of waiting for it (a tournament somebody reads only).
        warm_tournament_standings(tournament_id=tournament_id)
    if in_comparison:  # a comparison's pair may be complete (league.services.comparisons; idempotent like the rest)
        close_comparison_pair(match_id=match_id)


# What on_match_finished needs to know of the match, in one query compiled once per process: every match the workers
# finish runs it, and most are neither rated nor in a tournament nor a comparison's.
_FINISHED_FACTS = PreparedValues(lambda pk: Match.objects.filter(pk=pk).values_list(
    "status", "ratings_applied", "conduct_counted", "ladder_id", "tournament_round_id",
    "tournament_round__tournament_id", "tournament_round__tournament__rated",
    Exists(LobbyTable.objects.filter(match_id=OuterRef("pk"), rated=True)),
    Exists(ComparisonPair.objects.filter(Q(candidate_match_id=OuterRef("pk")) | Q(baseline_match_id=OuterRef("pk")))),
), 1)


def _round_may_close(round_id: int) -> None:
    with transaction.atomic():
        # Tournament row first, then the round: every path takes them in this order.
        tournament_id = TournamentRound.objects.filter(pk=round_id).values_list("tournament_id", flat=True).get()
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        rnd = TournamentRound.objects.select_for_update().get(pk=round_id)
        if rnd.status != RoundStatus.RUNNING or tournament.status == TournamentStatus.CANCELLED:
            return  # closed already (this is a repeated call), not started, or the tournament was cancelled
        if Match.objects.filter(tournament_round=rnd).exclude(status__in=DONE).exists():
            return
        rnd.status, rnd.closed_at = RoundStatus.CLOSED, timezone.now()
        rnd.save(update_fields=["status", "closed_at"])
        if _is_last_round(tournament, rnd):
            tournament.status, tournament.finished_at = TournamentStatus.FINISHED, rnd.closed_at
            tournament.save(update_fields=["status", "finished_at"])
            emit("tournament.finished", tournament_id=tournament.pk)
            return
        # With check-in the organiser seats each round once the players present have checked in.
        if not tournament.auto_advance or tournament.check_in_required:
            return
        # Seated and started in the transaction that closes this round: no moment when a crash leaves it seated only.
        start_round(tournament_round=_seat_next(tournament, rnd))


@transaction.atomic
def advance_tournament(*, tournament: Tournament) -> TournamentRound | None:
    """The organiser's step when auto_advance is off: seat and start the next round once the last one closed.
    Returns the new round, or None when the tournament is over."""
    tournament.refresh_from_db()
    if tournament.status == TournamentStatus.FINISHED:
        return None
    last = TournamentRound.objects.filter(tournament=tournament).order_by("-index").first()
    rnd = _seat_next(tournament, last) if last is not None else seat_round(tournament=tournament)
    start_round(tournament_round=rnd)
    return rnd


def _is_last_round(tournament: Tournament, rnd: TournamentRound) -> bool:
    """Whether closing `rnd` ends the tournament: the last qualifying round without a final, or the final's last
    stage."""
    if rnd.stage:
        return rnd.stage >= tournament.final_stages
    return rnd.index >= tournament.rounds and not tournament.final_size


def _seat_next(tournament: Tournament, last: TournamentRound) -> TournamentRound:
    """The round after `last`: a qualifying round, or the final's next stage once the qualifying rounds are over."""
    if last.stage or last.index >= tournament.rounds:
        return seat_final_stage(tournament=tournament)
    return seat_round(tournament=tournament)


def catch_up_finished_matches(*, limit: int = 500) -> int:
    """Run `on_match_finished` for ended matches whose follow-up was lost (a task acknowledged, then its worker
    gone before the call): rated ones not rated yet, and rounds still running whose matches have all ended.
    Returns how many calls were made; each is harmless if another process makes it too."""
    unrated = list(
        Match.objects.filter(status=MatchStatus.FINISHED, ratings_applied=False)
        .filter(Q(ladder__isnull=False) | Q(tournament_round__tournament__rated=True))
        .values_list("pk", flat=True)[:limit]
    )
    # and finished ones whose bots' missed deadlines have not counted towards pausing them yet
    uncounted = list(Match.objects.filter(status=MatchStatus.FINISHED, conduct_counted=False)
                     .exclude(pk__in=unrated).values_list("pk", flat=True)[:limit])
    for match_id in unrated + uncounted:
        on_match_finished(match_id=match_id)
    open_matches = Match.objects.filter(tournament_round=OuterRef("pk")).exclude(status__in=DONE)
    stuck = list(
        TournamentRound.objects.filter(status=RoundStatus.RUNNING).exclude(Exists(open_matches))
        .values_list("pk", flat=True)[:limit]
    )
    for round_id in stuck:
        _round_may_close(round_id)
    return len(unrated) + len(uncounted) + len(stuck)
