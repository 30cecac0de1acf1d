"""The Celery app: `celery -A workers worker` runs the tasks in workers/tasks.py.

Configuration comes from Django settings (CELERY_* names in config/settings.py). With no REDIS_URL the app runs
tasks in-process (eager), so the embedded default needs no broker and no worker.
"""

import os

from celery import Celery
from celery.signals import task_prerun
from django.db import close_old_connections
from kombu import Exchange, Queue

from . import broker

# Before any broker connection: a channel of a connection lost in a Redis outage fails as a broker error, which Celery
# survives, instead of an AttributeError that killed the worker (workers/broker.py).
broker.install()

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("workers")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Declared here so that a bare `celery -A workers worker` consumes every queue; `-Q play` narrows it down.
QUEUES = ("play", "comparisons", "bookkeeping", "celery")
app.conf.task_queues = tuple(Queue(q, Exchange(q), routing_key=q) for q in QUEUES)
app.autodiscover_tasks(["workers"])


@task_prerun.connect(dispatch_uid="workers.reuse_database_connections")
def _close_old_connections(sender=None, **kwargs) -> None:
    """Before each task, what Django does before each request: close the connections that are past CONN_MAX_AGE or
    broke (an error, and no longer usable), so that the next query opens a fresh one; the health check
    (CONN_HEALTH_CHECKS) tries the others once before their first query.

    Celery's own Django fixup would close every connection before and after every task instead (unless
    CELERY_DB_REUSE_MAX, see config/settings.py): a new PostgreSQL backend per task, whose start-up and
    authentication cost more than a bot match's own queries. Not for an eager task: it runs inside its caller's
    request or transaction, whose connection is not ours to close."""
    if sender is not None and getattr(sender.request, "is_eager", False):
        return
    close_old_connections()

__all__ = ["app"]
