"""ASGI entry point, for servers that speak ASGI."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()

# No broker means no `celery beat`: run its schedule in this process instead (only then; see the module).
from workers.embedded_beat import start_embedded_beat  # noqa: E402  (needs the settings loaded above)

start_embedded_beat()
