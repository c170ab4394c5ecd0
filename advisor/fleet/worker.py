"""What every Celery worker does for fleets when it (re)connects to the broker.

`RequeueIncompleteBatches` queues the batches that are not done, so work whose messages were
lost (a worker killed, a broker restarted empty) continues without anyone asking. Registered on
import; `advisor.tasks`, which Celery's autodiscovery imports in every worker, imports it.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import bootsteps
from django.db import close_old_connections, connections

from advisor.celery import app
from advisor.fleet import services

logger = logging.getLogger(__name__)


class RequeueIncompleteBatches(bootsteps.StartStopStep):
    """On every (re)connection to the broker, queue the batches that are not done."""

    requires = frozenset({"celery.worker.consumer.tasks:Tasks"})

    def start(self, parent: Any) -> None:
        close_old_connections()
        try:
            services.batch_requeue_incomplete()
        except Exception:  # never keep a worker from consuming
            logger.exception("could not requeue incomplete batches")
        finally:
            connections.close_all()  # the pool's processes must not share this connection


app.steps["consumer"].add(RequeueIncompleteBatches)
