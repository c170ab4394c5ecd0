"""The form itself: exactly one form, errors under their field, and any input."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.current import CurrentParseError, parse_current
from rules.inputs.errors import ProfileError
from rules.inputs.field_table import CURRENT_FORMS, MAX_CURRENT_TEXT_BYTES
from rules.inputs.profile import Current
from rules.inputs.validation import parse_profile
from tests.rules.current.fixtures import ANY_CHARACTER, GOOGLE_V4_MYCNF, error_of

ERROR_FIELDS = {"variables", "mycnf", "show_variables", "os"}


def current_or_error(raw: object) -> Current | CurrentParseError:
    """What parse_current gives for raw; any other exception fails the test."""
    try:
        return parse_current(raw)  # type: ignore[arg-type]
    except CurrentParseError as problem:
        return problem


def test_it_accepts_only_os_settings_with_an_empty_variables_object() -> None:
    current = parse_current({"variables": {}, "os": {"io_scheduler": "bfq"}})
    assert current == Current(variables={}, os={"io_scheduler": "bfq"}, origin="variables")


@pytest.mark.parametrize(
    "raw",
    [
        {},
        {"os": {"io_scheduler": "cfq"}},
        {"variables": {"a": 1}, "mycnf": "a=1"},
        {"mycnf": "a=1", "show_variables": "a\t1"},
        [],
        "innodb_io_capacity=200",
        None,
    ],
)
def test_it_requires_exactly_one_form(raw: object) -> None:
    problem = error_of(raw)
    assert problem.field in CURRENT_FORMS
    assert "variables, mycnf, show_variables" in str(problem)


def test_profile_validation_reports_the_error_under_its_field() -> None:
    profile = {
        "server": {"flavor": "mysql", "version": "8.0.36"},
        "hardware": {
            "ram_gb": 64,
            "cpu_cores": 16,
            "storage": {"media": "nvme", "device_count": 1},
        },
        "workload": {"kind": "oltp", "data_size_gb": 200, "concurrency": 64},
        "current": {"mycnf": "[client]\nport=3306\n"},
    }
    with pytest.raises(ProfileError) as caught:
        parse_profile(profile)
    assert list(caught.value.errors) == ["current.mycnf"]
    # The article's "80 or 20" is prose; the server would refuse it, and the error names it.
    profile["current"] = {"mycnf": GOOGLE_V4_MYCNF, "os": {"io_scheduler": "[none] mq-deadline"}}
    with pytest.raises(ProfileError) as caught:
        parse_profile(profile)
    assert list(caught.value.errors) == ["current.mycnf.innodb_max_dirty_pages_pct"]
    assert "'80 or 20'" in caught.value.errors["current.mycnf.innodb_max_dirty_pages_pct"][0]
    fixed = GOOGLE_V4_MYCNF.replace("=80 or 20", "=80")
    profile["current"] = {"mycnf": fixed, "os": {"io_scheduler": "[none] mq-deadline"}}
    current = parse_profile(profile).current
    assert current is not None
    assert current.variables["innodb_io_capacity"] == "250"
    assert current.os == {"io_scheduler": "none"}
    # Only the variables the advisor reads are kept: innodb_file_per_table and the Google
    # patch's own options are dropped and counted.
    assert "innodb_file_per_table" not in current.variables
    assert current.dropped == 7


# --- properties --------------------------------------------------------------------------------

MYCNF_PIECES = [
    "[mysqld]",
    "[client]",
    "[mysqld-8.0]",
    "[",
    "]",
    "innodb_io_capacity",
    "skip-",
    "loose-",
    "disable_",
    "enable-",
    "maximum-",
    "set-variable",
    "=",
    " = ",
    "#",
    ";",
    "'",
    '"',
    "\\",
    "!include ",
    "!includedir",
    "|",
    "\t",
    "Variable_name:",
    "Value:",
    "***",
    "+---+",
    "200",
    "1900M",
    "ON",
    "\n",
    "\r\n",
    " ",
    "é",
    "\u2028",
    "\x0c",
    "\x00",
    "\ud800",
    "mysql> ",
    "4 rows in set",
    ".",
    "-",
    "_",
]
OPTION_LINES = st.lists(
    st.tuples(
        st.sampled_from(["", "", "loose-", "skip-", "[mysqld]\n", "| ", "Variable_name: "]),
        st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,20}", fullmatch=True),
        st.sampled_from(["=", " = ", "\t", " | ", "\nValue: ", "", " "]),
        st.sampled_from(["200", "1900M", "'O_DIRECT'", '"a # b"', "ON", "", "\\", "\x0c"]),
        st.sampled_from(["", "", " # note", " |", "#", "'"]),
    ).map("".join),
    max_size=15,
).map("\n".join)
TEXTS = st.one_of(
    OPTION_LINES,
    st.text(),
    st.text(ANY_CHARACTER),
    st.binary().map(lambda data: data.decode("latin-1")),
    st.binary().map(lambda data: data.decode("utf-8", "replace")),
    st.lists(st.sampled_from(MYCNF_PIECES), max_size=60).map("".join),
    st.lists(st.lists(st.sampled_from(MYCNF_PIECES), max_size=6).map("".join), max_size=20).map(
        "\n".join
    ),
    st.tuples(st.sampled_from(MYCNF_PIECES), st.integers(0, 2 * MAX_CURRENT_TEXT_BYTES)).map(
        lambda piece_count: piece_count[0] * (piece_count[1] // max(len(piece_count[0]), 1))
    ),
)
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.just(5000).map(lambda digits: 10**digits),  # str() of it raises ValueError
    st.floats(),
    st.text(max_size=30),
    TEXTS,
)
VARIABLE_VALUE = st.one_of(
    st.sampled_from(["200", "1900M", "", " ON ", "a\nb"]), st.booleans(), st.integers(), st.floats()
)


def _json_containers(inner: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)


JSON = st.recursive(JSON_SCALARS, _json_containers, max_leaves=20)
KEYS = st.sampled_from([*CURRENT_FORMS, "os", "other"]) | st.text(max_size=10)
OS_KEY = st.sampled_from(["io_scheduler", "read_ahead_kb", "swappiness", "x"])
OS_VALUE = st.sampled_from(["cfq", "[mq-deadline] none bfq", "[", "128", 60, -1, "x y"]) | JSON
OS_PARTS = st.one_of(st.none(), st.just({}), st.dictionaries(OS_KEY, OS_VALUE, max_size=3), JSON)
VARIABLE_NAME = (
    st.text(max_size=70)
    | st.sampled_from(MYCNF_PIECES)
    | st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{0,70}", fullmatch=True)
)
CURRENTS = st.one_of(
    JSON,
    st.dictionaries(KEYS, JSON, max_size=3),
    st.builds(lambda form, text: {form: text}, st.sampled_from(["mycnf", "show_variables"]), TEXTS),
    st.builds(
        lambda form, text, os_part: {form: text, "os": os_part},
        st.sampled_from(["mycnf", "show_variables"]),
        TEXTS,
        OS_PARTS,
    ),
    st.builds(
        lambda variables, os_part: {"variables": variables, "os": os_part},
        st.dictionaries(VARIABLE_NAME, VARIABLE_VALUE | JSON, max_size=5) | JSON,
        OS_PARTS,
    ),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CURRENTS)
def test_any_input_gives_a_current_or_a_current_parse_error(raw: object) -> None:
    current = current_or_error(raw)
    if isinstance(current, CurrentParseError):
        assert current.field in ERROR_FIELDS
        assert str(current)
        return
    assert current.origin in CURRENT_FORMS
    assert current.variables or current.os
    for name, value in current.variables.items():
        assert len(name) <= 64
        assert re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)?", name)
        assert not re.search(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]", value)
    assert set(current.os) <= {"io_scheduler", "read_ahead_kb", "swappiness"}
    assert all(isinstance(note, str) for note in current.notes)
