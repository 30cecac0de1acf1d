"""Live play: the decisions of people and external bots, the engine bots' turns between them, and turn deadlines.

A match with people (or external bots) at the table is played one decision at a time:
- `submit_decision` applies one seat's decision arriving through the API. It locks the match row
  (select_for_update), loads the game back from the stored rows (league.selectors.games), checks that the caller
  owns the seat the decision is for and that the decision was made against the current move, lets the engine
  apply it and stores the new events with league.services.progress in the same transaction. Any refusal raises a
  `DecisionRefused` before anything is written, so bad input changes nothing. Both front ends (api.play, web.play)
  call it as `submit_user_decision`, for an account: the account's seat is found among the seats read under the
  lock, so a request reads the match and its seats once.
- `advance_match` plays the engine bots' seats (in a worker, workers.tasks.advance_match) until a person's or an
  external bot's decision is pending, in one transaction under the same row lock, so a person's decision and a bot's
  never interleave.
- `play_overdue` plays an overdue pending decision with the match's fallback bot (workers.tasks.enforce_turn_deadlines).

What a missed deadline costs is the match's `deadline_action` (a tournament copies its own onto every table):
- "fallback": the fallback bot makes the overdue decision only; the seat's next decision is its own again.
- "forfeit": the late seat forfeits. Decision: the game is not stopped or cut short. From then on the fallback bot
  makes every decision of that seat, so the other seats' game goes on to its natural end and the stored record
  stays a complete, legal diamonds-record/1 game (its result is the game's own score). The seat is recorded as
  forfeited (`MatchSeat.forfeited`, with `forfeited_at_move`, the move number whose decision it missed), its owner's
  later decisions are refused, and when the game ends the league places it, its team with partnerships, last at
  the table whatever its score (league.standings.forfeit_places), so it earns the table's last-place match points.
Either way a seat that lets DIAMONDS_FORFEIT_AFTER_MISSES deadlines pass in a row (no decision of its own between
them) has left the table: it forfeits as above whatever the action, so a match nobody plays any more is played to
its end by the fallback bot within that many deadlines per absent seat, and never waits for ever.
Both are idempotent: the step that plays an overdue decision sets the next deadline (or none) in the same
transaction, so a second run of the beat task finds nothing overdue; a seat forfeits once.

Every table with a person or an external bot has a deadline (league.services.matches.turn_deadline_for, where each
match is created); `give_deadlines` is the beat task's sweep for rows from before that rule or edited by hand.

A table may also play on a chess clock (league.services.clocks): each step runs its seats' clocks, a decision's
deadline is then its seat's clock running out, and a seat whose clock ran out is late for good: under "fallback" the
fallback bot plays it to the end (it is `out_of_time`, not forfeited), under "forfeit" it forfeits. A decision that
arrives after its seat's time ran out is refused (OutOfTime) and the policy applied at once (play_overdue).

After each step the seats whose decision is awaited are flagged (`MatchSeat.awaiting`, read by the turns long-poll)
and the turn deadline is set. Passes stay secret until the exchange: they are stored on the round row, which only
league.selectors.live and league.selectors.records read, and both hide them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from typing import cast

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import PASS_CARDS, Game, IllegalDecision
from engine.games import FALLBACK_BOTS, GAMES, game_type

from ..events import emit
from ..limits import check_turn_deadline
from ..models import DeadlineAction, Match, MatchSeat, MatchStatus, OutboxKind, Player
from ..models.match import IN_PLAY
from ..selectors.clocks import clock_json
from ..selectors.games import StoredPlayError, load_match_game
from ..selectors.live import legal_decisions, match_game, undated_live_match_ids
from ..selectors.prepared import PreparedQuery
from ..turn_signals import announce_turns
from . import clocks, outbox
from .matches import turn_deadline_for
from .play import play_bot_match, seeded_for
from .progress import store_progress
from .stopping import PlayStopped, StopWatch


def fallback_bot_kind(game: str, name: str) -> str:
    """The bot of `game` that plays the fallback `name` (one of engine.games' FALLBACK_BOTS: the bots an organiser
    may choose to play overdue decisions, fast ones, since a worker plays them on a timer), as the game's GameType
    maps it (`fallback_bots`); ValueError naming the game's fallbacks for anything else."""
    kind = GAMES.get(game)
    bots = kind.fallback_bots if kind is not None else {}
    if name not in bots:
        known = ", ".join(bots) or "none"
        raise ValueError(f"{name!r} is not a fallback bot of {game!r}; its fallbacks: {known}")
    return bots[name]


