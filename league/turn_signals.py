"""Wake the turns long-poll at once: when a step leaves a decision awaited, the accounts that owe it are told on a
Redis pub/sub channel of their own (only with REDIS_URL set). The database stays the truth: a listener re-reads
the awaited seats when told, and now and then anyway, so a lost message only delays it.

league.services.decisions announces; league.selectors.live.wait_for_turns listens.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import cache

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)


def channel(user_id: int) -> str:
    return f"diamonds:turns:{user_id}"


@cache
def redis_client():
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=5)


def announce_turns(user_ids: Iterable[int]) -> None:
    """Once the current transaction commits, tell these accounts that a decision of theirs is awaited."""
    ids = sorted({u for u in user_ids if u is not None})
    if not ids or not settings.REDIS_URL:
        return
    transaction.on_commit(lambda: _publish(ids))


def listen(user_id: int):
    """A pub/sub connection subscribed to the account's channel (close it when done)."""
    pubsub = redis_client().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel(user_id))
    return pubsub


def _publish(user_ids: list[int]) -> None:
    import redis

    try:
        pipe = redis_client().pipeline(transaction=False)
        for user_id in user_ids:
            pipe.publish(channel(user_id), b"turn")
        pipe.execute()
    except redis.RedisError as e:  # the long-poll finds the turn in the database a little later
        log.warning("could not announce turns on Redis: %s", e)
