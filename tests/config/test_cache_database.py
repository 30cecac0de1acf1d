"""Where the shared cache lives in Redis, and what clearing it may touch: by default REDIS_URL's own database (the one
the operator gave this server, never a neighbouring number that may be another tenant's), and clearing deletes the
cache's own keys only, so the broker's queued tasks in the same database survive it.

The settings cases run `manage.py` in processes of their own (the settings are read once per process); the clearing
case starts a redis-server of its own on a free port, so that no shared Redis is touched."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest
import redis

from runtime.cache import FailSoftRedisCache
from tests.config.test_production_settings import manage

SHOW_CACHE = "from django.conf import settings as s; print(s.DIAMONDS_CACHE_URL, s.CACHES['default']['LOCATION'])"


def test_the_cache_lives_in_redis_urls_own_database():
    done = manage("shell", "-v", "0", "-c", SHOW_CACHE, DJANGO_DEBUG="1", REDIS_URL="redis://127.0.0.1:6379/3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["redis://127.0.0.1:6379/3"] * 2


def test_diamonds_cache_url_is_the_operators_choice():
    done = manage("shell", "-v", "0", "-c", SHOW_CACHE, DJANGO_DEBUG="1", REDIS_URL="redis://127.0.0.1:6379/3",
                  DIAMONDS_CACHE_URL="redis://cache.example:6379/7")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["redis://cache.example:6379/7"] * 2


@pytest.fixture
def own_redis(tmp_path):
    server = shutil.which("redis-server")
    if not server:
        pytest.skip("redis-server is not installed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    try:
        for _ in range(50):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0", client
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_clearing_the_cache_keeps_the_brokers_queues_and_other_keys(own_redis):
    url, client = own_redis
    cache = FailSoftRedisCache(url, {"KEY_PREFIX": "diamonds:cache"})
    client.rpush("play", "a queued task")  # a Celery queue in the same database
    client.set("_kombu.binding.play", "binding")
    client.zadd("diamonds:waits:1", {"a wait": 1.0})
    for n in range(2500):  # more than one batch of deletions
        cache.set(f"key-{n}", n)
    assert cache.get("key-7") == 7

    cache.clear()

    assert cache.get("key-7") is None
    assert not list(client.scan_iter(match="diamonds:cache:*"))
    assert client.lrange("play", 0, -1) == [b"a queued task"]
    assert client.get("_kombu.binding.play") == b"binding" and client.zcard("diamonds:waits:1") == 1


def test_a_processs_cache_objects_share_one_connection_to_redis(own_redis):
    """Django makes a cache object per thread and per async context (one per ASGI request and per socket): they all
    use the process's one client of the server, so a thousand requests do not open a thousand connections."""
    url, client = own_redis
    params = {"KEY_PREFIX": "diamonds:cache"}
    first = FailSoftRedisCache(url, params)
    first.set("shared", 1)
    made = client.info("stats")["total_connections_received"]
    for _ in range(200):  # as many objects as requests
        assert FailSoftRedisCache(url, params).get("shared") == 1
    assert client.info("stats")["total_connections_received"] - made <= 2  # this test's own client's, and one


def test_once_redis_is_down_every_cache_object_of_the_process_knows_it():
    """The pause after a failed call is the process's, not one object's: a new object (the next request) goes to the
    process's memory at once instead of waiting for Redis' connect timeout again."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing answers there
    url = f"redis://127.0.0.1:{port}/0"
    params = {"KEY_PREFIX": "diamonds:cache", "OPTIONS": {"socket_connect_timeout": 1}}
    first = FailSoftRedisCache(url, params)
    first.set("kept", "in memory")  # fails over to the fallback
    assert first.degraded
    later = FailSoftRedisCache(url, params)
    assert later.degraded and later.get("kept") == "in memory"
