"""Numbers as the server reads them."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.current import parse_number
from tests.rules.current.fixtures import ANY_CHARACTER


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("200", 200),
        (" 200 ", 200),
        ("-1", -1),
        ("18446744073709551615", 18446744073709551615),
        ("1900M", 1992294400),
        ("1000m", 1048576000),
        ("2G", 2147483648),
        ("64k", 65536),
        ("64K", 65536),
        ("1T", 1099511627776),
        ("1P", 1125899906842624),
        ("0.5", 0.5),
        ("90.000000", 90.0),
        ("1e3", 1000.0),
        ("ON", None),
        ("OFF", None),
        ("O_DIRECT", None),
        ("80 or 20", None),
        ("1.5G", None),
        ("12MB", None),
        ("0x10", None),
        ("", None),
        ("inf", None),
        ("nan", None),
        ("1e999", None),
        ("٣", None),
        ("9" * 5000, None),
    ],
)
def test_it_reads_numbers_as_the_server_does(text: str, expected: int | float | None) -> None:
    result = parse_number(text)
    assert result == expected
    assert type(result) is type(expected)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=60), st.text(ANY_CHARACTER, max_size=60)))
def test_parse_number_never_raises(text: str) -> None:
    assert parse_number(text) is None or isinstance(parse_number(text), int | float)
