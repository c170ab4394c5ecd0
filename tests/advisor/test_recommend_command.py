"""`manage.py recommend`, run for real in a subprocess as a person at a shell would."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.engine import recommend
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from tests.rules.rds_lists import NOT_LISTED, NOT_MODIFIABLE, engine_defaults

ROOT = Path(__file__).resolve().parents[2]


def _run(
    *args: str, stdin: bytes | None = None, hash_seed: str = "0"
) -> subprocess.CompletedProcess[str]:
    # A bare shell: no DJANGO_DEBUG, no secret key, no allowed hosts.
    bare = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    env = {**bare, "PYTHONHASHSEED": hash_seed}
    completed = subprocess.run(
        [sys.executable, "manage.py", "recommend", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )
    return subprocess.CompletedProcess(
        completed.args,
        completed.returncode,
        completed.stdout.decode("utf-8"),
        completed.stderr.decode("utf-8"),
    )


def _profile_file(tmp_path: Path, raw: Any, name: str = "profile.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(raw), encoding="utf-8")
    return str(path)


def _refused(completed: subprocess.CompletedProcess[str]) -> None:
    assert completed.returncode == 2, completed.stderr
    assert completed.stdout == ""
    assert "Traceback" not in completed.stderr


@pytest.fixture
def example(tmp_path: Path) -> str:
    """The contract's example: mysql 8.0.36, 64 GB, 16 cores, 8 × 15k HDD RAID10 with BBU."""
    return _profile_file(tmp_path, raw_profile())


def test_it_prints_a_my_cnf_for_the_contracts_example(example: str) -> None:
    completed = _run(example, "--format", "mycnf")
    assert completed.returncode == 0, completed.stderr
    text = completed.stdout
    assert "\n[mysqld]\n" in text
    assert re.search(r"^innodb_io_capacity = [1-9]\d*$", text, re.MULTILINE)
    assert re.search(r"^innodb_buffer_pool_size = \d+[KMG]?$", text, re.MULTILINE)
    assert text.startswith("# What changes for you, against MySQL 8.0's defaults: ×")
    assert "\n#\n# InnoDB IO Advisor: my.cnf drop-in\n" in text
    assert "mysql 8.0.36 · 64 GiB RAM · 16 cores · 8 × hdd 15000 rpm raid10" in text


def test_it_prints_sql_with_set_persist_on_mysql_8(example: str) -> None:
    completed = _run(example, "--format", "sql")
    assert completed.returncode == 0, completed.stderr
    assert re.search(r"^SET PERSIST innodb_io_capacity = [1-9]\d*;$", completed.stdout, re.M)
    assert re.search(r"^SET PERSIST_ONLY innodb_flush_method = '\w+';$", completed.stdout, re.M)


def test_it_prints_udev_rules_for_the_scheduler(example: str) -> None:
    completed = _run(example, "--format", "udev")
    assert completed.returncode == 0, completed.stderr
    assert "udevadm control --reload && udevadm trigger --subsystem-match=block" in completed.stdout
    assert "ATTR{queue/scheduler}=" in completed.stdout


def test_it_prints_the_json_result_with_evidence(example: str) -> None:
    completed = _run(example, "--format", "json", "--base-url", "https://advisor.example")
    assert completed.returncode == 0, completed.stderr
    data = json.loads(completed.stdout)
    assert data["permalink"] == f"https://advisor.example/r/{data['id']}/"
    assert data["inputs"]["server"] == {"flavor": "mysql", "version": "8.0.36"}
    names = [s["name"] for s in data["settings"]]
    assert "innodb_io_capacity" in names
    for setting in data["settings"]:
        assert setting["evidence"], setting["name"]
        assert all(set(e) == {"source", "finding"} for e in setting["evidence"]), setting["name"]
    cited = {e["source"] for s in data["settings"] for e in s["evidence"]}
    assert cited <= {s["key"] for s in data["sources"]}
    assert data["output_refused"] is None


def test_the_base_url_goes_into_the_my_cnf_permalink(example: str) -> None:
    completed = _run(example, "--format", "mycnf", "--base-url", "https://advisor.example/")
    assert re.search(r"^# Permalink: https://advisor\.example/r/\w+/$", completed.stdout, re.M)


def test_it_reads_the_profile_from_stdin(example: str) -> None:
    from_stdin = _run("-", "--format", "mycnf", stdin=Path(example).read_bytes())
    assert from_stdin.returncode == 0, from_stdin.stderr
    assert from_stdin.stdout == _run(example, "--format", "mycnf").stdout


