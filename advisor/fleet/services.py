"""Fleet batches: recorded in PostgreSQL first, queued on Celery second, each item done once.

The database is the truth and the broker only a doorbell. A batch and all its items are
committed before anything is queued; the queued tasks carry ids only, and the worker's side
(`advisor.fleet.processing`) does each item exactly once. Lost messages (a worker killed, a
broker restarted empty) are recovered by `batch_requeue_incomplete`, which every worker runs
whenever it (re)connects to the broker (`advisor.fleet.worker`), and by `batch_nudge` when a
client polls a batch that has not moved for a while.

Broker down when a batch is created: the batch is refused whole. Its rows are deleted again and
`BrokerUnavailable` raised (the API answers 503), so a client's retry cannot start it twice.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from advisor.fleet import tasks
from advisor.fleet.archive_files import archive_built, archive_request
from advisor.models import Batch, BatchItem
from advisor.row_insert import insert_rows
from advisor.unstorable import UNSTORABLE_MESSAGE, unstorable_path
from rules.current.reduce import reduce_profile_paste

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
    profile: Any  # as sent, its paste reduced to what the advisor reads; validated when processed
    errors: dict[str, list[str]] | None = None  # a paste that could not be read fails the item now


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
    return [BatchEntry(entry["name"], *reduce_profile_paste(entry["profile"])) for entry in raw]


def batch_create(
    *, owner: AbstractBaseUser, entries: Sequence[BatchEntry], base_url: str = ""
) -> Batch:
    """Record the batch and its items, then queue it once committed. `base_url` is where the
    links in its archives point (the site's address as the client reached it).

    Raises BrokerUnavailable, with nothing kept, when the broker cannot take the start message.
    """
    batch_id = uuid.uuid4()
    with transaction.atomic():
        Batch.objects.create(id=batch_id, owner=owner, total=len(entries), base_url=base_url)
        insert_rows(
            [
                BatchItem(
                    batch_id=batch_id,
                    position=i,
                    name=e.name,
                    profile=e.profile,
                    **({} if e.errors is None else _failed_now(e.errors)),
                )
                for i, e in enumerate(entries)
            ]
        )
        transaction.on_commit(partial(_queue_or_discard, batch_id))
    return Batch.objects.get(id=batch_id)


def _failed_now(errors: dict[str, list[str]]) -> dict[str, Any]:
    return {"status": BatchItem.Status.FAILED, "errors": errors, "finished_at": timezone.now()}


def _queue_or_discard(batch_id: uuid.UUID) -> None:
    try:
        batch_queue(batch_id=batch_id)
    except BROKER_ERRORS as exc:
        logger.warning("batch %s refused: the broker is unavailable (%s)", batch_id, exc)
        Batch.objects.filter(id=batch_id).delete()
        raise BrokerUnavailable(str(exc)) from exc


def batch_queue(*, batch_id: uuid.UUID | str) -> None:
    """Send the start message; a pending batch becomes queued."""
    tasks.batch_start.delay(str(batch_id))
    batches = Batch.objects.filter(id=batch_id)
    batches.filter(queued_at__isnull=True).update(queued_at=timezone.now())
    batches.filter(status=Batch.Status.PENDING).update(status=Batch.Status.QUEUED)


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


def batch_archive_file(*, batch: Batch, fmt: str) -> Path | None:
    """The built `fmt` archive of a done batch, or None while it is being built: its build is
    then queued (once committed) unless it already was. BrokerUnavailable when it cannot be."""
    built = archive_built(batch_id=batch.id, fmt=fmt)
    if built is not None:
        return built
    queue = partial(
        archive_request, batch_id=batch.id, fmt=fmt, queue=tasks.batch_archive_build.delay
    )
    try:
        transaction.on_commit(queue)  # outside a transaction (a request), it runs at once
    except BROKER_ERRORS as exc:
        logger.warning("batch %s: the %s archive cannot be queued (%s)", batch.id, fmt, exc)
        raise BrokerUnavailable(str(exc)) from exc
    return archive_built(batch_id=batch.id, fmt=fmt)  # tasks run in-process without a broker
