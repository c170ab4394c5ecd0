"""Every export that carries innodb_buffer_pool_size gives the server the my.cnf's bytes.

Each export is read back with a real parser (configparser, json, PyYAML, sqlparse, python-hcl2)
and its value evaluated as the tool that reads it would: a my.cnf size with its suffix as MySQL
reads it, the Percona Operator's pongo2 expression with `containerMemoryLimit` set to the memory
the profile gives the server, and RDS's formula with `DBInstanceClassMemory` set to the profile's
RAM (the export writes the share of the RAM the advice gives the pool; on a real instance the
variable is somewhat less than the class's RAM, and the pool that much smaller).
"""

from __future__ import annotations

import configparser
import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import hcl2
import pytest
import sqlparse
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules.current.rds_parameters import RdsParameter
from rules.engine import recommend
from rules.inputs.errors import OutputRefused
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.output.result import Result
from rules.render import REGISTRY, render
from rules.render.rds import render_rds_json, render_rds_terraform
from tests.rules.test_properties import SUPPORTED

POOL = "innodb_buffer_pool_size"
INT64_MAX = 2**63 - 1

# -- how each tool reads a value -----------------------------------------------------------------

# MySQL Reference Manual 8.0, 6.2.2.1 "Using Options on the Command Line": an integer option may
# take a suffix K, M, G, T, P or E (either case) for multiples of 1024, 1024², ... (T, P and E
# from 8.0.14); MariaDB reads K, M, G, T, P, E the same way ("mariadbd Options", size values).
SUFFIXES = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50, "E": 2**60}


def mysql_size(text: str) -> int:
    match = re.fullmatch(r"([0-9]+)([KMGTPE]?)", text.strip(), re.I)
    assert match, text
    return int(match.group(1)) * SUFFIXES[match.group(2).upper()]


def pongo2_value(text: str, variables: dict[str, int]) -> int:
    """A `{{ ... }}` holding one pongo2 term, `factor (("*" | "/" | "%") factor)*` with integer
    literals and names as factors, evaluated as pongo2 does for integers: left to right
    (parser_expression.go, parseTerm builds the left-nested chain), in Go's int64 arithmetic
    (term.Evaluate: `f1.Integer() * f2.Integer()`, `f1.Integer() / f2.Integer()`), the division
    truncating toward zero. The Percona Operator sets `containerMemoryLimit` to the pod's memory
    limit in bytes (percona-server-mysql-operator v1.2.0, pkg/mysql/config.go). Go wraps on
    overflow; here an overflow fails the test instead."""
    match = re.fullmatch(r"\{\{(.*)\}\}", text.strip())
    assert match, f"not one pongo2 variable tag: {text!r}"
    tokens = re.findall(r"\s*([0-9]+|[A-Za-z_][A-Za-z0-9_]*|\S)", match.group(1))
    assert "".join(tokens).replace(" ", "") == match.group(1).replace(" ", "")

    def factor(token: str) -> int:
        if token.isdigit():
            return int(token)
        assert token in variables, f"pongo2 has no {token!r} here"
        return variables[token]

    value = factor(tokens[0])
    for operator, operand in zip(tokens[1::2], tokens[2::2], strict=True):
        right = factor(operand)
        if operator == "*":
            value *= right
        elif operator == "/":
            value = _go_div(value, right)
        elif operator == "%":
            value -= _go_div(value, right) * right
        else:
            raise AssertionError(f"not a pongo2 term operator: {operator!r}")
        assert -INT64_MAX - 1 <= value <= INT64_MAX, f"int64 overflow in {text!r}"
    assert len(tokens) % 2 == 1, text
    return value


