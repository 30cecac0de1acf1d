"""`python -m workers.relay`: the outbox relay's own process (deploy/Procfile `relay`). Run one or more.

Every DIAMONDS_RELAY_SWEEP_SECONDS it sends the outbox rows that are due (workers.outbox.relay): rows whose send
failed, rows a process committed but died before sending, and rows sent but not carried out whose match has no live
lease (a lost message, a killed worker). It is a process of its own, not a beat task, so that recovery never waits
for a free worker slot behind long matches, and keeps working while the broker is down (it is what sends the backlog
when the broker returns). It survives outages of either service: an error is logged, the database connection
dropped and the loop goes on; nothing here needs a restart.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import time

import django

# This module is the relay process's entry point, never imported by the product: Django is set up before the
# modules that need its apps are imported (as config/wsgi.py does).
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.db import close_old_connections, connection  # noqa: E402

from workers.outbox import sweep  # noqa: E402

log = logging.getLogger("workers.relay")


def main() -> None:
    # Its own handler: Django's LOGGING (configured by setup) sends only warnings to the console.
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("workers.relay", "workers.outbox"):
        logger = logging.getLogger(name)
        logger.setLevel(os.environ.get("DIAMONDS_RELAY_LOG_LEVEL", "INFO"))
        logger.addHandler(handler)
        logger.propagate = False
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(True))
    interval = settings.DIAMONDS_RELAY_SWEEP_SECONDS
    log.info("relay ready: sweeping every %ss (lease %ss, resend after %ss)", interval,
             settings.DIAMONDS_LEASE_SECONDS, settings.DIAMONDS_OUTBOX_RESEND_SECONDS)
    failing = False
    purged_at = 0.0
    while not stopping:
        try:
            close_old_connections()
            report, purged_at = sweep(purged_at=purged_at)
            if report.sent or report.failed:
                log.info("relay: %s sent, %s failed", report.sent, report.failed)
            if failing:
                log.info("relay: database and broker answer again")
            failing = False
        except Exception as e:  # noqa: BLE001 - an outage of any kind must not end the loop
            if not failing:
                log.warning("relay sweep failed (will keep trying): %s: %s", type(e).__name__, e)
            failing = True
            try:
                connection.close()
            except Exception:  # noqa: BLE001 - already broken
                pass
        deadline = time.monotonic() + interval
        while not stopping and time.monotonic() < deadline:
            time.sleep(min(0.2, interval))
    log.info("relay stopped")


if __name__ == "__main__":
    main()
