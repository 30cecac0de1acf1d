"""Webhooks may reach private addresses on the embedded default only; email prints on the console there."""

from __future__ import annotations

import secrets

from .test_production_settings import manage

CODE = "from django.conf import settings as s; print(s.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE, s.EMAIL_BACKEND)"


def test_production_refuses_private_webhooks_and_uses_smtp_when_configured():
    done = manage("shell", "-v", "0", "-c", CODE, DJANGO_DEBUG="0", DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
                  EMAIL_HOST="smtp.example.org")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "django.core.mail.backends.smtp.EmailBackend"]


def test_the_embedded_default_allows_them_and_prints_email():
    done = manage("shell", "-v", "0", "-c", CODE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "django.core.mail.backends.console.EmailBackend"]
