"""The RDS exports: requests the AWS CLI's own validator (botocore's service model) accepts, a
Terraform block an HCL2 parser reads back, only the parameters the family's list lets a user
change, and, without a list, a refusal that tells the user the one command to run.

No family's `describe-engine-default-parameters` output is published or vendored (see
rules/data/vendor/README.md), so these tests hand the renderer a parameter list in that output's
shape, made in tests.rules.rds_lists: test input, not a claim about what RDS allows."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import botocore.session
import hcl2
import pytest
from botocore.validate import ParamValidator

from rules.current.rds_parameters import RdsParameter, read_engine_defaults
from rules.engine import recommend
from rules.inputs.errors import OutputRefused
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.output.result import Result
from rules.render import FORMATS, render
from rules.render.rds import (
    MAX_PARAMETERS_PER_REQUEST,
    rds_family,
    render_rds_json,
    render_rds_terraform,
)
from rules.units import GIB
from tests.rules.rds_lists import NOT_LISTED, NOT_MODIFIABLE, engine_defaults

MODIFY = botocore.session.get_session().get_service_model("rds")
MODIFY_INPUT = MODIFY.operation_model("ModifyDBParameterGroup").input_shape
APPLY_METHODS = MODIFY_INPUT.members["Parameters"].member.members["ApplyMethod"].enum


def parse_defaults(document: dict[str, Any]) -> dict[str, RdsParameter]:
    return read_engine_defaults(document, family="mysql8.0")


def mysql80(**overrides: Any) -> Result:
    raw = raw_profile(**overrides)
    raw["options"] = {"include_defaults": True}
    return recommend(parse_profile(raw))


def test_the_requests_are_what_the_aws_cli_accepts() -> None:
    result = mysql80()
    parameters = parse_defaults(engine_defaults(result))
    document = json.loads(render_rds_json(result, parameters=parameters))
    assert document["DBParameterGroupFamily"] == "mysql8.0"
    requests = document["ModifyDBParameterGroup"]
    for request in requests:
        report = ParamValidator().validate(request, MODIFY_INPUT)
        assert not report.has_errors(), report.generate_report()
        assert 1 <= len(request["Parameters"]) <= MAX_PARAMETERS_PER_REQUEST
        assert {p["ApplyMethod"] for p in request["Parameters"]} <= set(APPLY_METHODS)
    written = [p for request in requests for p in request["Parameters"]]
    names = [p["ParameterName"] for p in written]
    expected = [
        s.name for s in result.written_settings() if s.name not in (NOT_MODIFIABLE, NOT_LISTED)
    ]
    assert names == expected
    managed = {m["ParameterName"]: m["Note"] for m in document["ManagedByRds"]}
    assert set(managed) == {NOT_MODIFIABLE, NOT_LISTED}
    assert "not modifiable" in managed[NOT_MODIFIABLE]
    assert "not in the mysql8.0 parameter group" in managed[NOT_LISTED]
    for p in written:
        setting = result.setting(p["ParameterName"])
        assert p["ApplyMethod"] == ("immediate" if setting.dynamic else "pending-reboot")
        assert p["ParameterValue"] not in ("ON", "OFF")  # booleans as RDS's 0 and 1


def test_the_buffer_pool_is_a_formula_of_the_instance_memory() -> None:
    result = mysql80(**{"hardware.ram_gb": 64})
    parameters = parse_defaults(engine_defaults(result))
    document = json.loads(render_rds_json(result, parameters=parameters))
    (pool,) = [
        p
        for r in document["ModifyDBParameterGroup"]
        for p in r["Parameters"]
        if p["ParameterName"] == "innodb_buffer_pool_size"
    ]
    match = re.fullmatch(r"\{DBInstanceClassMemory\*(\d+)/(\d+)\}", pool["ParameterValue"])
    assert match, pool
    numerator, denominator = map(int, match.groups())
    recommended = result.setting("innodb_buffer_pool_size").value
    share = 64 * GIB * numerator // denominator
    assert recommended - 64 * GIB / 100 < share <= recommended
    assert any("DBInstanceClassMemory" in line for line in document["Comment"])


def test_more_than_twenty_parameters_go_in_several_requests() -> None:
    result = mysql80()
    template = result.written_settings()[1]
    many = tuple(replace(template, name=f"innodb_fake_{i:02d}") for i in range(45))
    result = replace(result, settings=many)
    rows = [{"ParameterName": s.name, "ApplyType": "dynamic", "IsModifiable": True} for s in many]
    parameters = parse_defaults(
        {"EngineDefaults": {"DBParameterGroupFamily": "mysql8.0", "Parameters": rows}}
    )
    document = json.loads(render_rds_json(result, parameters=parameters))
    sizes = [len(r["Parameters"]) for r in document["ModifyDBParameterGroup"]]
    assert sizes == [20, 20, 5]


def hcl_string(text: str) -> str:
    return json.loads(text).replace("$${", "${").replace("%%{", "%{")


def test_the_terraform_block_reads_back_as_the_same_parameters() -> None:
    result = mysql80()
    parameters = parse_defaults(engine_defaults(result))
    document = json.loads(render_rds_json(result, parameters=parameters))
    tf = hcl2.loads(render_rds_terraform(result, parameters=parameters))
    (resource,) = tf["resource"]
    block = resource['"aws_db_parameter_group"']['"innodb_io_advisor"']
    assert hcl_string(block["family"]) == "mysql8.0"
    name = hcl_string(block["name"])
    assert re.fullmatch(r"[a-z](-?[a-z0-9])*", name)
    assert len(name) <= 255
    read = [
        {
            "ParameterName": hcl_string(p["name"]),
            "ParameterValue": hcl_string(p["value"]),
            "ApplyMethod": hcl_string(p["apply_method"]),
        }
        for p in block["parameter"]
    ]
    assert read == [p for r in document["ModifyDBParameterGroup"] for p in r["Parameters"]]


def test_a_template_sequence_stays_text_in_terraform() -> None:
    result = mysql80()
    first = result.written_settings()[0]
    hostile = replace(first, value='${file("/etc/passwd")}%{ if x }', kind="enum")
    result = replace(result, settings=(hostile,))
    rows = [{"ParameterName": first.name, "ApplyType": "dynamic", "IsModifiable": True}]
    parameters = parse_defaults(
        {"EngineDefaults": {"DBParameterGroupFamily": "mysql8.0", "Parameters": rows}}
    )
    tf = hcl2.loads(render_rds_terraform(result, parameters=parameters))
    block = tf["resource"][0]['"aws_db_parameter_group"']['"innodb_io_advisor"']
    raw = block["parameter"][0]["value"]
    assert "$${" in raw
    assert "%%{" in raw
    assert hcl_string(raw) == hostile.value


@pytest.mark.parametrize(
    ("flavor", "version", "family"),
    [
        ("mysql", "8.0.36", "mysql8.0"),
        ("percona", "8.0.36", "mysql8.0"),
        ("mysql", "8.4.3", "mysql8.4"),
        ("mariadb", "10.11", "mariadb10.11"),
        ("mariadb", "11.4", "mariadb11.4"),
    ],
)
def test_without_a_list_both_exports_are_refused_naming_the_command_to_run(
    flavor: str, version: str, family: str
) -> None:
    """What the user reads names the one command and how to pass its output, and neither a
    path of this repository nor a format id of ours."""
    result = mysql80(**{"server.flavor": flavor, "server.version": version})
    assert rds_family(result.profile.server) == family
    command = (
        f"aws rds describe-engine-default-parameters --db-parameter-group-family {family} "
        "--output json > params.json"
    )
    for fmt in ("rds-json", "rds-terraform"):
        with pytest.raises(OutputRefused) as refused:
            render(result, fmt)
        text = str(refused.value)
        assert command in text
        assert "--rds-parameters params.json" in text
        assert "rds_parameters" in text
        assert "/" not in text.replace("> params.json", "").replace(command, "")
        assert "vendor" not in text
        ours = [f for f in FORMATS if f != "json"]  # json is also the AWS CLI's --output
        assert not any(re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", text) for f in ours)


def test_percona_is_checked_as_mysql_and_said_so() -> None:
    result = mysql80(**{"server.flavor": "percona"})
    parameters = {"innodb_io_capacity": RdsParameter("innodb_io_capacity", True, "dynamic", "")}
    document = json.loads(render_rds_json(result, parameters=parameters))
    assert any("not Percona Server" in line for line in document["Comment"])
    assert all("RDS manages the host" not in m["Note"] for m in document["ManagedByRds"])
    assert any("RDS manages the host" in line for line in document["Comment"])