def _go_div(a: int, b: int) -> int:
    """Go's integer division: the quotient truncated toward zero."""
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def rds_value(text: str, variables: dict[str, int]) -> int:
    """A plain integer, or an RDS formula `{FormulaVariable}`, `{FormulaVariable*Integer}`,
    `{FormulaVariable*Integer/Integer}` or `{FormulaVariable/Integer}` (RDS User Guide, "DB
    parameter formulas", vendored in rules/data/vendor/aws/USER_ParamValuesRef.md): whole
    numbers, each division's quotient truncated, from left to right."""
    if text.isdigit():
        return int(text)
    match = re.fullmatch(r"\{([A-Za-z]+)(?:\*([0-9]+))?(?:/([0-9]+))?\}", text)
    assert match, f"not an RDS formula: {text!r}"
    value = variables[match.group(1)] * int(match.group(2) or 1)
    return value // int(match.group(3) or 1)


# -- reading the pool out of each export ---------------------------------------------------------


def cnf_pool(text: str) -> str | None:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.read_string(text)
    (section,) = parser.sections()
    return parser[section].get(POOL)


def from_mycnf(text: str, memory: Memory) -> int | None:
    value = cnf_pool(text)
    return None if value is None else mysql_size(value)


def from_json(text: str, memory: Memory) -> int | None:
    found = [s for s in json.loads(text)["settings"] if s["name"] == POOL and s["written"]]
    return int(found[0]["value"]) if found else None


def from_sql(text: str, memory: Memory) -> int | None:
    values = []
    for statement in sqlparse.parse(text):
        words = [t.value for t in statement.flatten() if not t.is_whitespace and t.ttype]
        words = [w for w in words if not w.startswith("--")]
        if words[:1] == ["SET"] and len(words) >= 5 and words[2] == POOL:
            assert words[1] in ("PERSIST", "GLOBAL"), words
            assert words[3] == "=", words
            values.append(mysql_size(words[4]))
    assert len(values) <= 1, values
    return values[0] if values else None


def from_ansible(text: str, memory: Memory) -> int | None:
    document = yaml.safe_load(text)
    value = document["innodb_io_advisor_settings"].get(POOL)
    in_cnf = from_mycnf(document["innodb_io_advisor_cnf"], memory)
    assert in_cnf == (None if value is None else mysql_size(value))
    return in_cnf


def from_ansible_tasks(text: str, memory: Memory) -> int | None:
    tasks = yaml.safe_load(text) or []
    values = [
        task["community.mysql.mysql_variables"]["value"]
        for task in tasks
        if task["community.mysql.mysql_variables"]["variable"] == POOL
    ]
    return mysql_size(values[0]) if values else None


def operator_reader(*path: str, templated: bool) -> Reader:
    def read(text: str, memory: Memory) -> int | None:
        block: Any = yaml.safe_load(text)
        for key in path:
            block = block[key]
        value = cnf_pool(block)
        if value is None:
            return None
        if templated and "{{" in value:
            return pongo2_value(value, {"containerMemoryLimit": memory.server})
        return mysql_size(value)

    return read


def rds_pools(parameters: list[dict[str, Any]], memory: Memory) -> int | None:
    values = [p["value"] for p in parameters if p["name"] == POOL]
    assert len(values) <= 1, values
    return rds_value(values[0], {"DBInstanceClassMemory": memory.ram}) if values else None


def from_rds_json(text: str, memory: Memory) -> int | None:
    document = json.loads(text)
    requests = document.get("ModifyDBParameterGroup", []) + document.get(
        "ModifyDBClusterParameterGroup", []
    )
    parameters = [
        {"name": p["ParameterName"], "value": p["ParameterValue"]}
        for request in requests
        for p in request["Parameters"]
    ]
    return rds_pools(parameters, memory)


def from_terraform(text: str, memory: Memory) -> int | None:
    document = hcl2.loads(text)
    parameters = [
        {"name": hcl_string(parameter["name"]), "value": hcl_string(parameter["value"])}
        for resource in document["resource"]
        for kind in resource.values()
        for group in kind.values()
        for parameter in group.get("parameter", [])
    ]
    return rds_pools(parameters, memory)


def hcl_string(value: str) -> str:
    """python-hcl2 keeps a string literal's quotes; its escapes are JSON's for these values."""
    return json.loads(value) if value.startswith('"') else value


