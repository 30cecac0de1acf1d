"""Secrets kept out of caches and access logs.

An answer that carries a secret (a bot's new API token, a webhook's signing secret, a lobby table's invitation
token) is `Cache-Control: no-store`: no browser, proxy or history keeps a copy. And no access log prints one: the
access loggers of every server the repository runs (gunicorn, uvicorn, `runserver`), and Django's request log, get a
filter that replaces the secret parts of a request's URL, and of the Referer they may print, with `[redacted]`: the
values of query parameters such as `token=` and `key=`, and a lobby invitation's token, an email confirmation's key,
a password reset's key, a private link's token and a claim code in the path. `configure_logging`
(settings.LOGGING_CONFIG) attaches the filter in every process that sets Django up, without touching the handlers the
servers gave these loggers.
"""

from __future__ import annotations

import logging
import logging.config
import re
from typing import Any

from django.http import HttpResponseBase
from django.utils.cache import patch_cache_control

REDACTED = "[redacted]"
# The servers' access logs, and Django's request log ("Not Found: /lobby/invite/<token>/").
ACCESS_LOGGERS = ("gunicorn.access", "uvicorn.access", "django.server", "django.request")
# Query parameters whose name holds one of these words: token=, key=, api_key=, secret=, password=...
# (also at the start: gunicorn's `q` atom is the query string alone).
_SECRET_PARAMETER = re.compile(r"((?:^|[?&;])[^=&;?\s\"]*(?:token|key|secret|password)[^=&;?\s\"]*=)[^&;\s\"]*",
                               re.I)
# Path segments that are secrets: /lobby/invite/<token>/, allauth's /accounts/confirm-email/<key>/ and
# /accounts/password/reset/key/<uidb36>-<key>/ (the key after the first dash), a tournament entrant's private link
# /p/<token>/ and a guest's claim link /claim/<code>/ (also URL-encoded, as in a sign-in's ?next=%2Fclaim%2F<code>).
_SECRET_SEGMENT = re.compile(r"(/lobby/invite/|/confirm-email/|(?:/|%2F)(?:p|claim)(?:/|%2F))[^/?&%\s\"]+"
                             r"|(/password/reset/key/[0-9A-Za-z]+-)(?!set-password/)[^/?\s\"]+", re.I)


def redact(text: str) -> str:
    """`text` (a URL, a request line, a log line) with its secret parameters and path segments redacted."""
    text = _SECRET_PARAMETER.sub(lambda m: m.group(1) + REDACTED, text)
    return _SECRET_SEGMENT.sub(lambda m: (m.group(1) or m.group(2)) + REDACTED, text)


class RedactSecrets(logging.Filter):
    """Redacts the secrets in a record's message and arguments, keeping their shape: uvicorn's access formatter
    reads its arguments by position, gunicorn's format by name (a dict of atoms, changed in place)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, dict):
            for name, value in list(record.args.items()):
                if isinstance(value, str):
                    record.args[name] = redact(value)
        elif isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


_REDACT_SECRETS = RedactSecrets()


def configure_logging(config: dict[str, Any]) -> None:
    """settings.LOGGING_CONFIG: Django's dictConfig of settings.LOGGING, then the filter on the access loggers.
    Naming those loggers in LOGGING instead would take away the handlers gunicorn and uvicorn gave them."""
    logging.config.dictConfig(config)
    for name in ACCESS_LOGGERS:
        logger = logging.getLogger(name)
        if _REDACT_SECRETS not in logger.filters:
            logger.addFilter(_REDACT_SECRETS)


def never_stored(response: HttpResponseBase) -> HttpResponseBase:
    """`response`, marked for no cache to keep (`Cache-Control: no-store`): it carries a secret."""
    patch_cache_control(response, no_store=True)
    return response
