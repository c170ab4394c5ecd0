"""A worker killed in the middle of a batch: a new worker finishes it, each item done once."""

from __future__ import annotations

import pytest
from celery import Celery
from django.contrib.auth import get_user_model

from advisor.models import Batch, BatchItem, Recommendation
from rules.inputs.examples import raw_profile
from tests.worker.conftest import Processes, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
HOSTS = 2500


def record_batch(count: int, profiles: list[dict[str, object]] | None = None) -> Batch:
    """Rows only, as `batch_create` commits them before anything is queued; `count` distinct
    hosts, or the `profiles` given."""
    hosts = profiles if profiles is not None else [_host(i) for i in range(count)]
    owner = get_user_model().objects.create(username="fleet")
    batch = Batch.objects.create(owner=owner, total=len(hosts))
    BatchItem.objects.bulk_create(
        (BatchItem(batch=batch, position=i, name=f"h{i}", profile=p) for i, p in enumerate(hosts)),
        batch_size=2000,
    )
    return batch


def _host(i: int) -> dict[str, object]:
    return raw_profile(**{"hardware.ram_gb": 1 + i / 4})  # distinct hosts, distinct results


def send_start(broker_url: str, batch: Batch) -> None:
    sender = Celery("sender", broker=broker_url)
    try:
        sender.send_task("advisor.tasks.batches.batch_start", args=[str(batch.id)])
    finally:
        sender.close()


def finished(batch: Batch) -> int:
    return BatchItem.objects.filter(batch=batch).exclude(status="pending").count()


def test_a_worker_killed_mid_batch_leaves_every_item_done_exactly_once(
    processes: Processes, shared_redis_url: str
):
    batch = record_batch(HOSTS)
    send_start(shared_redis_url, batch)
    first = processes.worker(shared_redis_url, "first")
    wait_for(lambda: finished(batch) >= HOSTS // 10, 60, "the first worker to make progress")
    first.kill()  # SIGKILL, main process and pool, in the middle of its chunks
    at_kill = finished(batch)
    assert at_kill < HOSTS, "the batch finished before the kill; make it bigger"

    second = processes.worker(shared_redis_url, "second")
    wait_for(
        lambda: Batch.objects.get(id=batch.id).status == Batch.Status.DONE,
        120,
        "the second worker to finish the batch",
        interval=0.2,
        details=second.output,
    )
    items = BatchItem.objects.filter(batch=batch)
    assert items.filter(status="done").count() == HOSTS
    assert set(items.values_list("attempts", flat=True)) == {1}  # committed exactly once each
    assert not items.filter(recommendation__isnull=True).exists()
    assert Recommendation.objects.count() == HOSTS  # one stored result per distinct host
    assert finished(batch) - at_kill > 0  # the second worker did the rest
