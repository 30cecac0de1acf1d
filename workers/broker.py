"""One fix to kombu's Redis transport, so that a worker outlives a broker outage with tasks in flight (issue 27).

The crash: a worker of deploy/Procfile exited with code 1 after Redis was stopped and started, on
`AttributeError: 'NoneType' object has no attribute 'hostname'`, raised from kombu's `ack` in `Channel._connparams`.

How it comes about (kombu 5.7.0 and celery 5.7.0, the newest releases in the package index, both still do it):
- When the broker connection is lost, Celery's consumer collects and closes the kombu connection
  (`Consumer.on_connection_error_after_connected`); kombu closes its channels and the transport lets go of its
  client (`Connection._do_close_transport`: `transport.client = None`).
- Closing a Redis channel drops its connection pools first (`Channel._disconnect_pools`), then restores its
  unacknowledged messages and detaches the channel from the transport. Against a dead broker that teardown can stop
  half-way, leaving a channel that is still attached to the transport but has no pool. The channel object lives
  on: every message it delivered holds it.
- A task acknowledged late (CELERY_TASK_ACKS_LATE) that was running meanwhile finishes, and Celery acknowledges its
  message on that channel. kombu's Redis QoS asks the channel for a client, the channel rebuilds its pool from
  `self.connection.client`, which is None, and `_connparams` raises AttributeError. Celery expects a broker error
  there (`Message.ack_log_error` logs the transport's connection errors and goes on), but an AttributeError escapes
  into the event loop and the worker dies ("Unrecoverable error", exit code 1).
- The same rebuild fails when a channel of a lost connection restores its unacknowledged messages on close
  (kombu#970) or deletes an auto-delete fanout queue on close (kombu#582, the gossip crash deploy/Procfile mentions).

Whether a channel meets its lost connection's missing client depends on the order and timing of the teardown (which
socket noticed the outage first; a close that restores messages while the client is still there builds itself a new
pool), hence "1 of 2 runs". Without this guard the chaos run's `redis-acks` fault (tools/chaos.py: Redis stopped
while the workers acknowledge) killed a worker in 2 of 3 runs, with the close-time variant: `Unrecoverable
error: AttributeError("'NoneType' object has no attribute 'hostname'")` from `Connection.close` through
`restore_unacked` to `_connparams`, after the outage was noticed on the pub/sub connection.
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
