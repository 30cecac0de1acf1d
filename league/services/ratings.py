"""Ratings: the one place that turns a finished match into OpenSkill rating updates.

Every rated match updates the ratings of its players in one context, the match's ladder or (for rated tournament
matches) the global context of the match's game (Rating.game: skill at one game says little about another, so a
player has a global rating per game; a ladder is of one game and its ratings are its own), and writes one
RatingHistory row per player. Ranks come from the stored placements
(R-WIN-1; tied players share a rank); at partnership tables the teams are the OpenSkill teams. Applying a match's
ratings is guarded twice: the match row is locked and carries `ratings_applied`, and RatingHistory is unique per
player and match, so a task delivered again cannot rate a match twice.
"""

from __future__ import annotations

from functools import cache

from django.db import transaction
from django.utils import timezone
from openskill import models as openskill_models

from ..events import emit
from ..models import Ladder, LobbyTable, Match, MatchSeat, MatchStatus, Player, Rating, RatingHistory, RatingModel

DEFAULT_MODEL = RatingModel.PLACKETT_LUCE


@cache
def rating_model(name: str = DEFAULT_MODEL):
    """The OpenSkill model named `name` (one of RatingModel), with the library's default parameters."""
    if name not in RatingModel.values:
        raise ValueError(f"unknown rating model {name!r}; known: {', '.join(RatingModel.values)}")
    return getattr(openskill_models, name)()


def context_model(ladder: Ladder | None):
    return rating_model(ladder.rating_model if ladder is not None else DEFAULT_MODEL)


def initial_ordinal(ladder: Ladder | None = None) -> float:
    """The ordinal of a player who has no rating yet in the context."""
    return context_model(ladder).rating().ordinal()


def match_is_rated(match: Match) -> bool:
    """Whether the match counts for ratings (`is_rated`), reading only what the rule needs."""
    ladder_id, round_id = match.ladder_id, match.tournament_round_id
    # No query when round_id is None: Django then gives None for the round without asking the database.
    tournament_rated = (ladder_id is None and match.tournament_round is not None
                        and match.tournament_round.tournament.rated)
    in_rated_table = (ladder_id is None and round_id is None
                      and LobbyTable.objects.filter(match_id=match.pk, rated=True).exists())
    return is_rated(ladder_id=ladder_id, round_id=round_id, tournament_rated=tournament_rated,
                    in_rated_table=in_rated_table)


def is_rated(*, ladder_id: int | None, round_id: int | None, tournament_rated: bool = False,
             in_rated_table: bool = False) -> bool:
    """The rule: ladder matches always; tournament and lobby matches when their tournament or table is rated (a
    lobby table's in the game's global context, as tournaments'); anything else never. Also for callers that read
    these facts in a query of their own (league.services.match_finished.on_match_finished)."""
    if ladder_id is not None:
        return True
    if round_id is not None:
        return bool(tournament_rated)
    return bool(in_rated_table)


def _ratings_for_update(players: list[Player], ladder: Ladder | None, game: str) -> dict[int, Rating]:
    """The players' rating rows in the context (the ladder, or the global context of `game`), created at the
    model's defaults where missing, locked (in player order, so that two matches sharing players lock in the same
    order)."""
    model = context_model(ladder)
    ids = sorted(p.pk for p in players)
    context: dict[str, Ladder | str | None] = (
        {"ladder": ladder} if ladder is not None else {"ladder": None, "game": game})

    def locked() -> dict[int, Rating]:
        return {r.player_id: r for r in Rating.objects.select_for_update().filter(player_id__in=ids, **context)
                .order_by("player_id")}

    rows = locked()
    missing = [pid for pid in ids if pid not in rows]
    if missing:
        fresh = model.rating()
        Rating.objects.bulk_create(
            [Rating(player_id=pid, ladder=ladder, game=game, mu=fresh.mu, sigma=fresh.sigma, ordinal=fresh.ordinal())
             for pid in missing],
            ignore_conflicts=True,  # a concurrent first match of the same player created it meanwhile
        )
        rows = locked()
    return rows


@transaction.atomic
def apply_match_ratings(*, match_id: int) -> bool:
    """Rate a finished match once: True if this call applied it, False if it was already applied, is not
    finished or is not rated."""
    match = Match.objects.select_for_update(of=("self",)).select_related("ladder").get(pk=match_id)
    if match.ratings_applied or match.status != MatchStatus.FINISHED:
        return False
    if not match_is_rated(match):
        return False
    seats = list(MatchSeat.objects.filter(match=match).select_related("player").order_by("seat"))
    placements = {s.pk: s.placement for s in seats if s.placement is not None}
    if len(placements) < len(seats):
        return False
    ladder = match.ladder
    model = context_model(ladder)
    # A ladder's match is of the ladder's game, so match.game names the rows' game in both contexts.
    rows = _ratings_for_update([s.player for s in seats], ladder, match.game)

    # OpenSkill teams: one per team index (a seat on its own without partnerships), ranked by placement.
    teams: dict[int, list[MatchSeat]] = {}
    for s in seats:
        teams.setdefault(s.team, []).append(s)
    order = sorted(teams)
    before = [[model.rating(mu=rows[s.player_id].mu, sigma=rows[s.player_id].sigma) for s in teams[t]]
              for t in order]
    ranks = [min(placements[s.pk] for s in teams[t]) for t in order]
    after = model.rate(before, ranks=ranks)

    now = timezone.now()
    history = []
    for t, team_before, team_after in zip(order, before, after):
        for s, old, new in zip(teams[t], team_before, team_after):
            row = rows[s.player_id]
            row.mu, row.sigma, row.ordinal = new.mu, new.sigma, new.ordinal()
            row.matches += 1
            row.updated_at = now
            history.append(RatingHistory(player_id=s.player_id, ladder=ladder, match=match, mu_before=old.mu,
                                         sigma_before=old.sigma, mu=new.mu, sigma=new.sigma, ordinal=new.ordinal()))
    Rating.objects.bulk_update(list(rows.values()), ["mu", "sigma", "ordinal", "matches", "updated_at"])
    RatingHistory.objects.bulk_create(history)
    Match.objects.filter(pk=match.pk).update(ratings_applied=True)
    if ladder is not None:
        emit("ladder.changed", ladder_id=ladder.pk)  # its open pages show the new ratings (web.push)
    return True
