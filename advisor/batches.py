"""Fleet batches: recorded in PostgreSQL first, queued on Celery second, each item done once.

The database is the truth and the broker only a doorbell. A batch and all its items are
committed before anything is queued; the queued tasks carry ids only. An item is processed inside
one transaction that locks it (`SELECT ... FOR UPDATE SKIP LOCKED`, pending items only) and
writes its outcome and `attempts + 1` in the same commit, so a task delivered twice, or run by a
worker that is killed halfway (its transaction rolls back), still leaves each item done exactly
once. Lost messages (a worker killed, a broker restarted empty) are recovered by
`batch_requeue_incomplete`, which every worker runs whenever it (re)connects to the broker, and
by `batch_nudge` when a client polls a batch that has not moved for a while.

Broker down when a batch is created: the batch is refused whole. Its rows are deleted again and
`BrokerUnavailable` raised (the API answers 503), so a client's retry cannot start it twice.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from advisor.deadline import OverBudget, time_budget
from advisor.models import Batch, BatchItem
from advisor.services import recommendation_compute, recommendation_create_many
from advisor.unstorable import UNSTORABLE_MESSAGE, unstorable_path
from rules.errors import ProfileError
from rules.result import Result
from rules.validation import parse_profile

logger = logging.getLogger(__name__)

# Host names, FQDNs and instance ids; safe as a file name in the archive and as a CSV cell.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,254}")
# File names Windows reserves for devices, with any extension (Microsoft, "Naming Files, Paths,
# and Namespaces").
WINDOWS_DEVICE_NAMES = frozenset(
    {"CON", "PRN", "AUX", "NUL"} | {f"{port}{n}" for port in ("COM", "LPT") for n in range(1, 10)}
)
NAME_RULE = "1 to 255 letters, digits, '.', '_' or '-', starting with a letter or digit"
BROKER_ERRORS: tuple[type[Exception], ...] = (KombuOperationalError, ConnectionError, TimeoutError)


class BrokerUnavailable(Exception):
    """The task broker refused or timed out; the batch was not kept."""


class BatchInvalid(ValueError):
    """Field errors in the batch itself (not in its profiles), keyed like `profiles.3.name`."""

    def __init__(self, errors: Mapping[str, list[str]]) -> None:
        self.errors = {path: list(messages) for path, messages in errors.items()}
        super().__init__("; ".join(f"{p}: {m}" for p, ms in self.errors.items() for m in ms))


class BatchTooLarge(ValueError):
    """More profiles than BATCH_MAX_PROFILES."""


@dataclass(frozen=True, slots=True)
class BatchEntry:
    name: str
    profile: Any  # as the client sent it; validated when its item is processed


def batch_entries_check(raw: object) -> list[BatchEntry]:
    """The client's list of {"name", "profile"} as entries; BatchInvalid names every problem."""
    if not isinstance(raw, list) or not raw:
        raise BatchInvalid({"profiles": ["must be a non-empty list of {name, profile} objects"]})
    limit = settings.BATCH_MAX_PROFILES
    if len(raw) > limit:
        raise BatchTooLarge(
            f"A batch holds at most {limit:,} profiles; this one has {len(raw):,}. "
            "Split it into several batches."
        )
    errors: dict[str, list[str]] = {}
    first_seen: dict[str, int] = {}
    for index, entry in enumerate(raw):
        where = f"profiles.{index}"
        if not isinstance(entry, Mapping):
            errors[where] = ["must be an object with name and profile"]
            continue
        for key in entry:
            if key not in ("name", "profile"):
                errors.setdefault(f"{where}.{key}", []).append("is not a known field")
        name = entry.get("name")
        if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
            errors.setdefault(f"{where}.name", []).append(f"must be {NAME_RULE}")
        elif name.casefold() in first_seen:
            errors.setdefault(f"{where}.name", []).append(
                f"duplicates profiles.{first_seen[name.casefold()]}.name; names must be unique "
                "ignoring case (their files would overwrite each other on macOS and Windows)"
            )
        elif name.split(".")[0].upper() in WINDOWS_DEVICE_NAMES:
            errors.setdefault(f"{where}.name", []).append(
                f"{name.split('.')[0]} is a device name on Windows; its file could not be unpacked"
            )
        else:
            first_seen[name.casefold()] = index
        if not isinstance(entry.get("profile"), Mapping):
            errors.setdefault(f"{where}.profile", []).append("must be a profile object")
    bad = unstorable_path(raw, "profiles")
    if bad is not None:
        errors.setdefault(bad, []).append(UNSTORABLE_MESSAGE)
    if errors:
        raise BatchInvalid(errors)
    return [BatchEntry(entry["name"], entry["profile"]) for entry in raw]


def batch_create(*, owner: AbstractBaseUser, entries: Sequence[BatchEntry]) -> Batch:
    """Record the batch and its items, then queue it once committed.

    Raises BrokerUnavailable, with nothing kept, when the broker cannot take the start message.
    """
    batch_id = uuid.uuid4()
    with transaction.atomic():
        Batch.objects.create(id=batch_id, owner=owner, total=len(entries))
        BatchItem.objects.bulk_create(
            (
                BatchItem(batch_id=batch_id, position=i, name=e.name, profile=e.profile)
                for i, e in enumerate(entries)
            ),
            batch_size=2000,
        )
        transaction.on_commit(partial(_queue_or_discard, batch_id))
    return Batch.objects.get(id=batch_id)


