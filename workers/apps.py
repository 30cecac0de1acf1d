"""Django app config for workers: connects the outbox relay to league's `work_recorded`, so that work recorded by a
transaction is sent as soon as it commits, in every process that records some (web, worker, a management command).
League cannot call workers (arrows point down); it only announces, and this is the one place that listens."""

from django.apps import AppConfig


class WorkersConfig(AppConfig):
    name = "workers"

    def ready(self) -> None:
        from league.services.outbox import work_recorded

        from .outbox import relay_after_commit

        work_recorded.connect(relay_after_commit, dispatch_uid="workers.outbox.relay_after_commit")
