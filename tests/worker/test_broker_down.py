"""The broker goes down: single recommendations go on, a new batch is refused whole (503,
nothing kept), and work queued before the outage is finished once the broker is back."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.core.management import call_command

from advisor.models import Batch, BatchItem
from rules.inputs.examples import raw_profile
from tests.worker.conftest import OwnRedis, Processes, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def post(url: str, body: Any, token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read())


def fleet(prefix: str, count: int = 20) -> dict[str, Any]:
    return {
        "profiles": [
            {"name": f"{prefix}{i}", "profile": raw_profile(**{"hardware.ram_gb": 2 + i})}
            for i in range(count)
        ]
    }


def test_broker_down_refuses_batches_whole_and_queued_work_resumes_when_it_is_back(
    processes: Processes, own_redis: OwnRedis, capsys: pytest.CaptureFixture[str]
):
    call_command("create_api_token", "ci")
    token = capsys.readouterr().out.strip()
    web = processes.web(own_redis.url)

    status, queued = post(f"{web}/api/v1/batches", fleet("before"), token)
    assert status == 202, queued  # queued on the broker; no worker is running yet
    own_redis.kill()  # a crash: the queued message is gone with it

    status, single = post(f"{web}/api/v1/recommendations", raw_profile())
    assert status == 201, single
    started = time.monotonic()
    status, refused = post(f"{web}/api/v1/batches", fleet("during"), token)
    assert status == 503, refused
    assert time.monotonic() - started < 10  # answered promptly, not after a long hang
    assert "refused whole: nothing was stored" in refused["message"]
    assert [str(b) for b in Batch.objects.values_list("id", flat=True)] == [queued["id"]]

    worker = processes.worker(own_redis.url, "patient", ready=False)  # waits for the broker
    time.sleep(1)
    own_redis.start()  # back, and empty
    wait_for(
        lambda: Batch.objects.get(id=queued["id"]).status == Batch.Status.DONE,
        60,
        "the batch queued before the outage to finish",
        interval=0.2,
        details=worker.output,
    )
    items = BatchItem.objects.filter(batch_id=queued["id"])
    assert items.filter(status="done").count() == 20
    assert set(items.values_list("attempts", flat=True)) == {1}

    status, after = post(f"{web}/api/v1/batches", fleet("after"), token)
    assert status == 202, after
    wait_for(
        lambda: Batch.objects.get(id=after["id"]).status == Batch.Status.DONE, 60, "a new batch"
    )


def test_a_broker_restarted_empty_mid_batch_is_refilled_by_the_reconnecting_worker(
    processes: Processes, own_redis: OwnRedis, capsys: pytest.CaptureFixture[str]
):
    call_command("create_api_token", "ci")
    token = capsys.readouterr().out.strip()
    web = processes.web(own_redis.url)
    worker = processes.worker(own_redis.url, "steady")
    status, created = post(f"{web}/api/v1/batches", fleet("fleet", 1500), token)
    assert status == 202, created
    items = BatchItem.objects.filter(batch_id=created["id"])
    wait_for(lambda: items.exclude(status="pending").count() >= 150, 60, "progress")

    own_redis.kill()  # the chunk messages still queued are lost
    assert items.filter(status="pending").exists()
    time.sleep(1)
    own_redis.start()
    wait_for(
        lambda: Batch.objects.get(id=created["id"]).status == Batch.Status.DONE,
        120,
        "the worker to reconnect and finish",
        interval=0.2,
        details=worker.output,
    )
    assert items.filter(status="done").count() == 1500
    assert set(items.values_list("attempts", flat=True)) == {1}
