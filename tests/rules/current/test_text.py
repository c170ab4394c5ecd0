"""Checks shared by both text forms: type, size and binary data."""

import pytest

from rules.current import parse_current
from rules.profile_fields import MAX_CURRENT_TEXT_BYTES
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
    assert f"{MAX_CURRENT_TEXT_BYTES:,} bytes" in str(problem)


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
