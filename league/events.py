"""What happened in the league, announced once it is stored: the one place other parts listen to (notifications,
webhooks, the website's badge) without the services knowing who listens.

A service calls `emit(name, **payload)` inside its transaction; listeners hear it only after the transaction
commits (nothing is announced for a change that rolled back). Listeners connect to `league_event` and read
`name` and `payload`; a listener that fails is logged and never breaks the service that emitted.

Names (payloads are plain JSON-able values: ids and short strings):
- "match.started"        match_id, round_id, ladder_id (the tournament round or ladder it belongs to, or None)
- "match.finished"       match_id, round_id, ladder_id
- "match.moved"          match_id, move_number (its stored play advanced, or its status changed: the website's
                         open pages of it are told, web.push)
- "turn.awaited"         match_id, user_ids (the people, not bots, who owe a decision now)
- "round.seated"         tournament_id, round_number, match_ids
- "tournament.finished"  tournament_id
- "bot.paused"           player_id, reason
- "bot.resumed"          player_id
- "membership.requested" club_id, player_id, request_id (a club on request: its organisers have one to answer)
- "membership.answered"  club_id, player_id, request_id, accepted (true or false)
- "lobby.changed"        table_id (a lobby table opened, was joined or left, started, was cancelled or expired;
                         table_id None for the periodic sweep of expired tables)
- "tournament.changed"   tournament_id (what its page shows changed beyond the events above: an entry, a check-in,
                         a round started, closed or reseated, a result entered, a table cancelled: web.push tells
                         its open pages)
- "ladder.changed"       ladder_id (its ratings moved with a match, a player joined or left, it was paused)
- "comparison.changed"   comparison_id (a pair of its games ended, or the comparison ended)
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

EVENT_NAMES = (
    "match.started",
    "match.finished",
    "match.moved",
    "turn.awaited",
    "round.seated",
    "tournament.finished",
    "bot.paused",
    "bot.resumed",
    "membership.requested",
    "membership.answered",
    "lobby.changed",
    "tournament.changed",
    "ladder.changed",
    "comparison.changed",
)

# Sent with keyword arguments `name` and `payload` (a dict) after the emitting transaction commits.
league_event = Signal()
# Sent with the same arguments at once, inside the emitting transaction: for listeners that must store something
# with the change itself (webhook deliveries: nothing is lost if the process dies right after the commit). Such a
# listener only writes rows; an exception from it rolls the change back, so it must be small and sure.
league_event_stored = Signal()


def emit(name: str, **payload) -> None:
    if name not in EVENT_NAMES:
        raise ValueError(f"unknown league event {name!r}")
    league_event_stored.send(sender=None, name=name, payload=payload)
    transaction.on_commit(lambda: _announce(name, payload), robust=True)


def _announce(name: str, payload: dict) -> None:
    for receiver, result in league_event.send_robust(sender=None, name=name, payload=payload):
        if isinstance(result, Exception):
            log.error("listener %r failed on %s: %r", receiver, name, result)
