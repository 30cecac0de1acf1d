"""Play stored matches: bots to the end (`play_bot_match`), or one person's decision (`apply_decision`).

Either way the match is loaded back from its rows (league.selectors.games), the engine applies the decisions,
and league.services.progress stores what changed. The rules stay in the engine.

Playing bots is safe to repeat and to resume, which is what lets a Celery task be delivered twice or again
after its worker was killed:
- one process at a time plays a match: it must hold the match's claim (league.services.locks); a second one
  is turned away ("busy") and a finished match is left alone ("already_finished");
- play is stored as it goes, each store in its own transaction (league.services.progress): when the match ends,
  and on the way at checkpoints at least DIAMONDS_BOT_CHECKPOINT_SECONDS apart, taken between two steps (a
  Diamonds trick, a turn of the newer games: a Diamoniak turn is a few draws, a ring race turn one try or steal).
  A kill loses at most the play since the last checkpoint, and the next run resumes from what is stored; a
  match of quick bots is one write, as it ends. `max_tricks` stops after that many steps (stored then), and
  `tricks_written` counts the steps played;
- every bot decision is seeded from the match seed, the seat and the engine's move number (`seeded_for`), so its
  choice depends only on the match state: a resumed run makes exactly the choices an uninterrupted one would have
  made, and finishes with the same result.
"""

from __future__ import annotations

import hashlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from engine import PLAY, Decision, Game, IllegalDecision
from engine.common.bot import Bot
from engine.decision_random import DecisionRandom
from engine.games import game_type

from ..events import emit
from ..models import Match, MatchSeat, MatchStatus
from ..models.match import IN_PLAY
from ..selectors.games import StoredPlayError, load_match_game
from ..selectors.prepared import PreparedQuery, prepared_cursor
from .locks import Claim, match_claim
from .progress import store_progress
from .stopping import PlayStopped, StopWatch


@dataclass
class PlayOutcome:
    """What one call to `play_bot_match` did. `status` is one of: finished (this call finished the match),
    paused (stopped after `max_tricks`), busy (another process holds the match), already_finished, failed,
    cancelled (an organiser stopped it, before or during this call: league.services.stopping), not_all_bots,
    offline (played with real cards: nothing to play),
    missing (no such match)."""

    match_id: int
    status: str
    tricks_written: int = 0
    move_number: int = 0
    error: str = ""
    worker: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


def default_worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def bot_seed(match: Match, seat: int, move_number: int) -> str:
    """The seed of the bot that decides for `seat` at `move_number`: a function of the match state alone (so a
    resumed match plays on as it would have), and one-way (a SHA-256), so the bot never holds the deal's seed."""
    return hashlib.sha256(f"{match.seed}/seat-{seat}/move-{move_number}".encode()).hexdigest()


def seeded_for(bot: Bot, match: Match, seat: int, move_number: int) -> Bot:
    """`bot`, seeded for the decision of `seat` at `move_number` (`bot_seed`): every engine bot the league asks
    for a decision is seeded so, just before it decides, whether it is built for that decision or kept for the
    match. Its generator is a DecisionRandom (engine.decision_random), seeded at the cost of the hash: a bot match
    seeds a bot for every decision but the forced ones, and a Mersenne Twister's seeding cost more than the rest of
    a quick bot's decision."""
    rng = bot.rng
    if type(rng) is not DecisionRandom:
        rng = bot.rng = DecisionRandom()
    rng.seed(bot_seed(match, seat, move_number))
    return bot


def _at_trick_boundary(game: Game) -> bool:
    """Whether the game stands between two tricks (or is over): the points where play is stored.

    A round's last trick is stored with the end-of-round actions and the next round's deal and passes, at the
    start of that round's first trick; so every stored step ends where a bot (or a person) leads a trick."""
    pending = game.pending
    if pending is None:
        return True
    if pending.kind != PLAY:
        return False
    trick = game.current_trick
    return trick is not None and not trick.plays


def _forced(kind, game, seat: int):
    """The decision when the rules leave `seat` just one (a card it must play, the newer games' only move): any bot
    would make it, so none is asked (nor seeded), which is the same game at a fraction of the cost; None otherwise."""
    options = game.legal(seat)
    if len(options) != 1:
        return None
    if kind.legal_is_complete:
        return options[0]
    return Decision.play(options[0]) if game.pending.kind == PLAY else None


def _tricks_done(game: Game) -> int:
    """The tricks a Diamonds game has completed (what `max_tricks` and `tricks_written` count). A round's tricks
    are started one after the other, so only its last can be unfinished: a count per round, not per trick (this
    runs at every trick boundary)."""
    return sum(len(r.tricks) - (r.tricks[-1].winner is None) for r in game.rounds if r.tricks)


def _at_turn_end(game, turn_at_last_store: int) -> bool:
    """For a game stored as its choices: whether a turn has ended since the last store (or the game is over)."""
    return game.over or game.turn != turn_at_last_store


