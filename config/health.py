"""`GET /healthz`: whether this web process can reach what it needs (the database, the cache, and with REDIS_URL the
Celery broker), for a load balancer or an orchestrator's health check. 200 when every check passes, else 503; the
answer names the checks but not why one fails (it is public), the log does."""

from __future__ import annotations

import logging
import secrets

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _cache() -> None:
    token = secrets.token_hex(8)
    cache.set("healthz", token, 10)
    if cache.get("healthz") != token:
        raise RuntimeError("the cache did not keep a value")


def _broker() -> None:
    import redis

    redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2).ping()


@never_cache
@require_safe
def healthz(request):
    checks = {"database": _database, "cache": _cache}
    if settings.REDIS_URL:
        checks["broker"] = _broker
    results = {}
    for name, check in checks.items():
        try:
            check()
            results[name] = "ok"
        except Exception:
            log.exception("health check %s failed", name)
            results[name] = "failing"
    healthy = all(value == "ok" for value in results.values())
    return JsonResponse({"status": "ok" if healthy else "failing", "checks": results}, status=200 if healthy else 503)
