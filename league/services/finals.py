"""Seating a tournament's final stage: after the last qualifying round, the best Tournament.final_size by the
qualifying standings go on to the final, seated by rank; after each stage but the last, the best `final_advance`
of each table go on to the next. league.finals has the rules (the cut, the snake seating, the ranking); this module
loads what they need and stores the stage as a TournamentRound with `stage` 1, 2... whose tables are ordinary
matches (seated as any round is, league.services.rounds.seat_tables; started, played and closed as any round:
league.services.advancing). The final's reads (the qualifying order, the stages' places) are league.selectors.finals.

Partnership and duplicate tournaments have no final stage (refused when the tournament is set up): a final seats
single players by rank, which neither format's seating keeps.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from engine.games import game_type
from league.finals import StageTable, advancing, plan_stages, seat_by_rank
from league.scheduling import Table

from ..models import RoundStatus, Tournament, TournamentFormat, TournamentRound
from ..selectors.finals import qualifying_order, stage_tables
from .competition import TournamentError
from .evening import present_entries
from .rounds import seat_tables


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
        raise TournamentError(_("stage %(stage)d of the final of %(tournament)s seats %(wanted)d players; only "
                                "%(n)d can play it") % {"stage": stage, "tournament": tournament, "wanted": wanted,
                                                        "n": len(field)})
    return field


@transaction.atomic
def seat_final_stage(*, tournament: Tournament) -> TournamentRound:
    """Seat the final's next stage (not started): TournamentError when there is none to seat, the round before it
    is not over, or too few players are left for it."""
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
    return seat_tables(tournament, rnd, planned, players, first_dealer=0)  # the best seed acts first
