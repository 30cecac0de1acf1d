"""ASGI entry point: what the deployed server runs (gunicorn with uvicorn workers, deploy/Procfile), so that a
waiting turns long-poll is a suspended coroutine rather than a thread (api/play.py); runtime/asgi_routing.py sends
the synchronous views through a chain that costs them one thread hop, and the website's WebSockets to Channels."""

import os

# Read by config/settings.py: PostgreSQL connections then come from a pool (a request's synchronous code runs in a
# thread of its own under ASGI, so per-thread persistent connections would leak).
os.environ.setdefault("DIAMONDS_ASGI", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402 - after the environment it reads

django.setup(set_prefix=False)

from runtime.asgi_routing import router  # noqa: E402
from web.routing import websocket_application  # noqa: E402

# http as before; WebSocket connections (the live pages' pushes, web.push) go to Django Channels' routing.
application = router(websocket=websocket_application())

# No broker means no `celery beat`: run its schedule in this process instead (only then; see the module).
from workers.embedded_beat import start_embedded_beat  # noqa: E402  (needs the settings loaded above)

start_embedded_beat()
