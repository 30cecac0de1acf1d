"""An organiser corrects a finished match's result; the correction is kept with the result before and after.

Winners and placements follow from the corrected scores and vaults by R-WIN-1 (highest score, then vault; ties
share), so a correction cannot make them disagree with its own numbers; a team with a forfeited seat stays last
(league.standings.forfeit_places).

Corrections are Diamonds' (vault and showroom are its terms; a seat's `tiebreak` holds the vault). The games stored
as their choices derive a result no organiser's numbers could be checked against (Diamoniak's places depend on who
finished a castle first), so a correction of one of them is refused (NotCorrectable).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from ..limits import MAX_RESULT_AMOUNT
from ..models import Match, MatchSeat, MatchStatus, ResultCorrection
from ..standings import forfeit_places


class CorrectionError(ValueError):
    """A correction whose numbers do not fit the match's table or the rules (R-SCORE-1)."""


class NotCorrectable(CorrectionError):
    """The match has no result to correct (it is not finished)."""


@transaction.atomic
def correct_result(
    *, match: Match, user, reason: str, vault: Sequence[int], showroom: Sequence[int],
    score: Sequence[int] | None = None,
) -> ResultCorrection:
    """Replace the result with the given vaults and showrooms; the scores follow by R-SCORE-1 (if `score` is given
    it must agree)."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.game != "diamonds":
        raise NotCorrectable(f"match {match.pk} is a {match.game} match: only Diamonds results are corrected")
    if match.status != MatchStatus.FINISHED or match.result is None:
        raise NotCorrectable(f"match {match.pk} is {match.status}: only a finished match's result is corrected")
    if not reason.strip():
        raise CorrectionError("a correction needs a reason")
    teams = len(match.result["score"])
    if not (len(vault) == len(showroom) == teams) or (score is not None and len(score) != teams):
        raise CorrectionError(f"the result has {teams} entries (per seat, or per team with partners)")
    if any(v < 0 for v in vault) or any(s < 0 for s in showroom):
        raise CorrectionError("vaults and showrooms hold no negative amounts")
    if any(v > MAX_RESULT_AMOUNT for v in (*vault, *showroom)):
        raise CorrectionError(f"vaults and showrooms hold at most {MAX_RESULT_AMOUNT}")
    derived = [2 * vault[t] + showroom[t] for t in range(teams)]  # R-SCORE-1
    if score is not None and list(score) != derived:
        raise CorrectionError(f"R-SCORE-1: score is 2 x vault + showroom, {derived}, not {list(score)}")
    score = derived
    key = [(score[t], vault[t]) for t in range(teams)]
    best = max(key)
    after = {"score": list(score), "vault": list(vault), "showroom": list(showroom),
             "winners": [t for t in range(teams) if key[t] == best]}
    before = match.result
    rows = list(MatchSeat.objects.filter(match=match))
    lost = {row.team for row in rows if row.forfeited}
    placement = forfeit_places(key, [t in lost for t in range(teams)])
    for row in rows:
        t = row.team
        row.score, row.tiebreak, row.showroom = score[t], vault[t], showroom[t]
        row.placement = placement[t]
        row.is_winner = placement[t] == 1 if lost else t in after["winners"]
    MatchSeat.objects.bulk_update(rows, ["score", "tiebreak", "showroom", "placement", "is_winner"])
    Match.objects.filter(pk=match.pk).update(result=after)
    return ResultCorrection.objects.create(match=match, corrected_by=user, reason=reason, before=before, after=after)
