"""Start from a probe: paste or upload its JSON on the first page, the steps open filled in, each
field marked detected, measured or assumed; the finished result keeps the probe's report."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from advisor.models import Recommendation
from advisor.recommendations.wizard.probe import MAX_PROBE_BYTES
from advisor.recommendations.wizard.steps import SESSION_KEY

pytestmark = pytest.mark.django_db
DOCUMENT_PATH = Path(__file__).resolve().parents[2] / "data" / "probe-ebs-gp3.json"
MARK = re.compile(r'<label for="id_(\w+)">[^<]*(?:<span class="optional">[^<]*</span>)?'
                  r' <span class="mark mark--(\w+)" data-mark="\w+">')  # fmt: skip


def document() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DOCUMENT_PATH.read_text())
    return loaded


def marks(client: Client, step: str) -> dict[str, str]:
    html = client.get(f"/wizard/{step}/").content.decode()
    return dict(MARK.findall(html))


def finish(client: Client, **changes: dict[str, str]) -> Recommendation:
    """Every step posted as the draft holds it (plus `changes` per step), no JavaScript."""
    for step in ("server", "hardware", "storage", "workload", "current"):
        response = client.post(f"/wizard/{step}/", {"go": "next", **changes.get(step, {})})
        assert response.status_code == 302, (step, response.content[:3000])
    location = response["Location"]
    return Recommendation.objects.get(id=location.strip("/").split("/")[-1])


def test_the_first_page_offers_a_paste_box_and_a_file_upload_without_javascript(client):
    html = client.get("/").content.decode()
    assert 'action="/wizard/probe/"' in html
    assert 'enctype="multipart/form-data"' in html
    assert 'name="probe_json"' in html
    assert 'type="file"' in html


def test_a_pasted_probe_opens_the_steps_filled_in_and_marked(client):
    response = client.post("/wizard/probe/", {"probe_json": json.dumps(document())})
    assert response.status_code == 302
    assert response["Location"] == "/wizard/server/"
    hardware = marks(client, "hardware")
    assert hardware["ram_gb"] == "detected"
    assert hardware["memory_limit_gb"] == "detected"
    storage = marks(client, "storage")
    assert storage["media"] == "detected"
    assert storage["volume_type"] == "assumed"
    assert storage["provisioned_iops"] == "measured"
    assert storage["provisioned_mbps"] == "given"  # in the document, with no provenance entry
    html = client.get("/wizard/hardware/").content.decode()
    assert "Probe: /proc/meminfo MemTotal" in html
    assert "What the probe could not detect (2)" in html
    assert 'value="48"' in html  # the memory limit, filled in


def test_an_uploaded_file_does_the_same(client):
    upload = SimpleUploadedFile("probe.json", DOCUMENT_PATH.read_bytes(), "application/json")
    response = client.post("/wizard/probe/", {"probe_file": upload})
    assert response.status_code == 302
    assert marks(client, "storage")["media"] == "detected"


def test_the_finished_steps_keep_the_probes_report_for_the_unchanged_fields(client):
    client.post("/wizard/probe/", {"probe_json": json.dumps(document())})
    stored = finish(client, hardware={"ram_gb": "64"})  # the visitor corrects the RAM
    inputs = stored.result["inputs"]
    assert inputs["probe"] == {"version": "0.1.0"}
    assert "hardware.ram_gb" not in inputs["provenance"]  # no longer what the probe read
    assert inputs["provenance"]["hardware.storage.media"]["source"] == "detected"
    assert inputs["hardware"]["ram_gb"] == 64
    assert inputs["hardware"]["storage"]["volume_type"] == "aws_gp3"
    assert inputs["undetected"] == document()["undetected"]
    page = client.get(f"/r/{stored.id}/").content.decode()
    assert "How the probe 0.1.0 read these inputs" in page
    assert "nvme1n1: model" in page


def test_a_changed_field_loses_its_mark(client):
    client.post("/wizard/probe/", {"probe_json": json.dumps(document())})
    client.post("/wizard/hardware/", {"go": "next", "cpu_cores": "8"})
    hardware = marks(client, "hardware")
    assert "cpu_cores" not in hardware
    assert hardware["ram_gb"] == "detected"


def test_a_document_missing_fields_still_opens_the_steps_which_ask_for_them(client):
    partial = document()
    del partial["workload"]
    response = client.post("/wizard/probe/", {"probe_json": json.dumps(partial)})
    assert response.status_code == 302
    page = client.post("/wizard/workload/", {"go": "next"}, follow=True).content.decode()
    assert "is required" in page


def _refused(client: Client, data: dict[str, Any]) -> str:
    before = dict(client.session.get(SESSION_KEY) or {})
    response = client.post("/wizard/probe/", data)
    assert response.status_code == 400
    assert dict(client.session.get(SESSION_KEY) or {}) == before  # nothing was loaded
    found = re.search(r'id="probe-error">([^<]*)<', response.content.decode())
    assert found is not None
    return found.group(1)


def test_what_is_not_a_probes_json_is_refused_with_a_clear_message(client):
    assert "not valid JSON" in _refused(client, {"probe_json": "{not json"})
    assert "one object" in _refused(client, {"probe_json": "[1, 2]"})
    assert "Paste the probe" in _refused(client, {"probe_json": "   "})
    deep = "[" * 100_000 + "]" * 100_000
    assert "not valid JSON" in _refused(client, {"probe_json": deep})


def test_too_large_a_paste_or_file_is_refused_naming_the_limit(client):
    big = " " * (MAX_PROBE_BYTES + 1)
    assert f"{MAX_PROBE_BYTES // 1024} KiB" in _refused(client, {"probe_json": big})
    upload = SimpleUploadedFile("probe.json", b" " * (MAX_PROBE_BYTES + 1), "application/json")
    assert "uploaded file is larger" in _refused(client, {"probe_file": upload})
    binary = SimpleUploadedFile("probe.json", b"\xff\xfe\x00bad", "application/json")
    assert "uploaded file is binary" in _refused(client, {"probe_file": binary})
    latin = SimpleUploadedFile("probe.json", b'{"a": "caf\xe9"}', "application/json")
    assert "not UTF-8" in _refused(client, {"probe_file": latin})


def test_an_invalid_report_is_refused_naming_the_field_without_echoing_secrets(client):
    hostile = copy.deepcopy(document())
    hostile["provenance"]["hardware.storage.colour"] = {"source": "detected", "from": "pw=hunter2"}
    message = _refused(client, {"probe_json": json.dumps(hostile)})
    assert "provenance.hardware.storage.colour" in message
    assert "hunter2" not in message
    too_many = copy.deepcopy(document())
    too_many["undetected"] = ["x"] * 101
    assert "undetected" in _refused(client, {"probe_json": json.dumps(too_many)})


def test_start_over_forgets_the_probe(client):
    client.post("/wizard/probe/", {"probe_json": json.dumps(document())})
    client.post("/wizard/reset/")
    assert marks(client, "hardware") == {}
