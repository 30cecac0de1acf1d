"""Tables played with real cards (Match.offline): entering their results, confirming them, and settling disputes.

An offline table is seated like any other (players, seats, first dealer) but the server deals nothing, plays no bot
and runs no turn deadline on it (league.services.play and .decisions leave it alone; a tournament round starts no
worker for it). Its result is entered instead, on the table's phone or by an organiser, and checked by the game's
pure function (engine/<game>/offline.py, through its GameType). Every version entered is kept (ResultEntry, the
audit trail), and one becomes final as in Tabbycat's ballot confirmation:

- a player at the table enters the figures (signed in, or through their private link without an account:
  league.models.PrivateLink, `player=`): the version is `entered`; they may enter again before anyone confirms
  (their earlier version is `superseded`);
- another player at the table confirms it (or enters the very same figures, which confirms it too); nobody confirms
  their own entry;
- another player at the table enters different figures: both versions are `disputed`, and the table waits for an
  organiser, who confirms one of them or enters the final figures (`resolved`; the others `superseded`);
- an organiser's own entry is final at once (`confirmed`, or `resolved` when it settles a dispute): they enter on
  behalf of the table, and an organiser who also plays at the table is trusted the same way (docs/organisers.md says
  so).

The final version finishes the match exactly as a played match's end does: its seats get the score, tie-break,
showroom, placement and winner flag the game's standing gives (engine.common.offline returns them in that shape), the
match its result JSON, and then `on_match_finished` runs after the commit: ratings, the round closing, the next
round with auto-advance. A finished Diamonds table is corrected later through league.services.corrections.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.common.offline import OfflineResult
from engine.games import game_type

from ..events import emit
from ..models import EntryStatus, Match, MatchSeat, MatchStatus, OutboxKind, Player, ResultEntry, RoundStatus
from ..models.match import IN_PLAY
from ..models.result_entry import OPEN_STATUSES
from ..permissions import organises
from ..selectors.live import seats_of_user
from . import outbox
from .match_finished import on_match_finished
from .matches import turn_deadline_for


class OfflineResultError(ValueError):
    """A step the table's state does not allow (an online match, a result already final): the API's 409."""


class NotAtTable(PermissionError):
    """The user is neither a player at the table nor one of the club's organisers: the API's 403."""


def _seats_of_player(match: Match, player: Player) -> list[int]:
    """The seats a player (through their private link) holds at `match`: never a bot's."""
    return list(MatchSeat.objects.filter(match=match, player=player, player__bot_kind="")
                .order_by("seat").values_list("seat", flat=True))


def _reporter(match: Match, user, player: Player | None) -> tuple[list[int], bool]:
    """The seats the reporter holds at the table and whether they organise its club. Through a private link
    (`player`, no account) they are that player at their seats, never an organiser."""
    if player is not None:
        if user is not None:
            raise ValueError("a result is reported by an account or through a private link, not both")
        return _seats_of_player(match, player), False
    return table_seats_of(match, user), organises(user, match.club_id)


def _own(entry: ResultEntry, user, seats: list[int]) -> bool:
    """Whether the version is the reporter's own: entered by their account, or at their seat (by account or link)."""
    if user is not None and entry.entered_by_id == user.pk:
        return True
    return not entry.by_organiser and entry.entered_at_seat is not None and entry.entered_at_seat in seats


def table_seats_of(match: Match, user) -> list[int]:
    """The seats `user` plays at `match` in person (never a bot's seat)."""
    if user is None or not user.is_authenticated:
        return []
    return list(MatchSeat.objects.filter(match=match, player__user=user, player__bot_kind="")
                .order_by("seat").values_list("seat", flat=True))


def may_report(match: Match, user) -> bool:
    """Whether `user` may enter or confirm the table's result: a player at it, or the club's organisers."""
    return bool(table_seats_of(match, user)) or organises(user, match.club_id)


def may_see(match: Match, user) -> bool:
    """Whether `user` may read the table's result versions: anyone who may report, and any account seated at the
    table (an external bot's too: it reads, but holds no real cards, so it enters nothing)."""
    return may_report(match, user) or bool(seats_of_user(match, user))


