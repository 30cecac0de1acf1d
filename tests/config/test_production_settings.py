"""Production refuses unsafe settings (issue 15): with DEBUG off a missing or published secret key stops start-up
with a clear message; `check --deploy` is clean under the production settings; the embedded default still starts
with nothing configured; pages carry a Content-Security-Policy without inline scripts; deploy/ runs DEBUG off.

The settings are read once per process, so each case runs `manage.py` in a process of its own, with an environment
stripped of what the test run itself sets (config.test_environment)."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = ("DJANGO_", "DATABASE_URL", "REDIS_URL", "DIAMONDS_CACHE_URL")


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(OURS)}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env}, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("key", [None, "change-me-to-a-long-random-string",
                                 "dev-only-insecure-key-set-DJANGO_SECRET_KEY-in-production"])
def test_debug_off_without_a_secret_key_of_ones_own_stops_start_up(key):
    env = {"DJANGO_DEBUG": "0"} | ({"DJANGO_SECRET_KEY": key} if key else {})
    done = manage("check", **env)
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY" in done.stderr and "DEBUG is off" in done.stderr


def test_a_real_database_without_debug_set_also_needs_the_key():
    done = manage("check", DATABASE_URL="postgres://nobody@127.0.0.1:1/none")  # DEBUG is off by default then
    assert done.returncode != 0 and "DJANGO_SECRET_KEY" in done.stderr


def test_check_deploy_is_clean_under_the_production_settings():
    done = manage("check", "--deploy", "--fail-level", "WARNING", DJANGO_DEBUG="0",
                  DJANGO_SECRET_KEY=secrets.token_urlsafe(50), DJANGO_ALLOWED_HOSTS="diamonds.example.org",
                  DJANGO_TLS_PROXY_HEADER="X-Forwarded-Proto")
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


def test_the_production_settings_are_the_secure_ones():
    code = ("from django.conf import settings as s; print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
            "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SECURE_PROXY_SSL_HEADER, s.SECURE_REFERRER_POLICY)")
    done = manage("shell", "-v", "0", "-c", code, DJANGO_DEBUG="0", DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
                  DJANGO_TLS_PROXY_HEADER="X-Forwarded-Proto")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "True", "True", "31536000", "('HTTP_X_FORWARDED_PROTO',",
                                   "'https')", "same-origin"]


def test_the_forwarded_proto_header_is_believed_only_when_a_setting_names_it():
    code = "from django.conf import settings as s; print(s.SECURE_PROXY_SSL_HEADER)"
    done = manage("shell", "-v", "0", "-c", code, DJANGO_DEBUG="0", DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    assert done.returncode == 0 and done.stdout.strip() == "None"


def test_the_embedded_default_starts_with_nothing_configured():
    code = "from django.conf import settings as s; print(s.DEBUG, s.SECURE_SSL_REDIRECT)"
    done = manage("shell", "-v", "0", "-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]


def test_deploy_runs_with_debug_off():
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert re.search(r"^ENV .*DJANGO_DEBUG=0", dockerfile, re.M)
    assert "DJANGO_SECRET_KEY=build" not in dockerfile
    compose = (ROOT / "deploy" / "docker-compose.yml").read_text()
    assert re.search(r'DJANGO_DEBUG: "0"', compose)


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/api/docs/", "/accounts/login/"])
def test_pages_carry_a_csp_that_runs_no_inline_script(client, url):
    r = client.get(url)
    assert r.status_code == 200
    policy = r["Content-Security-Policy"]
    assert "script-src 'self';" in policy + ";" and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy and r["Referrer-Policy"] == "same-origin"
    inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", r.content.decode())
    assert inline == [], f"{url} has inline scripts the policy would block: {inline}"
