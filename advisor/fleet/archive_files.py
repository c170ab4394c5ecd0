"""Built archives: each format of a finished batch is written once, by a worker, as a file.

A download used to write the zip while sending it. A 10,000-host batch takes 31-79 s in my.cnf
and 144-167 s in json (benchmarks/archive.py), so gunicorn killed the worker at its 30 s timeout
and the client kept a 200 and a truncated zip (47 MB of json's 178 MB). Now a worker writes
`<BATCH_ARCHIVE_DIR>/<batch id>/<format>.zip` under a temporary name and renames it into place
(a reader sees the whole zip or none), and the web serves that file with its Content-Length, so
a cut download is an error the client can see, never a silent half.

A `BatchArchive` row records that a format was asked for (its build queued) and when it was
written. The my.cnf archive is asked for as the batch finishes; any other format on its first
download, which answers 409 with Retry-After until it is built (an error, not a 202, so that
`curl -f -o fleet.zip` never saves the message as the zip). The database decides what is
queued, the broker only rings: a build whose message was lost is queued again after
BATCH_STALL_SECONDS.
"""

from __future__ import annotations

import logging
import os
import tempfile
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Protocol

from django.conf import settings
from django.http import FileResponse
from django.utils import timezone

from advisor.fleet.archive import batch_archive_write
from advisor.models import Batch, BatchArchive

logger = logging.getLogger(__name__)


# advisor-engineering-judgement: a 10,000-host batch's my.cnf archive takes about 30 s to build
# and its json one a few minutes; a poll every 5 s is a few dozen cheap requests at most.
RETRY_AFTER_SECONDS = 5


class ArchiveQueue(Protocol):
    """Queues the build of one format of a batch's archive (a Celery task's `delay`)."""

    def __call__(self, batch_id: str, fmt: str, /) -> object: ...


def archive_path(*, batch_id: uuid.UUID | str, fmt: str) -> Path:
    return Path(settings.BATCH_ARCHIVE_DIR) / str(batch_id) / f"{fmt}.zip"


def archive_build(*, batch_id: uuid.UUID | str, fmt: str) -> int:
    """Write the archive beside its place and rename it there; returns its size in bytes.

    Building twice (a message delivered again) writes the same entries again: harmless.
    """
    batch = Batch.objects.get(id=batch_id)
    if batch.status != Batch.Status.DONE:
        raise ValueError(f"batch {batch_id} is not done; its archive would miss hosts")
    path = archive_path(batch_id=batch_id, fmt=fmt)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{fmt}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            batch_archive_write(batch=batch, out=out, fmt=fmt)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:  # a time limit or a crash: leave no part file behind
        Path(temporary).unlink(missing_ok=True)
        raise
    size = path.stat().st_size
    BatchArchive.objects.update_or_create(
        batch_id=batch_id,
        format=fmt,
        defaults={"built_at": timezone.now(), "size": size},
        create_defaults={"requested_at": timezone.now(), "built_at": timezone.now(), "size": size},
    )
    logger.info("batch %s: %s archive built, %d bytes", batch_id, fmt, size)
    return size


def archive_built(*, batch_id: uuid.UUID | str, fmt: str) -> Path | None:
    """The built archive's path, or None while it is not (yet) written."""
    built = BatchArchive.objects.filter(batch_id=batch_id, format=fmt, built_at__isnull=False)
    path = archive_path(batch_id=batch_id, fmt=fmt)
    return path if built.exists() and path.is_file() else None


def archive_request(*, batch_id: uuid.UUID | str, fmt: str, queue: ArchiveQueue) -> bool:
    """Queue the build unless one was queued less than BATCH_STALL_SECONDS ago; True when
    queued. Call it when `archive_built` found nothing: a row marked built then lost its file
    (a volume replaced), and is built again.

    When `queue` fails (the broker is down) the request is forgotten and the error raised, so
    the next download asks again.
    """
    now = timezone.now()
    row, created = BatchArchive.objects.get_or_create(
        batch_id=batch_id, format=fmt, defaults={"requested_at": now}
    )
    if not created:
        again = BatchArchive.objects.filter(pk=row.pk)
        if row.built_at is None or archive_path(batch_id=batch_id, fmt=fmt).is_file():
            stale = now - timedelta(seconds=settings.BATCH_STALL_SECONDS)
            again = again.filter(built_at__isnull=True, requested_at__lt=stale)
        if not again.update(requested_at=now, built_at=None, size=None):
            return False
    try:
        queue(str(batch_id), fmt)
    except BaseException:
        BatchArchive.objects.filter(pk=row.pk, built_at__isnull=True).delete()
        raise
    return True


def archive_response(*, path: Path, batch_id: uuid.UUID | str) -> FileResponse:
    """The built zip as a download whose Content-Length is the size of the very file sent (a
    build that replaces it meanwhile does not change what this open file holds)."""
    file = path.open("rb")
    response = FileResponse(
        file, as_attachment=True, filename=f"batch-{batch_id}.zip", content_type="application/zip"
    )
    response["Content-Length"] = str(os.fstat(file.fileno()).st_size)
    return response
