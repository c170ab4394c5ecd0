"""The SHOW GLOBAL VARIABLES form: batch, table, vertical and space-separated output."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.current import parse_current
from tests.rules.current.fixtures import NAMES, VALUES, error_of

EXPECTED_ROWS = {
    "innodb_flush_method": "O_DIRECT",
    "innodb_io_capacity": "200",
    "innodb_io_capacity_max": "2000",
    "version_comment": "MySQL Community Server - GPL",
}
BATCH = (
    "Variable_name\tValue\ninnodb_flush_method\tO_DIRECT\ninnodb_io_capacity\t200\n"
    "innodb_io_capacity_max\t2000\nversion_comment\tMySQL Community Server - GPL\n"
)
TABLE = """\
mysql> SHOW GLOBAL VARIABLES;
+------------------------+------------------------------+
| Variable_name          | Value                        |
+------------------------+------------------------------+
| innodb_flush_method    | O_DIRECT                     |
| innodb_io_capacity     | 200                          |
| innodb_io_capacity_max | 2000                         |
| version_comment        | MySQL Community Server - GPL |
+------------------------+------------------------------+
4 rows in set (0.00 sec)
"""
VERTICAL = """\
MariaDB [(none)]> SHOW GLOBAL VARIABLES\\G
*************************** 1. row ***************************
Variable_name: innodb_flush_method
        Value: O_DIRECT
*************************** 2. row ***************************
Variable_name: innodb_io_capacity
        Value: 200
*************************** 3. row ***************************
Variable_name: innodb_io_capacity_max
        Value: 2000
*************************** 4. row ***************************
Variable_name: version_comment
        Value: MySQL Community Server - GPL
4 rows in set (0.001 sec)
"""
SPACED = (
    "Variable_name    Value\ninnodb_flush_method    O_DIRECT\ninnodb_io_capacity 200\n"
    "innodb_io_capacity_max\u00a02000\nversion_comment   MySQL Community Server - GPL\n"
)


@pytest.mark.parametrize(
    "text",
    [BATCH, TABLE, VERTICAL, SPACED, BATCH.replace("\n", "\r\n"), TABLE.replace("\n", "\r\n")],
    ids=["batch", "table", "vertical", "spaces", "batch-crlf", "table-crlf"],
)
def test_it_reads_show_variables_in_each_client_format(text: str) -> None:
    current = parse_current({"show_variables": text})
    assert current.origin == "show_variables"
    assert current.variables == EXPECTED_ROWS
    assert current.notes == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("innodb_data_home_dir\t\n", {"innodb_data_home_dir": ""}),
        ("| innodb_data_home_dir |       |\n", {"innodb_data_home_dir": ""}),
        ("Variable_name: innodb_data_home_dir\nValue: \n", {"innodb_data_home_dir": ""}),
        ("tmpdir\tC:\\\\temp\n", {"tmpdir": "C:\\temp"}),
        ("Innodb_IO_Capacity\t200\n", {"innodb_io_capacity": "200"}),
        ("validate_password.length\t8\n", {"validate_password.length": "8"}),
        (
            "optimizer_switch\tindex_merge=on,mrr=on\n",
            {"optimizer_switch": "index_merge=on,mrr=on"},
        ),
    ],
)
def test_it_reads_empty_escaped_and_dotted_rows(text: str, expected: dict[str, str]) -> None:
    assert parse_current({"show_variables": text}).variables == expected


def test_it_notes_rows_it_could_not_read() -> None:
    current = parse_current({"show_variables": "innodb_io_capacity\t200\n!!! garbage !!!\n"})
    assert current.variables == {"innodb_io_capacity": "200"}
    assert current.notes == ("ignored 1 line(s) that are not rows: line 2",)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", ""),
        ("Empty set (0.00 sec)\n", ""),
        ("+---+\n| Variable_name | Value |\n+---+\n", ""),
        ("[mysqld]\ninnodb_io_capacity=200\n", "give it as mycnf"),
        ("innodb_io_capacity = 200\n", "give it as mycnf"),
    ],
)
def test_it_rejects_show_variables_without_rows(text: str, hint: str) -> None:
    problem = error_of({"show_variables": text})
    assert problem.field == "show_variables"
    assert "no server variables found" in str(problem)
    assert hint in str(problem)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(NAMES, VALUES.map(str.strip), min_size=1, max_size=20))
def test_a_generated_batch_output_round_trips_to_the_same_variables(
    variables: dict[str, str],
) -> None:
    rows = [f"{name}\t{value.replace(chr(92), chr(92) * 2)}" for name, value in variables.items()]
    text = "Variable_name\tValue\n" + "\n".join(rows) + "\n"
    assert parse_current({"show_variables": text}).variables == variables