def play_bot_match(*, match_id: int, worker: str | None = None, max_tricks: int | None = None) -> PlayOutcome:
    """Play the match's bots until it ends (or `max_tricks` more steps are stored: tricks in Diamonds, turns in the
    games stored as choices), storing each step in its own transaction. Not one transaction on purpose: stored
    steps must survive a kill. Safe to call again at any time, from any process (see the module docstring)."""
    worker = worker or default_worker_name()
    with relaxed_commits(), match_claim(match_id=match_id, owner=worker) as claim:
        outcome = _play_claimed(match_id, claim, max_tricks) if claim else PlayOutcome(match_id, "busy")
    outcome.worker = worker
    return outcome


def _play_claimed(match_id: int, claim: Claim, max_tricks: int | None) -> PlayOutcome:
    """Play a match whose claim this process holds."""
    seats = _SEATS_AND_MATCH(match_id)
    match = seats[0].match if seats else Match.objects.filter(pk=match_id).first()
    if match is None:
        return PlayOutcome(match_id, "missing")
    if match.status == MatchStatus.FINISHED:
        return PlayOutcome(match_id, "already_finished", move_number=match.move_number)
    if match.status == MatchStatus.FAILED:
        return PlayOutcome(match_id, "failed", move_number=match.move_number, error=match.error)
    if match.status not in IN_PLAY:
        return PlayOutcome(match_id, match.status, move_number=match.move_number, error=match.error)
    if match.offline:  # played with real cards at the club: its result is entered (league.services.offline_results)
        return PlayOutcome(match_id, "offline", move_number=match.move_number)
    if not all(ms.player.is_engine_bot for ms in seats):  # external bots play through the API
        return PlayOutcome(match_id, "not_all_bots", move_number=match.move_number)
    bots = [(ms.player.bot_kind, dict(ms.player.bot_settings or {})) for ms in seats]
    try:
        game, marks = load_match_game(match)
    except StoredPlayError as e:
        return _fail(match, str(e))
    if not _mark_running(match, claim):
        return _stopped(match, PlayStopped(match_id, None), 0)

    kind = game_type(match.game)
    by_turns = match.game != "diamonds"
    turn_seen = getattr(game, "turn", 0)
    tricks_before = 0 if by_turns else _tricks_done(game)
    written = 0
    watch = StopWatch(match_id)
    every = settings.DIAMONDS_BOT_CHECKPOINT_SECONDS
    checkpoint_at = time.monotonic() + every
    try:
        # One bot per seat for the whole match (built at its first decision), its generator seeded afresh before each
        # decision with the seed a bot built for that decision alone would get: an engine bot decides from its view,
        # its settings and its generator (whatever else it keeps is its settings and caches of them), so its choices
        # are the same, without building a bot per card. One that cannot be built (an unknown kind, bad settings)
        # fails the match below.
        players: list = [None] * len(bots)
        while not game.over:
            for seat in game.pending.seats:
                watch.check()  # cancelled meanwhile? (cheap: see league.services.stopping)
                forced = _forced(kind, game, seat)
                if forced is not None:
                    game.apply(seat, forced)
                    continue
                bot = players[seat]
                if bot is None:
                    bot_kind, bot_settings = bots[seat]
                    bot = players[seat] = kind.make_bot(bot_kind, seed=0, **bot_settings)
                seeded_for(bot, match, seat, game.move_number)
                game.apply(seat, bot.decide(kind.view(game, seat)))
            if by_turns:
                if not _at_turn_end(game, turn_seen):
                    continue
                turn_seen = game.turn
                written += 1
            elif _at_trick_boundary(game):
                written = _tricks_done(game) - tricks_before
            else:
                continue
            if game.over:
                break
            pause = max_tricks is not None and written >= max_tricks
            if pause or time.monotonic() >= checkpoint_at:
                store_progress(match=match, game=game, marks=marks, extra=claim.renewal())
                watch.stored()
                checkpoint_at = time.monotonic() + every
            if pause:
                return PlayOutcome(match_id, "paused", written, game.move_number)
        # Engine bots never have a turn deadline to miss: the match has nothing to count towards pausing
        # (league.services.bot_pausing), which its finishing write says at once.
        store_progress(match=match, game=game, marks=marks, extra={**claim.renewal(), "conduct_counted": True})
    except PlayStopped as e:
        return _stopped(match, e, written)
    except (IllegalDecision, ValueError, TypeError) as e:
        # A bot that cannot play (an unknown kind, bad settings, an illegal decision) fails its match; the
        # tricks stored so far stay, so the failure can be looked into.
        return _fail(match, f"{type(e).__name__}: {e}", written)
    return PlayOutcome(match_id, "finished", written, game.move_number)


def _stopped(match: Match, stop: PlayStopped, written: int) -> PlayOutcome:
    """The outcome of a loop whose match left play under it: what is stored is what was stored before the stop."""
    match.refresh_from_db(fields=["status", "move_number", "error"])
    status = "cancelled" if match.status == MatchStatus.CANCELLED else match.status
    return PlayOutcome(match.pk, "already_finished" if status == MatchStatus.FINISHED else status, written,
                       match.move_number, match.error or str(stop))


