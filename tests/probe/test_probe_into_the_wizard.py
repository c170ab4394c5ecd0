"""What the real probe prints on this machine opens the wizard's "Start from a probe" filled in,
and the finished steps keep the probe's report in the stored result."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from advisor.models import Recommendation
from tests.probe.run import SYSTEM_PYTHON, run_probe

pytestmark = [pytest.mark.mariadb, pytest.mark.django_db]


def test_the_probes_json_starts_the_wizard_and_its_report_is_kept(
    client: Client, client_defaults: Path
) -> None:
    run = run_probe("--defaults-file", str(client_defaults), "--quiet", python=SYSTEM_PYTHON)
    assert run.code == 0, run.stderr
    response = client.post("/wizard/probe/", {"probe_json": run.stdout})
    assert response.status_code == 302, response.content[:2000]
    for step in ("server", "hardware", "storage", "workload", "current"):
        response = client.post(f"/wizard/{step}/", {"go": "next"})
        assert response.status_code == 302, (step, response.content[:3000])
    stored = Recommendation.objects.get(id=response["Location"].strip("/").split("/")[-1])
    inputs = stored.result["inputs"]
    probed = run.profile
    assert inputs["server"] == probed["server"]
    assert inputs["hardware"]["cpu_cores"] == probed["hardware"]["cpu_cores"]
    assert inputs["probe"] == probed["probe"]
    assert (
        inputs["provenance"]["hardware.storage.media"]
        == (probed["provenance"]["hardware.storage.media"])
    )
    assert inputs["undetected"] == probed["undetected"]
