"""The API takes a probe's output as it is: network volumes, a memory limit and the probe's
report, which the result echoes and which changes no recommendation."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.django_db
URL = "/api/v1/recommendations"
PROBE_DOCUMENT = Path(__file__).resolve().parents[2] / "data" / "probe-ebs-gp3.json"
REPORT = ("probe", "provenance", "undetected")


def _document() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(PROBE_DOCUMENT.read_text())
    return loaded


def test_a_full_probe_document_is_accepted_stored_and_echoed(post_json, client):
    document = _document()
    response = post_json(URL, document)
    assert response.status_code == 201, response.content
    body = response.json()
    for key in REPORT:
        assert body["inputs"][key] == document[key]
    storage = body["inputs"]["hardware"]["storage"]
    assert (storage["volume_type"], storage["provisioned_iops"]) == ("aws_gp3", 6000)
    stored = client.get(f"{URL}/{body['id']}")
    assert stored.status_code == 200
    assert stored.json()["inputs"]["provenance"] == document["provenance"]
    page = client.get(f"/r/{body['id']}/")
    assert page.status_code == 200
    assert "Amazon Elastic Block Store" in page.content.decode()


def test_the_report_changes_no_setting(post_json):
    document = _document()
    bare = {k: v for k, v in document.items() if k not in REPORT}
    with_report = post_json(f"{URL}?store=false", document).json()
    without = post_json(f"{URL}?store=false", bare).json()
    assert with_report["settings"] == without["settings"]
    assert with_report["os"] == without["os"]


def test_io_capacity_stays_within_the_documents_provisioned_iops(post_json):
    body = post_json(f"{URL}?store=false", _document()).json()
    values = {s["name"]: s["value"] for s in body["settings"]}
    values |= {d["name"]: d["value"] for d in body.get("defaults", [])}
    capacity = next(s for s in body["settings"] if s["name"] == "innodb_io_capacity")
    assert int(capacity["value"]) <= 6000 * 0.25
    scheduler = next(item for item in body["os"] if item["name"] == "io_scheduler")
    assert scheduler["value"] == "none"


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (("provenance", "hardware.storage.colour"), "provenance.hardware.storage.colour"),
        (("undetected", ["x" * 201]), "undetected[0]"),
        (("probe", {"version": "v" * 41}), "probe.version"),
        (("probe", {"version": "1", "build": "x"}), "probe.build"),
        (("hardware.storage.provisioned_iops", 10**12), "hardware.storage.provisioned_iops"),
        (("hardware.memory_limit_gb", "lots"), "hardware.memory_limit_gb"),
    ],
)
def test_hostile_values_are_refused_with_the_field_named(post_json, change, path):
    document = copy.deepcopy(_document())
    where, value = change
    if where == "provenance":
        document["provenance"][value] = {"source": "detected", "from": "secret-token-123"}
    else:
        node = document
        *parents, leaf = where.split(".")
        for part in parents:
            node = node[part]
        node[leaf] = value
    response = post_json(f"{URL}?store=false", document)
    assert response.status_code == 400
    body = response.json()
    assert path in body["errors"], body
    assert "secret-token-123" not in response.content.decode()