def test_the_my_cnf_is_byte_identical_across_processes(example: str) -> None:
    first = _run(example, "--format", "mycnf", hash_seed="1").stdout
    second = _run(example, "--format", "mycnf", hash_seed="2").stdout
    assert first
    assert first == second


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        pytest.param({"hardware.ram_gb": "lots"}, ["hardware.ram_gb"], id="wrong-type"),
        pytest.param({"hardware.ram_gb": 0.1}, ["hardware.ram_gb", "0.5"], id="out-of-range"),
        pytest.param(
            {"hardware.storage.raid_level": "raid10", "hardware.storage.device_count": 3},
            ["hardware.storage.raid_level", "raid10"],
            id="raid-level-does-not-fit-the-count",
        ),
        pytest.param({"server.flavor": "oracle"}, ["server.flavor", "mariadb"], id="flavor"),
        pytest.param({"server.version": "eight"}, ["server.version"], id="version"),
        pytest.param(
            {
                "hardware.ram_gb": "lots",
                "server.flavor": "oracle",
                "workload.concurrency": 0,
                "hardware.storage.media": "tape",
            },
            [
                "hardware.ram_gb",
                "server.flavor",
                "workload.concurrency",
                "hardware.storage.media",
            ],
            id="several-at-once",
        ),
    ],
)
def test_an_invalid_profile_exits_2_naming_every_field(
    tmp_path: Path, overrides: dict[str, Any], expected: list[str]
) -> None:
    completed = _run(_profile_file(tmp_path, raw_profile(**overrides)), "--format", "mycnf")
    _refused(completed)
    for text in expected:
        assert text in completed.stderr
    field_lines = [line for line in completed.stderr.splitlines() if re.match(r"^[\w.]+: ", line)]
    assert len(field_lines) >= len([e for e in expected if "." in e])


def test_invalid_json_is_reported_with_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "server": {"flavor": "mysql",,}\n}\n', encoding="utf-8")
    completed = _run(str(path), "--format", "json")
    _refused(completed)
    assert "profile: invalid JSON at line 2 column 32: " in completed.stderr


def test_a_binary_file_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "picture.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")
    completed = _run(str(path), "--format", "json")
    _refused(completed)
    assert "binary file" in completed.stderr


def test_text_that_is_not_utf8_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"server": {"flavor": "mysql", "version": "8.0 é"}}'.encode("latin-1"))
    completed = _run(str(path), "--format", "json")
    _refused(completed)
    assert "not UTF-8" in completed.stderr


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    completed = _run(str(missing), "--format", "mycnf")
    _refused(completed)
    assert str(missing) in completed.stderr


@pytest.mark.parametrize(
    "payload",
    [b"", b"[]", b"null", b"[" * 50_000, b'{"server": 1}', b"1" * 5000],
    ids=["empty", "array", "null", "deeply-nested", "section-not-an-object", "huge-number"],
)
def test_input_that_is_not_a_profile_never_gives_a_traceback(
    tmp_path: Path, payload: bytes
) -> None:
    path = tmp_path / "odd.json"
    path.write_bytes(payload)
    completed = _run(str(path), "--format", "mycnf")
    _refused(completed)
    assert completed.stderr.startswith("CommandError: profile")


def test_an_old_version_gets_json_with_a_warning(tmp_path: Path) -> None:
    old = _profile_file(tmp_path, raw_profile(**{"server.version": "5.0.77"}))
    completed = _run(old, "--format", "json")
    assert completed.returncode == 0, completed.stderr
    data = json.loads(completed.stdout)
    assert data["output_refused"]
    assert any("5.0.77" in warning for warning in data["warnings"])


@pytest.mark.parametrize("fmt", ["mycnf", "sql"])
def test_an_old_version_gets_no_my_cnf_or_sql(tmp_path: Path, fmt: str) -> None:
    old = _profile_file(tmp_path, raw_profile(**{"server.version": "5.0.77"}))
    completed = _run(old, "--format", fmt)
    _refused(completed)
    assert "supported" in completed.stderr
    assert "MySQL 5.7, 8.0, 8.4 and 9.x" in completed.stderr


def test_include_defaults_in_the_profile_file_writes_the_defaults(tmp_path: Path) -> None:
    raw = {**raw_profile(), "options": {"include_defaults": True}}
    completed = _run(_profile_file(tmp_path, raw), "--format", "mycnf")
    assert completed.returncode == 0, completed.stderr
    assert "\ninnodb_flush_log_at_trx_commit = 1\n" in completed.stdout
    plain = _run(_profile_file(tmp_path, raw_profile(), "plain.json"), "--format", "mycnf")
    assert "\ninnodb_flush_log_at_trx_commit = 1\n" not in plain.stdout


