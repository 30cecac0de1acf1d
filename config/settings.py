"""Settings, all from the environment.

With nothing set the server runs embedded: SQLite in a file (BASE_DIR/db.sqlite3, or DIAMONDS_DB_PATH) and
Celery tasks run in-process (`task_always_eager`). Setting DATABASE_URL (PostgreSQL through psycopg 3) and
REDIS_URL (Celery broker and result backend) switches to real services and separate worker processes
(`celery -A workers worker`).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


# Debug pages by default only in the embedded setup (a laptop); with a real database, only when asked for.
DEBUG = _flag("DJANGO_DEBUG", not os.environ.get("DATABASE_URL", "").strip())
# The secret key signs sessions, CSRF tokens and password resets: a key anyone can read in this repository would let
# anyone forge them. So without DEBUG (a real deployment) there is no default: a missing key, or one published here
# or in deploy/env.example, stops start-up. With DEBUG (the embedded laptop setup) the built-in one serves.
DEV_SECRET_KEY = "dev-only-insecure-key-set-DJANGO_SECRET_KEY-in-production"
PUBLISHED_SECRET_KEYS = (DEV_SECRET_KEY, "change-me-to-a-long-random-string")
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "").strip() or DEV_SECRET_KEY
if not DEBUG and SECRET_KEY in PUBLISHED_SECRET_KEYS:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is " + ("not set" if SECRET_KEY == DEV_SECRET_KEY else "the published example") + " and "
        "DEBUG is off: set DJANGO_SECRET_KEY to a long random secret of your own, e.g. the output of "
        "`python -c \"import secrets; print(secrets.token_urlsafe(50))\"` (see deploy/env.example), or run with "
        "DJANGO_DEBUG=1 on a development machine.")
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "csp",
    "league",
    "api",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A body larger than DIAMONDS_MAX_BODY_BYTES is answered 413 before anything reads it (api.parsers).
    "api.parsers.BodySizeLimitMiddleware",
    # Static files (the website's CSS and scripts, the API docs' assets) served by the app itself under gunicorn.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

# ---- what the browser is told (always; the production-only ones below) -----------------------------------------
# Content-Security-Policy (django-csp): scripts only from this site's own files (the website's and the API docs'
# are all static files; no inline script), so an injected <script> or event attribute does not run. Inline styles
# are allowed: the ring race's board sets a CSS variable per page and the charts are inline SVG, and style cannot
# run code. config.urls relaxes it for the Redoc page alone (its bundle starts a worker from a blob).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
SECURE_REFERRER_POLICY = "same-origin"  # other sites learn nothing of which page (match, tournament) linked them
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# With DEBUG off the site is served over HTTPS: cookies only over it, HSTS, and plain HTTP redirected. TLS usually
# ends at a proxy in front of gunicorn: DJANGO_TLS_PROXY_HEADER names the header it sets (X-Forwarded-Proto: https),
# and only then is that header believed (anyone can send it to a server that is not behind such a proxy).
# DJANGO_SSL_REDIRECT=0 leaves the redirect to the proxy. /healthz is exempt: the compose healthcheck asks over
# plain HTTP from inside the container.
_PRODUCTION = not DEBUG
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = _flag("DJANGO_SECURE_COOKIES", _PRODUCTION)
SESSION_COOKIE_HTTPONLY = True
SECURE_SSL_REDIRECT = _flag("DJANGO_SSL_REDIRECT", _PRODUCTION)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(365 * 24 * 3600) if _PRODUCTION else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = _flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS", _PRODUCTION)
SECURE_HSTS_PRELOAD = _flag("DJANGO_HSTS_PRELOAD", _PRODUCTION)
_TLS_PROXY_HEADER = os.environ.get("DJANGO_TLS_PROXY_HEADER", "").strip()
if _TLS_PROXY_HEADER:
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _TLS_PROXY_HEADER.upper().replace("-", "_"), "https")

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")), conn_health_checks=True
        )
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("DIAMONDS_DB_PATH") or str(BASE_DIR / "db.sqlite3"),
            # Writers wait for each other instead of failing at once when a second process touches the file.
            # WAL lets readers (a progress bar, a web page) read while a match is written; synchronous=NORMAL
            # syncs at checkpoints rather than at every commit of a trick, which is what makes play fast here.
            "OPTIONS": {"timeout": 20, "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# The website's sign-in (web/urls.py): pages that need an account send visitors there, and back home afterwards.
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:home"
STATIC_ROOT = BASE_DIR / "staticfiles"
# WhiteNoise serves what `collectstatic` gathered into STATIC_ROOT and, without it, the apps' own static folders.
WHITENOISE_USE_FINDERS = True

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # A bot signs in with `Authorization: Token <key>`; a person's browser with the session.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.TokenAuthentication",  # DRF's, with its query written once (api/authentication.py)
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["api.permissions.ReadOnlyOrAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",  # refusals shaped as the schema says
    # DRF's parsers, held to a size, a depth and text the database can store (api.parsers).
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser", "api.parsers.FormParser", "api.parsers.MultiPartParser"],
    "DEFAULT_THROTTLE_RATES": {
        "writes": os.environ.get("DIAMONDS_WRITE_RATE", "120/min"),
        "decisions": os.environ.get("DIAMONDS_DECISION_RATE", "1200/min"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Diamonds League",
    "DESCRIPTION": "Club leagues, seated tournaments and bot ladders for Diamonds. Bots and people play through "
                   "/api/v1/me/turns/ (long-poll), /api/v1/matches/{id}/state/ and POST "
                   "/api/v1/matches/{id}/decisions/.",
    "VERSION": "0.1.0",
    # The docs pages load Swagger UI and Redoc from the drf-spectacular-sidecar package: no CDN needed.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}

# Request bodies (api.parsers): the largest accepted, and how deep JSON may nest. A ruleset, a points table or a
# field of a few hundred entries is a few kilobytes and three levels deep.
DIAMONDS_MAX_BODY_BYTES = int(os.environ.get("DIAMONDS_MAX_BODY_BYTES", str(256 * 1024)))
DIAMONDS_MAX_JSON_DEPTH = int(os.environ.get("DIAMONDS_MAX_JSON_DEPTH", "16"))
# Django's own limit on form bodies, kept above ours so that ours (which says why) answers first.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * DIAMONDS_MAX_BODY_BYTES

# The turns long-poll (/api/v1/me/turns/?wait=N): the longest wait granted, and how often it looks again.
DIAMONDS_TURNS_MAX_WAIT = float(os.environ.get("DIAMONDS_TURNS_MAX_WAIT", "60"))
DIAMONDS_TURNS_POLL_SECONDS = float(os.environ.get("DIAMONDS_TURNS_POLL_SECONDS", "0.2"))
# With REDIS_URL a waiter sleeps on pub/sub (league.turn_signals) and re-reads the database at least this often.
DIAMONDS_TURNS_RECHECK_SECONDS = float(os.environ.get("DIAMONDS_TURNS_RECHECK_SECONDS", "5"))
# Live play keeps this many rebuilt games per process (league.selectors.games.GAME_CACHE), so a decision need not
# replay its whole match; 0 turns the cache off (the load benchmark compares both).
DIAMONDS_GAME_CACHE_SIZE = int(os.environ.get("DIAMONDS_GAME_CACHE_SIZE", "256"))

# ---- Celery (read by workers/__init__.py with the CELERY_ prefix) -------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = REDIS_URL or None
# Embedded default: without a broker, tasks run in the caller's process as soon as they are sent.
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
# A task is acknowledged only once it has run, and a worker that dies mid-task gives its task back, so a killed
# worker's match is delivered again; run_match is safe to run twice (see league.services.play).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600


# ---- the cache: the write rate limits and the standings tables --------------------------------------------------
def _next_redis_database(url: str) -> str:
    """`url` with the Redis database after its own (0 -> 1; the last, 15, -> 0)."""
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(number + 1) % 16}"))


# Every web and worker process must count the same rate limits and share the standings tables (a worker computes a
# watched tournament's new table for the web processes), so with Redis the cache lives there: DIAMONDS_CACHE_URL, or
# the database after REDIS_URL's, never the broker's own (clearing the cache must not drop queued tasks). Without
# Redis everything runs in one process, and the in-process default cache is that process's.
DIAMONDS_CACHE_URL = os.environ.get("DIAMONDS_CACHE_URL", "").strip() or (
    _next_redis_database(REDIS_URL) if REDIS_URL else "")
if DIAMONDS_CACHE_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": DIAMONDS_CACHE_URL,
                          "KEY_PREFIX": "diamonds"}}
CELERY_TASK_DEFAULT_QUEUE = "celery"
# The play queue's name can be changed so that test workers sharing a Redis consume only their own run's matches.
DIAMONDS_PLAY_QUEUE = os.environ.get("DIAMONDS_PLAY_QUEUE", "play")
CELERY_TASK_ROUTES = {
    "workers.tasks.run_match": {"queue": DIAMONDS_PLAY_QUEUE},
    "workers.tasks.requeue_stalled_matches": {"queue": "bookkeeping"},
    "workers.tasks.advance_match": {"queue": DIAMONDS_PLAY_QUEUE},
    "workers.tasks.enforce_turn_deadlines": {"queue": "bookkeeping"},
    "workers.tasks.ladder_tick": {"queue": "bookkeeping"},
    "workers.tasks.catch_up_finished_matches": {"queue": "bookkeeping"},
}
_VISIBILITY_TIMEOUT = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # How long an unacknowledged task may stay with a worker before Redis hands it to another. A duplicate is
    # harmless (the match claim turns it away), a lost one waits for requeue_stalled_matches.
    "visibility_timeout": _VISIBILITY_TIMEOUT,
    # Look for such tasks every few seconds (kombu's default scans only every 100 s).
    "unacked_restore_interval": max(1, min(10, _VISIBILITY_TIMEOUT)),
    "unacked_restore_throttle": 1,
}
CELERY_BEAT_SCHEDULE = {
    "requeue-stalled-matches": {"task": "workers.tasks.requeue_stalled_matches", "schedule": 60.0},
    # Overdue decisions are played by the fallback bot within this many seconds of their deadline.
    "enforce-turn-deadlines": {"task": "workers.tasks.enforce_turn_deadlines",
                               "schedule": float(os.environ.get("DIAMONDS_DEADLINE_SWEEP_SECONDS", "5"))},
    # Seat ladder tables every DIAMONDS_LADDER_TICK seconds.
    "ladder-tick": {"task": "workers.tasks.ladder_tick", "schedule": float(os.environ.get("DIAMONDS_LADDER_TICK", 15))},
    "catch-up-finished-matches": {"task": "workers.tasks.catch_up_finished_matches", "schedule": 60.0},
}

# A running bot match whose stored state has not moved for this long is given to a worker again.
DIAMONDS_STALLED_AFTER_SECONDS = int(os.environ.get("DIAMONDS_STALLED_AFTER_SECONDS", "300"))
# Where no advisory locks exist (SQLite), a worker's claim on a match lapses after this long without progress.
DIAMONDS_LEASE_SECONDS = int(os.environ.get("DIAMONDS_LEASE_SECONDS", "120"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
