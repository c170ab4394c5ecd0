"""The Aurora MySQL 3 exports: requests the AWS CLI's own validator (botocore's service model)
accepts for both operations, Terraform an HCL2 parser reads back, only parameters the vendored
Aurora User Guide page lets a user change at the level they are written at, every parameter of
its "don't apply" list left out and noted, and a refusal for servers Aurora MySQL 3 does not
run. What may be changed where is re-derived here from the vendored page itself."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import botocore.session
import hcl2
import pytest
from botocore.validate import ParamValidator

from rules.engine import recommend
from rules.inputs.errors import OutputRefused
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.output.result import Result
from rules.render import render, render_revert
from rules.render.aurora import render_aurora_json, render_aurora_terraform
from rules.render.rds import MAX_PARAMETERS_PER_REQUEST
from rules.units import GIB
from scripts.derive_aurora_parameters import ROOT, SOURCE, derive

RDS = botocore.session.get_session().get_service_model("rds")
CLUSTER_INPUT = RDS.operation_model("ModifyDBClusterParameterGroup").input_shape
INSTANCE_INPUT = RDS.operation_model("ModifyDBParameterGroup").input_shape
PAGE = derive(SOURCE.read_bytes())
CLUSTER: dict[str, str] = PAGE["cluster"]  # type: ignore[assignment]
INSTANCE: dict[str, str] = PAGE["instance"]  # type: ignore[assignment]
NOT_APPLICABLE: list[str] = PAGE["not_applicable"]  # type: ignore[assignment]
VENDOR = ROOT / "rules" / "data" / "vendor" / "aws"

# MySQL 8.0 machines of several kinds, every recommendation written (include_defaults) or not.
VARIANTS: list[dict[str, Any]] = [
    {},
    {"workload.durability": "relaxed", "hardware.ram_gb": 8, "hardware.cpu_cores": 2},
    {
        "hardware.storage.media": "nvme",
        "hardware.storage.rpm": None,
        "workload.kind": "bulk_insert",
    },
    {"server.flavor": "percona", "server.version": "8.0.36"},
    {"server.version": "8.0.20"},
]


def mysql80(include_defaults: bool = True, **overrides: Any) -> Result:
    raw = raw_profile(**overrides)
    raw["options"] = {"include_defaults": include_defaults}
    return recommend(parse_profile(raw))


def requests_of(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [("cluster", r) for r in document["ModifyDBClusterParameterGroup"]] + [
        ("instance", r) for r in document["ModifyDBParameterGroup"]
    ]


def written(document: dict[str, Any]) -> dict[str, tuple[str, dict[str, str]]]:
    """parameter name -> (level, the parameter as requested)."""
    return {
        p["ParameterName"]: (level, p)
        for level, request in requests_of(document)
        for p in request["Parameters"]
    }


@pytest.mark.parametrize("include_defaults", [True, False])
@pytest.mark.parametrize("overrides", VARIANTS, ids=range(len(VARIANTS)))
def test_every_request_is_valid_and_only_modifiable_parameters_are_written(
    overrides: dict[str, Any], include_defaults: bool
) -> None:
    result = mysql80(include_defaults, **overrides)
    document = json.loads(render_aurora_json(result))
    assert document["DBParameterGroupFamily"] == "aurora-mysql8.0"
    for level, request in requests_of(document):
        shape = CLUSTER_INPUT if level == "cluster" else INSTANCE_INPUT
        report = ParamValidator().validate(request, shape)
        assert not report.has_errors(), report.generate_report()
        assert 1 <= len(request["Parameters"]) <= MAX_PARAMETERS_PER_REQUEST
    for name, (level, parameter) in written(document).items():
        table = CLUSTER if level == "cluster" else INSTANCE
        assert table.get(name) == "modifiable", (name, level)
        assert name not in NOT_APPLICABLE
        setting = result.setting(name)
        assert setting is not None
        assert setting.written
        assert parameter["ApplyMethod"] == ("immediate" if setting.dynamic else "pending-reboot")
        assert parameter["ParameterValue"] not in ("ON", "OFF")
    noted = {n["ParameterName"] for n in document["NotSetOnAurora"]}
    server = {s.name for s in result.settings if s.scope == "mysqld"}
    # Every recommendation is either written (or left out as a default Aurora takes) or noted.
    assert noted.isdisjoint(written(document))
    for name in server - noted - set(written(document)):
        setting = result.setting(name)
        assert setting is not None
        assert not setting.written
        assert "modifiable" in (CLUSTER.get(name), INSTANCE.get(name))


@pytest.mark.parametrize("include_defaults", [True, False])
@pytest.mark.parametrize("overrides", VARIANTS, ids=range(len(VARIANTS)))
def test_a_parameter_that_does_not_apply_is_never_written_and_always_noted(
    overrides: dict[str, Any], include_defaults: bool
) -> None:
    result = mysql80(include_defaults, **overrides)
    document = json.loads(render_aurora_json(result))
    terraform = render_aurora_terraform(result)
    notes = {n["ParameterName"]: n["Note"] for n in document["NotSetOnAurora"]}
    inapplicable = [s.name for s in result.settings if s.name in NOT_APPLICABLE]
    assert inapplicable  # io_capacity, flush_method, doublewrite, redo: always recommended
    for name in inapplicable:
        assert name not in written(document)
        assert "don't apply to Aurora MySQL" in notes[name]
        assert f'name         = "{name}"' not in terraform
        assert re.search(rf"^# {name} = .*don't apply to Aurora MySQL", terraform, re.M)


def test_the_storage_layer_is_named_as_the_reason_for_the_io_settings() -> None:
    result = mysql80()
    notes = {
        n["ParameterName"]: n["Note"]
        for n in json.loads(render_aurora_json(result))["NotSetOnAurora"]
    }
    for name in ("innodb_io_capacity", "innodb_flush_method", "innodb_doublewrite"):
        assert "storage layer" in notes[name], notes[name]
    redo = (
        "innodb_redo_log_capacity"
        if "innodb_redo_log_capacity" in notes
        else "innodb_log_file_size"
    )
    assert "no redo log files" in notes[redo]


@pytest.mark.parametrize(("durability", "value"), [("relaxed", "2"), ("full", "1")])
def test_flush_log_at_trx_commit_is_noted_as_fixed_at_1(durability: str, value: str) -> None:
    result = mysql80(**{"workload.durability": durability})
    document = json.loads(render_aurora_json(result))
    (note,) = [
        n
        for n in document["NotSetOnAurora"]
        if n["ParameterName"] == "innodb_flush_log_at_trx_commit"
    ]
    assert note["Recommended"] == value
    assert "always uses 1" in note["Note"]
    assert ("cannot be had" in note["Note"]) == (value != "1")


def documented_formula() -> re.Pattern[str]:
    """`{FormulaVariable*Integer/Integer}` from the vendored formula syntax, as a pattern whose
    variable is one the page documents."""
    page = (VENDOR / "USER_ParamValuesRef.md").read_text(encoding="utf-8")
    syntax = re.search(r"\*\*Syntax\*\*\s*```\n(.*?)```", page, re.S)
    assert syntax is not None
    assert "{FormulaVariable*Integer/Integer}" in syntax.group(1).split()
    variables = re.findall(r"^\*([A-Za-z]+)\*  $", page, re.M)
    assert "DBInstanceClassMemory" in variables
    return re.compile(r"\{(" + "|".join(variables) + r")\*([0-9]+)/([0-9]+)\}")


def test_the_buffer_pool_is_a_documented_formula_at_the_instance_level() -> None:
    result = mysql80(**{"hardware.ram_gb": 64})
    level, pool = written(json.loads(render_aurora_json(result)))["innodb_buffer_pool_size"]
    assert level == "instance"
    match = documented_formula().fullmatch(pool["ParameterValue"])
    assert match, pool
    assert match.group(1) == "DBInstanceClassMemory"
    numerator, denominator = int(match.group(2)), int(match.group(3))
    recommended = result.setting("innodb_buffer_pool_size").value
    share = 64 * GIB * numerator // denominator
    assert recommended - 64 * GIB / 100 < share <= recommended


def test_booleans_are_written_as_the_0_and_1_rds_lists() -> None:
    shown = (VENDOR / "Appendix.MySQL.Parameters.md").read_text(encoding="utf-8")
    assert re.search(r'"DataType": "boolean",\s*"AllowedValues": "0,1"', shown)
    result = mysql80()
    on = replace(result.setting("innodb_random_read_ahead"), value="ON", written=True)
    result = replace(result, settings=(on,))
    (parameter,) = json.loads(render_aurora_json(result))["ModifyDBParameterGroup"][0]["Parameters"]
    assert parameter["ParameterName"] == "innodb_random_read_ahead"
    assert parameter["ParameterValue"] == "1"


def only_at(level: dict[str, str], other: dict[str, str], count: int) -> list[str]:
    """`count` parameters modifiable at `level` only, with names a server variable can have."""
    names = [
        n
        for n, status in level.items()
        if status == "modifiable" and n not in other and re.fullmatch(r"[a-z][a-z0-9_]*", n)
    ]
    assert len(names) >= count
    return names[:count]


def test_settings_go_to_their_level_twenty_to_a_request() -> None:
    """No recommendation of today's rules is a cluster-level parameter Aurora MySQL 3 lets a
    user change, so settings renamed to such parameters stand in for them."""
    result = mysql80()
    template = result.setting("innodb_lru_scan_depth")
    names = only_at(CLUSTER, INSTANCE, 23) + only_at(INSTANCE, CLUSTER, 45)
    settings = tuple(replace(template, name=name, written=True) for name in names)
    result = replace(result, settings=settings)
    document = json.loads(render_aurora_json(result))
    cluster_sizes = [len(r["Parameters"]) for r in document["ModifyDBClusterParameterGroup"]]
    instance_sizes = [len(r["Parameters"]) for r in document["ModifyDBParameterGroup"]]
    assert cluster_sizes == [20, 3]
    assert instance_sizes == [20, 20, 5]
    assert document["NotSetOnAurora"] == []
    for level, request in requests_of(document):
        shape = CLUSTER_INPUT if level == "cluster" else INSTANCE_INPUT
        report = ParamValidator().validate(request, shape)
        assert not report.has_errors(), report.generate_report()
        table = CLUSTER if level == "cluster" else INSTANCE
        assert all(table[p["ParameterName"]] == "modifiable" for p in request["Parameters"])
    blocks = resources(hcl2.loads(render_aurora_terraform(result)))
    assert len(blocks["aws_rds_cluster_parameter_group"]["parameter"]) == 23
    assert len(blocks["aws_db_parameter_group"]["parameter"]) == 45


def hcl_string(text: str) -> str:
    return json.loads(text).replace("$${", "${").replace("%%{", "%{")


def resources(tf: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """resource type -> its `innodb_io_advisor` block."""
    found = {}
    for resource in tf["resource"]:
        for kind, named in resource.items():
            found[kind.strip('"')] = named['"innodb_io_advisor"']
    return found


@pytest.mark.parametrize("overrides", VARIANTS, ids=range(len(VARIANTS)))
def test_the_terraform_reads_back_as_the_same_two_groups(overrides: dict[str, Any]) -> None:
    result = mysql80(**overrides)
    document = json.loads(render_aurora_json(result))
    blocks = resources(hcl2.loads(render_aurora_terraform(result)))
    assert set(blocks) == {"aws_rds_cluster_parameter_group", "aws_db_parameter_group"}
    pairs = (
        (
            "aws_rds_cluster_parameter_group",
            "ModifyDBClusterParameterGroup",
            "DBClusterParameterGroupName",
        ),
        ("aws_db_parameter_group", "ModifyDBParameterGroup", "DBParameterGroupName"),
    )
    for kind, key, name_key in pairs:
        block = blocks[kind]
        assert hcl_string(block["family"]) == "aurora-mysql8.0"
        name = hcl_string(block["name"])
        assert re.fullmatch(r"[a-z](-?[a-z0-9])*", name)
        assert len(name) <= 255
        assert all(r[name_key] == name for r in document[key])
        read = [
            {
                "ParameterName": hcl_string(p["name"]),
                "ParameterValue": hcl_string(p["value"]),
                "ApplyMethod": hcl_string(p["apply_method"]),
            }
            for p in block.get("parameter", [])
        ]
        assert read == [p for r in document[key] for p in r["Parameters"]]


def test_the_family_is_one_the_rds_api_names_for_aurora_mysql() -> None:
    create = RDS.operation_model("CreateDBClusterParameterGroup").input_shape
    assert "aurora-mysql8.0" in create.members["DBParameterGroupFamily"].documentation


@pytest.mark.parametrize(
    ("flavor", "version", "reason"),
    [
        ("mariadb", "10.11", "not MariaDB"),
        ("mariadb", "11.4", "not MariaDB"),
        ("mysql", "8.4.3", "MySQL 8.0-compatible"),
        ("mysql", "5.7.44", "MySQL 8.0-compatible"),
        ("percona", "8.4.3", "MySQL 8.0-compatible"),
    ],
)
def test_servers_aurora_mysql_3_does_not_run_are_refused_with_the_reason(
    flavor: str, version: str, reason: str
) -> None:
    result = mysql80(**{"server.flavor": flavor, "server.version": version})
    for fmt in ("aurora-json", "aurora-terraform"):
        with pytest.raises(OutputRefused, match=re.escape(reason)):
            render(result, fmt)


def test_percona_is_checked_as_mysql_and_said_so() -> None:
    result = mysql80(**{"server.flavor": "percona"})
    comment = json.loads(render_aurora_json(result))["Comment"]
    assert any("not Percona Server" in line for line in comment)


def test_the_header_speaks_only_of_what_aurora_takes() -> None:
    result = mysql80(False, **{"workload.durability": "relaxed", "hardware.ram_gb": 8})
    document = json.loads(render_aurora_json(result))
    restart = next(line for line in document["Comment"] if line.startswith("Needs a restart"))
    left_out = next((line for line in document["Comment"] if line.startswith("Left out")), "")
    for note in document["NotSetOnAurora"]:
        assert note["ParameterName"] not in restart
        assert f"{note['ParameterName']} =" not in left_out
    assert any("cluster level" in line for line in document["Comment"])


def test_the_revert_twin_sets_the_current_values_back_where_aurora_takes_them() -> None:
    raw = raw_profile()
    raw["current"] = {"variables": {"innodb_lru_scan_depth": "1024", "innodb_io_capacity": "200"}}
    result = recommend(parse_profile(raw))
    forward = written(json.loads(render(result, "aurora-json")))
    assert forward["innodb_lru_scan_depth"][1]["ParameterValue"] != "1024"
    twin = json.loads(render_revert(result, "aurora-json"))
    assert any(f"Revert of result {result.id}" in line for line in twin["Comment"])
    back = written(twin)
    assert back["innodb_lru_scan_depth"][1]["ParameterValue"] == "1024"
    assert "innodb_io_capacity" not in back
    assert "innodb_io_capacity" in {n["ParameterName"] for n in twin["NotSetOnAurora"]}
