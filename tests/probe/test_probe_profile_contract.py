"""What the probe prints is the API's profile: each fixture host's profile, completed with what
only a person can say (the server, when no client ran; the data size and concurrency), passes
the advisor's own validation, provenance and `undetected` included."""

from __future__ import annotations

import json

import pytest

from rules.inputs.validation import parse_profile
from tests.probe.run import FIXTURES, fixture_run

TREES = sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())
COMPLETION = {
    "server": {"flavor": "mysql", "version": "8.0.36"},
    "workload": {"data_size_gb": 100, "concurrency": 32},
}


@pytest.mark.parametrize("tree", TREES)
def test_a_completed_fixture_profile_passes_the_advisors_validation(tree: str) -> None:
    cloud = ("--volume-type", "aws_gp3") if tree == "ebs-nvme" else ()
    raw = fixture_run(tree, *cloud).profile
    raw["server"] = COMPLETION["server"]
    raw["workload"].update(COMPLETION["workload"])
    profile = parse_profile(json.loads(json.dumps(raw)))
    assert profile.hardware.storage.device_count == raw["hardware"]["storage"]["device_count"]
    echoed = profile.raw
    assert echoed["provenance"] == raw["provenance"]
    assert echoed["undetected"] == raw["undetected"]
