"""GET /probe hands out the advisor-probe file, byte for byte, ready to pipe into python3."""

import subprocess
import sys
from pathlib import Path

import pytest

PROBE = Path(__file__).resolve().parents[2] / "probe" / "advisor_probe.py"

pytestmark = pytest.mark.django_db


def test_it_serves_the_probe_file_as_python_named_advisor_probe(client) -> None:
    response = client.get("/probe")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/x-python")
    assert response["Content-Disposition"] == 'attachment; filename="advisor-probe"'
    assert response.content == PROBE.read_bytes()


def test_the_served_bytes_run_as_the_readme_shows(client) -> None:
    """`curl -fsS https://advisor.example.com/probe | python3 - --help`"""
    served = client.get("/probe").content
    proc = subprocess.run(
        [sys.executable, "-", "--help"], input=served, capture_output=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert b"usage: advisor-probe" in proc.stdout
    assert b"--post URL" in proc.stdout


def test_it_refuses_anything_but_get(client) -> None:
    assert client.post("/probe").status_code == 405
