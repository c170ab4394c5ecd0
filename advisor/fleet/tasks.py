"""Batch tasks: thin wrappers that take ids and call `advisor.fleet.processing` (or
`advisor.fleet.archive_files` for an archive).

The tasks are idempotent (the database decides what is still pending), acknowledged late (a
worker that dies mid-task leaves its message to be delivered again) and retried with backoff
when the database hiccups. Each passes the chunk and archive tasks' own `delay` to the
processing, which queues the chunks it fans out to or could not finish and, once the batch is
done, the build of its my.cnf archive.

The chunk tasks keep the registered names of the module they had before issue 11
(`advisor.tasks.batches`): messages already queued, and clients that send them by name, keep
working.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import DatabaseError

from advisor.fleet import archive_files, processing

# A chunk is BATCH_CHUNK_SIZE profiles at about a millisecond each; these limits leave a wide
# margin and stop a stuck worker.
SOFT_TIME_LIMIT_S = 120
TIME_LIMIT_S = 150
# A 10,000-host archive took 31-79 s in my.cnf and 144-167 s in json, the largest export, on a
# busy shared two-core machine (benchmarks/archive.py). These limits leave a margin near three
# and stay below the broker's 600 s visibility timeout, past which a running task would be
# delivered again.
ARCHIVE_SOFT_TIME_LIMIT_S = 480
ARCHIVE_TIME_LIMIT_S = 540

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


@shared_task(name="advisor.tasks.batches.batch_start", **_RELIABLE)
def batch_start(batch_id: str) -> int:
    """Fan the batch out into chunk tasks; returns how many were queued."""
    return processing.batch_start(
        batch_id=batch_id,
        queue_chunk=batch_process_chunk.delay,
        queue_archive=batch_archive_build.delay,
    )


@shared_task(name="advisor.tasks.batches.batch_process_chunk", **_RELIABLE)
def batch_process_chunk(batch_id: str, first: int, last: int) -> int:
    """Process the pending items of one chunk; returns how many this delivery did."""
    return processing.batch_process_chunk(
        batch_id=batch_id,
        first=first,
        last=last,
        queue_chunk=batch_process_chunk.delay,
        queue_archive=batch_archive_build.delay,
    )


@shared_task(
    name="advisor.fleet.tasks.batch_archive_build",
    **_RELIABLE
    | {"soft_time_limit": ARCHIVE_SOFT_TIME_LIMIT_S, "time_limit": ARCHIVE_TIME_LIMIT_S},
)
def batch_archive_build(batch_id: str, fmt: str) -> int:
    """Write one format of a finished batch's archive; returns its size in bytes."""
    return archive_files.archive_build(batch_id=batch_id, fmt=fmt)
