"""Checks shared by both text forms: type, size and binary data."""

import pytest

from rules.current import parse_current
from rules.inputs.field_table import MAX_CURRENT_TEXT_BYTES, MAX_TEXT_BYTES
from tests.rules.current.fixtures import error_of


@pytest.mark.parametrize("form", ["mycnf", "show_variables"])
@pytest.mark.parametrize("value", [None, 200, ["[mysqld]"], {"a": "b"}, b"[mysqld]", True])
def test_it_rejects_text_forms_that_are_not_text(form: str, value: object) -> None:
    problem = error_of({form: value})
    assert problem.field == form
    assert str(problem).startswith("must be text")


@pytest.mark.parametrize("form", ["mycnf", "show_variables"])
@pytest.mark.parametrize(
    "text",
    [
        "innodb_io_capacity=200\n" * (MAX_CURRENT_TEXT_BYTES // 23 + 1),
        "innodb_io_capacity=" + "9" * MAX_CURRENT_TEXT_BYTES,
        "innodb_io_capacity=" + "é" * (MAX_CURRENT_TEXT_BYTES // 2),  # few characters, many bytes
    ],
    ids=["many-lines", "one-huge-line", "multibyte"],
)
def test_it_rejects_text_over_the_size_limit(form: str, text: str) -> None:
    problem = error_of({form: text})
    assert problem.field == form
    assert f"{MAX_TEXT_BYTES[form]:,} bytes" in str(problem)


def test_a_my_cnf_is_bounded_by_what_a_mysqld_section_needs() -> None:
    """256 KiB: every variable of a server as name=value with a comment line each is under
    100 KB (rules/inputs/field_table.py). It was 1,000,000 bytes, parsed on the request."""
    text = "[mysqld]\n" + "innodb_io_capacity=200\n" * (MAX_TEXT_BYTES["mycnf"] // 23 + 1)
    assert len(text) > MAX_TEXT_BYTES["mycnf"]
    problem = error_of({"mycnf": text})
    assert problem.field == "mycnf"
    assert str(problem).startswith("is longer than the limit of 262,144 bytes")


def test_the_boxed_table_of_a_whole_show_global_variables_fits() -> None:
    """The client's table pads every row to the widest value: MariaDB 10.11's 657 variables, with
    an optimizer_switch of 846 characters, came to 600,600 bytes."""
    rule = "+" + "-" * 58 + "+" + "-" * 848 + "+"
    rows = [
        f"| {'variable_' + str(i):<56} | {'v' * (846 if i == 0 else 3):<846} |" for i in range(657)
    ]
    table = "\n".join([rule, f"| {'Variable_name':<56} | {'Value':<846} |", rule, *rows, rule])
    assert 590_000 < len(table) < MAX_TEXT_BYTES["show_variables"]
    parsed = parse_current({"show_variables": table})
    assert len(parsed.variables) == 657


@pytest.mark.parametrize("form", ["mycnf", "show_variables"])
@pytest.mark.parametrize(
    "text",
    [
        "[mysqld]\ninnodb_io_capacity=200\x00\n",
        bytes(range(256)).decode("latin-1") * 4,
        "\x7fELF\x02\x01\x01\x00" + "\x00\x03\x00>\x00\x01" * 50,
        "\ufffd\ufffd\x1b\ufffdPNG\x1a\ufffd" * 30,
        "[mysqld]\ninnodb_io_capacity=\ud800\n",
    ],
    ids=["nul", "latin-1-bytes", "elf", "replacement-chars", "lone-surrogate"],
)
def test_it_rejects_binary_data(form: str, text: str) -> None:
    problem = error_of({form: text})
    assert problem.field == form
    assert "does not look like a my.cnf / SHOW GLOBAL VARIABLES output" in str(problem)


def test_it_accepts_a_byte_order_mark_and_a_few_stray_control_characters() -> None:
    text = "\ufeff[mysqld]\ninnodb_io_capacity=200\x0c\ninnodb_flush_method=O_DIRECT\n"
    assert parse_current({"mycnf": text}).variables == {
        "innodb_io_capacity": "200",
        "innodb_flush_method": "O_DIRECT",
    }
