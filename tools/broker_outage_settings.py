"""Settings of the worker `python -m tools.broker_outage` starts: the product's own, plus the drill's short task
(tools/broker_outage.py), so that the worker runs deploy/Procfile's command as written and still has something
quick to acknowledge many times a second."""

from config.settings import *  # noqa: F403 - the product's settings, unchanged

CELERY_IMPORTS = ["tools.broker_outage"]
