"""Every test here writes its artifacts to its own folder, never to the shipped one."""

import json
from pathlib import Path

import pytest

from advisor.models import Measurement

SEED_000 = json.loads(
    (
        Path(__file__).resolve().parents[2] / "golden" / "profiles" / "seed000-2disk-sata.json"
    ).read_text()
)


@pytest.fixture(autouse=True)
def artifact_dir(tmp_path, monkeypatch):
    folder = tmp_path / "artifacts"
    monkeypatch.setenv("CALIBRATION_ARTIFACT_DIR", str(folder))
    return folder


@pytest.fixture
def make_measurement(db):
    def make(**fields):
        values = {
            "kind": Measurement.Kind.BENCHMARK,
            "profile": SEED_000,
            "metric": "NOTPM",
            "value": 2400.0,
            "server_settings": {"innodb_buffer_pool_size": "1G"},
            "source": "https://example.org/run-1",
        }
        return Measurement.objects.create(**{**values, **fields})

    return make
