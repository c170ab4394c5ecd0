"""The batch services: each item done exactly once, whatever is delivered twice."""

from __future__ import annotations

import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from advisor.fleet import processing
from advisor.fleet.processing import batch_finish_if_done
from advisor.fleet.services import (
    BatchInvalid,
    BatchTooLarge,
    batch_entries_check,
    batch_nudge,
    batch_progress,
    batch_requeue_incomplete,
)
from advisor.fleet.tasks import batch_archive_build, batch_process_chunk, batch_start
from advisor.models import Batch, BatchItem, Recommendation
from rules.inputs.examples import raw_profile

pytestmark = pytest.mark.django_db


def test_a_chunk_delivered_twice_does_its_items_once(make_batch):
    batch = make_batch(5)
    assert batch_process_chunk(batch_id=batch.id, first=0, last=100) == 5
    assert batch_process_chunk(batch_id=batch.id, first=0, last=100) == 0
    assert set(batch.items.values_list("attempts", flat=True)) == {1}
    assert set(batch.items.values_list("status", flat=True)) == {"done"}
    batch.refresh_from_db()
    assert batch.status == Batch.Status.DONE
    assert batch.finished_at is not None


def test_a_chunk_does_only_its_own_positions(make_batch):
    batch = make_batch(5)
    batch_process_chunk(batch_id=batch.id, first=1, last=3)
    done = batch.items.filter(status="done").values_list("position", flat=True)
    assert sorted(done) == [1, 2]
    batch.refresh_from_db()
    assert batch.status == Batch.Status.PENDING


def test_invalid_profiles_fail_with_their_field_errors_and_the_rest_go_on(make_batch):
    batch = make_batch(
        profiles=[raw_profile(), {"server": 1}, raw_profile(**{"hardware.ram_gb": 8})]
    )
    batch_process_chunk(batch_id=batch.id, first=0, last=3)
    statuses = list(batch.items.order_by("position").values_list("status", "errors"))
    assert statuses[0] == ("done", None)
    assert statuses[1][0] == "failed"
    assert "server" in statuses[1][1]
    assert batch_progress(batch=batch) == {
        "total": 3,
        "done": 2,
        "failed": 1,
        "pending": 0,
        "percent": 100,
    }


def test_a_crash_on_one_profile_fails_that_item_only(make_batch, monkeypatch):
    batch = make_batch(3)
    real = processing.recommendation_compute

    def flaky(*, profile):
        if profile.hardware.ram_gb == 5:
            raise RuntimeError("engine bug")
        return real(profile=profile)

    monkeypatch.setattr(processing, "recommendation_compute", flaky)
    batch_process_chunk(batch_id=batch.id, first=0, last=3)
    assert list(batch.items.order_by("position").values_list("status", flat=True)) == [
        "done",
        "failed",
        "done",
    ]


def test_identical_hosts_share_one_stored_recommendation(make_batch):
    batch = make_batch(profiles=[raw_profile()] * 4)
    batch_process_chunk(batch_id=batch.id, first=0, last=4)
    assert Recommendation.objects.count() == 1
    assert batch.items.filter(recommendation__isnull=False).count() == 4


def test_start_queues_one_chunk_per_group_of_pending_positions(make_batch, settings):
    settings.BATCH_CHUNK_SIZE = 2
    batch = make_batch(5)
    batch_process_chunk(batch_id=batch.id, first=2, last=4)
    with mock.patch("advisor.fleet.tasks.batch_process_chunk.delay") as delay:
        assert batch_start(batch_id=batch.id) == 2
    assert [c.args[1:] for c in delay.call_args_list] == [(0, 2), (4, 6)]
    batch.refresh_from_db()
    assert batch.status == Batch.Status.RUNNING


def test_starting_a_finished_batch_queues_nothing(make_batch):
    batch = make_batch(2)
    batch_process_chunk(batch_id=batch.id, first=0, last=2)
    with mock.patch("advisor.fleet.tasks.batch_process_chunk.delay") as delay:
        assert batch_start(batch_id=batch.id) == 0
    assert not delay.called


