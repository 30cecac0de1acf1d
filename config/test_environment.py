"""The environment a test run sets before Django reads its settings (loaded first by pytest: `-p
config.test_environment` in pyproject.toml, since pytest-django reads the settings before any conftest.py).

With DATABASE_URL set (CI's PostgreSQL run) DEBUG is off, as deployed, and the settings then refuse to start without a
secret key of one's own (config.settings): the run brings a random one, which the worker processes it starts inherit.
The test client and the live-server tests speak plain HTTP, so no HTTPS redirect and no Secure-only cookies.
tests/test_deploy_settings.py checks the production defaults in processes of their own, without these.
"""

import os
import secrets

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-" + secrets.token_urlsafe(40))
os.environ.setdefault("DJANGO_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_SECURE_COOKIES", "0")
