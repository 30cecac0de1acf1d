"""Seating a tournament's rounds: plan the next qualifying round with league.scheduling and create one Match per
table (not started: league.services.advancing starts them). A final's stages are seated by league.services.finals,
through the same `seat_tables`.

Seating loads the stored rounds into a scheduling `History`, calls the pure seating function of the format and
creates one Match per table. Every table's deal seed is drawn afresh from the CSPRNG when it is seated (never
formatted from the tournament's seed: see _with_deal_seeds). Duplicate tables of a deal group share the group's seed,
so the engine deals them the same hands seat for seat; the group's rotation is applied by seating the players rotated
instead of the cards (the player scheduled at seat s sits at engine seat s - rotation) and moving the first dealer
back by the rotation, which is the same game up to the seats' labels: every player keeps their neighbours and their
place relative to the dealer, and receives hand s - rotation as league.scheduling.duplicate defines it. The stored
records of a group therefore show identical dealt hands.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace
from typing import cast

from django.conf import settings as django_settings
from django.db import transaction
from django.utils.translation import gettext as _

from engine import Game
from engine.fairness import derived_seed, new_seed
from engine.games import game_type
from league import scheduling
from league.scheduling import History, Round, Table, TableShape

from ..events import emit
from ..models import Match, Player, RoundStatus, Tournament, TournamentFormat, TournamentRound, TournamentStatus
from ..selectors.standings import tournament_standings
from .competition import TournamentError, table_ruleset
from .evening import present_entries
from .matches import create_match


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
        if tournament.format == TournamentFormat.DUPLICATE:  # Diamonds only, which seats up to the default 6
            schedule = scheduling.duplicate_schedule(
                units, rounds=tournament.rounds, table_size=tournament.table_size, seed=tournament.seed,
                partnership=tournament.partnerships, teams=teams)
        else:
            schedule = scheduling.fixed_schedule(
                units, rounds=tournament.rounds, table_size=tournament.table_size, seed=tournament.seed,
                partnership=tournament.partnerships, teams=teams, max_players=max_players)
        return schedule.rounds[number - 1]
    history = History.from_rounds(stored)
    if tournament.format == TournamentFormat.DUPLICATE:
        return scheduling.duplicate_round(units, number=number, table_size=tournament.table_size, history=history,
                                          seed=tournament.seed, partnership=tournament.partnerships, teams=teams)
    if tournament.format == TournamentFormat.SWISS:
        return scheduling.swiss_round(_swiss_order(tournament, units, number), number=number,
                                      table_size=tournament.table_size, history=history, seed=tournament.seed,
                                      partnership=tournament.partnerships, teams=teams, max_players=max_players)
    return scheduling.seat_round(units, number=number, table_size=tournament.table_size, history=history,
                                 seed=tournament.seed, partnership=tournament.partnerships, teams=teams,
                                 max_players=max_players)


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
    # The scheduler seats whatever ids it is given (Hashable); the league gives it player ids.
    seated = [players[cast(int, pid)] for pid in table.seats]
    if tournament.format == TournamentFormat.DUPLICATE and table.rotation:
        r = table.rotation % n
        seated = [seated[(q + r) % n] for q in range(n)]
        first_dealer = (Game(ruleset, table.seed).first_dealer - r) % n
    # The tournament's deadline (and chess clock) goes onto each table, where live play and the beat task look for it
    # (league.services.decisions): the first awaited decision starts the clock. None is the league's default for who
    # sits at the table (create_match). A club evening's tables, its final's too, are played with real cards.
    return create_match(players=seated, ruleset=ruleset, seed=table.seed, first_dealer=first_dealer,
                        club=tournament.club, game=tournament.game,
                        turn_deadline_seconds=tournament.turn_deadline_seconds,
                        deadline_action=tournament.deadline_action, deadline_fallback=tournament.deadline_fallback,
                        offline=tournament.offline_tables, clock_bank_seconds=tournament.clock_bank_seconds,
                        clock_increment_seconds=tournament.clock_increment_seconds)


def seat_tables(tournament: Tournament, rnd: TournamentRound, tables: Iterable[Table], players: dict[int, Player],
                first_dealer: int | None = None) -> TournamentRound:
    """Create the new round's matches, one per planned table with its deal's seed (_with_deal_seeds), store its
    tables and announce it seated. `first_dealer`: see _table_match."""
    stored = []
    for table in _with_deal_seeds(tournament, rnd.index, tables):
        match = _table_match(tournament, table, players, first_dealer)
        Match.objects.filter(pk=match.pk).update(tournament_round=rnd, table_number=table.number)
        stored.append({"number": table.number, "units": list(table.units), "seats": list(table.seats),
                       "deal_id": table.deal_id, "seed": table.seed, "group": table.group,
                       "rotation": table.rotation, "match": match.pk})
    rnd.tables = stored
    rnd.save(update_fields=["tables"])
    emit("round.seated", tournament_id=tournament.pk, round_number=rnd.index, match_ids=[t["match"] for t in stored])
    return rnd


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
    teams: dict[int | None, tuple[int, ...]] | None = None
    if tournament.partnerships:
        members: dict[int | None, list[int]] = {}
        for e in entries:
            members.setdefault(e.team, []).append(e.player_id)
        teams = {team: tuple(pids) for team, pids in members.items() if len(pids) == 2}
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
    return seat_tables(tournament, rnd, plan.tables, players)
