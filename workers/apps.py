"""Django app config for workers: connects the outbox relay to league's `work_recorded`, so that work recorded by a
transaction is sent as soon as it commits, in every process that records some (web, worker, a management command).
League cannot call workers (arrows point down); it only announces, and this is the one place that listens."""

from django.apps import AppConfig


class WorkersConfig(AppConfig):
    name = "workers"

    def ready(self) -> None:
        # Django's documented place for wiring signals: the tasks and league's services import models, which may be
        # imported only once the app registry is ready, so these imports stay inside ready() (ruff PLC0415).
        # Every task bound before any thread can send one. Celery finalizes its app on first use, and marks it
        # finalized before it has bound the tasks: a second thread arriving meanwhile (the web server's threads, each
        # sending its first outbox row at once) took a task not yet bound and answered 500 (request_stack None).
        from . import app, tasks  # noqa: F401, PLC0415 - importing registers the tasks

        app.finalize(auto=True)

        from league.services.outbox import work_recorded  # noqa: PLC0415

        from .outbox import relay_after_commit  # noqa: PLC0415

        work_recorded.connect(relay_after_commit, dispatch_uid="workers.outbox.relay_after_commit")

        # Webhooks and emails: sent by the workers right after the commit that made them (workers.notify).
        from league.services.notifications import emails_pending  # noqa: PLC0415
        from league.services.webhooks import deliveries_pending  # noqa: PLC0415

        from .notify import deliveries_after_commit, emails_after_commit  # noqa: PLC0415

        deliveries_pending.connect(deliveries_after_commit, dispatch_uid="workers.notify.deliveries")
        emails_pending.connect(emails_after_commit, dispatch_uid="workers.notify.emails")
