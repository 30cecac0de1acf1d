"""Settings, all from the environment.

With nothing set the server runs embedded: SQLite in a file (BASE_DIR/db.sqlite3, or DIAMONDS_DB_PATH) and
Celery tasks run in-process (`task_always_eager`). Setting DATABASE_URL (PostgreSQL through psycopg 3) and
REDIS_URL (Celery broker and result backend) switches to real services and separate worker processes
(`celery -A workers worker`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

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
# The key tournament deal seeds are derived under (engine.fairness.derived_seed): a secret of the server's.
DIAMONDS_DEAL_KEY = os.environ.get("DIAMONDS_DEAL_KEY", SECRET_KEY)
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
    "workers",  # its app config connects the outbox relay (workers.apps); workers has no models
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A body larger than DIAMONDS_MAX_BODY_BYTES is answered 413 before anything reads it (api.parsers).
    "api.parsers.BodySizeLimitMiddleware",
    # Static files (the website's CSS and scripts, the API docs' assets) served by the app itself under gunicorn:
    # WhiteNoise's, made able to sit in an async chain (runtime/static_files.py says why).
    "runtime.static_files.StaticFilesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of each request (Accept-Language, or the switcher's cookie): after sessions, before common.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in person's own language (their profile's) wins over the browser's: needs request.user.
    "runtime.language.ProfileLanguageMiddleware",
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
    if os.environ.get("DIAMONDS_ASGI") == "1":
        # Under ASGI (config/asgi.py sets DIAMONDS_ASGI) a request's synchronous code runs in a thread made for it,
        # so a connection kept per thread would outlive its thread: connections come from a pool instead, given
        # back at the end of each request. The pool bounds a web process's connections to PostgreSQL.
        # CONN_HEALTH_CHECKS on: with a pool, Django has psycopg's pool test each connection as it hands it out
        # (ConnectionPool.check_connection), so one the database cut (a restart, pg_terminate_backend) is replaced
        # instead of failing a request with a 500 (the chaos test's database fault).
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1, "max_size": int(os.environ.get("DIAMONDS_DB_POOL_SIZE", "16")), "timeout": 10}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("DIAMONDS_DB_PATH") or str(BASE_DIR / "db.sqlite3"),
            # Writers wait for each other (the busy timeout) instead of failing at once. A transaction takes the
            # write lock when it begins (IMMEDIATE): one that read first and wrote later could not wait for it, as
            # SQLite answers such an upgrade "database is locked" at once when another writer got in between (a
            # request entering a tournament while the ladder's tick seats tables). WAL lets readers (a progress
            # bar, a web page) read while a match is written; synchronous=NORMAL syncs at checkpoints rather than
            # at every commit of a trick, which is what makes play fast here. `python -m tools.soak` checks it.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE",
                        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# ---- languages: English (the source strings) and French (config/locale, compiled .mo committed) -----------------
# docs/development.md says how to update the catalogue; `python manage.py translations --check` checks it.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "config" / "locale"]
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
    # Every 4xx in one documented shape, the schema's Error (api/errors.py).
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # A bot signs in with `Authorization: Token <key>`; a person's browser with the session.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.TokenAuthentication",  # DRF's, with its query written once (api/authentication.py)
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["api.permissions.ReadOnlyOrAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    # Rate limits: runtime/throttling.py, with their rates in DIAMONDS_RATE_LIMITS (the abuse block below).
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.WriteThrottle"],
    # Never believe X-Forwarded-For by DRF's own reckoning: runtime.client_address decides who the client is.
    "NUM_PROXIES": 0,
    # DRF's parsers, held to a size, a depth and text the database can store (api.parsers).
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser", "api.parsers.FormParser", "api.parsers.MultiPartParser"],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Diamonds League",
    "DESCRIPTION": "Club leagues, seated tournaments and bot ladders for Diamonds. Bots and people play through "
                   "/api/v1/me/turns/ (long-poll), /api/v1/matches/{id}/state/ and POST "
                   "/api/v1/matches/{id}/decisions/.",
    # The API's version: its major is the URL's (/api/v1/); a change a client must notice changes the URL.
    "VERSION": "1.0.0",
    # The docs pages load Swagger UI and Redoc from the drf-spectacular-sidecar package: no CDN needed.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The schema describes the API, not itself (it is served at /api/v1/schema/, and /api/schema/ as before).
    "SERVE_INCLUDE_SCHEMA": False,
    # Operations are tagged and named by resource (matches_state_retrieve), not all "v1_...": the names a client
    # generated from the schema gives its functions.
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # The refusals every operation can answer, in the one Error shape (api/schema.py).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.schema.refusals"],
    # A comparison's status shares its field name with matches' and tournaments': named apart in the schema.
    "ENUM_NAME_OVERRIDES": {"ComparisonStatusEnum": "league.models.comparison.ComparisonStatus"},
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
# With REDIS_URL a waiter sleeps on pub/sub (league.turn_signals) and re-reads the database about this often anyway
# (only a failed publish goes unseen: the listener wakes every waiter when it loses or regains Redis).
DIAMONDS_TURNS_RECHECK_SECONDS = float(os.environ.get("DIAMONDS_TURNS_RECHECK_SECONDS", "60"))
# Live play keeps this many rebuilt games per process (league.selectors.games.GAME_CACHE), so a decision need not
# replay its whole match; 0 turns the cache off (the load benchmark compares both).
DIAMONDS_GAME_CACHE_SIZE = int(os.environ.get("DIAMONDS_GAME_CACHE_SIZE", "256"))
# Finished matches' records, derived by replaying their stored choices, kept per process (league.selectors.records),
# so the most read ones are not replayed on every read; 0 turns the cache off.
DIAMONDS_RECORD_CACHE_SIZE = int(os.environ.get("DIAMONDS_RECORD_CACHE_SIZE", "512"))
# A match of engine bots stores its play when it ends, and on the way at most this many seconds apart (a
# checkpoint: a resumed match replays from there, and bots decide alike on the way back), rather than at every
# trick or turn (league.services.play).
DIAMONDS_BOT_CHECKPOINT_SECONDS = float(os.environ.get("DIAMONDS_BOT_CHECKPOINT_SECONDS", "2"))
# A bot that misses a turn deadline (or forfeits) in this many finished matches in a row is paused until its owner
# resumes it (league.services.bot_pausing).
DIAMONDS_BOT_PAUSE_AFTER = int(os.environ.get("DIAMONDS_BOT_PAUSE_AFTER", "5"))
# No match waits for ever (league.services.matches.turn_deadline_for): a table with a person or an external bot always
# has a turn deadline. When whoever created it gave none, it is this many seconds per decision: a person's (a few
# minutes: a live table) when a person sits there, else an external bot's (a program answers in seconds).
DIAMONDS_PERSON_TURN_DEADLINE_SECONDS = int(os.environ.get("DIAMONDS_PERSON_TURN_DEADLINE_SECONDS", "300"))
DIAMONDS_BOT_TURN_DEADLINE_SECONDS = int(os.environ.get("DIAMONDS_BOT_TURN_DEADLINE_SECONDS", "30"))
# A seat that lets this many turn deadlines pass in a row (no decision of its own between them) has left: it forfeits
# whatever the match's deadline_action, and the fallback bot plays it to the end (league.services.decisions). So a
# match nobody plays any more ends within this many deadlines per absent seat.
DIAMONDS_FORFEIT_AFTER_MISSES = int(os.environ.get("DIAMONDS_FORFEIT_AFTER_MISSES", "3"))
# An external bot is there while it polls: seen through the API in the last this many minutes, and since its last
# match ended. Ladders seat no other (league.selectors.presence).
DIAMONDS_BOT_PRESENT_MINUTES = int(os.environ.get("DIAMONDS_BOT_PRESENT_MINUTES", "3"))

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
# Celery's Django fixup closes the worker's database connections around every task unless this is set (then only
# every this many tasks): a new PostgreSQL backend per match cost more than the match's own queries. The workers
# apply CONN_MAX_AGE and drop broken connections themselves before each task (workers/__init__.py), as Django does
# per request.
CELERY_DB_REUSE_MAX = 1000


# ---- the cache: the write rate limits and the standings tables --------------------------------------------------
# Every web and worker process must count the same rate limits and share the standings tables (a worker computes a
# watched tournament's new table for the web processes), so with Redis the cache lives there: in REDIS_URL's own
# database, the one the operator gave this server, unless DIAMONDS_CACHE_URL names another. Its keys carry its
# KEY_PREFIX and clearing it deletes only those (runtime.cache), so clearing the cache never drops queued tasks nor
# touches a key that is not the cache's. Without Redis everything runs in one process, and the in-process default
# cache is that process's.
DIAMONDS_CACHE_URL = os.environ.get("DIAMONDS_CACHE_URL", "").strip() or REDIS_URL
if DIAMONDS_CACHE_URL:
    # Fail-soft: while Redis is down each process uses its own memory instead (runtime/cache.py), so reads and
    # writes go on; the short timeouts make a dead Redis cost a request about a second, once per pause.
    CACHES = {"default": {"BACKEND": "runtime.cache.FailSoftRedisCache", "LOCATION": DIAMONDS_CACHE_URL,
                          "KEY_PREFIX": "diamonds:cache",
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2}}}

# ---- the live pages' channel layer (Django Channels: web.push, web.consumers) --------------------------------------
# With Redis, channels_redis' pub/sub layer: a move is one PUBLISH to its match's group, which every web process with
# a socket of that match receives once and hands to its own sockets; nothing is stored in Redis, so no group
# membership can expire under a long-open page (the list-based RedisChannelLayer drops members after a day), and a
# lost notice is harmless (the next one, or the page's resume, brings the current table). Pub/sub channels ignore
# Redis' database number, so the prefix carries it: two servers sharing a Redis on different databases stay apart.
# Without Redis everything runs in one process: the in-memory layer.
if REDIS_URL:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {
        "hosts": [REDIS_URL], "prefix": f"diamonds:live:{urlparse(REDIS_URL).path.strip('/') or '0'}"}}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_TASK_DEFAULT_QUEUE = "celery"
# The play queue's name can be changed so that test workers sharing a Redis consume only their own run's matches.
DIAMONDS_PLAY_QUEUE = os.environ.get("DIAMONDS_PLAY_QUEUE", "play")
# Comparisons' matches (league.services.comparisons) have a queue of their own, so that a comparison of thousands of
# games never starves tournaments and ladders; the outbox relay routes them there (workers.outbox.queue_of).
DIAMONDS_COMPARISON_QUEUE = os.environ.get("DIAMONDS_COMPARISON_QUEUE", "comparisons")
CELERY_TASK_ROUTES = {
    "workers.tasks.run_match": {"queue": DIAMONDS_PLAY_QUEUE},
    "workers.tasks.run_matches": {"queue": DIAMONDS_PLAY_QUEUE},
    "workers.tasks.requeue_stalled_matches": {"queue": "bookkeeping"},
    "workers.tasks.advance_match": {"queue": DIAMONDS_PLAY_QUEUE},
    "workers.tasks.enforce_turn_deadlines": {"queue": "bookkeeping"},
    "workers.tasks.ladder_tick": {"queue": "bookkeeping"},
    "workers.tasks.catch_up_finished_matches": {"queue": "bookkeeping"},
}
# ---- Self-healing: the outbox, leases, sweeps and the broker's redelivery, chosen together --------------------------
# (workers/README.md explains them at length.) The chain that takes a dead worker's match over:
#   the worker stores a step at least every few milliseconds (a trick, a turn) and renews its lease with each;
#   the lease lapses DIAMONDS_LEASE_SECONDS after the last step of a dead worker;
#   the relay (workers.relay, a process of its own) looks every DIAMONDS_RELAY_SWEEP_SECONDS for outbox rows not
#   carried out whose match has no live lease, and sends them again;
#   so a killed worker's match is played on by another within LEASE + SWEEP (+ the time to pick it up): 15 + 2 s.
# A step of bot play takes milliseconds, so 15 s without one means the worker is gone, not slow.
DIAMONDS_LEASE_SECONDS = int(os.environ.get("DIAMONDS_LEASE_SECONDS", "15"))
DIAMONDS_RELAY_SWEEP_SECONDS = float(os.environ.get("DIAMONDS_RELAY_SWEEP_SECONDS", "2"))
# A row sent but not carried out after this long is sent again (unless a live lease shows it is being played): a
# message lost with the broker's memory, or one taken by a worker that died before it renewed any lease.
DIAMONDS_OUTBOX_RESEND_SECONDS = int(os.environ.get("DIAMONDS_OUTBOX_RESEND_SECONDS", "20"))
# Bot matches due together (a ladder's tick, a tournament round) are sent as tasks of up to DIAMONDS_PLAY_BATCH
# matches each, played one after the other (workers.tasks.run_matches): a task costs the broker and the worker about
# as much as a quick bot match, so a batch pays it once. Never fewer than DIAMONDS_PLAY_SPREAD tasks while there are
# matches for them, so that a small round still reaches every free worker (workers.outbox.batches). A batch of
# slow matches is no risk: a match of a batch that has not started by the resend time is sent again, and whichever
# worker comes first plays it.
# The statements of live play and bot matches are prepared on PostgreSQL, once per connection (league.selectors.
# prepared.prepared_cursor). Turn off behind a connection pooler in transaction mode, where a connection's prepared
# statements are not its next transaction's.
DIAMONDS_PREPARED_STATEMENTS = os.environ.get("DIAMONDS_PREPARED_STATEMENTS", "1") not in ("0", "false", "no")
DIAMONDS_PLAY_BATCH = int(os.environ.get("DIAMONDS_PLAY_BATCH", "8"))
DIAMONDS_PLAY_SPREAD = int(os.environ.get("DIAMONDS_PLAY_SPREAD", "16"))
# Redis gives an unacknowledged task to another worker after the visibility timeout. The outbox and the leases
# already resend a dead worker's match within seconds, so this is only the last resort; it must stay longer than
# a long match takes to play (a redelivery of a match still being played is turned away by its claim, harmlessly,
# but costs a worker slot for a moment). Ten minutes.
_VISIBILITY_TIMEOUT = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "600"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _VISIBILITY_TIMEOUT,
    # Look for such tasks every few seconds (kombu's default scans only every 100 s).
    "unacked_restore_interval": max(1, min(10, _VISIBILITY_TIMEOUT)),
    "unacked_restore_throttle": 1,
    # A broker that does not answer is noticed in seconds, not after the operating system's TCP timeouts, so a web
    # request that sends a message waits at most this long before its row is left for the relay.
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "socket_keepalive": True,
    "retry_on_timeout": True,
    "health_check_interval": 10,
}
# Workers and beat outlive a broker outage: they retry connecting for ever (not 100 times), from the start too.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# Storing a task's result must not fail the task while Redis restarts: retry it for a while.
CELERY_RESULT_BACKEND_ALWAYS_RETRY = True
CELERY_RESULT_BACKEND_MAX_RETRIES = 10
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 2
CELERY_REDIS_SOCKET_TIMEOUT = 5
CELERY_REDIS_BACKEND_HEALTH_CHECK_INTERVAL = 10
# Sending from a web request or the relay: one quick retry, then the row waits in the outbox (never a 500).
DIAMONDS_SEND_RETRY_POLICY = {"max_retries": 1, "interval_start": 0.2, "interval_step": 0.2, "interval_max": 0.2}
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    # Overdue decisions are played by the fallback bot within this many seconds of their deadline.
    "enforce-turn-deadlines": {"task": "workers.tasks.enforce_turn_deadlines",
                               "schedule": float(os.environ.get("DIAMONDS_DEADLINE_SWEEP_SECONDS", "5"))},
    # Seat ladder tables every DIAMONDS_LADDER_TICK seconds.
    "ladder-tick": {"task": "workers.tasks.ladder_tick", "schedule": float(os.environ.get("DIAMONDS_LADDER_TICK", 15))},
    # Safety nets behind the outbox (each harmless to repeat): rounds whose matches all ended but which did not close,
    # and bot matches no outbox row stands for (stored before the outbox existed).
    "catch-up-finished-matches": {"task": "workers.tasks.catch_up_finished_matches", "schedule": 60.0},
    "requeue-stalled-matches": {"task": "workers.tasks.requeue_stalled_matches", "schedule": 60.0},
}

# ---- the embedded beat (workers/embedded_beat.py) ----------------------------------------------------------------
# Without REDIS_URL there is no `celery beat`, so the web process (config/wsgi.py, config/asgi.py, runserver) runs
# CELERY_BEAT_SCHEDULE itself in a thread: ladder ticks, turn deadlines, sweeps. Never with a broker (the real beat
# does it). Off: DIAMONDS_EMBEDDED_BEAT=0 (the tests do so; they run the tasks they test).
DIAMONDS_EMBEDDED_BEAT = _flag("DIAMONDS_EMBEDDED_BEAT", True)
# ---- end of the embedded beat -----------------------------------------------------------------------------------

# A running bot match with no outbox row whose stored state has not moved for this long is given a row.
DIAMONDS_STALLED_AFTER_SECONDS = int(os.environ.get("DIAMONDS_STALLED_AFTER_SECONDS", "300"))

# ---- abuse: rate limits, sign-in lockout, long-poll waits (issue 15: throttles and starvation) -----------------
# The proxies (addresses or networks, comma separated) whose X-Forwarded-For is believed; none by default, so the
# client's address is the connection's (runtime/client_address.py).
DIAMONDS_TRUSTED_PROXIES = [p.strip() for p in os.environ.get("DIAMONDS_TRUSTED_PROXIES", "").split(",") if p.strip()]
# Requests per account (or per client address without one), over a sliding window (runtime/throttling.py). Reads
# are not limited; a waiting long-poll is limited by DIAMONDS_TURNS_WAITS_PER_ACCOUNT instead.
DIAMONDS_RATE_LIMITS = {
    "writes": os.environ.get("DIAMONDS_WRITE_RATE", "120/min"),
    "decisions": os.environ.get("DIAMONDS_DECISION_RATE", "1200/min"),
    "tables": os.environ.get("DIAMONDS_TABLE_RATE", "10/min"),  # the website's new tables against bots (/play/)
    "signin": os.environ.get("DIAMONDS_SIGNIN_RATE", "30/min"),  # sign-in attempts per client address, any account
}
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = DIAMONDS_RATE_LIMITS
# How many turns long-polls one account may have waiting at once, across all web processes; past it, 429 at once.
DIAMONDS_TURNS_WAITS_PER_ACCOUNT = int(os.environ.get("DIAMONDS_TURNS_WAITS_PER_ACCOUNT", "8"))

# Failed sign-ins (the website's and POST /api/v1/auth/token/, counted together) lock out the pair of username and
# client address: DIAMONDS_SIGNIN_FAILURES failures in a row, then DIAMONDS_SIGNIN_LOCKOUT_MINUTES with every attempt
# of that username from that address refused (429), the right password too. Keyed on the pair, so nobody can lock a
# rival out from elsewhere, and one person's mistakes do not lock out everyone at a club's shared address; what one
# address may try at all is bounded apart, by the per-address "signin" rate above (runtime.throttling.SigninLimit).
# Counted in the database (django-axes' default handler), so a lockout holds when the cache is down.
INSTALLED_APPS += ["axes"]
MIDDLEWARE += ["axes.middleware.AxesMiddleware"]  # last, as django-axes asks
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = int(os.environ.get("DIAMONDS_SIGNIN_FAILURES", "10"))
AXES_COOLOFF_TIME = float(os.environ.get("DIAMONDS_SIGNIN_LOCKOUT_MINUTES", "15")) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "runtime.client_address.client_ip"
AXES_RESET_ON_SUCCESS = True

# ---- accounts: sign up, email verification, password reset (django-allauth, account only) ------------------------
# Sign in with the username or the email address. Verification is "mandatory": a new account signs in on the website
# once its address is confirmed (the link in the email signs it in, in the browser that signed up; signing in before
# sends the link again). Accounts an administrator made pass without an address (web.accounts.EmailVerificationStage).
# Whatever signs in, only a verified account joins clubs, enters competitions, makes bots and sits at rated tables:
# a confirmed address or the administrator's mark (league.selectors.accounts.verified, league.permissions).
# Sign-up never tells whether an address is registered (ACCOUNT_PREVENT_ENUMERATION, which needs the mandatory
# verification to make no account): an address in use gets the same answer as a new one, and its owner an email
# saying someone tried ("account already exists").
# Failed sign-ins are django-axes' to count (above), so allauth's own failed-login limit is off; its limits on
# sign-ups, password resets and confirmation emails stay.
INSTALLED_APPS += ["allauth", "allauth.account"]
MIDDLEWARE.insert(MIDDLEWARE.index("axes.middleware.AxesMiddleware"), "allauth.account.middleware.AccountMiddleware")
AUTHENTICATION_BACKENDS += ["allauth.account.auth_backends.AuthenticationBackend"]
ACCOUNT_ADAPTER = "web.accounts.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_FORMS = {"signup": "web.accounts.SignupForm"}
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Diamonds League] "
ACCOUNT_RATE_LIMITS = {"login_failed": False}
# django-axes counts failures under the username or the email address typed (allauth's "login" field).
AXES_USERNAME_CALLABLE = "runtime.signin.signin_name"
ACCOUNT_SIGNUP_REDIRECT_URL = "web:me"
# Emails (verification, password reset): printed on the console unless EMAIL_HOST names an SMTP server.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or ("django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
                                                     else "django.core.mail.backends.console.EmailBackend")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _flag("EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = (os.environ.get("DEFAULT_FROM_EMAIL") or os.environ.get("DIAMONDS_FROM_EMAIL")
                      or "Diamonds League <noreply@localhost>")
# An invitation to organise a club (league.services.organisers) works this many days after it is sent.
DIAMONDS_ORGANISER_INVITATION_DAYS = int(os.environ.get("DIAMONDS_ORGANISER_INVITATION_DAYS", "7"))
# A verified person starts a club on the website and organises it (league.services.clubs.found_club); an account that
# organises this many clubs already starts no more (site staff: no limit).
DIAMONDS_CLUBS_ORGANISED_MAX = int(os.environ.get("DIAMONDS_CLUBS_ORGANISED_MAX", "5"))
# ---- end of accounts ----------------------------------------------------------------------------------------------
# ---- being told: notifications, email, webhooks (issue 17; docs/players.md, docs/bot-authors.md); email above --
# The site's address, for the links in emails ("" leaves them as paths).
DIAMONDS_SITE_URL = os.environ.get("DIAMONDS_SITE_URL", "http://localhost:8000" if DEBUG else "")
# "Your turn" is emailed only when still unread and still awaited this long after it was made.
DIAMONDS_TURN_EMAIL_AFTER_SECONDS = int(os.environ.get("DIAMONDS_TURN_EMAIL_AFTER_SECONDS", "900"))
# Read notifications (and finished webhook deliveries) are pruned after this many days; unread ones after twice it.
DIAMONDS_NOTIFICATIONS_KEEP_DAYS = int(os.environ.get("DIAMONDS_NOTIFICATIONS_KEEP_DAYS", "30"))
# How often the header's badge asks for the unread count (the browser skips it while the tab is hidden).
DIAMONDS_BADGE_POLL_SECONDS = int(os.environ.get("DIAMONDS_BADGE_POLL_SECONDS", "10"))
# Webhooks to private, loopback or reserved addresses (SSRF): allowed on the embedded default only.
DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = _flag("DIAMONDS_WEBHOOKS_ALLOW_PRIVATE", DEBUG)
DIAMONDS_WEBHOOK_TIMEOUT_SECONDS = float(os.environ.get("DIAMONDS_WEBHOOK_TIMEOUT_SECONDS", "5"))
DIAMONDS_WEBHOOK_SWEEP_SECONDS = float(os.environ.get("DIAMONDS_WEBHOOK_SWEEP_SECONDS", "5"))
# The queue of the webhook and email tasks sent after a commit (beat's sweeps follow CELERY_TASK_ROUTES).
DIAMONDS_NOTIFY_QUEUE = os.environ.get("DIAMONDS_NOTIFY_QUEUE", "bookkeeping")
CELERY_TASK_ROUTES.update({
    "workers.tasks.deliver_webhooks": {"queue": "bookkeeping"},
    "workers.tasks.send_notification_emails": {"queue": "bookkeeping"},
    "workers.tasks.prune_notifications": {"queue": "bookkeeping"},
})
CELERY_BEAT_SCHEDULE.update({
    # Webhook deliveries due (retries; and every delivery in the embedded default, where nothing is sent after
    # the commit so that no request waits for a receiver), emails due, and the pruning of old notifications.
    "deliver-webhooks": {"task": "workers.tasks.deliver_webhooks", "schedule": DIAMONDS_WEBHOOK_SWEEP_SECONDS},
    "send-notification-emails": {"task": "workers.tasks.send_notification_emails", "schedule": 30.0},
    "prune-notifications": {"task": "workers.tasks.prune_notifications", "schedule": 3600.0},
})
# ---- end of being told ------------------------------------------------------------------------------------------
# ---- the lobby (league/services/lobby.py; issue 17) ---------------------------------------------------------------
# An open lobby table nobody fills closes as expired after this many minutes; the sweep looks every
# DIAMONDS_LOBBY_SWEEP_SECONDS (beat, or the embedded beat).
DIAMONDS_LOBBY_OPEN_MINUTES = int(os.environ.get("DIAMONDS_LOBBY_OPEN_MINUTES", "30"))
CELERY_BEAT_SCHEDULE["expire-lobby-tables"] = {
    "task": "workers.tasks.expire_lobby_tables",
    "schedule": float(os.environ.get("DIAMONDS_LOBBY_SWEEP_SECONDS", "60"))}
CELERY_TASK_ROUTES["workers.tasks.expire_lobby_tables"] = {"queue": "bookkeeping"}
# ---- end of the lobby ---------------------------------------------------------------------------------------------

# runtime.secrecy.configure_logging applies LOGGING, then keeps secrets (invitation tokens, confirmation and reset
# keys) out of the access logs of gunicorn, uvicorn and runserver.
LOGGING_CONFIG = "runtime.secrecy.configure_logging"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
