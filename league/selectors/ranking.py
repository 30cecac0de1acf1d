"""A tournament's final ranking: its qualifying standings, then what its final stage decided (league.finals).

Without a final the ranking is the standings. With one, Tournament.final_ranking says how the final counts:
- "final_decides" (the default): the final decides places 1..N by its tables (the last stage's table first, the
  game's placement: score, then the tie-break such as Diamonds' vault), everyone else follows in qualifying order;
- "added": the final's matches are added to the standings like any other round, ranked by the same points and
  tie-breaks.
Until the final's last stage is over the ranking is `provisional` (the qualifying order, with the final's finished
tables already placed).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from league.finals import final_decides_ranking

from ..models import FinalRanking, Tournament, TournamentStatus
from .finals import qualifying_order, stage_tables
from .standings import StandingRow, tournament_standings
from .standings_cache import cached_tournament_standings


@dataclass(frozen=True)
class RankingRow:
    rank: int
    shared: bool
    competitor: object
    name: str
    player_ids: tuple[int, ...]
    dropped: bool
    qualifying_rank: int
    stage: int  # the last stage of the final played (0: not in the final)
    stage_place: int | None  # the place at that stage's table
    metrics: dict = field(default_factory=dict)  # the qualifying standings' (with "added": the whole event's)


@dataclass(frozen=True)
class Ranking:
    final: bool  # the tournament has a final stage
    provisional: bool  # not over yet
    mode: str
    qualifying: list[StandingRow]
    rows: list[RankingRow]


def tournament_ranking(*, tournament: Tournament) -> Ranking:
    qualifying = cached_tournament_standings(tournament)  # the page's standings table reads the same
    by_competitor = {r.competitor: r for r in qualifying}
    provisional = tournament.status != TournamentStatus.FINISHED
    tables = stage_tables(tournament) if tournament.final_size else []
    last_stage: dict[Hashable, tuple[int, int | None]] = {}
    for t in tables:
        for c, place in t.places.items():
            last_stage[c] = (t.stage, place)
    if not tournament.final_size or tournament.final_ranking == FinalRanking.ADDED:
        standings = tournament_standings(tournament=tournament, include_final=True) if tables else qualifying
        rows = [RankingRow(r.rank, r.shared, r.competitor, r.name, r.player_ids, r.dropped,
                           by_competitor[r.competitor].rank, *last_stage.get(r.competitor, (0, None)), r.metrics)
                for r in standings]
    else:
        rows = []
        for ranked in final_decides_ranking(qualifying_order(tournament, qualifying), tables):
            q = by_competitor[ranked.competitor]
            rows.append(RankingRow(ranked.rank, ranked.shared, q.competitor, q.name, q.player_ids, q.dropped, q.rank,
                                   ranked.stage, ranked.stage_place, q.metrics))
    return Ranking(final=bool(tournament.final_size), provisional=provisional, mode=tournament.final_ranking,
                   qualifying=qualifying, rows=rows)
