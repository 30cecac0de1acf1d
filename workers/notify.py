"""Send webhooks and emails as soon as the transaction that made them commits, when there is a broker.

league.services.webhooks and league.services.notifications announce (`deliveries_pending`, `emails_pending`); this
module, connected in workers.apps, sends the task to the workers. Without a broker (tasks eager: the embedded
default) it does nothing: the work would then run in the request that committed, and a slow receiver would hold
the request up. The embedded beat's sweep (DIAMONDS_WEBHOOK_SWEEP_SECONDS) sends them there instead, as beat's
sweep sends whatever a lost message left with a broker.
"""

from __future__ import annotations

import logging

from django.conf import settings

from .tasks import deliver_webhooks, send_notification_emails

log = logging.getLogger(__name__)


def _send(task, **kwargs) -> None:
    if task.app.conf.task_always_eager:  # no broker: the embedded beat's sweep sends them, not this request
        return
    try:
        task.apply_async(kwargs=kwargs, queue=settings.DIAMONDS_NOTIFY_QUEUE, retry=True,
                         retry_policy=settings.DIAMONDS_SEND_RETRY_POLICY)
    except Exception as e:  # noqa: BLE001 - the broker is down: beat's sweep sends them later
        log.warning("could not send %s now (%s); the sweep will", task.name, e)


def deliveries_after_commit(sender, *, endpoint_ids, **kwargs) -> None:
    _send(deliver_webhooks, endpoint_ids=list(endpoint_ids))


def emails_after_commit(sender, **kwargs) -> None:
    _send(send_notification_emails)
