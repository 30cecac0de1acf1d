"""`GET /healthz`: whether this web process can reach what it needs, for a load balancer, an orchestrator's health
check and whoever is paged at night. The answer names the checks but not why one fails (it is public); the log does.

- 503 "failing": the database does not answer. Nothing works without it; take this process out of rotation.
- 200 "degraded": the database answers but the cache, the broker or the outbox relay does not keep up. The web still
  serves reads and takes decisions (the cache falls back to this process's memory, runtime/cache.py; work waits in
  the outbox until the broker is back, workers.outbox), so it stays in rotation, but someone should look.
- 200 "ok": everything answers.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from league.models import OutboxMessage

log = logging.getLogger(__name__)

# An outbox row recorded this long ago and still not sent means the relay is not running, or the broker is down.
OUTBOX_LAG_SECONDS = 60


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _cache() -> None:
    ping = getattr(cache, "ping", None)
    if ping is not None:  # the fail-soft cache answers from memory while Redis is down: ask Redis itself
        ping()
        return
    token = secrets.token_hex(8)
    cache.set("healthz", token, 10)
    if cache.get("healthz") != token:
        raise RuntimeError("the cache did not keep a value")


def _broker() -> None:
    redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2).ping()


def _outbox() -> None:
    late = timezone.now() - timedelta(seconds=OUTBOX_LAG_SECONDS)
    if OutboxMessage.objects.filter(done_at__isnull=True, sent_at__isnull=True, created_at__lt=late).exists():
        raise RuntimeError(f"outbox rows wait more than {OUTBOX_LAG_SECONDS}s to be sent")


@never_cache
@require_safe
def healthz(request):
    checks = {"database": _database, "cache": _cache}
    if settings.REDIS_URL:
        checks["broker"] = _broker
    checks["outbox"] = _outbox
    results: dict[str, str] = {}
    for name, check in checks.items():
        if name == "outbox" and results["database"] != "ok":
            results[name] = "unknown"
            continue
        try:
            check()
            results[name] = "ok"
        except Exception:
            log.exception("health check %s failed", name)
            results[name] = "failing"
    if results["database"] != "ok":
        status = "failing"
    elif any(value != "ok" for value in results.values()):
        status = "degraded"
    else:
        status = "ok"
    return JsonResponse({"status": status, "checks": results}, status=503 if status == "failing" else 200)