class DecisionRefused(Exception):
    """A decision turned away before anything was stored. `status` is the HTTP status the API answers with, `code`
    a short machine-readable reason, `rule` the rule id when the engine refused it."""

    status = 400
    code = "invalid"

    def __init__(self, message: str, *, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule


class MalformedDecision(DecisionRefused):
    status, code = 400, "malformed"


class IllegalMove(DecisionRefused):
    status, code = 400, "illegal"


class NotYourSeat(DecisionRefused):
    status, code = 403, "not_your_seat"


class StaleMove(DecisionRefused):
    status, code = 409, "stale_move"


class MatchNotInPlay(DecisionRefused):
    status, code = 409, "not_in_play"


class SeatForfeited(DecisionRefused):
    status, code = 409, "forfeited"


class OutOfTime(DecisionRefused):
    """The seat's chess clock ran out (league.services.clocks): the match's deadline_action has been applied."""

    status, code = 409, "out_of_time"


class _ClockRanOut(Exception):
    """Inside _submit's transaction: the deciding seat's clock had run out when its decision arrived."""

    def __init__(self, seat: int):
        self.seat = seat


@dataclass
class DecisionOutcome:
    """The match after a stored decision: where it stands and whose decision is next."""

    match_id: int
    seat: int
    move_number: int
    pending: dict | None
    over: bool
    # What GET legal/ would answer now for the first of the caller's seats the match awaits, built from the game in
    # hand (no query): a bot holding that seat need not ask. None when none of the caller's seats is awaited, and
    # always for submit_decision (a player, not an account).
    legal: dict | None = None
    # The match's chess clocks after the decision (league.selectors.clocks.clock_json); None without a clock.
    clock: dict | None = None


def parse_decision(decision_json: object, game: str = "diamonds"):
    """The decision JSON as `game`'s Decision (its `from_json`), or MalformedDecision. A key the decision does not
    have is refused, not ignored: a bot that misspells one learns it at once instead of having a default played."""
    try:
        decision = game_type(game).parse_decision(decision_json)
    except (ValueError, TypeError, KeyError) as e:
        raise MalformedDecision(str(e)) from None
    # A dict: from_json refuses anything else.
    unknown = sorted(set(cast(dict, decision_json)) - set(decision.to_json()))
    if unknown:
        raise MalformedDecision(f"a {decision.kind} decision has no {', '.join(map(repr, unknown))}; it is "
                                f"{json.dumps(decision.to_json())}")
    return decision


def move_is_current(game, seat: int, move_number: int) -> bool:
    """Whether a decision made at `move_number` answers what `seat` owes now.

    Normally only the current move is. While cards are passed, every seat chooses at the same time and the others'
    choices (secret, and so not part of what the seat decided on) advance the move number; so for a seat that has
    yet to pass, any move since the pass count was chosen is current."""
    if move_number == game.move_number:
        return True
    pending = game.pending
    # Only Diamonds' pass exchange is simultaneous; the other games have one seat to decide at a time.
    if pending is not None and pending.kind == PASS_CARDS and seat in pending.seats and isinstance(game, Game):
        started = game.move_number - sum(game.pending_passes)
        return started <= move_number < game.move_number
    return False


def submit_decision(
    *, match: Match, player: Player, move_number: object, decision_json: object, seat: int | None = None
) -> DecisionOutcome:
    """Apply `player`'s decision to the match and store it, or raise a DecisionRefused having changed nothing.

    `seat` names the seat when the player's account holds several at this table; by default the player's own.
    Raises Match.DoesNotExist for an unknown match."""

    def choose(match: Match, rows: list[MatchSeat]) -> int:
        owned = [ms.seat for ms in rows if ms.player_id == player.pk]
        chosen = seat if seat is not None else (owned[0] if owned else None)
        if chosen is None or chosen not in owned:
            words = {"name": player.name, "seat": seat, "match": match.pk}
            raise NotYourSeat(_("%(name)s has no seat at match %(match)s") % words if seat is None
                              else _("%(name)s has no seat %(seat)s at match %(match)s") % words)
        return chosen

    return _submit(match.pk, choose, move_number, decision_json, seat_first=False)


def submit_user_decision(
    *, match_id: int, user, move_number: object, decision_json: object, seat: int | None = None
) -> DecisionOutcome:
    """submit_decision for an account (the API's and the match page's caller): its seat is found among the match's
    seats read under the lock, so the request reads the match and its seats once. The seat asked for (NotYourSeat
    if it is not the account's), else the one awaited, else the account's first. Refused as the API always
    refused: who before what (a caller without the seat hears 403 whatever it sent), then the decision's form, then
    the match's state. Raises Match.DoesNotExist for an unknown match."""

    def mine_of(rows: list[MatchSeat]) -> list[MatchSeat]:
        return [ms for ms in rows if ms.player.user_id is not None and ms.player.user_id == user.pk]

    def choose(match: Match, rows: list[MatchSeat]) -> int:
        mine = mine_of(rows)
        if seat is not None:
            if any(ms.seat == seat for ms in mine):
                return seat
            raise NotYourSeat(_("seat %(seat)s of match %(match)s is not yours") % {"seat": seat, "match": match.pk})
        if not mine:
            raise NotYourSeat(_("you have no seat at match %(match)s") % {"match": match.pk})
        return next((ms for ms in mine if ms.awaiting), mine[0]).seat

    return _submit(match_id, choose, move_number, decision_json, seat_first=True, caller_seats=mine_of)


def _submit(match_id: int, choose_seat, move_number: object, decision_json: object, *,
            seat_first: bool, caller_seats=None) -> DecisionOutcome:
    """The decision's one transaction: lock the match, check, apply, store. `choose_seat(match, rows)` names the
    deciding seat or raises NotYourSeat; with `seat_first` it is asked before the decision's form is judged. The form
    is judged by the match's game, so once its row is read (a malformed decision took the lock for nothing: rare,
    and it still changes nothing)."""
    # The decision's time, for its seat's clock: when it arrived, not when the match's lock was free.
    now = timezone.now()
    if not isinstance(move_number, int) or isinstance(move_number, bool):
        malformed_move = MalformedDecision(_("move_number must be an integer: the move number of the state the "
                                             "decision answers"))
        if not seat_first:
            raise malformed_move
    else:
        malformed_move = None
    try:
        return _submit_locked(match_id, choose_seat, move_number, decision_json, seat_first=seat_first,
                              caller_seats=caller_seats, malformed_move=malformed_move, now=now)
    except _ClockRanOut as e:
        # Nothing was written: the seat's time had run out before its decision came. The table's policy applies now,
        # as the beat task would apply it moments later (play_overdue finds the clock's deadline passed).
        play_overdue(match_id=match_id, now=now)
        raise OutOfTime(_("seat %(seat)s of match %(match)s has run out of time on its clock") % {
            "seat": e.seat, "match": match_id}) from None


def _submit_locked(match_id: int, choose_seat, move_number: object, decision_json: object, *, seat_first: bool,
                   caller_seats, malformed_move: DecisionRefused | None, now) -> DecisionOutcome:
    with transaction.atomic():
        match = _locked_match(match_id)
        if match is None:
            raise Match.DoesNotExist(f"no match {match_id}")
        rows = _seats_with_players(match)
        if seat_first:
            seat = choose_seat(match, rows)
            if malformed_move is not None:
                raise malformed_move
        decision = parse_decision(decision_json, match.game)
        if match.status not in (MatchStatus.PENDING, MatchStatus.RUNNING):
            raise MatchNotInPlay(_("match %(match)s is %(status)s") % {"match": match.pk,
                                                                      "status": match.get_status_display()})
        if match.offline:
            raise MatchNotInPlay(_("match %(match)s is played with real cards: its result is entered, not its moves")
                                 % {"match": match.pk})
        if not seat_first:
            seat = choose_seat(match, rows)
        if rows[seat].player.is_engine_bot:
            raise NotYourSeat(_("seat %(seat)s is played by the engine bot %(bot)s") % {
                "seat": seat, "bot": repr(rows[seat].player.bot_kind)})
        if rows[seat].forfeited:
            raise SeatForfeited(_("seat %(seat)s forfeited at move %(move)s: the fallback bot plays it to the end") % {
                "seat": seat, "move": rows[seat].forfeited_at_move})
        if rows[seat].out_of_time:
            raise OutOfTime(_("seat %(seat)s ran out of time on its clock: the fallback bot plays it to the end") % {
                "seat": seat})
        try:
            # The locked row names the stored state, so a cached game at its move number is that state.
            game, marks = load_match_game(match, cached=True)
        except StoredPlayError as e:
            raise MatchNotInPlay(_("match %(match)s cannot be loaded: %(error)s") % {
                "match": match.pk, "error": e}) from None
        # An int by now: anything else raised malformed_move above.
        if not move_is_current(game, seat, cast(int, move_number)):
            raise StaleMove(_("match %(match)s is at move %(move)s, not %(sent)s") % {
                "match": match.pk, "move": game.move_number, "sent": move_number})
        before = game.pending
        if clocks.ran_out(rows, {seat}, now):
            raise _ClockRanOut(seat)
        try:
            game.apply(seat, decision)
        except IllegalDecision as e:
            raise IllegalMove(e.message, rule=e.rule) from None
        if rows[seat].late_in_row:
            # Its own decision: the seat is back, and its misses in a row start again from none.
            MatchSeat.objects.filter(pk=rows[seat].pk).update(late_in_row=0)
            rows[seat].late_in_row = 0
        bots_next = _store_step(match, game, marks, rows, before, now=now, decided=seat)
        if bots_next or game.over:
            # The worker plays the engine bots now pending, or does what follows a finished match (ratings, the
            # tournament round).
            _enqueue_advance(match.pk)
    pending = game.pending
    legal = None
    if caller_seats is not None and not game.over:
        # _store_step set the rows' awaited flags to the stored state, so this is the seat GET legal/ (without
        # `seat`) would pick, and only ever one of the caller's own (its hand is in it). The game is this request's
        # own object, not the cache's, so reading it after the commit is safe.
        awaited = next((ms.seat for ms in caller_seats(rows) if ms.awaiting), None)
        if awaited is not None:
            legal = legal_decisions(game, awaited)
    return DecisionOutcome(
        match_id=match.pk, seat=seat, move_number=game.move_number, over=game.over,
        pending=None if pending is None else {"kind": pending.kind, "seats": list(pending.seats),
                                              "count": pending.count},
        legal=legal, clock=clock_json(match, rows, now),
    )


@dataclass
class AdvanceOutcome:
    match_id: int
    status: str  # played, waiting (a person's or external bot's turn; nothing to play), finished, missing, ...
    decisions: int = 0
    move_number: int = 0
    error: str = ""


def advance_match(*, match_id: int) -> AdvanceOutcome:
    """Play the engine bots' pending decisions until the match waits for a person or an external bot (or ends).

    A match of engine bots only is handed to play_bot_match, which stores it as it ends (or at checkpoints). Safe
    to call at any time and more than once: with no engine bot pending it only refreshes the awaited seats and the
    deadline."""
    rows = list(MatchSeat.objects.filter(match_id=match_id).select_related("player"))
    if rows and all(ms.player.is_engine_bot for ms in rows):
        outcome = play_bot_match(match_id=match_id)
        return AdvanceOutcome(match_id, outcome.status, move_number=outcome.move_number, error=outcome.error)
    return _advance(match_id, overdue=False, plan=_plan(match_id))


def _fallback_kind(match: Match) -> str:
    """The bot of the match's game that plays its overdue decisions (its GameType's fallback_bots)."""
    # An organiser may only have picked a fast bot (set_turn_deadline checks), but a row edited by hand could hold
    # anything: a timer-driven worker never thinks for long.
    name = match.deadline_fallback if match.deadline_fallback in FALLBACK_BOTS else "random"
    return fallback_bot_kind(match.game, name)


def _bot_seats(match: Match, rows) -> dict[int, tuple[str, dict]]:
    """The seats the workers play, with their bot kind and settings: engine bots, and seats that forfeited or whose
    clock ran out (played by the match's fallback bot)."""
    bots = {ms.seat: (ms.player.bot_kind, dict(ms.player.bot_settings or {})) for ms in rows
            if ms.player.is_engine_bot}
    bots.update({ms.seat: (_fallback_kind(match), {}) for ms in rows
                 if (ms.forfeited or ms.out_of_time) and ms.seat not in bots})
    return bots


def _bot_decision(match: Match, kind: str, settings: dict, seat: int, game):
    """What the engine bot at `seat` decides now: seeded by the match state alone (as play_bot_match does)."""
    game_kind = game_type(match.game)
    bot = seeded_for(game_kind.make_bot(kind, **settings), match, seat, game.move_number)
    return bot.decide(game_kind.view(game, seat))


def _plan(match_id: int) -> tuple[int, list[tuple[int, object]]] | None:
    """The engine bots' decisions from the stored state up to the next person's turn, thought out before taking
    the match's lock (a search bot may think for seconds, and on SQLite the lock is the whole database's).

    Returns the move number planned from and the decisions in order, or None. The decisions are the very ones the
    locked run would make (each bot is seeded by the move number, and stored play is never rewritten, so the game at
    that move number is the same game), so the locked run applies them if the match is still at that move."""
    match = Match.objects.filter(pk=match_id, status__in=(MatchStatus.PENDING, MatchStatus.RUNNING)).first()
    if match is None:
        return None
    bots = _bot_seats(match, MatchSeat.objects.filter(match=match).select_related("player"))
    if not bots:
        return None
    # Planning takes no lock, so a cancel can land meanwhile: stop thinking for a match that left play (the locked
    # run checks the status again before it stores anything, and holds the lock while it plays).
    watch = StopWatch(match_id)
    try:
        game = match_game(match)
        start, decisions = game.move_number, []
        while not game.over:
            todo = [s for s in game.pending.seats if s in bots]
            if not todo:
                break
            for seat in todo:
                watch.check()
                decision = _bot_decision(match, *bots[seat], seat, game)
                game.apply(seat, decision)
                decisions.append((seat, decision))
    except (StoredPlayError, IllegalDecision, ValueError, TypeError, PlayStopped):
        return None  # the locked run meets the same trouble (or the stopped match) and reports it
    return (start, decisions) if decisions else None


def play_overdue(*, match_id: int, now=None) -> AdvanceOutcome:
    """If the match's pending decision is past its deadline, let the fallback bot make it for the late seats, then
    play on to the next person's turn. Under `deadline_action` forfeit the late seats first forfeit (see the module
    docstring) and the fallback bot keeps playing them."""
    return _advance(match_id, overdue=True, now=now)


@transaction.atomic
def _advance(match_id: int, *, overdue: bool, now=None, plan=None) -> AdvanceOutcome:
    now = now or timezone.now()
    match = _locked_match(match_id)
    if match is None:
        return AdvanceOutcome(match_id, "missing")
    if match.status not in (MatchStatus.PENDING, MatchStatus.RUNNING):
        return AdvanceOutcome(match_id, f"not_in_play:{match.status}", move_number=match.move_number)
    if match.offline:  # played with real cards: no bot plays it and no deadline runs (offline_results)
        return AdvanceOutcome(match_id, "offline", move_number=match.move_number)
    if overdue and (match.deadline_at is None or match.deadline_at > now):
        return AdvanceOutcome(match_id, "not_overdue", move_number=match.move_number)
    rows = list(MatchSeat.objects.filter(match=match).select_related("player").order_by("seat"))
    try:
        game, marks = load_match_game(match, cached=True)
    except StoredPlayError as e:
        return _fail(match, str(e))
    before = game.pending
    bots = _bot_seats(match, rows)
    late = set()
    if overdue and before is not None:
        late = {s for s in before.seats if s not in bots}
        if match.clock_bank_seconds is not None:
            # A clocked table: only the seats whose own clocks have run out are late (the others' time still runs).
            # They are out of time for good: the fallback bot plays them from now on (under "forfeit" they forfeit).
            late = clocks.ran_out(rows, late, now)
            clocks.mark_out_of_time(rows, late)
    if late:
        # Counted per seat whatever the deadline costs: a bot's page and its pausing read them
        # (league.services.bot_pausing); and in a row, to tell a seat that has left.
        MatchSeat.objects.filter(match=match, seat__in=sorted(late)).update(timeouts=F("timeouts") + 1,
                                                                           late_in_row=F("late_in_row") + 1)
        for ms in rows:
            if ms.seat in late:
                ms.timeouts, ms.late_in_row = ms.timeouts + 1, ms.late_in_row + 1
        gone = {ms.seat for ms in rows if ms.seat in late and ms.late_in_row >= forfeit_after_misses()}
        forfeiting = set(late) if match.deadline_action == DeadlineAction.FORFEIT else gone
        if forfeiting:
            _forfeit(match, rows, forfeiting, game.move_number)
        bots = _bot_seats(match, rows)  # with the seats that forfeited, or ran out of time
        late -= set(bots)
    decisions = 0
    try:
        if plan is not None and plan[0] == game.move_number and not late:
            for seat, decision in plan[1]:  # thought out before the lock, from this very state
                game.apply(seat, decision)
                decisions += 1
        while not game.over:
            todo = [s for s in game.pending.seats if s in bots or s in late]
            if not todo:
                break
            for seat in todo:
                kind, settings = bots.get(seat) or (_fallback_kind(match), {})
                game.apply(seat, _bot_decision(match, kind, settings, seat, game))
                decisions += 1
            late.clear()  # the fallback makes only the overdue decision; the seat's next one is its own again
    except (IllegalDecision, ValueError, TypeError) as e:
        return _fail(match, f"{type(e).__name__}: {e}")
    if decisions or _awaiting_stale(rows, game):
        _store_step(match, game, marks, rows, before, now=now, force_deadline=overdue)
    elif overdue:
        # Nothing left to play for the late seats (none awaited any more, or a clock whose seat decided meanwhile):
        # the stale deadline goes, so the beat task does not come back to this match every time; a clocked table's
        # is its awaited seats' clocks' again.
        Match.objects.filter(pk=match.pk).update(deadline_at=clocks.deadline([], rows, _awaited(rows, game)))
    status = "finished" if game.over else ("played" if decisions else "waiting")
    return AdvanceOutcome(match_id, status, decisions, game.move_number)


def forfeit_after_misses() -> int:
    """How many deadlines in a row a seat may let pass before it counts as gone and forfeits."""
    return max(1, int(settings.DIAMONDS_FORFEIT_AFTER_MISSES))


def _forfeit(match: Match, rows: list[MatchSeat], seats: set[int], move_number: int) -> None:
    """Record that `seats` forfeited at `move_number`, in the caller's transaction (rows updated in place too)."""
    MatchSeat.objects.filter(match=match, seat__in=sorted(seats), forfeited=False).update(
        forfeited=True, forfeited_at_move=move_number)
    for ms in rows:
        if ms.seat in seats and not ms.forfeited:
            ms.forfeited, ms.forfeited_at_move = True, move_number


# Every decision runs these two: compiled once per process (league.selectors.prepared), the same SQL as the ORM's.
_LOCKED_MATCH = PreparedQuery(lambda pk: Match.objects.select_for_update().filter(pk=pk).order_by("pk")[:1], 1,
                              for_write=True)
_SEATS = PreparedQuery(lambda match_id: MatchSeat.objects.filter(match_id=match_id).select_related("player")
                       .order_by("seat"), 1)
_MATCH_FIELD = MatchSeat._meta.get_field("match")


def _seats_with_players(match: Match) -> list[MatchSeat]:
    """The match's seats in order with their players; each seat's `match` is `match` (as filter(match=match) gives)."""
    rows = _SEATS(match.pk)
    for ms in rows:
        _MATCH_FIELD.set_cached_value(ms, match)
    return rows


def _locked_match(match_id: int) -> Match | None:
    """The match row, locked until the transaction ends (None if there is no such match)."""
    if connection.vendor == "sqlite":
        # SQLite has no row locks (select_for_update does nothing) and two transactions that both read before they
        # write deadlock ("database is locked" at once). Writing first takes the database's write lock straight
        # away, waiting for it (the connection's timeout) like a row lock would.
        Match.objects.filter(pk=match_id).update(move_number=F("move_number"))
    found = _LOCKED_MATCH(match_id)
    return found[0] if found else None


def _awaiting_stale(rows: list[MatchSeat], game: Game) -> bool:
    """Whether the awaited-seat flags disagree with the game (a match no step has flagged yet)."""
    return {ms.seat for ms in rows if ms.awaiting} != _awaited(rows, game)


def _awaited(rows: list[MatchSeat], game: Game) -> set[int]:
    """The seats of people and external bots the game is waiting on (a seat that forfeited, or ran out of time, is
    the workers' to play)."""
    pending = game.pending
    if pending is None:
        return set()
    return {s for s in pending.seats
            if not rows[s].player.is_engine_bot and not rows[s].forfeited and not rows[s].out_of_time}


def _store_step(match: Match, game: Game, marks, rows: list[MatchSeat], before, *, now=None,
                force_deadline: bool = False, decided: int | None = None) -> bool:
    """Store what the game did, flag the awaited seats, run the clocks and set the deadline, in the caller's
    transaction; `decided` is the seat whose own decision the step holds (it earns its clock's increment).
    Returns whether an engine bot's decision is now pending (someone must play it)."""
    now = now or timezone.now()
    awaited = _awaited(rows, game)
    clock_changes = clocks.plan(match, rows, awaited, decided, now)
    if match.clock_bank_seconds is not None:
        deadline_at = clocks.deadline(clock_changes, rows, awaited)
    else:
        deadline_at = _deadline(match, game, awaited, before, now, force_deadline)
    extra: dict = {"deadline_at": deadline_at}
    if match.status == MatchStatus.PENDING:
        extra.update(status=MatchStatus.RUNNING, started_at=now)
    # The awaited-seat flags go in the same write as the step (one statement on PostgreSQL).
    store_progress(match=match, game=game, marks=marks, extra=extra,
                   forfeited=[ms.seat for ms in rows if ms.forfeited], awaiting=awaited)
    clocks.write(clock_changes)
    if "started_at" in extra:
        emit("match.started", match_id=match.pk, round_id=match.tournament_round_id, ladder_id=match.ladder_id)
    newly_awaited = sorted({user_id for s in awaited
                            if not rows[s].awaiting and (user_id := rows[s].player.user_id) is not None})
    announce_turns(newly_awaited)
    # "Your turn" is for people: a bot's account reads no notification, and a bots-only match (the ladders' hot
    # path) pays nothing for the event.
    people_awaited = [u for u in newly_awaited
                      if any(rows[s].player.user_id == u and not rows[s].player.bot_kind for s in awaited)]
    if people_awaited:
        emit("turn.awaited", match_id=match.pk, user_ids=people_awaited)
    for ms in rows:
        ms.awaiting = ms.seat in awaited
    pending = game.pending
    return pending is not None and any(s not in awaited for s in pending.seats)


def _deadline(match: Match, game: Game, awaited: set[int], before, now, force: bool):
    if not awaited or not match.turn_deadline_seconds:
        return None
    pending = game.pending
    # Seats passing at the same time share one deadline: another seat's pass does not give the late ones more time.
    same_exchange = (before is not None and before.kind == PASS_CARDS
                     and pending is not None and pending.kind == PASS_CARDS
                     and match.deadline_at is not None and not force)
    if same_exchange:
        return match.deadline_at
    return now + timedelta(seconds=match.turn_deadline_seconds)


def _fail(match: Match, error: str) -> AdvanceOutcome:
    # Callers hold the row lock on a match in play; the filter keeps a cancelled match cancelled all the same.
    Match.objects.filter(pk=match.pk, status__in=IN_PLAY).update(
        status=MatchStatus.FAILED, error=error, updated_at=timezone.now(), deadline_at=None)
    MatchSeat.objects.filter(match=match).update(awaiting=False)
    return AdvanceOutcome(match.pk, "failed", move_number=match.move_number, error=error)


def _enqueue_advance(match_id: int) -> None:
    """Record, in the caller's transaction, that a worker must advance the match (workers.tasks.advance_match)."""
    outbox.record(kind=OutboxKind.ADVANCE_MATCH, match_id=match_id)


def set_turn_deadline(*, match: Match, turn_deadline_seconds: int | None, deadline_fallback: str = "random",
                      deadline_action: str | None = None) -> Match:
    """Give a match (a tournament table, say) a turn deadline, and say what missing it costs (`deadline_action`;
    None keeps the match's). None is the league's default for who is seated (league.services.matches.
    turn_deadline_for): a table with a person or an external bot is never left without one, unless it is played
    with real cards. A decision already awaited gets the full time from now, but at a table with a chess clock,
    whose decisions are due when their seats' clocks run out (league.services.clocks)."""
    if deadline_action is not None and deadline_action not in DeadlineAction.values:
        raise ValueError(f"deadline_action must be one of {', '.join(DeadlineAction.values)}, not {deadline_action!r}")
    if deadline_fallback not in FALLBACK_BOTS:
        raise ValueError(f"the fallback bot is one of {', '.join(FALLBACK_BOTS)}, not {deadline_fallback!r}")
    fallback_bot_kind(match.game, deadline_fallback)  # the match's game has that fallback (ValueError if not)
    check_turn_deadline(turn_deadline_seconds)
    with transaction.atomic():
        locked = _locked_match(match.pk)
        if locked is None:
            raise Match.DoesNotExist(f"no match {match.pk}")
        rows = list(MatchSeat.objects.filter(match=locked).select_related("player"))
        turn_deadline_seconds = turn_deadline_for([ms.player for ms in rows], turn_deadline_seconds,
                                                  offline=locked.offline)
        awaited = any(ms.awaiting for ms in rows)
        deadline_at = None
        if locked.clock_bank_seconds is not None:
            deadline_at = locked.deadline_at  # a clocked table's decisions are due when their clocks run out
        elif turn_deadline_seconds is not None and awaited and locked.status in (MatchStatus.PENDING,
                                                                                  MatchStatus.RUNNING):
            deadline_at = timezone.now() + timedelta(seconds=turn_deadline_seconds)
        Match.objects.filter(pk=locked.pk).update(turn_deadline_seconds=turn_deadline_seconds,
                                                  deadline_fallback=deadline_fallback, deadline_at=deadline_at,
                                                  deadline_action=deadline_action or locked.deadline_action)
    locked.refresh_from_db()
    return locked


@transaction.atomic
def start_live_match(*, match: Match, turn_deadline_seconds: int | None = None,
                     deadline_fallback: str = "random") -> None:
    """Set a freshly created match going, with its turn deadline (None: the one create_match gave it, the league's
    default for who is seated): a table of engine bots is played to its end; any other has its engine bots played
    up to the first person's decision, which is flagged (by a worker, once the caller's transaction commits)."""
    if deadline_fallback not in FALLBACK_BOTS:
        raise ValueError(f"the fallback bot is one of {', '.join(FALLBACK_BOTS)}, not {deadline_fallback!r}")
    fallback_bot_kind(match.game, deadline_fallback)  # the match's game has that fallback (ValueError if not)
    check_turn_deadline(turn_deadline_seconds)
    if turn_deadline_seconds is None:
        turn_deadline_seconds = match.turn_deadline_seconds
    if (turn_deadline_seconds, deadline_fallback) != (match.turn_deadline_seconds, match.deadline_fallback):
        Match.objects.filter(pk=match.pk).update(turn_deadline_seconds=turn_deadline_seconds,
                                                 deadline_fallback=deadline_fallback)
        match.turn_deadline_seconds, match.deadline_fallback = turn_deadline_seconds, deadline_fallback
    _enqueue_advance(match.pk)


def give_deadlines(*, match_ids: list[int] | None = None, now=None) -> list[int]:
    """The sweep that keeps the rule for rows no create_match made so (stored before it, or edited by hand in the
    admin): every match in play here with a person or an external bot (of `match_ids`, or all) gets the league's
    default deadline if it has none, and the decision it awaits gets its deadline if it has none. Each match under
    its lock; returns those changed."""
    now = now or timezone.now()
    changed = []
    for match_id in undated_live_match_ids() if match_ids is None else match_ids:
        with transaction.atomic():
            match = _locked_match(match_id)
            if match is None or match.status not in IN_PLAY or match.offline:
                continue
            rows = list(MatchSeat.objects.filter(match=match).select_related("player"))
            seconds = turn_deadline_for([ms.player for ms in rows], match.turn_deadline_seconds)
            if seconds is None:
                continue  # engine bots alone: nobody to wait for
            deadline_at = match.deadline_at
            if deadline_at is None and any(ms.awaiting for ms in rows):
                # A clocked table's awaited decision is due when its clock runs out (if it runs).
                deadline_at = (clocks.deadline([], rows, {ms.seat for ms in rows if ms.awaiting})
                               or now + timedelta(seconds=seconds))
            if (seconds, deadline_at) != (match.turn_deadline_seconds, match.deadline_at):
                Match.objects.filter(pk=match.pk).update(turn_deadline_seconds=seconds, deadline_at=deadline_at)
                changed.append(match.pk)
    return changed
