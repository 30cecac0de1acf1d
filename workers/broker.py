"""One fix to kombu's Redis transport, so that a worker outlives a broker outage with tasks in flight (issue 27).

The crash: a worker of deploy/Procfile exited with code 1 after Redis was stopped and started, on
`AttributeError: 'NoneType' object has no attribute 'hostname'`, raised from kombu's `ack` in `Channel._connparams`.

How it comes about (kombu 5.7.0 and celery 5.7.0, the newest releases in the package index, both still do it):
- When the broker connection is lost, Celery's consumer collects the kombu connection (`Connection.collect`, any
  error ignored) and then closes it (`Connection.close`, broker errors ignored). Collecting closes the connection's
  channels and then makes the transport let go of its client (`transport.client = None`).
- Against a dead broker a channel's close can stop half-way on a broker error (reading the BRPOP that was waiting,
  or another channel's close failing first), so the task channel may still be open, holding unacknowledged
  messages, when the transport has no client any more.
- Closing that channel later drops its connection pools (`Channel._disconnect_pools`) and then restores its
  unacknowledged messages, for which it rebuilds a pool from `self.connection.client`: None, so `_connparams`
  raises AttributeError. In `Connection.close` nothing catches it and the worker dies ("Unrecoverable error", exit
  code 1): the chaos run below saw this every time. Where the channel is closed during the collect instead, Celery
  swallows the error, the channel is left without a pool, and the acknowledgement of a task that finishes
  afterwards (CELERY_TASK_ACKS_LATE) rebuilds it the same way: the finding's traceback, from kombu's `ack`, which
  Celery does not catch either (`Message.ack_log_error` catches the transport's connection errors only).
- kombu#970 (restore on close) and kombu#582 (gossip's fanout queue deleted on close, the crash deploy/Procfile
  mentions) are the same rebuild.

Which socket notices the outage first decides whether a channel meets the missing client (a close that restores
messages while the client is still there builds itself a new pool, and nothing fails), hence "1 of 2 runs". Without
this guard the chaos run's `redis-acks` fault (`python -m tools.chaos --faults none,redis-acks`: Procfile workers,
Redis stopped while they acknowledge a burst of short tasks) killed a worker in 3 of 4 runs, from `Connection.close`
through `restore_unacked` to `_connparams`, the outage noticed first on the pub/sub connection while the task
channel's BRPOP was waiting. With it, none in 8; in the 2 where it fired, the log shows both paths turned into broker
errors (the restore on close, then "Couldn't ack" for a task that finished during the outage).
tests/workers/test_broker_outage.py puts a real message in the state of both tracebacks.

The fix: a channel whose connection is gone says so as a broker error (redis-py's ConnectionError, one of the Redis
transport's `connection_errors`) instead of failing on None. Every caller already handles that error as "the broker
went away": the acknowledgement is logged ("Couldn't ack") and skipped, a close ignores it, and the worker carries on
with its new connection. A skipped acknowledgement loses no work: the task has run; its message is either gone with
Redis's memory or delivered again after the visibility timeout, and every task is safe to run twice
(workers/README.md).

No release fixes it, so the guard is applied here, to kombu's Redis channel class, when the Celery app is imported
(workers/__init__.py): every process that talks to the broker (web, workers, beat, relay) gets it, whatever the URL
scheme (redis, rediss; the Sentinel channel inherits it). It checks that the method it wraps is still there, so a
kombu that renames it fails loudly at start-up instead of silently losing the fix. Remove it once kombu's
`_connparams` handles a closed connection itself.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError

GONE = "the broker connection of this channel was closed (the broker went away); the channel cannot be used again"
logger = logging.getLogger(__name__)


def _guard_closed_connection(connparams: Any) -> Any:
    def _connparams(self: kombu_redis.Channel, *args: Any, **kwargs: Any) -> Any:
        transport = self.connection
        if transport is None or transport.client is None:
            # Said here as well, because a channel's close swallows the error: the log shows the guard at work.
            logger.warning("Redis channel of a lost broker connection used again (an acknowledgement or a restore "
                           "on close): a broker error, not a crash (workers/broker.py)")
            raise RedisConnectionError(GONE)
        return connparams(self, *args, **kwargs)

    _connparams.__wrapped__ = connparams  # type: ignore[attr-defined]
    _connparams.__doc__ = connparams.__doc__
    return _connparams


def install() -> None:
    """Guard kombu's Redis channels (the Sentinel one inherits it); once, however often it is called."""
    channel = kombu_redis.Channel
    current = channel.__dict__.get("_connparams")
    if current is None:
        raise RuntimeError("kombu.transport.redis.Channel has no _connparams any more: check whether this kombu still "
                           "needs workers/broker.py, and update or remove it")
    if getattr(current, "__wrapped__", None) is not None:
        return
    channel._connparams = _guard_closed_connection(current)  # type: ignore[attr-defined]  # private: not in the stubs
