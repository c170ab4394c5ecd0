"""`manage.py check_estimates FILE`: the report a lab reads, and a clear error, never a
traceback, for a file it cannot read. Needs no database: only the shipped artifact."""

import csv
import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.advisor.fresh_install import ROOT, run_manage

SHIPPED = ROOT / "calibration" / "data" / "benchmarks.csv"
SOURCE = "callaghan-2009-2disk"


def check(*args: str) -> str:
    out = io.StringIO()
    call_command("check_estimates", *args, stdout=out)
    return out.getvalue()


def new_results(tmp_path: Path) -> Path:
    """One shipped source's rows under a new name, and one row left under its own."""
    rows = list(csv.DictReader(SHIPPED.read_text("utf-8").splitlines()))
    picked = [r for r in rows if r["source"] == SOURCE and not r["excluded"]]
    renamed = [{**r, "source": "lab-2026-new"} for r in picked[1:]]
    path = tmp_path / "results.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows([picked[0], *renamed])
    return path


def test_json_is_one_object_scoring_the_new_rows_and_naming_the_fitted_one(tmp_path):
    path = new_results(tmp_path)
    report = json.loads(check(str(path), "--json"))
    rows = list(csv.DictReader(path.read_text("utf-8").splitlines()))
    assert report["points"] == len(rows) - 1
    assert report["sources"] == 1
    assert report["set_aside"] == [
        {
            "id": rows[0]["id"],
            "source": SOURCE,
            "reason": "the calibration was fitted on this source",
        }
    ]
    covered = sum(r["covered"] for r in report["table"])
    assert report["coverage"] == round(covered / report["points"], 3)
    assert report["pairs"]["pairs"] > 0  # the source's runs differ in settings


def test_the_readable_report_gives_the_figures_of_the_json(tmp_path):
    path = new_results(tmp_path)
    report = json.loads(check(str(path), "--json"))
    text = check(str(path))
    assert f"{report['points']} results from 1 sources" in text
    assert f"inside their 80% intervals: {report['coverage']:.3f}" in text
    assert f"median interval width (high/low): {report['median_width_ratio']:.2f}" in text
    assert "1 rows set aside" in text
    assert SOURCE in text


def test_a_file_without_the_columns_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("id,source\n1,a\n", "utf-8")
    with pytest.raises(CommandError, match="missing columns: year, kind, unit, value, excluded"):
        check(str(path))


def test_a_value_that_is_not_a_number_is_a_clear_error_naming_line_and_column(tmp_path):
    rows = list(csv.DictReader(SHIPPED.read_text("utf-8").splitlines()))
    path = tmp_path / "bad.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerow({**rows[0], "id": "1", "value": "lots"})
    with pytest.raises(CommandError, match=re.escape("line 2 (id '1'): value: 'lots' is not a")):
        check(str(path))


def test_a_missing_file_is_named_without_a_traceback(tmp_path):
    """The real manage.py in a process of its own, on a database nobody migrated: the command
    reads only the artifact and the file."""
    missing = tmp_path / "nowhere.csv"
    done = run_manage(tmp_path, "check_estimates", str(missing))
    assert done.returncode == 1
    assert f"{missing}: cannot be read as UTF-8 text" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_an_artifact_it_says_to_calibrate(tmp_path, monkeypatch):
    monkeypatch.setenv("CALIBRATION_ARTIFACT_DIR", str(tmp_path / "empty"))
    with pytest.raises(
        CommandError, match=r"no calibration artifact: run `python manage\.py calibrate`"
    ):
        check(str(new_results(tmp_path)))
