"""What of a match's deal may be shown, and when: the one place of the seed-reveal rule.

The seed decides every deal, so knowing it during play would show every hand. A match's seed and nonce are shown
only once the match and every match sharing its deal have ended (its commitment, SHA-256 of `nonce:seed`, is public
from the start, so anyone can check the revealed pair afterwards). A duplicate round's tables and a comparison's
twin games share a deal: while one of them is played the others stay hidden from all but their own seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..models import Match, RoundStatus, TournamentFormat, TournamentRound
from ..models.match import IN_PLAY
from .comparisons import twin_in_play as comparison_twin_in_play


@dataclass(frozen=True)
class RevealedSeed:
    """A match's seed and nonce once they may be shown (nonce None for matches stored before commitments)."""

    seed: str
    nonce: str | None


def deal_still_in_play(match: Match) -> bool:
    """Whether the match is a table of a duplicate tournament round still being played, or a comparison's game whose
    twin is still being played: other matches share its deal, so what was dealt and played here must stay hidden
    from everyone else until they have ended."""
    rnd = match.tournament_round
    if rnd is not None:
        return rnd.status != RoundStatus.CLOSED and rnd.tournament.format == TournamentFormat.DUPLICATE
    # A comparison's pair (league.services.comparisons): its two games share the deal, so each stays hidden from
    # everyone but its own seats while its twin is played (an external bot's author must not read the twin's cards).
    return comparison_twin_in_play(match.pk)


def deal_revealed(match: Match) -> bool:
    """Whether the match's seed (and nonce) may be shown: the match has ended and so has every match sharing its
    deal. Twins are found by the seed itself: seeds come from the CSPRNG, so only a duplicate group's tables (or
    someone's practice seed chosen twice) share one; a duplicate round also stays hidden until it closes."""
    if match.status in IN_PLAY or deal_still_in_play(match):
        return False
    return not Match.objects.filter(seed=match.seed, status__in=IN_PLAY).exclude(pk=match.pk).exists()


def revealed_seed(match: Match) -> RevealedSeed | None:
    """The match's seed and nonce, or None while its deal may not be shown yet."""
    if not deal_revealed(match):
        return None
    return RevealedSeed(seed=match.seed, nonce=match.nonce or None)


def shown_tables(rnd: TournamentRound) -> list[dict[str, Any]]:
    """A round's seating as it may be shown: each table's seed decides its deals, so the seeds appear only once the
    round is closed (every match of it is over)."""
    if rnd.status == RoundStatus.CLOSED:
        return rnd.tables
    return [{k: v for k, v in table.items() if k != "seed"} for table in rnd.tables]


__all__ = ["RevealedSeed", "deal_revealed", "deal_still_in_play", "revealed_seed", "shown_tables"]