def checked_figures(match: Match, figures: object) -> OfflineResult:
    """The figures checked against the match's game and ruleset (engine.common.offline.InvalidResult when they
    cannot be)."""
    kind = game_type(match.game)
    return kind.check_offline_result(kind.stored_ruleset(match.ruleset), figures)


def _locked_offline_match(match: Match) -> Match:
    match = Match.objects.select_for_update().get(pk=match.pk)
    if not match.offline:
        raise OfflineResultError(_("match %(id)s is played online: its result comes from its play") % {"id": match.pk})
    if match.status == MatchStatus.FINISHED:
        raise OfflineResultError(_("match %(id)s's result is already final; an organiser corrects it "
                                   "(corrections)") % {"id": match.pk})
    if match.status not in (MatchStatus.PENDING, MatchStatus.RUNNING):
        raise OfflineResultError(_("match %(id)s is %(status)s: no result is entered for it")
                                 % {"id": match.pk, "status": match.get_status_display()})
    return match


def _decide(entries, status: str, user, now, player: Player | None = None) -> None:
    for entry in entries:
        entry.status, entry.decided_by, entry.decided_by_player, entry.decided_at = status, user, player, now
    ResultEntry.objects.bulk_update(entries, ["status", "decided_by", "decided_by_player", "decided_at"])


@transaction.atomic
def enter_result(*, match: Match, user=None, figures: object, player: Player | None = None) -> ResultEntry:
    """A version of the table's result from a player at it (by their account, or through their private link: `player`
    and no `user`) or an organiser (see the module docstring for what follows). Raises NotAtTable, OfflineResultError,
    or engine.common.offline.InvalidResult naming every wrong figure; any refusal changes nothing."""
    match = _locked_offline_match(match)
    seats, organiser = _reporter(match, user, player)
    if not seats and not organiser:
        raise NotAtTable(_("only the players at this table and the club's organisers enter its result"))
    checked = checked_figures(match, figures)
    now = timezone.now()
    _announce_table(match)  # entered, confirmed or disputed: the round's table shows it
    open_entries = list(ResultEntry.objects.select_for_update().filter(match=match, status__in=OPEN_STATUSES))
    new = ResultEntry(match=match, entered_by=user, entered_by_player=player,
                      entered_at_seat=seats[0] if seats else None,
                      by_organiser=organiser, figures=checked.figures, result=checked.result)
    if organiser:
        disputed = any(e.status == EntryStatus.DISPUTED for e in open_entries)
        new.status = EntryStatus.RESOLVED if disputed else EntryStatus.CONFIRMED
        new.decided_by, new.decided_at = user, now
        _decide(open_entries, EntryStatus.SUPERSEDED, user, now)
        new.save()
        _finish(match, checked, now)
        return new
    mine = [e for e in open_entries if _own(e, user, seats)]
    others = [e for e in open_entries if not _own(e, user, seats)]
    repeated = next((e for e in mine if e.figures == checked.figures), None)
    if repeated is not None:
        return repeated  # the same figures sent twice (a double tap, a resent form): nothing changes
    same = [e for e in others if e.status == EntryStatus.ENTERED and e.figures == checked.figures]
    if same:
        # The same figures from another player at the table: that is a confirmation of theirs.
        _decide(mine, EntryStatus.SUPERSEDED, user, now, player)
        return _confirm(match, same[0], user, now, checked, player)
    _decide(mine, EntryStatus.SUPERSEDED, user, now, player)  # a player's new version replaces their own open one
    if others:
        # Different figures from another player: the table disagrees, and an organiser settles it.
        _decide([e for e in others if e.status == EntryStatus.ENTERED], EntryStatus.DISPUTED, None, None)
        new.status = EntryStatus.DISPUTED
    new.save()
    return new


