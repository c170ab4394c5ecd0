"""On a fresh install, before `migrate`, the commands a user runs name the fix instead of
printing a traceback: a new SQLite file, the real manage.py, in a process of its own."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "command", [["calibrate"], ["calibrate", "--json"], ["create_api_token", "ci"]]
)
def test_a_command_on_an_unmigrated_database_says_to_migrate(tmp_path, command) -> None:
    database = tmp_path / "fresh.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_SECRET_KEY": "test-only",
        "DJANGO_DEBUG": "1",
        "CALIBRATION_ARTIFACT_DIR": str(tmp_path / "artifacts"),
    }
    done = subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert "unapplied migrations: run `python manage.py migrate` first" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    assert not (tmp_path / "artifacts").exists()  # nothing fitted or written
