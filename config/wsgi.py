"""WSGI entry point (gunicorn config.wsgi:application)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# No broker means no `celery beat`: run its schedule in this process instead (only then; see the module).
from workers.embedded_beat import start_embedded_beat  # noqa: E402  (needs the settings loaded above)

start_embedded_beat()