@transaction.atomic
def confirm_result(*, match: Match, user=None, entry_id: int, player: Player | None = None) -> ResultEntry:
    """Confirm an entered version: another player at the table (not its enterer; by account, or through a private
    link: `player`), or an organiser, who alone may also pick a disputed version (it becomes `resolved`). The other
    open versions are superseded and the match finishes with it."""
    match = _locked_offline_match(match)
    seats, organiser = _reporter(match, user, player)
    if not seats and not organiser:
        raise NotAtTable(_("only the players at this table and the club's organisers confirm its result"))
    entry = ResultEntry.objects.select_for_update().filter(match=match, pk=entry_id).first()
    if entry is None or entry.status not in OPEN_STATUSES:
        raise OfflineResultError(_("match %(id)s has no version %(entry)s waiting for confirmation")
                                 % {"id": match.pk, "entry": entry_id})
    if not organiser:
        if _own(entry, user, seats):
            raise OfflineResultError(_("you entered this version: another player at the table or an organiser "
                                       "confirms it"))
        if entry.status == EntryStatus.DISPUTED:
            raise OfflineResultError(_("the table disagrees about this result: an organiser settles it"))
    now = timezone.now()
    # Checked again: a version is final only if the rules allow it now (they are pure, so this cannot differ).
    return _confirm(match, entry, user, now, checked_figures(match, entry.figures), player)


def _confirm(match: Match, entry: ResultEntry, user, now, checked: OfflineResult,
             player: Player | None = None) -> ResultEntry:
    status = EntryStatus.RESOLVED if entry.status == EntryStatus.DISPUTED else EntryStatus.CONFIRMED
    others = list(ResultEntry.objects.filter(match=match, status__in=OPEN_STATUSES).exclude(pk=entry.pk))
    _decide(others, EntryStatus.SUPERSEDED, user, now, player)
    _decide([entry], status, user, now, player)
    _finish(match, checked, now)
    return entry


def _finish(match: Match, checked: OfflineResult, now) -> None:
    """Finish the match with the checked result, as a played match finishes (league.services.progress stores a
    played one's seats the same way), and hand it to on_match_finished once the transaction commits."""
    rows = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    for row in rows:
        s = row.seat
        row.score, row.tiebreak, row.placement = checked.score[s], checked.tiebreak[s], checked.places[s]
        row.showroom = checked.showroom[s] if checked.showroom is not None else None
        row.is_winner = s in checked.winners
        row.awaiting = False
    MatchSeat.objects.bulk_update(rows, ["score", "tiebreak", "showroom", "placement", "is_winner", "awaiting"])
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, result=checked.result, finished_at=now,
                                             started_at=match.started_at or now, updated_at=now, deadline_at=None)
    emit("match.finished", match_id=match.pk, round_id=match.tournament_round_id, ladder_id=match.ladder_id)
    match_id = match.pk
    transaction.on_commit(lambda: on_match_finished(match_id=match_id))


def _announce_table(match: Match) -> None:
    """Tell the open pages of the match's tournament that its table changed (after the commit: league.events)."""
    rnd = match.tournament_round
    if rnd is not None:
        emit("tournament.changed", tournament_id=rnd.tournament_id)


@transaction.atomic
def set_offline(*, match: Match, offline: bool) -> Match:
    """Switch a table that has not begun between real cards and online play (a mixed evening). A table switched
    online in a round already running is sent to the workers like the round's other tables."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.offline == offline:
        return match
    # Begun: a decision stored, or a result entered. A live table waiting for its first decision has not begun.
    if match.status not in IN_PLAY or match.move_number or match.result_entries.exists():
        raise OfflineResultError(_("match %(id)s has begun: only a table that has not begun changes how it is "
                                   "played") % {"id": match.pk})
    if not offline and MatchSeat.objects.filter(match=match, player__guest_club__isnull=False).exists():
        raise OfflineResultError(_("a guest sits at match %(id)s: a guest has no account, so plays only with real "
                                   "cards") % {"id": match.pk})
    # Online, the table is played here: it gets the league's default deadline if it had none (no match waits for
    # ever, league.services.matches.turn_deadline_for).
    seconds = turn_deadline_for([ms.player for ms in match.match_seats.select_related("player")],
                                match.turn_deadline_seconds, offline=offline)
    Match.objects.filter(pk=match.pk).update(offline=offline, deadline_at=None, turn_deadline_seconds=seconds)
    match.offline, match.deadline_at, match.turn_deadline_seconds = offline, None, seconds
    _announce_table(match)
    if offline:  # nobody owes the server a decision at a table of real cards
        MatchSeat.objects.filter(match=match, awaiting=True).update(awaiting=False)
    rnd = match.tournament_round
    if not offline and (rnd is None or rnd.status == RoundStatus.RUNNING):
        outbox.record(kind=OutboxKind.PLAY_MATCH, match_id=match.pk)
    return match
