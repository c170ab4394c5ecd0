"""Batch tasks: thin wrappers that take ids and call `advisor.batches`.

Both tasks are idempotent (the database decides what is still pending), acknowledged late (a
worker that dies mid-task leaves its message to be delivered again) and retried with backoff
when the database hiccups. `RequeueIncompleteBatches` runs in every worker each time it
(re)connects to the broker, so work whose messages were lost (a worker killed, a broker
restarted empty) continues without anyone asking.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import bootsteps, shared_task
from django.db import DatabaseError, close_old_connections, connections

from advisor import batches
from advisor.celery import app

logger = logging.getLogger(__name__)

# A chunk is BATCH_CHUNK_SIZE profiles at about a millisecond each; these limits leave a wide
# margin and stop a stuck worker.
SOFT_TIME_LIMIT_S = 120
TIME_LIMIT_S = 150

_RELIABLE: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,  # a killed pool process: deliver again, do not drop
    "autoretry_for": (DatabaseError,),  # a dropped connection, a deadlock victim
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
    "soft_time_limit": SOFT_TIME_LIMIT_S,
    "time_limit": TIME_LIMIT_S,
}


@shared_task(**_RELIABLE)
def batch_start(batch_id: str) -> int:
    """Fan the batch out into chunk tasks; returns how many were queued."""
    return batches.batch_start(batch_id=batch_id)


@shared_task(**_RELIABLE)
def batch_process_chunk(batch_id: str, first: int, last: int) -> int:
    """Process the pending items of one chunk; returns how many this delivery did."""
    return batches.batch_process_chunk(batch_id=batch_id, first=first, last=last)


class RequeueIncompleteBatches(bootsteps.StartStopStep):
    """On every (re)connection to the broker, queue the batches that are not done."""

    requires = frozenset({"celery.worker.consumer.tasks:Tasks"})

    def start(self, parent: Any) -> None:
        close_old_connections()
        try:
            batches.batch_requeue_incomplete()
        except Exception:  # never keep a worker from consuming
            logger.exception("could not requeue incomplete batches")
        finally:
            connections.close_all()  # the pool's processes must not share this connection


app.steps["consumer"].add(RequeueIncompleteBatches)