def test_finishing_is_idempotent(make_batch):
    batch = make_batch(1)
    assert not batch_finish_if_done(batch_id=batch.id, queue_archive=batch_archive_build.delay)
    batch_process_chunk(batch_id=batch.id, first=0, last=1)
    batch.refresh_from_db()
    finished = batch.finished_at
    assert batch_finish_if_done(batch_id=batch.id, queue_archive=batch_archive_build.delay)
    batch.refresh_from_db()
    assert batch.finished_at == finished


def test_requeue_sends_every_batch_that_is_not_done(make_batch):
    pending, done = make_batch(1), make_batch(1)
    batch_process_chunk(batch_id=done.id, first=0, last=1)
    with mock.patch("advisor.fleet.tasks.batch_start.delay") as delay:
        assert batch_requeue_incomplete() == 1
    delay.assert_called_once_with(str(pending.id))
    pending.refresh_from_db()
    assert pending.status == Batch.Status.QUEUED
    assert pending.queued_at is not None


@pytest.mark.django_db(transaction=True)
def test_items_locked_by_another_worker_are_skipped_not_redone(make_batch):
    """Two deliveries of one chunk at once: each item is processed by exactly one of them."""
    batch = make_batch(6)
    locked, release = threading.Event(), threading.Event()

    def other_worker():
        with transaction.atomic():
            rows = BatchItem.objects.select_for_update().filter(batch=batch, position__lt=3)
            assert len(list(rows)) == 3
            locked.set()
            release.wait(10)
        connection.close()

    thread = threading.Thread(target=other_worker)
    thread.start()
    assert locked.wait(10)
    assert batch_process_chunk(batch_id=batch.id, first=0, last=6) == 3  # only the free ones
    release.set()
    thread.join()
    assert batch_process_chunk(batch_id=batch.id, first=0, last=6) == 3
    assert set(batch.items.values_list("attempts", flat=True)) == {1}
    batch.refresh_from_db()
    assert batch.status == Batch.Status.DONE


class TestEntriesCheck:
    def test_it_returns_the_entries_in_order(self):
        entries = batch_entries_check([{"name": "a", "profile": {}}, {"name": "b", "profile": {}}])
        assert [e.name for e in entries] == ["a", "b"]

    @pytest.mark.parametrize("name", ["", "-lead", "has space", "a/b", "x" * 256, 7, None])
    def test_names_must_be_safe_host_names(self, name):
        with pytest.raises(BatchInvalid) as refused:
            batch_entries_check([{"name": name, "profile": {}}])
        assert list(refused.value.errors) == ["profiles.0.name"]

    def test_too_many_profiles(self, settings):
        settings.BATCH_MAX_PROFILES = 2
        with pytest.raises(BatchTooLarge):
            batch_entries_check([{"name": f"h{i}", "profile": {}} for i in range(3)])


class TestNudge:
    def test_a_batch_that_has_not_moved_for_a_while_is_queued_again(self, make_batch, settings):
        settings.BATCH_STALL_SECONDS = 60
        batch = make_batch(2)
        Batch.objects.filter(id=batch.id).update(created_at=timezone.now() - timedelta(minutes=5))
        batch.refresh_from_db()
        with mock.patch("advisor.fleet.tasks.batch_start.delay") as delay:
            assert batch_nudge(batch=batch)
        delay.assert_called_once_with(str(batch.id))

    def test_a_batch_that_is_moving_is_left_alone(self, make_batch, settings):
        settings.BATCH_STALL_SECONDS = 60
        batch = make_batch(2)
        with mock.patch("advisor.fleet.tasks.batch_start.delay") as delay:
            assert not batch_nudge(batch=batch)
        assert not delay.called

    def test_a_stalled_batch_with_the_broker_down_just_waits(self, make_batch, settings):
        settings.BATCH_STALL_SECONDS = 10
        batch = make_batch(1)
        Batch.objects.filter(id=batch.id).update(created_at=timezone.now() - timedelta(hours=1))
        batch.refresh_from_db()
        down = OperationalError("connection refused")
        with mock.patch("advisor.fleet.tasks.batch_start.delay", side_effect=down):
            assert not batch_nudge(batch=batch)
