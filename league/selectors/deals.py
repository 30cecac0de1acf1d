"""What of a match's deal and of its result may be shown, and when: the one place of the seed-reveal rule and of the
rule that holds back a comparison game's result.

The seed decides every deal, so knowing it during play would show every hand. A match's seed and nonce are shown
only once the match and every match sharing its deal have ended (its commitment, SHA-256 of `nonce:seed`, is public
from the start, so anyone can check the revealed pair afterwards). A duplicate round's tables and a comparison's
twin games share a deal: while one of them is played the others stay hidden from all but their own seats.

A comparison's twin that has ended shows nothing of how it went (scores, vaults, placements, winners, its final
state, its record, its announcement to webhooks and notifications) until the other game of its pair has ended too,
to anyone, its own seats included: `result_withheld`. Whoever plays or watches the other game (an author whose two
bots are compared, say) must not learn the first game's outcome, nor the deal's, while the second is played.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import prefetch_related_objects

from ..models import Match, MatchSeat, RoundStatus, TournamentFormat, TournamentRound
from ..models.match import IN_PLAY
from .comparisons import twin_in_play as comparison_twin_in_play
from .comparisons import twins_in_play as comparison_twins_in_play


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


def withheld_results(matches: Iterable[Match]) -> set[int]:
    """The ids of those of the matches whose result may not be shown yet (result_withheld), in one query."""
    ended = [m.pk for m in matches if m.status not in IN_PLAY]
    return comparison_twins_in_play(ended)


def result_withheld(match: Match) -> bool:
    """Whether the match has ended but nothing of its result may be shown yet: it is a comparison's game whose twin
    is still being played. A match in play has no result to hold back (what its seats see is league.selectors.live's
    and deal_still_in_play's)."""
    return bool(withheld_results([match]))


# The seat fields that tell how a match went, and what they read while it is withheld: what a match in play has.
RESULT_SEAT_FIELDS = {"score": None, "tiebreak": None, "showroom": None, "placement": None, "is_winner": False,
                      "forfeited": False, "forfeited_at_move": None}


def without_withheld_results(matches: Iterable[Match]) -> list[Match]:
    """The matches, listed, those whose result is withheld with it taken out of the rows as read (never saved):
    no result, and no score, vault, showroom, placement, winner or forfeit on their seats (as in play). Each match
    gets `result_withheld`, for the page to say why."""
    matches = list(matches)
    withheld = withheld_results(matches)
    # The seats blanked must be the ones the page reads: a match read without them gets them now, kept on it.
    prefetch_related_objects([m for m in matches if m.pk in withheld and not _seats_read(m)], "match_seats__player")
    for match in matches:
        setattr(match, "result_withheld", match.pk in withheld)  # noqa: B010  (read by the pages, never stored)
        if match.pk in withheld:
            match.result = None
            for seat in match.match_seats.all():
                _blank(seat)
    return matches


def seats_without_withheld_results(seats: Iterable[MatchSeat]) -> list[MatchSeat]:
    """Seats (each with its match) as without_withheld_results leaves them: those of a match whose result is
    withheld blanked, and marked `result_withheld`."""
    seats = list(seats)
    withheld = withheld_results({seat.match for seat in seats})
    for seat in seats:
        setattr(seat, "result_withheld", seat.match_id in withheld)  # noqa: B010  (read by the pages, never stored)
        if seat.match_id in withheld:
            _blank(seat)
    return seats


def _seats_read(match: Match) -> bool:
    return "match_seats" in getattr(match, "_prefetched_objects_cache", {})


def _blank(seat: MatchSeat) -> None:
    for name, blank in RESULT_SEAT_FIELDS.items():
        setattr(seat, name, blank)


__all__ = ["RESULT_SEAT_FIELDS", "RevealedSeed", "deal_revealed", "deal_still_in_play", "result_withheld",
           "revealed_seed", "seats_without_withheld_results", "shown_tables", "withheld_results",
           "without_withheld_results"]
