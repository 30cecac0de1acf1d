"""Reads about ratings: the ratings (a player's global one per game, one per ladder) and their histories.

A global rating's history is that of its game's rated matches: the player's other games' ratings share its
(player, no ladder) rows."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import Ladder, Player, Rating, RatingHistory


def ratings() -> QuerySet[Rating]:
    """Ratings with their player."""
    return Rating.objects.select_related("player")


def ratings_in_scope(found: QuerySet[Rating], scope: str) -> QuerySet[Rating]:
    """Those of `found` that are global ratings (`scope` "global") or ladder ratings (any other)."""
    return found.filter(ladder__isnull=scope == "global")


def history_rows() -> QuerySet[RatingHistory]:
    """Every rating history entry, oldest first."""
    return RatingHistory.objects.order_by("created_at", "id")


def rating_history(rating: Rating) -> QuerySet[RatingHistory]:
    """One rating's history, oldest first: one entry per rated match."""
    rows = RatingHistory.objects.filter(player_id=rating.player_id)
    if rating.ladder_id is None:
        # the global rating of this game, not the player's others
        rows = rows.filter(ladder__isnull=True, match__game=rating.game)
    else:
        rows = rows.filter(ladder_id=rating.ladder_id)
    return rows.order_by("created_at", "id")


def rating_points(rating: Rating) -> list[float]:
    """The rating's ordinal after each rated match, oldest first (a chart's points)."""
    return list(rating_history(rating).values_list("ordinal", flat=True))


def ladder_ratings(ladder: Ladder) -> list[Rating]:
    """The ladder's ratings, best first, with their players."""
    return list(Rating.objects.filter(ladder=ladder).select_related("player").order_by("-ordinal"))


def ladder_points(ladder: Ladder, players: list[Player]) -> dict[int, list[float]]:
    """The players' ordinals in the ladder after each rated match, oldest first, by player id (one query)."""
    points: dict[int, list[float]] = {p.pk: [] for p in players}
    for player_id, ordinal in (RatingHistory.objects.filter(ladder=ladder, player__in=players)
                               .order_by("created_at", "id").values_list("player_id", "ordinal")):
        points[player_id].append(ordinal)
    return points


def player_ratings(player: Player) -> list[Rating]:
    """The player's ratings by game, then ladder name (the global one first), with their ladders."""
    return list(Rating.objects.filter(player=player).select_related("ladder").order_by("game", "ladder__name"))
