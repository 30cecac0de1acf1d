"""Django app config for workers: connects the outbox relay to league's `work_recorded`, so that work recorded by a
transaction is sent as soon as it commits, in every process that records some (web, worker, a management command).
League cannot call workers (arrows point down); it only announces, and this is the one place that listens."""

from django.apps import AppConfig


class WorkersConfig(AppConfig):
    name = "workers"

    def ready(self) -> None:
        # Every task bound before any thread can send one. Celery finalizes its app on first use, and marks it
        # finalized before it has bound the tasks: a second thread arriving meanwhile (the web server's threads, each
        # sending its first outbox row at once) took a task not yet bound and answered 500 (request_stack None).
        from . import app, tasks  # noqa: F401 - importing registers the tasks

        app.finalize(auto=True)

        from league.services.outbox import work_recorded

        from .outbox import relay_after_commit

        work_recorded.connect(relay_after_commit, dispatch_uid="workers.outbox.relay_after_commit")

        # Webhooks and emails: sent by the workers right after the commit that made them (workers.notify).
        from league.services.notifications import emails_pending
        from league.services.webhooks import deliveries_pending

        from .notify import deliveries_after_commit, emails_after_commit

        deliveries_pending.connect(deliveries_after_commit, dispatch_uid="workers.notify.deliveries")
        emails_pending.connect(emails_after_commit, dispatch_uid="workers.notify.emails")
