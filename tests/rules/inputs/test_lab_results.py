"""workload.lab_results: the lab's records and the plain form, reduced and bounded."""

import json
from typing import Any

import pytest

from lab.to_csv import KINDS
from rules.inputs.examples import parse_or_errors
from rules.inputs.lab_results import MAX_RUNS, MAX_VALUE_CHARS, MAX_VARIABLES, TEST_KINDS
from tests.rules.lab_runs import FIELD, lab_profile, lab_records


def errors_of(value: Any, **overrides: Any) -> dict[str, list[str]]:
    profile, errors = parse_or_errors(lab_profile(**{FIELD: value, **overrides}))
    assert profile is None, "accepted"
    return errors


def test_the_tests_kinds_are_the_labs() -> None:
    assert TEST_KINDS == KINDS


def test_a_lab_record_is_reduced_to_what_the_advisor_reads() -> None:
    profile, errors = parse_or_errors(lab_profile(**{FIELD: lab_records()}))
    assert profile is not None, errors
    runs = profile.workload.lab_results
    assert [run.label for run in runs] == ["A", "B", "A", "B"]
    assert [run.throughput for run in runs] == [401.47, 614.75, 351.83, 577.41]
    assert runs[1].configuration["innodb_io_capacity"] == "2000"
    assert {run.kind for run in runs} == {"read_write"}
    echoed = json.dumps(profile.raw["workload"]["lab_results"])
    for dropped in ("mycnf", "sysbench", "probe", "datadir", "version_comment", "/var/tmp"):
        assert dropped not in echoed


def test_the_plain_form_is_read_and_echoed() -> None:
    plain = [
        {"configuration": {"innodb_io_capacity": 2000, "innodb_doublewrite": True}, "throughput": 5}
    ]
    profile, errors = parse_or_errors(lab_profile(**{FIELD: plain}))
    assert profile is not None, errors
    assert profile.raw["workload"]["lab_results"] == [
        {
            "configuration": {"innodb_io_capacity": "2000", "innodb_doublewrite": "ON"},
            "throughput": 5.0,
        }
    ]


def test_a_profile_without_lab_results_echoes_no_key() -> None:
    profile, _errors = parse_or_errors(lab_profile())
    assert profile is not None
    assert "lab_results" not in profile.raw["workload"]


def run(**entry: Any) -> dict[str, Any]:
    return {"configuration": {}, "throughput": 100, **entry}


HOSTILE = [
    ("not a list", FIELD),
    ([], FIELD),
    ([run()] * (MAX_RUNS + 1), FIELD),
    ([5], f"{FIELD}[0]"),
    ([run(throughput=float("nan"))], f"{FIELD}[0].throughput"),
    ([run(throughput=float("inf"))], f"{FIELD}[0].throughput"),
    ([run(throughput=-1)], f"{FIELD}[0].throughput"),
    ([run(throughput=10**400)], f"{FIELD}[0].throughput"),
    ([run(throughput=True)], f"{FIELD}[0].throughput"),
    ([run(throughput="100")], f"{FIELD}[0].throughput"),
    ([{"configuration": {}}], f"{FIELD}[0].throughput"),
    ([run(configuration=[])], f"{FIELD}[0].configuration"),
    ([run(configuration={"password": "hunter2"})], f"{FIELD}[0].configuration.password"),
    ([run(configuration={"x" * 10_000: 1})], f"{FIELD}[0].configuration." + "x" * 80 + "..."),
    (
        [run(configuration={"innodb_io_capacity": "9" * (MAX_VALUE_CHARS + 1)})],
        f"{FIELD}[0].configuration.innodb_io_capacity",
    ),
    (
        [run(configuration={"innodb_io_capacity": {"a": 1}})],
        f"{FIELD}[0].configuration.innodb_io_capacity",
    ),
    (
        [run(configuration={f"innodb_{i}": 1 for i in range(MAX_VARIABLES + 1)})],
        f"{FIELD}[0].configuration",
    ),
    ([run(label="x" * 1000)], f"{FIELD}[0].label"),
    ([run(kind="tpcc")], f"{FIELD}[0].kind"),
    ([run(kind="read_mostly")], f"{FIELD}[0]"),
    ([run(mycnf="[mysqld]\npassword=secret")], f"{FIELD}[0].mycnf"),
    ([{"record": "innodb-io-advisor lab run", "format": 2}], f"{FIELD}[0]"),
    ([{"record": "something else"}], f"{FIELD}[0]"),
    ([{"record": "innodb-io-advisor lab run", "format": 1, "run": 1}], f"{FIELD}[0]"),
]


@pytest.mark.parametrize(("value", "path"), HOSTILE)
def test_a_hostile_value_is_refused_naming_its_path(value: Any, path: str) -> None:
    errors = errors_of(value)
    assert path in errors, errors


def test_a_lab_record_of_another_kind_or_test_is_refused() -> None:
    record = lab_records()[0]
    insert = {**record, "run": {**record["run"], "test": "oltp_insert"}}
    assert f"{FIELD}[0].run.test" in errors_of([insert])
    assert f"{FIELD}[0]" in errors_of([record], **{"workload.kind": "oltp"})
    bad_value = {**record, "result": {**record["result"], "value": "fast"}}
    assert f"{FIELD}[0].result.value" in errors_of([bad_value])


def test_lab_results_and_measured_throughput_are_not_given_together() -> None:
    errors = errors_of([run()], **{"workload.measured_throughput": 100})
    assert FIELD in errors
