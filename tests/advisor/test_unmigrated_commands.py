"""On a fresh install, before `migrate`, the commands a user runs name the fix instead of
printing a traceback: a new SQLite file, the real manage.py, in a process of its own."""

import pytest

from tests.advisor.fresh_install import run_manage


@pytest.mark.parametrize(
    "command", [["calibrate"], ["calibrate", "--json"], ["create_api_token", "ci"]]
)
def test_a_command_on_an_unmigrated_database_says_to_migrate(tmp_path, command) -> None:
    done = run_manage(tmp_path, *command, CALIBRATION_ARTIFACT_DIR=str(tmp_path / "artifacts"))
    assert done.returncode == 1
    assert "unapplied migrations: run `python manage.py migrate` first" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    assert not (tmp_path / "artifacts").exists()  # nothing fitted or written
