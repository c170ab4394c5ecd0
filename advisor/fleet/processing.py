"""Fleet batches, the worker's side: fan a batch out into chunks, process a chunk, finish.

Each item is processed inside one transaction that locks it (`SELECT ... FOR UPDATE SKIP
LOCKED`, pending items only) and writes its outcome and `attempts + 1` in the same commit, so a
chunk delivered twice, or run by a worker that is killed halfway (its transaction rolls back),
still leaves each item done exactly once.

Queueing the next chunks, and the build of a finished batch's archive, is the caller's: the
Celery tasks (`advisor.fleet.tasks`) pass their own `delay` as `queue_chunk` and `queue_archive`,
so this module never imports the tasks that import it.
"""

from __future__ import annotations

import logging
import time
import uuid
from functools import partial
from typing import Any, Protocol

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from advisor.deadline import OverBudget, time_budget
from advisor.fleet.archive_files import ArchiveQueue, archive_request
from advisor.models import Batch, BatchItem
from advisor.recommendations.services import recommendation_compute, recommendation_create_many
from rules.inputs.errors import ProfileError
from rules.inputs.validation import parse_profile
from rules.output.result import Result

logger = logging.getLogger(__name__)


class ChunkQueue(Protocol):
    """Queues the chunk [first, last) of a batch (a Celery task's `delay`)."""

    def __call__(self, batch_id: str, first: int, last: int, /) -> object: ...


def batch_start(
    *, batch_id: uuid.UUID | str, queue_chunk: ChunkQueue, queue_archive: ArchiveQueue
) -> int:
    """Queue one chunk per group of positions that still has pending items."""
    Batch.objects.filter(
        id=batch_id, status__in=(Batch.Status.PENDING, Batch.Status.QUEUED)
    ).update(status=Batch.Status.RUNNING)
    size = settings.BATCH_CHUNK_SIZE
    pending = BatchItem.objects.filter(batch_id=batch_id, status=BatchItem.Status.PENDING)
    starts = sorted({p // size * size for p in pending.values_list("position", flat=True)})
    for first in starts:
        queue_chunk(str(batch_id), first, first + size)
    if not starts:
        batch_finish_if_done(batch_id=batch_id, queue_archive=queue_archive)
    return len(starts)


def batch_process_chunk(
    *,
    batch_id: uuid.UUID | str,
    first: int,
    last: int,
    queue_chunk: ChunkQueue,
    queue_archive: ArchiveQueue,
) -> int:
    """Process the pending items at positions [first, last); returns how many this call did.

    Items another worker holds are skipped (it will finish them, or roll back and leave them
    pending for a redelivered task); items already done are never touched again. Each item has
    BATCH_ITEM_SECONDS and fails alone past them; once the chunk has run BATCH_CHUNK_SECONDS,
    what is done is committed and the rest of the chunk is queued again, so no chunk reaches
    the task's time limit and rolls back.
    """
    started = time.monotonic()
    now = timezone.now()
    with transaction.atomic():
        items = list(
            BatchItem.objects.select_for_update(skip_locked=True)
            .filter(batch_id=batch_id, position__gte=first, position__lt=last)
            .filter(status=BatchItem.Status.PENDING)
            .order_by("position")
        )
        done: list[BatchItem] = []
        results: list[Result] = []
        for item in items:
            if done and time.monotonic() - started > settings.BATCH_CHUNK_SECONDS:
                break  # at least one item per delivery, so every delivery makes progress
            result = _process(item, now)
            done.append(item)
            if result is not None:
                results.append(result)
        recommendation_create_many(results=results)
        _save_outcomes(done)
    if len(done) < len(items):
        logger.info(
            "batch %s chunk %d-%d ran out of time; the rest is queued", batch_id, first, last
        )
        queue_chunk(str(batch_id), first, last)
    batch_finish_if_done(batch_id=batch_id, queue_archive=queue_archive)
    return len(done)


def _process(item: BatchItem, now: Any) -> Result | None:
    item.attempts += 1
    item.finished_at = now
    try:
        with time_budget(settings.BATCH_ITEM_SECONDS):
            result = recommendation_compute(profile=parse_profile(item.profile))
    except ProfileError as problem:
        item.status, item.errors = BatchItem.Status.FAILED, problem.errors
        return None
    except OverBudget as over:
        logger.warning("batch item %s (%s) %s", item.pk, item.name, over)
        item.status, item.errors = BatchItem.Status.FAILED, {"": [_over_budget_message(over)]}
        return None
    except SoftTimeLimitExceeded:  # the task's own limit: let Celery see it
        raise
    except Exception:  # one broken profile must not stall a fleet: record it, log it
        logger.exception("batch item %s (%s) could not be computed", item.pk, item.name)
        item.status, item.errors = BatchItem.Status.FAILED, {"": ["internal error; logged"]}
        return None
    item.status, item.errors, item.recommendation_id = BatchItem.Status.DONE, None, result.id
    return result


OUTCOME_FIELDS = ("status", "errors", "recommendation", "attempts", "finished_at")


def _save_outcomes(items: list[BatchItem]) -> None:
    """One UPDATE per item, sent together by `executemany` (psycopg pipelines them). Django's
    bulk_update builds one CASE per field over the whole chunk: 28% of a chunk's time here."""
    if not items:
        return
    meta = BatchItem._meta
    fields = [meta.get_field(name) for name in OUTCOME_FIELDS]
    quote = connection.ops.quote_name
    sql = "UPDATE {} SET {} WHERE {} = %s".format(
        quote(meta.db_table),
        ", ".join(f"{quote(f.column)} = %s" for f in fields),
        quote(meta.pk.column),
    )
    values = [
        [f.get_db_prep_save(getattr(item, f.attname), connection) for f in fields] + [item.pk]
        for item in items
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, values)


def _over_budget_message(over: OverBudget) -> str:
    return (
        f"computing this host {over}; the other hosts were not held up. Shorten what it "
        "carries (paste only the server's part of its configuration) and send it again"
    )


def batch_finish_if_done(*, batch_id: uuid.UUID | str, queue_archive: ArchiveQueue) -> bool:
    """Mark the batch done once no item is pending; safe to call any number of times. The call
    that marks it done queues the build of its my.cnf archive once committed."""
    if BatchItem.objects.filter(batch_id=batch_id, status=BatchItem.Status.PENDING).exists():
        return False
    finished = (
        Batch.objects.filter(id=batch_id)
        .exclude(status=Batch.Status.DONE)
        .update(status=Batch.Status.DONE, finished_at=timezone.now())
    )
    if finished:
        transaction.on_commit(partial(_request_archive, batch_id, queue_archive))
    return True


def _request_archive(batch_id: uuid.UUID | str, queue_archive: ArchiveQueue) -> None:
    try:
        archive_request(batch_id=batch_id, fmt="mycnf", queue=queue_archive)
    except Exception:  # the batch is done all the same; its first download asks again
        logger.exception("batch %s: could not queue the build of its archive", batch_id)
