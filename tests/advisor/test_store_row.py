"""`store_row` outside a transaction, as a request stores its result: no health check first,
one retry on a connection that died since the last request, and nothing else retried."""

import contextlib
import json
import threading
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.core.signals import request_started
from django.db import OperationalError, connection

from advisor.models import Recommendation
from advisor.recommendations.services import recommendation_compute, recommendation_store
from rules.inputs.examples import profile
from rules.inputs.validation import parse_profile
from rules.render.jsonout import result_to_dict

pytestmark = pytest.mark.django_db(transaction=True)

GOLDEN = sorted((Path(__file__).parents[1] / "golden" / "profiles").glob("*.json"))


def _other_connection() -> psycopg.Connection:
    """A second session on the test database, apart from Django's."""
    db = settings.DATABASES["default"]
    return psycopg.connect(
        dbname=connection.settings_dict["NAME"],
        user=db["USER"],
        password=db["PASSWORD"] or None,
        host=db["HOST"],
        port=db["PORT"] or 5432,
        autocommit=True,
    )


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def test_the_path_without_a_transaction_is_the_one_tested_here() -> None:
    assert not connection.in_atomic_block
    assert not connection.queries_logged


@pytest.mark.parametrize("path", GOLDEN[:3], ids=lambda p: p.stem)
def test_a_stored_row_reads_back_as_the_result_less_its_sources(path) -> None:
    result = recommendation_compute(profile=parse_profile(json.loads(path.read_text())))
    shown = result_to_dict(result, base_url="https://advisor.example.com")
    recommendation_store(result=result, result_json=shown)
    recommendation_store(result=result, result_json=shown)  # stored already: left as it is
    expected = result_to_dict(result)
    del expected["sources"]
    assert Recommendation.objects.get(id=result.id).result == expected
    assert Recommendation.objects.count() == 1


def test_a_connection_that_died_between_requests_is_replaced_and_the_row_stored() -> None:
    first = recommendation_compute(profile=profile())
    recommendation_store(result=first)
    dead_pid = _backend_pid()
    with _other_connection() as other:
        other.execute("SELECT pg_terminate_backend(%s)", (dead_pid,))
    request_started.send(sender=None)  # a new request: Django would health-check here
    second = recommendation_compute(profile=profile(**{"hardware.ram_gb": 96}))
    recommendation_store(result=second)
    assert _backend_pid() != dead_pid
    assert set(Recommendation.objects.values_list("id", flat=True)) == {first.id, second.id}


def test_a_failure_on_a_live_connection_is_raised_and_not_run_again() -> None:
    """Another session holds the same key uncommitted: the INSERT waits on it, and past the
    lock timeout PostgreSQL refuses it (an OperationalError on a connection that still
    works). That is raised; the row is not written behind the caller's back."""
    result = recommendation_compute(profile=profile())
    holder_ready, release = threading.Event(), threading.Event()

    def hold_the_key() -> None:
        with (
            contextlib.suppress(RuntimeError),
            _other_connection() as other,
            other.transaction(),
        ):
            other.execute(
                "INSERT INTO advisor_recommendation "
                "(id, profile, result, ruleset_version, calibration_version, created_at) "
                "VALUES (%s, '{}', '{}', 'held', '', now())",
                (result.id,),
            )
            holder_ready.set()
            release.wait(10)
            raise RuntimeError("roll back")  # leave nothing behind

    holder = threading.Thread(target=hold_the_key)
    holder.start()
    assert holder_ready.wait(10)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '200ms'")
        with pytest.raises(OperationalError, match="lock timeout"):
            recommendation_store(result=result)
        assert connection.is_usable()
    finally:
        release.set()
        holder.join(10)
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
    assert not Recommendation.objects.filter(id=result.id).exists()
