"""POST /api/v1/recommendations with workload.lab_results: anchored, or 400 naming the field."""

import json

import pytest
from django.test import Client

from tests.rules.lab_runs import FIELD, lab_profile, lab_records

pytestmark = pytest.mark.django_db
URL = "/api/v1/recommendations"


def post(client: Client, body: object):
    return client.post(URL, json.dumps(body), content_type="application/json")


def test_lab_records_anchor_the_estimate_and_are_kept_reduced(client: Client) -> None:
    response = post(client, lab_profile(**{FIELD: lab_records()}))
    assert response.status_code == 201, response.content[:2000]
    body = response.json()
    assert body["estimate"]["anchor"]["runs"] == 4
    assert body["estimate"]["anchor"]["outside_model"] is True
    kept = body["inputs"]["workload"]["lab_results"]
    assert set(kept[0]) == {"configuration", "throughput", "label", "kind"}


def test_a_measured_rate_outside_the_model_is_said(client: Client) -> None:
    response = post(client, lab_profile(**{"workload.measured_throughput": 376}))
    assert response.status_code == 201
    note = response.json()["estimate"]["anchor"]["note"]
    assert note.startswith("Your server does 22x what the model expects for this machine")


@pytest.mark.parametrize(
    "value",
    [
        {"a": 1},
        [{"configuration": {"x" * 100_000: 1}, "throughput": 1}],
        [{"configuration": {}, "throughput": 1}] * 1000,
        [[[[[]]]]],
        [
            {
                "record": "innodb-io-advisor lab run",
                "format": 1,
                "run": {},
                "server": {},
                "result": {},
            }
        ],
    ],
)
def test_hostile_lab_results_get_a_400_naming_the_field(client: Client, value: object) -> None:
    response = post(client, lab_profile(**{FIELD: value}))
    assert response.status_code == 400, response.content[:2000]
    assert any(path.startswith(FIELD) for path in response.json()["errors"])
