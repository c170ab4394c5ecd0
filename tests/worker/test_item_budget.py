"""In a real prefork worker, a host over its budget is cut short and fails alone."""

from __future__ import annotations

import pytest

from advisor.models import Batch
from tests.advisor.batches.test_time_budget import fleet
from tests.worker.conftest import Processes, wait_for
from tests.worker.test_worker_killed import record_batch, send_start

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_slow_host_fails_alone_in_a_prefork_worker(processes: Processes, shared_redis_url: str):
    batch = record_batch(0, fleet())
    worker = processes.worker(shared_redis_url, "budget", env={"BATCH_ITEM_SECONDS": "0.1"})
    send_start(shared_redis_url, batch)
    wait_for(
        lambda: Batch.objects.get(id=batch.id).status == Batch.Status.DONE,
        60,
        "the worker to finish the batch",
        interval=0.2,
        details=worker.output,
    )
    items = list(batch.items.order_by("position").values_list("status", "errors", "attempts"))
    assert [status for status, _, _ in items] == ["done", "done", "failed", "done", "done"]
    assert "took longer than its budget of 0.1 s" in items[2][1][""][0]
    assert {attempts for _, _, attempts in items} == {1}  # one delivery: nothing rolled back
