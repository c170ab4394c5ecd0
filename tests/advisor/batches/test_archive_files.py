"""Built archives: written once by a worker, whole or not at all, queued once per format."""

from __future__ import annotations

import zipfile
from datetime import timedelta

import pytest
from django.utils import timezone

from advisor.fleet.archive_files import (
    archive_build,
    archive_built,
    archive_path,
    archive_request,
)
from advisor.fleet.tasks import batch_archive_build, batch_process_chunk
from advisor.models import BatchArchive

pytestmark = pytest.mark.django_db


@pytest.fixture
def done_batch(make_batch, django_capture_on_commit_callbacks):
    """A finished batch of three hosts whose my.cnf archive has not been built."""
    batch = make_batch(3)
    with django_capture_on_commit_callbacks() as finishing:
        batch_process_chunk(batch_id=batch.id, first=0, last=3)
    assert len(finishing) == 1  # the my.cnf build, left unrun here
    return batch


def test_the_batch_that_finishes_queues_the_build_of_its_my_cnf_archive(
    make_batch, django_capture_on_commit_callbacks
):
    batch = make_batch(2)
    with django_capture_on_commit_callbacks(execute=True):
        batch_process_chunk(batch_id=batch.id, first=0, last=2)
    path = archive_built(batch_id=batch.id, fmt="mycnf")
    assert path == archive_path(batch_id=batch.id, fmt="mycnf")
    assert zipfile.ZipFile(path).namelist() == ["h0.cnf", "h1.cnf", "summary.csv"]
    assert BatchArchive.objects.get(batch=batch).size == path.stat().st_size


def test_a_build_renames_a_whole_file_into_place_and_leaves_no_part(done_batch):
    size = archive_build(batch_id=done_batch.id, fmt="udev")
    path = archive_built(batch_id=done_batch.id, fmt="udev")
    assert path is not None
    assert path.stat().st_size == size
    assert zipfile.ZipFile(path).testzip() is None
    assert [p.name for p in path.parent.iterdir()] == ["udev.zip"]


def test_a_format_is_queued_once_while_it_is_being_built(done_batch):
    sent: list[tuple[str, str]] = []
    assert archive_request(batch_id=done_batch.id, fmt="sql", queue=lambda *a: sent.append(a))
    assert not archive_request(batch_id=done_batch.id, fmt="sql", queue=lambda *a: sent.append(a))
    assert sent == [(str(done_batch.id), "sql")]


def test_a_build_whose_message_was_lost_is_queued_again_after_the_stall_time(done_batch, settings):
    sent: list[tuple[str, str]] = []
    archive_request(batch_id=done_batch.id, fmt="sql", queue=lambda *a: sent.append(a))
    BatchArchive.objects.update(
        requested_at=timezone.now() - timedelta(seconds=settings.BATCH_STALL_SECONDS + 1)
    )
    assert archive_request(batch_id=done_batch.id, fmt="sql", queue=lambda *a: sent.append(a))
    assert len(sent) == 2


def test_an_archive_whose_file_was_lost_is_built_again(done_batch):
    batch_archive_build(str(done_batch.id), "mycnf")
    archive_path(batch_id=done_batch.id, fmt="mycnf").unlink()
    assert archive_built(batch_id=done_batch.id, fmt="mycnf") is None
    assert archive_request(batch_id=done_batch.id, fmt="mycnf", queue=batch_archive_build.delay)
    assert archive_built(batch_id=done_batch.id, fmt="mycnf") is not None


def test_a_request_whose_queue_fails_is_forgotten(done_batch):
    def broker_down(*args: object) -> None:
        raise ConnectionError("connection refused")

    with pytest.raises(ConnectionError):
        archive_request(batch_id=done_batch.id, fmt="sql", queue=broker_down)
    assert not BatchArchive.objects.exists()
