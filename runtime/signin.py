"""Who a sign-in attempt is for, as django-axes counts failures (AXES_USERNAME_CALLABLE): the website's sign-in
(django-allauth) takes a username or an email address in its `login` field and authenticates with `username` or
`email`; POST /api/v1/auth/token/ sends `username`. Each is counted under what was typed, lower-cased, so
"Ann" and "ann" share one count."""

from __future__ import annotations


def signin_name(request, credentials: dict | None) -> str | None:
    credentials = credentials or {}
    for key in ("username", "email", "login"):
        if credentials.get(key):
            return str(credentials[key]).strip().lower()
    data = getattr(request, "data", None) or getattr(request, "POST", {}) or {}
    for key in ("login", "username", "email"):
        value = data.get(key) if hasattr(data, "get") else None
        if value:
            return str(value).strip().lower()
    return None
