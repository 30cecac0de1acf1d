"""Reads of a tournament's final stage: the qualifying order the final's field is cut from, and the places its
finished tables gave (league.finals has the rules; league.services.finals seats the stages)."""

from __future__ import annotations

from typing import cast

from league.finals import StageTable, cut_order

from ..models import Match, MatchSeat, MatchStatus, RoundStatus, Tournament, TournamentRound
from .standings import tournament_standings


def qualifying_order(tournament: Tournament, rows=None) -> list[int]:
    """Every competitor by the qualifying standings (`rows`, else computed), ties after every tie-break drawn from the
    seed (league.finals)."""
    rows = rows if rows is not None else tournament_standings(tournament=tournament)
    # The standings are generic over competitors; a tournament's are player ids (or team numbers): ints.
    return cut_order([(cast(int, r.competitor), r.rank) for r in rows], tournament.seed)


def stage_tables(tournament: Tournament) -> list[StageTable[int]]:
    """The final's tables whose match has ended, with each player's place (a table that failed or was cancelled
    places its players level: the cut then goes by qualifying rank)."""
    out: list[StageTable[int]] = []
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