@dataclass(frozen=True)
class Memory:
    """The memory the tools size the pool from: what the server may use, and the RAM."""

    server: int
    ram: int


Reader = Callable[[str, Memory], "int | None"]

READERS: dict[str, Reader] = {
    "mycnf": from_mycnf,
    "json": from_json,
    "sql": from_sql,
    "ansible": from_ansible,
    "ansible-tasks": from_ansible_tasks,
    "k8s-percona": operator_reader("spec", "mysql", "configuration", templated=True),
    "k8s-mysql-operator": operator_reader("spec", "mycnf", templated=False),
    "k8s-mariadb-operator": operator_reader("spec", "myCnf", templated=False),
    "rds-json": from_rds_json,
    "rds-terraform": from_terraform,
    "aurora-json": from_rds_json,
    "aurora-terraform": from_terraform,
}
NO_POOL = {"udev", "sysctl"}  # the OS exports: no server variable in them


def test_every_export_has_a_reader_or_carries_no_server_settings() -> None:
    assert set(READERS) | NO_POOL == {f.name for f in REGISTRY}


def rds_renders(result: Result) -> dict[str, str]:
    """The RDS exports given a parameter list that lets every recommended setting be changed:
    without the user's list `render` refuses them (test_rds.py does the same)."""
    parameters = {
        s.name: RdsParameter(s.name, True, "dynamic" if s.dynamic else "static")
        for s in result.settings
    }
    return {
        "rds-json": render_rds_json(result, parameters=parameters),
        "rds-terraform": render_rds_terraform(result, parameters=parameters),
    }


def exports(result: Result) -> dict[str, str]:
    found = {}
    for name in READERS:
        try:
            found[name] = render(result, name, base_url="https://advisor.example")
        except OutputRefused:
            continue  # another flavor's tool, or a family with no vendored list
    with contextlib.suppress(OutputRefused):  # no RDS family for this flavor and version
        found.update(rds_renders(result))
    return found


def memories() -> st.SearchStrategy[float]:
    return st.integers(1, 16384).map(float) | st.floats(0.5, 16384)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    server=st.sampled_from(SUPPORTED),
    ram_gb=memories(),
    limit_gb=st.none() | memories(),
)
@example(server=("percona", "8.0"), ram_gb=512.0, limit_gb=24.0)  # the machine
@example(server=("mysql", "8.0.36"), ram_gb=128.0, limit_gb=None)  # 7/8: not a whole percent
def test_every_export_gives_the_server_the_my_cnf_buffer_pool(
    server: tuple[str, str], ram_gb: float, limit_gb: float | None
) -> None:
    raw = raw_profile(
        **{
            "server.flavor": server[0],
            "server.version": server[1],
            "hardware.ram_gb": ram_gb,
            "hardware.memory_limit_gb": limit_gb,
        }
    )
    profile = parse_profile(raw)
    result = recommend(profile)
    texts = exports(result)
    if "mycnf" not in texts:
        return  # a refused result: no export is written
    memory = Memory(profile.hardware.memory_bytes, profile.hardware.ram_bytes)
    expected = from_mycnf(texts["mycnf"], memory)
    pools = {name: READERS[name](text, memory) for name, text in texts.items()}
    assert {name: pool for name, pool in pools.items() if pool != expected} == {}, expected


def test_the_pongo2_reader_is_integer_arithmetic_from_the_left() -> None:
    limit = {"containerMemoryLimit": 10}
    assert pongo2_value("{{containerMemoryLimit * 3/4}}", limit) == 7  # (10*3)/4, not 10*(3/4)
    assert pongo2_value("{{ containerMemoryLimit / 4 * 3 }}", limit) == 6  # (10/4)*3
    with pytest.raises(AssertionError, match="overflow"):
        pongo2_value("{{containerMemoryLimit * 1000000000000000000}}", limit)


def test_the_rds_reader_truncates_each_step() -> None:
    assert rds_value("{DBInstanceClassMemory*3/4}", {"DBInstanceClassMemory": 10}) == 7
    assert rds_value("19327352832", {}) == 19327352832
