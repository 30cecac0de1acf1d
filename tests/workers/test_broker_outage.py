"""A worker outlives a broker outage with tasks in flight (issue 27, "Processes come back").

The finding: a worker of deploy/Procfile exited with code 1 after Redis was stopped and started, on
`AttributeError: 'NoneType' object has no attribute 'hostname'` raised from kombu's `ack` in `Channel._connparams`:
the acknowledgement of a task that finished after the worker had given up its lost connection, on a channel of that
connection. workers/broker.py says how, and guards kombu's Redis channel so that this is a broker error, which Celery
logs and survives. These tests put a real message, from a real Redis, in the state of the traceback and check what
Celery's acknowledgement does with it. tests/workers/test_chaos.py stops Redis under real workers while they
acknowledge (`redis-acks`).
"""

from __future__ import annotations

import logging
import os
import uuid

import pytest
import redis
from kombu import Connection, Consumer, Exchange, Producer, Queue
from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError

from workers import broker

ACK_LOG = logging.getLogger("tests.broker_outage.ack")


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        pytest.skip("REDIS_URL not set: a real message needs a real Redis")
    return url


@pytest.fixture
def delivered(redis_url):
    """A task message delivered (not yet acknowledged) on a channel of a live connection, as a worker holds it while
    the task runs; its queue is removed afterwards."""
    name = f"outage-test-{uuid.uuid4().hex[:8]}"
    queue = Queue(name, Exchange(name), routing_key=name)
    with Connection(redis_url) as producer_connection:
        Producer(producer_connection).publish({"task": "a finished match"}, exchange=queue.exchange,
                                              routing_key=name, declare=[queue])
    connection = Connection(redis_url)
    messages: list = []
    consumer = Consumer(connection, [queue], callbacks=[lambda body, message: messages.append(message)])
    consumer.consume()
    connection.drain_events(timeout=5)
    assert len(messages) == 1
    yield connection, messages[0]
    connection.release()
    with Connection(redis_url) as cleanup:
        queue(cleanup.default_channel).delete()
    # kombu's record of the unacknowledged message, which a lost connection cannot remove: nobody restores it later.
    client = redis.Redis.from_url(redis_url)
    client.hdel("unacked", messages[0].delivery_tag)
    client.zrem("unacked_index", messages[0].delivery_tag)
    for key in client.scan_iter(match=f"_kombu.binding*{name}"):  # the exchange's bindings, which outlive the queue
        client.delete(key)


def _lose(connection: Connection, message) -> None:
    """The state of the traceback: the transport has let go of its client, as when Celery's consumer collects and
    closes a lost connection (`Consumer.on_connection_error_after_connected`, kombu's `_do_close_transport`), and the
    message's channel, still attached to that transport, has no connection pool any more, as kombu's `Channel.close`
    leaves it (`_disconnect_pools`) when its teardown stops half-way on the dead broker. Produced here directly, on
    a live Redis: which teardown order leaves it so in a real outage depends on timing (1 run in 2 in the finding)."""
    connection._do_close_transport()
    message.channel._disconnect_pools()
    assert message.channel.connection is not None
    assert message.channel.connection.client is None and message.channel._pool is None


def test_acknowledging_on_a_channel_of_a_lost_connection_is_logged_not_a_crash(delivered, caplog):
    """Issue 27: the worker died of the AttributeError this ack raised; now Celery's ack logs "Couldn't ack" and
    returns, as for any broker error, and the worker goes on."""
    connection, message = delivered
    _lose(connection, message)
    with caplog.at_level(logging.WARNING):
        # Celery's acknowledgement of a late-acknowledged task (Request.acknowledge), with the consumer's errors.
        message.ack_log_error(ACK_LOG, connection.connection_errors)
    assert "Couldn't ack" in caplog.text
    assert "channel of a lost broker connection used again" in caplog.text
    assert "hostname" not in caplog.text
    assert message.acknowledged is False  # nothing pretends the broker heard it


def test_the_same_ack_without_the_guard_is_the_crash_of_the_finding(delivered, monkeypatch):
    """The guard is what makes the difference: with kombu's own `_connparams` the same acknowledgement raises the
    finding's AttributeError, which Celery does not catch."""
    connection, message = delivered
    monkeypatch.setattr(kombu_redis.Channel, "_connparams", kombu_redis.Channel._connparams.__wrapped__)
    _lose(connection, message)
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'hostname'"):
        message.ack_log_error(ACK_LOG, connection.connection_errors)
    monkeypatch.undo()  # the fixture's clean-up closes this channel: unguarded, that close fails the same way


def test_closing_a_channel_of_a_lost_connection_with_unacknowledged_messages_is_a_broker_error(delivered):
    """The same failure on close (kombu#970): restoring the unacknowledged messages of a channel whose connection is
    gone rebuilt its pool and raised AttributeError out of Connection.close; now kombu's own close ignores it as the
    broker error it is."""
    connection, message = delivered
    channel = message.channel
    connection._do_close_transport()  # the transport lets go of its client, the channel is still open
    assert channel.connection.client is None and not channel.closed
    connection.maybe_close_channel(channel)  # raised AttributeError before the guard
    assert channel.closed


def test_the_guard_is_installed_once_and_a_live_channel_is_unaffected(delivered):
    connection, message = delivered
    broker.install()
    broker.install()
    assert kombu_redis.Channel._connparams.__wrapped__ is not None
    assert not hasattr(kombu_redis.Channel._connparams.__wrapped__, "__wrapped__")
    assert "db" in message.channel._connparams()
    message.ack()  # a live channel acknowledges as before
    assert message.acknowledged


def test_a_channel_without_its_transport_says_the_broker_went_away():
    """A channel that kombu detached from its transport (Transport.close_channel) fails the same way, not with
    "'NoneType' object has no attribute 'client'"."""
    channel = object.__new__(kombu_redis.Channel)
    channel.connection = None
    with pytest.raises(RedisConnectionError, match="broker went away"):
        channel._connparams()
