"""`manage.py recommend --lab-results FILE`: the lab's JSON lines anchor the estimate."""

import json
from pathlib import Path

from tests.advisor.test_recommend_command import _profile_file, _refused, _run
from tests.rules.lab_runs import LAB_RUN, lab_profile


def test_the_labs_json_lines_anchor_the_estimate(tmp_path: Path) -> None:
    profile = _profile_file(tmp_path, lab_profile())
    completed = _run(profile, "--lab-results", str(LAB_RUN))
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    anchor = result["estimate"]["anchor"]
    assert (anchor["source"], anchor["runs"], anchor["configurations"]) == ("lab_results", 4, 2)
    assert anchor["measured"] == ["current"]
    echoed = json.dumps(result["inputs"]["workload"]["lab_results"])
    assert "mycnf" not in echoed
    assert "sysbench" not in echoed


def test_a_file_that_is_not_lab_results_exits_2_naming_the_option(tmp_path: Path) -> None:
    profile = _profile_file(tmp_path, lab_profile())
    bad = tmp_path / "lab.jsonl"
    bad.write_text('{"record": "innodb-io-advisor lab run"}\nnot json\n', encoding="utf-8")
    completed = _run(profile, "--lab-results", str(bad))
    _refused(completed)
    assert "--lab-results: line 2 is not one JSON record" in completed.stderr
    bad.write_text('[{"configuration": {}, "throughput": -5}]', encoding="utf-8")
    completed = _run(profile, "--lab-results", str(bad))
    _refused(completed)
    assert "workload.lab_results[0].throughput" in completed.stderr
    bad.write_bytes(b"\x00\x01")
    _refused(_run(profile, "--lab-results", str(bad)))
    _refused(_run(profile, "--lab-results", str(tmp_path / "missing.jsonl")))
