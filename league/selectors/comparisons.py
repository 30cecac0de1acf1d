"""Reading comparisons (league.models.comparison) for the API, the website and the workers' routing."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from engine.sprt import elo_of

from ..models import Comparison, ComparisonPair
from ..models.match import IN_PLAY


def is_comparison_match(match_id: int) -> bool:
    """Whether the match is one game of a comparison's pair (its work goes to the comparisons queue)."""
    return ComparisonPair.objects.filter(Q(candidate_match_id=match_id) | Q(baseline_match_id=match_id)).exists()


def comparison_match_ids(match_ids: list[int]) -> set[int]:
    """Those of the matches that are games of a comparison's pair, in one query (the relay routes a page at once)."""
    pairs = ComparisonPair.objects.filter(Q(candidate_match_id__in=match_ids) | Q(baseline_match_id__in=match_ids))
    return {pk for pair in pairs.values_list("candidate_match_id", "baseline_match_id") for pk in pair} & set(match_ids)


def twin_in_play(match_id: int) -> bool:
    """Whether the match is one game of a comparison's pair whose other game is still in play (one indexed query;
    False for any other match)."""
    return match_id in twins_in_play([match_id])


def twins_in_play(match_ids: list[int]) -> set[int]:
    """Those of the matches that are one game of a comparison's pair whose other game is still in play, in one query
    (a list's page at once)."""
    if not match_ids:
        return set()
    rows = ComparisonPair.objects.filter(Q(candidate_match_id__in=match_ids) | Q(baseline_match_id__in=match_ids))
    out = set()
    for candidate_id, baseline_id, candidate_status, baseline_status in rows.values_list(
            "candidate_match_id", "baseline_match_id", "candidate_match__status", "baseline_match__status"):
        if baseline_status in IN_PLAY:
            out.add(candidate_id)
        if candidate_status in IN_PLAY:
            out.add(baseline_id)
    return out & set(match_ids)


def comparisons(*, bot_id: int | None = None) -> QuerySet[Comparison]:
    """Comparisons, newest first; with `bot_id`, those the bot played as candidate or baseline."""
    rows = Comparison.objects.select_related("candidate", "baseline", "owner")
    if bot_id is not None:
        rows = rows.filter(Q(candidate_id=bot_id) | Q(baseline_id=bot_id))
    return rows.order_by("-created_at", "-id")


def comparison_pages() -> QuerySet[Comparison]:
    """Comparisons with their two bots and their owner."""
    return Comparison.objects.select_related("candidate", "baseline", "owner")


def pair_at(comparison: Comparison, index: int) -> ComparisonPair | None:
    """The comparison's pair at `index` (0-based) with its two matches, or None."""
    return comparison.pair_set.select_related("candidate_match", "baseline_match").filter(index=index).first()


def pairs(comparison: Comparison) -> QuerySet[ComparisonPair]:
    return comparison.pair_set.order_by("index")


def _elo(difference: float) -> float | None:
    """The logistic Elo of a mean placement-score difference; None where infinite (JSON has no infinity)."""
    value = elo_of((1.0 + difference) / 2.0)
    return None if value in (float("inf"), float("-inf")) else round(value, 1)


def state(comparison: Comparison) -> dict:
    """The test's state as the API and the live page show it (never the salt)."""
    return {
        "status": comparison.status, "decision": comparison.decision, "stop_reason": comparison.stop_reason,
        "pairs": comparison.pairs, "max_pairs": comparison.max_pairs, "llr": comparison.llr,
        "lower_bound": comparison.lower_bound, "upper_bound": comparison.upper_bound,
        "mean_difference": comparison.mean_difference, "difference_low": comparison.difference_low,
        "difference_high": comparison.difference_high, "elo": _elo(comparison.mean_difference),
        "elo_low": _elo(comparison.difference_low), "elo_high": _elo(comparison.difference_high),
    }


def pair_rows(comparison: Comparison) -> list[dict]:
    return [{"index": p.index, "tested_seat": p.tested_seat, "status": p.status,
             "candidate_match": p.candidate_match_id, "baseline_match": p.baseline_match_id,
             "candidate_place": p.candidate_place, "baseline_place": p.baseline_place, "outcome": p.outcome,
             "llr": p.llr, "mean_difference": p.mean_difference} for p in pairs(comparison)]
