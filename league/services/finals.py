"""Seating a tournament's final stage: after the last qualifying round, the best Tournament.final_size by the
qualifying standings go on to the final, seated by rank; after each stage but the last, the best `final_advance`
of each table go on to the next. league.finals has the rules (the cut, the snake seating, the ranking); this module
loads what they need and stores the stage as a TournamentRound with `stage` 1, 2... whose tables are ordinary
matches (started, played and closed as any round: league.services.tournaments).

Partnership and duplicate tournaments have no final stage (refused when the tournament is set up): a final seats
single players by rank, which neither format's seating keeps.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from engine.games import game_type
from league.finals import StageTable, advancing, cut_order, plan_stages, seat_by_rank
from league.scheduling import Table

from ..events import emit
from ..models import Match, MatchSeat, MatchStatus, RoundStatus, Tournament, TournamentFormat, TournamentRound
from .evening import present_entries


def check_final_settings(*, final_size: int, final_stages: int, final_advance: int, table_size: int, game: str,
                         format: str, partnerships: bool) -> None:
    """ValueError naming what is wrong with a final of these settings (none: final_size 0)."""
    for name, value in (("final_size", final_size), ("final_stages", final_stages),
                        ("final_advance", final_advance)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(_("%(name)s must be a whole number, not %(value)r") % {"name": name, "value": value})
    if not final_size:
        return
    if partnerships or format == TournamentFormat.DUPLICATE:
        raise ValueError(_("a final seats single players by rank: partnership and duplicate tournaments have none"))
    kind = game_type(game)
    plan_stages(final_size, final_stages, final_advance, table_size, min_players=kind.min_players,
                max_players=kind.max_players)


def stage_plan(tournament: Tournament) -> list[list[int]]:
    kind = game_type(tournament.game)
    return plan_stages(tournament.final_size, tournament.final_stages, tournament.final_advance,
                       tournament.table_size, min_players=kind.min_players, max_players=kind.max_players)


def qualifying_order(tournament: Tournament, rows=None) -> list[int]:
    """Every competitor by the qualifying standings (`rows`, else computed), ties after every tie-break drawn from the
    seed (league.finals)."""
    from ..selectors.standings import tournament_standings

    rows = rows if rows is not None else tournament_standings(tournament=tournament)
    return cut_order([(r.competitor, r.rank) for r in rows], tournament.seed)


def stage_tables(tournament: Tournament) -> list[StageTable]:
    """The final's tables whose match has ended, with each player's place (a table that failed or was cancelled
    places its players level: the cut then goes by qualifying rank)."""
    out = []
    rounds = TournamentRound.objects.filter(tournament=tournament, stage__gt=0).order_by("index")
    for rnd in rounds:
        for t in rnd.tables:
            match = Match.objects.filter(pk=t["match"]).values_list("status", flat=True).first()
            if match is None or (rnd.status != RoundStatus.CLOSED and match != MatchStatus.FINISHED):
                continue
            places = dict(MatchSeat.objects.filter(match_id=t["match"]).values_list("player_id", "placement"))
            if match != MatchStatus.FINISHED:
                places = {pid: 1 for pid in t["seats"]}
            out.append(StageTable(stage=rnd.stage, places={pid: places.get(pid) or 1 for pid in t["seats"]}))
    return out


def _stage_field(tournament: Tournament, stage: int, round_index: int, qualifying: list[int]) -> list[int]:
    """Who plays the stage, best seed first."""
    plan = stage_plan(tournament)
    wanted = sum(plan[stage - 1])
    if stage == 1:
        # Dropped players (and, with check-in, absent ones) are passed over: the next by rank go on instead.
        present = {e.player_id for e in present_entries(tournament, round_index)}
        field = [c for c in qualifying if c in present][:wanted]
    else:
        position = {c: i for i, c in enumerate(qualifying)}
        # A finalist who dropped does not go on: the next at their table does.
        active = set(tournament.entries.filter(active=True).values_list("player_id", flat=True))
        previous = [StageTable(t.stage, {c: place for c, place in t.places.items() if c in active})
                    for t in stage_tables(tournament) if t.stage == stage - 1]
        going = [(t.places[c], position.get(c, len(position)), c)
                 for t in previous for c in advancing(t, tournament.final_advance, qualifying)]
        field = [c for *_, c in sorted(going)]
    if len(field) < wanted:
        from .tournaments import TournamentError

        raise TournamentError(_("stage %(stage)d of the final of %(tournament)s seats %(wanted)d players; only "
                                "%(n)d can play it") % {"stage": stage, "tournament": tournament, "wanted": wanted,
                                                        "n": len(field)})
    return field


@transaction.atomic
def seat_final_stage(*, tournament: Tournament) -> TournamentRound:
    """Seat the final's next stage (not started): TournamentError when there is none to seat, the round before it
    is not over, or too few players are left for it."""
    from .tournaments import TournamentError, _table_match, _with_deal_seeds

    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    rounds = list(TournamentRound.objects.filter(tournament=tournament).order_by("index"))
    if tournament.status not in ("registering", "running"):
        raise TournamentError(_("%(tournament)s is %(status)s: no round is seated any more")
                              % {"tournament": tournament, "status": tournament.get_status_display()})
    if not tournament.final_size:
        raise TournamentError(_("%(tournament)s has no final stage") % {"tournament": tournament})
    if sum(1 for r in rounds if not r.stage) < tournament.rounds:
        raise TournamentError(_("the qualifying rounds of %(tournament)s are not all played yet")
                              % {"tournament": tournament})
    if rounds and rounds[-1].status != RoundStatus.CLOSED:
        raise TournamentError(_("round %(round)d of %(tournament)s is not over yet")
                              % {"round": rounds[-1].index, "tournament": tournament})
    stage = max((r.stage for r in rounds), default=0) + 1
    if stage > tournament.final_stages:
        raise TournamentError(_("%(tournament)s has no stage of its final left to seat") % {"tournament": tournament})
    index = len(rounds) + 1
    field = _stage_field(tournament, stage, index, qualifying_order(tournament))
    players = {e.player_id: e.player for e in tournament.entries.select_related("player")}
    planned = [Table(number=n, units=tuple(seats), seats=tuple(seats), deal_id=f"final-{stage}-{n}")
               for n, seats in enumerate(seat_by_rank(field, stage_plan(tournament)[stage - 1]), start=1)]
    rnd = TournamentRound.objects.create(tournament=tournament, index=index, stage=stage)
    stored = []
    for table in _with_deal_seeds(tournament, index, planned):
        match = _table_match(tournament, table, players, first_dealer=0)  # the best seed acts first
        Match.objects.filter(pk=match.pk).update(
            tournament_round=rnd, table_number=table.number, turn_deadline_seconds=tournament.turn_deadline_seconds,
            deadline_action=tournament.deadline_action, deadline_fallback=tournament.deadline_fallback,
            offline=tournament.offline_tables)  # a club evening's final is played with real cards too
        stored.append({"number": table.number, "units": list(table.units), "seats": list(table.seats),
                       "deal_id": table.deal_id, "seed": table.seed, "group": None, "rotation": 0,
                       "match": match.pk})
    rnd.tables = stored
    rnd.save(update_fields=["tables"])
    emit("round.seated", tournament_id=tournament.pk, round_number=index, match_ids=[t["match"] for t in stored])
    return rnd