_relaxed = threading.local()


@contextmanager
def relaxed_commits() -> Iterator[None]:
    """On PostgreSQL, let bot play's commits return before their WAL reaches the disk (here, a commit waiting for
    the disk costs milliseconds: more than a whole bot match's CPU).

    Safe for bot play and what follows it in its task, and only there: if the database server crashes, the last
    few commits may be lost, but the WAL keeps them in order, so what stays is consistent and what is lost is redone
    the same way. Every bot decision is a function of the match state, so the run that resumes the match plays
    exactly the lost steps again; a match's follow-up (league.services.match_finished.on_match_finished) does nothing
    twice and is called again for a finished match; and the outbox row, carried out last, is sent again if its
    carrying out was lost (workers.tasks.run_match). A person's decision (apply_decision) keeps full durability.
    Nested uses are one (the outermost sets and resets); nothing is changed inside a transaction (a SET there
    would go with it).
    """
    if connection.vendor != "postgresql" or connection.in_atomic_block or getattr(_relaxed, "on", False):
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO off")
    _relaxed.on = True
    try:
        yield
    finally:
        _relaxed.on = False
        try:
            with connection.cursor() as cursor:
                cursor.execute("RESET synchronous_commit")
        except DatabaseError:
            pass  # the connection is gone; the setting went with its session


# Every bot match reads it first: compiled once per process (league.selectors.prepared).
_SEATS_AND_MATCH = PreparedQuery(lambda match_id: MatchSeat.objects.filter(match_id=match_id)
                                 .select_related("match", "player").order_by("seat"), 1)


_DATETIME_FIELDS = ("updated_at", "lease_expires_at", "started_at")
_IN_PLAY_MARKS = ", ".join(["%s"] * len(IN_PLAY))


def _mark_running(match: Match, claim: Claim) -> bool:
    """Mark the match running, unless it left play since it was read (then False, nothing written)."""
    now = timezone.now()
    fields = {"status": MatchStatus.RUNNING, "claimed_by": claim.owner, "updated_at": now, **claim.renewal()}
    if match.started_at is None:
        fields["started_at"] = now
    # Every bot match writes it once: its SQL is written out here, as the ORM would compile it on every call (which
    # costs the worker more than the statement costs the database). Values adapted as the ORM adapts them.
    adapt = connection.ops.adapt_datetimefield_value
    sets = ", ".join(f"{name} = %s" for name in fields)
    values = [adapt(v) if name in _DATETIME_FIELDS else str(v) for name, v in fields.items()]  # else: strings
    with prepared_cursor(connection) as cursor:
        cursor.execute(f"UPDATE {Match._meta.db_table} SET {sets} WHERE id = %s AND status IN ({_IN_PLAY_MARKS})",
                       [*values, match.pk, *map(str, IN_PLAY)])
        if not cursor.rowcount:
            return False
    if "started_at" in fields:  # the first run only: a resumed match started before
        emit("match.started", match_id=match.pk, round_id=match.tournament_round_id,
             ladder_id=match.ladder_id)
    for name, value in fields.items():
        setattr(match, name, value)
    return True


def _fail(match: Match, error: str, written: int = 0) -> PlayOutcome:
    # Only a match in play fails: a cancelled one stays cancelled.
    Match.objects.filter(pk=match.pk, status__in=IN_PLAY).update(status=MatchStatus.FAILED, error=error,
                                                                 updated_at=timezone.now())
    return PlayOutcome(match.pk, "failed", written, match.move_number, error)


class StaleMove(Exception):
    """A decision made against a state of the match that is no longer the current one."""


@transaction.atomic
def apply_decision(*, match: Match, seat: int, decision, move_number: int | None = None):
    """Apply one seat's decision to a stored match and store its consequences in the same transaction.

    The match row is locked for the transaction, so two decisions on one match are applied one after the other.
    With `move_number`, the decision is refused (StaleMove) unless the match is still at that move.
    `decision` is the match's game's Decision. Raises IllegalDecision (the engine's refusal, nothing stored) when
    the rules refuse it.
    """
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.status not in IN_PLAY:
        raise IllegalDecision("R-ROUNDS-1", f"match {match.pk} is {match.status}")
    if match.offline:
        raise IllegalDecision("R-ROUNDS-1", f"match {match.pk} is played with real cards: its result is entered")
    if move_number is not None and move_number != match.move_number:
        raise StaleMove(f"match {match.pk} is at move {match.move_number}, not {move_number}")
    game, marks = load_match_game(match)
    game.apply(seat, decision)
    if match.status == MatchStatus.PENDING:
        now = timezone.now()
        Match.objects.filter(pk=match.pk).update(status=MatchStatus.RUNNING, started_at=now)
        match.status, match.started_at = MatchStatus.RUNNING, now
        emit("match.started", match_id=match.pk, round_id=match.tournament_round_id,
             ladder_id=match.ladder_id)
    store_progress(match=match, game=game, marks=marks)
    return game