@pytest.mark.parametrize("fmt", ["ansible", "ansible-tasks", "k8s-percona", "k8s-mysql-operator"])
def test_each_deploy_format_is_byte_identical_across_processes(example: str, fmt: str) -> None:
    first = _run(example, "--format", fmt, hash_seed="1")
    second = _run(example, "--format", fmt, hash_seed="2")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("# What changes for you, against MySQL 8.0's defaults: ×")
    assert f"\n#\n# InnoDB IO Advisor: {'Ansible' if 'ansible' in fmt else ''}" in first.stdout
    assert first.stdout == second.stdout


@pytest.mark.parametrize(
    ("fmt", "why"),
    [
        (
            "k8s-mariadb-operator",
            "The MariaDB Operator runs MariaDB; this result is for mysql 8.0.36",
        ),
        (
            "rds-json",
            "run aws rds describe-engine-default-parameters --db-parameter-group-family mysql8.0 "
            "--output json > params.json and pass the file",
        ),
    ],
)
def test_a_deploy_format_this_server_cannot_have_exits_2_saying_why(
    example: str, fmt: str, why: str
) -> None:
    completed = _run(example, "--format", fmt)
    _refused(completed)
    assert why in completed.stderr


def test_rds_parameters_file_gives_an_rds_export_of_the_modifiable_ones(
    tmp_path: Path, example: str
) -> None:
    result = recommend(parse_profile(raw_profile()))
    listed = engine_defaults(result)
    params = _profile_file(tmp_path, listed, "params.json")
    completed = _run(example, "--format", "rds-json", "--rds-parameters", params)
    assert completed.returncode == 0, completed.stderr
    document = json.loads(completed.stdout)
    names = {
        p["ParameterName"] for r in document["ModifyDBParameterGroup"] for p in r["Parameters"]
    }
    rows = listed["EngineDefaults"]["Parameters"]
    assert names
    assert names <= {p["ParameterName"] for p in rows if p["IsModifiable"]}
    assert {m["ParameterName"] for m in document["ManagedByRds"]} == {NOT_MODIFIABLE, NOT_LISTED}
    terraform = _run(example, "--format", "rds-terraform", "--rds-parameters", params)
    assert terraform.returncode == 0, terraform.stderr


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ({"Parameters": []}, "--rds-parameters.EngineDefaults: is required"),
        (
            {"EngineDefaults": {"DBParameterGroupFamily": "mysql8.4", "Parameters": []}},
            "--db-parameter-group-family mysql8.0",
        ),
        ("not json {", "--rds-parameters: invalid JSON"),
    ],
)
def test_an_rds_parameters_file_that_is_not_the_commands_output_exits_2_naming_it(
    tmp_path: Path, example: str, content: Any, why: str
) -> None:
    path = tmp_path / "params.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    completed = _run(example, "--format", "rds-json", "--rds-parameters", str(path))
    _refused(completed)
    assert why in completed.stderr
    missing = _run(example, "--format", "rds-json", "--rds-parameters", str(tmp_path / "no"))
    _refused(missing)
    assert "--rds-parameters: no such file" in missing.stderr


def test_the_help_lists_every_format_with_what_it_is() -> None:
    completed = _run("--help")
    assert completed.returncode == 0
    text = " ".join(completed.stdout.split())
    assert "k8s-mariadb-operator: MariaDB spec.myCnf" in text
    assert "rds-terraform: a Terraform aws_db_parameter_group resource" in text


def test_revert_prints_the_twin_that_sets_the_current_values_back(tmp_path: Path) -> None:
    raw = {**raw_profile(), "current": {"variables": {"innodb_io_capacity": "300"}}}
    completed = _run(_profile_file(tmp_path, raw), "--format", "mycnf", "--revert")
    assert completed.returncode == 0, completed.stderr
    assert "innodb_io_capacity = 300\n" in completed.stdout
    assert "# Warning: Revert of result" in completed.stdout


def test_revert_without_current_exits_2_saying_why(example: str) -> None:
    completed = _run(example, "--format", "sql", "--revert")
    _refused(completed)
    assert "cannot revert: this result was computed without the current configuration" in (
        completed.stderr
    )


def test_a_format_that_cannot_take_this_server_says_so_without_the_version_range(
    tmp_path: Path,
) -> None:
    """Aurora runs MySQL, not MariaDB: the server's version is supported, only the format is not."""
    raw = raw_profile(**{"server.flavor": "mariadb", "server.version": "10.11"})
    completed = _run(_profile_file(tmp_path, raw), "--format", "aurora-json")
    _refused(completed)
    assert "MariaDB" in completed.stderr
    assert "other formats, and --format json, still work" in completed.stderr
    assert "supported:" not in completed.stderr
