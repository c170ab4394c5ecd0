"""A host that takes too long fails alone; a chunk that runs long commits and queues the rest."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from advisor.deadline import OverBudget, time_budget
from advisor.fleet.services import batch_progress
from advisor.fleet.tasks import batch_process_chunk
from advisor.models import Batch
from advisor.recommendations.services import recommendation_compute
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile

pytestmark = pytest.mark.django_db

_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def heavy_profile() -> dict[str, object]:
    """A valid host whose pasted SHOW GLOBAL VARIABLES is 840 KB of rows (under that form's
    1,000,000-byte limit; a my.cnf is bounded at 256 KiB): far above a light host's milliseconds
    to read and far below the production budget."""
    names = ("v" + "".join(_ALPHABET[i // 62**p % 62] for p in (2, 1, 0)) for i in range(120_000))
    text = "innodb_io_capacity\t200\n" + "\n".join(f"{name}\t1" for name in names)
    return raw_profile(current={"show_variables": text})


def fleet() -> list[dict[str, object]]:
    light = [raw_profile(**{"hardware.ram_gb": 4 + i}) for i in range(4)]
    return [light[0], light[1], heavy_profile(), light[2], light[3]]


def budget_between_light_and_heavy() -> float:
    """A third of the heavy host's time on this machine. The two sides fail differently: the
    heavy host is a third of a second of steady work whose time varies by a fraction, while a
    light host takes a millisecond that one pause (a garbage collection, another thread holding
    the GIL, a busy CI runner) can stretch by tens of milliseconds. A third of the heavy time
    keeps the heavy host three times over and leaves a light one about a hundred milliseconds
    of slack (the geometric mean of the two left it twenty, and CI once used them up)."""

    def seconds(profile: dict[str, object]) -> float:
        started = time.monotonic()
        recommendation_compute(profile=parse_profile(profile))
        return time.monotonic() - started

    heavy = min(seconds(heavy_profile()) for _ in range(2))
    light = max(seconds(profile) for profile in fleet()[:2])
    assert heavy > 20 * light, "the heavy host must dwarf the light ones to mean anything"
    return round(heavy / 3, 3)


def _check_outcome(batch: Batch, budget: float) -> None:
    items = list(batch.items.order_by("position").values_list("status", "errors"))
    assert [status for status, _ in items] == ["done", "done", "failed", "done", "done"]
    (message,) = items[2][1][""]
    assert f"took longer than its budget of {budget:g} s" in message
    assert "the other hosts were not held up" in message
    batch.refresh_from_db()
    assert batch.status == Batch.Status.DONE


def test_a_host_over_its_budget_fails_alone_and_the_rest_of_the_chunk_lands(make_batch, settings):
    settings.BATCH_ITEM_SECONDS = budget = budget_between_light_and_heavy()
    batch = make_batch(profiles=fleet())
    assert batch_process_chunk(batch_id=batch.id, first=0, last=100) == 5
    _check_outcome(batch, budget)


@pytest.mark.django_db(transaction=True)  # the thread has its own connection
def test_off_the_main_thread_the_budget_is_judged_when_the_host_ends(make_batch, settings):
    """A threaded dev server cannot receive the timer's signal: the host still fails alone."""
    settings.BATCH_ITEM_SECONDS = budget = budget_between_light_and_heavy()
    batch = make_batch(profiles=fleet())

    def run() -> None:
        try:
            batch_process_chunk(batch_id=batch.id, first=0, last=100)
        finally:
            connection.close()  # this thread's own connection

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(60)
    _check_outcome(batch, budget)


def test_a_chunk_past_its_time_commits_its_work_and_queues_the_rest(make_batch, settings):
    """With no time at all a chunk still does one host, so every delivery makes progress; the
    rest is queued again (run in-process here, as Celery runs eagerly without a broker)."""
    settings.BATCH_CHUNK_SECONDS = 0.0
    batch = make_batch(4)
    assert batch_process_chunk(batch_id=batch.id, first=0, last=100) == 1
    assert batch_progress(batch=batch)["done"] == 4
    assert set(batch.items.values_list("attempts", flat=True)) == {1}


def test_the_budget_interrupts_work_in_the_main_thread() -> None:
    def spin() -> None:
        with time_budget(0.05):
            while True:
                pass

    with pytest.raises(OverBudget):
        spin()


def test_a_budget_inside_another_leaves_the_outer_one_running() -> None:
    """A batch computed within a request: each host's budget must not cancel the request's."""

    def spin_after_inner() -> None:
        with time_budget(0.3):
            with time_budget(5.0):
                pass  # the inner budget ends at once
            while True:
                pass

    with pytest.raises(OverBudget) as caught:
        spin_after_inner()
    assert caught.value.seconds == 0.3
