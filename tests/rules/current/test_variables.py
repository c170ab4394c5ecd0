"""The variables object."""

import pytest

from rules.current import parse_current
from rules.current.variables import MAX_VARIABLES
from rules.inputs.profile import Current
from tests.rules.current.fixtures import error_of


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"innodb_io_capacity": "200"}, {"innodb_io_capacity": "200"}),
        ({"innodb_io_capacity": 200}, {"innodb_io_capacity": "200"}),
        ({"innodb_io_capacity": 200.0}, {"innodb_io_capacity": "200"}),
        ({"innodb_max_dirty_pages_pct": 75.5}, {"innodb_max_dirty_pages_pct": "75.5"}),
        ({"innodb_doublewrite": True}, {"innodb_doublewrite": "ON"}),
        ({"innodb_doublewrite": False}, {"innodb_doublewrite": "OFF"}),
        ({"Innodb-Buffer-Pool-Size": " 8G "}, {"innodb_buffer_pool_size": "8G"}),
        ({"loose-innodb_io_capacity": "200"}, {"innodb_io_capacity": "200"}),
        ({"validate_password.length": 8}, {"validate_password.length": "8"}),
        ({"innodb_data_home_dir": ""}, {"innodb_data_home_dir": ""}),
    ],
)
def test_it_reads_the_variables_object(given: dict[str, object], expected: dict[str, str]) -> None:
    current = parse_current({"variables": given, "os": {"io_scheduler": "cfq"}})
    loose = frozenset(name for name in expected if f"loose-{name}" in given)
    assert current == Current(
        variables=expected, os={"io_scheduler": "cfq"}, origin="variables", loose=loose
    )


def test_it_notes_a_variable_given_twice_with_different_values() -> None:
    current = parse_current({"variables": {"innodb-io-capacity": 100, "innodb_io_capacity": 200}})
    assert current.variables == {"innodb_io_capacity": "200"}
    assert current.notes == ("innodb_io_capacity was given twice; the later value '200' was used",)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (None, "must be an object"),
        ("innodb_io_capacity=200", "must be an object"),
        ([["innodb_io_capacity", "200"]], "must be an object"),
        ({"innodb io capacity": "200"}, "'innodb io capacity' is not a variable name"),
        ({"": "200"}, "'' is not a variable name"),
        ({"x" * 65: "1"}, "is not a variable name"),
        ({"innodb_io_capacity;DROP": "1"}, "is not a variable name"),
        ({"innodb_io_capacity": None}, "'innodb_io_capacity': must be text, a number"),
        ({"innodb_io_capacity": [200]}, "got a list"),
        ({"innodb_io_capacity": {"v": 1}}, "got an object"),
        ({"innodb_io_capacity": float("nan")}, "must be a finite number"),
        ({"innodb_io_capacity": float("inf")}, "must be a finite number"),
        ({"innodb_io_capacity": 10**5000}, "the number is too large"),
        ({"innodb_io_capacity": "200\n300"}, "control characters"),
        ({"innodb_io_capacity": "\ud800"}, "control characters"),
        ({"innodb_io_capacity": "9" * 70_000}, "longer than"),
        ({}, "no server variables given"),
    ],
)
def test_it_rejects_a_bad_variables_object_naming_the_entry(given: object, message: str) -> None:
    problem = error_of({"variables": given})
    assert problem.field == "variables"
    assert message in str(problem)


def test_it_rejects_more_than_5000_variables() -> None:
    too_many = {f"var_{n}": "1" for n in range(MAX_VARIABLES + 1)}
    assert "limit is 5,000" in str(error_of({"variables": too_many}))
    assert len(parse_current({"variables": dict(list(too_many.items())[:-1])}).variables) == 5000