def _queue_or_discard(batch_id: uuid.UUID) -> None:
    try:
        batch_queue(batch_id=batch_id)
    except BROKER_ERRORS as exc:
        logger.warning("batch %s refused: the broker is unavailable (%s)", batch_id, exc)
        Batch.objects.filter(id=batch_id).delete()
        raise BrokerUnavailable(str(exc)) from exc


def batch_queue(*, batch_id: uuid.UUID | str) -> None:
    """Send the start message; a pending batch becomes queued."""
    from advisor.tasks.batches import batch_start  # the tasks call this module

    batch_start.delay(str(batch_id))
    batches = Batch.objects.filter(id=batch_id)
    batches.filter(queued_at__isnull=True).update(queued_at=timezone.now())
    batches.filter(status=Batch.Status.PENDING).update(status=Batch.Status.QUEUED)


def batch_start(*, batch_id: uuid.UUID | str) -> int:
    """Queue one chunk task per group of positions that still has pending items."""
    from advisor.tasks.batches import batch_process_chunk

    Batch.objects.filter(
        id=batch_id, status__in=(Batch.Status.PENDING, Batch.Status.QUEUED)
    ).update(status=Batch.Status.RUNNING)
    size = settings.BATCH_CHUNK_SIZE
    pending = BatchItem.objects.filter(batch_id=batch_id, status=BatchItem.Status.PENDING)
    starts = sorted({p // size * size for p in pending.values_list("position", flat=True)})
    for first in starts:
        batch_process_chunk.delay(str(batch_id), first, first + size)
    if not starts:
        batch_finish_if_done(batch_id=batch_id)
    return len(starts)


def batch_process_chunk(*, batch_id: uuid.UUID | str, first: int, last: int) -> int:
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
        BatchItem.objects.bulk_update(
            done, ["status", "errors", "recommendation", "attempts", "finished_at"]
        )
    if len(done) < len(items):
        _queue_rest(batch_id, first, last)
    batch_finish_if_done(batch_id=batch_id)
    return len(done)


def _queue_rest(batch_id: uuid.UUID | str, first: int, last: int) -> None:
    from advisor.tasks.batches import batch_process_chunk

    logger.info("batch %s chunk %d-%d ran out of time; the rest is queued", batch_id, first, last)
    batch_process_chunk.delay(str(batch_id), first, last)


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


def _over_budget_message(over: OverBudget) -> str:
    return (
        f"computing this host {over}; the other hosts were not held up. Shorten what it "
        "carries (paste only the server's part of its configuration) and send it again"
    )


def batch_finish_if_done(*, batch_id: uuid.UUID | str) -> bool:
    """Mark the batch done once no item is pending; safe to call any number of times."""
    if BatchItem.objects.filter(batch_id=batch_id, status=BatchItem.Status.PENDING).exists():
        return False
    Batch.objects.filter(id=batch_id).exclude(status=Batch.Status.DONE).update(
        status=Batch.Status.DONE, finished_at=timezone.now()
    )
    return True


def batch_requeue_incomplete() -> int:
    """Queue every batch that is not done again (duplicates are harmless); returns how many."""
    ids = list(Batch.objects.exclude(status=Batch.Status.DONE).values_list("id", flat=True))
    for batch_id in ids:
        batch_queue(batch_id=batch_id)
    if ids:
        logger.info("requeued %d incomplete batch(es)", len(ids))
    return len(ids)


def batch_nudge(*, batch: Batch) -> bool:
    """Queue a batch again when nothing has moved for BATCH_STALL_SECONDS (a lost message with
    no worker restart to recover it); called when a client polls. True when it was queued."""
    if batch.status == Batch.Status.DONE:
        return False
    moved = batch.items.aggregate(last=Max("finished_at"))["last"]
    last = max(t for t in (moved, batch.queued_at, batch.created_at) if t is not None)
    if (timezone.now() - last).total_seconds() < settings.BATCH_STALL_SECONDS:
        return False
    try:
        batch_queue(batch_id=batch.id)
    except BROKER_ERRORS as exc:
        logger.warning("batch %s is stalled and the broker is unavailable (%s)", batch.id, exc)
        return False
    logger.info("batch %s was stalled: queued again", batch.id)
    return True


def batch_progress(*, batch: Batch) -> dict[str, int]:
    """Items per status, from the database (the broker knows nothing of progress)."""
    counts = dict(
        batch.items.order_by()
        .values_list("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    done = counts.get(BatchItem.Status.DONE, 0)
    failed = counts.get(BatchItem.Status.FAILED, 0)
    total = batch.total
    percent = 100 if total == 0 else (done + failed) * 100 // total
    return {
        "total": total,
        "done": done,
        "failed": failed,
        "pending": total - done - failed,
        "percent": percent,
    }
