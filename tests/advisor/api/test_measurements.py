"""POST /api/v1/measurements: stored pending for review, checked as the fit would use them."""

from __future__ import annotations

import pytest

from advisor.models import Measurement
from rules.inputs.examples import raw_profile

pytestmark = pytest.mark.django_db
URL = "/api/v1/measurements"


def test_it_needs_a_token(post_json):
    assert post_json(URL, {"kind": "fio", "profile": raw_profile()}).status_code == 401


def test_fio_iops_are_stored_pending_with_who_sent_them(post_json, token):
    body = {"kind": "fio", "profile": raw_profile(), "random_read_iops": 1500.0}
    response = post_json(URL, body, token=token)
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "pending"
    stored = Measurement.objects.get(id=response.json()["id"])
    assert stored.submitted_by.username == "ansible-test"
    assert stored.random_read_iops == 1500.0
    assert stored.profile == raw_profile()


def test_a_benchmark_gets_its_workloads_unit_when_none_is_given(post_json, token):
    body = {"kind": "benchmark", "profile": raw_profile(), "value": 8200, "source": "our lab"}
    response = post_json(URL, body, token=token)
    assert response.status_code == 201, response.content
    assert response.json()["metric"] == "NOTPM"


def test_a_benchmark_in_the_wrong_unit_is_refused_naming_metric(post_json, token):
    body = {"kind": "benchmark", "profile": raw_profile(), "value": 80, "metric": "rows/s"}
    response = post_json(URL, body, token=token)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["metric"]


def test_the_described_machine_is_validated_with_profile_paths(post_json, token):
    body = {"kind": "fio", "profile": raw_profile(**{"hardware.ram_gb": -1}), "random_read_iops": 9}
    response = post_json(URL, body, token=token)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["profile.hardware.ram_gb"]
    assert not Measurement.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "fio"}, "random_read_iops"),
        ({"kind": "benchmark"}, "value"),
        ({"kind": "guess", "value": 1}, "kind"),
        (
            {
                "kind": "benchmark",
                "value": 1,
                "server_settings": {"innodb_flush_log_at_trx_commit": 7},
            },
            "server_settings",
        ),
    ],
)
def test_an_incomplete_submission_names_what_is_missing(post_json, token, body, field):
    response = post_json(URL, {"profile": raw_profile(), **body}, token=token)
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_settings_text_postgresql_cannot_store_is_refused(post_json, token):
    body = {"kind": "fio", "profile": raw_profile(), "random_read_iops": 5}
    response = post_json(
        URL, {**body, "server_settings": {"innodb_io_capacity": "2\u0000"}}, token=token
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["server_settings.innodb_io_capacity"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("notes", 0),  # what schemathesis sent: DRF's CharField stored it as "0"
        ("source", 1.5),
        ("metric", False),
        ("random_read_iops", "1500"),  # DRF's FloatField parsed the text
        ("random_write_iops", True),  # and read true as 1.0
        ("value", "8200"),
    ],
)
def test_a_value_of_another_json_type_than_the_schemas_is_refused_naming_it(
    post_json, token, field, value
):
    body = {"kind": "fio", "profile": raw_profile(), "random_read_iops": 1500, field: value}
    response = post_json(URL, body, token=token)
    assert response.status_code == 400, response.content
    assert list(response.json()["errors"]) == [field]
    assert not Measurement.objects.exists()
