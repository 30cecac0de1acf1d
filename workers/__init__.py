"""The Celery app: `celery -A workers worker` runs the tasks in workers/tasks.py.

Configuration comes from Django settings (CELERY_* names in config/settings.py). With no REDIS_URL the app runs
tasks in-process (eager), so the embedded default needs no broker and no worker.
"""

import os

from celery import Celery
from kombu import Exchange, Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("workers")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Declared here so that a bare `celery -A workers worker` consumes every queue; `-Q play` narrows it down.
QUEUES = ("play", "comparisons", "bookkeeping", "celery")
app.conf.task_queues = tuple(Queue(q, Exchange(q), routing_key=q) for q in QUEUES)
app.autodiscover_tasks(["workers"])

__all__ = ["app"]
