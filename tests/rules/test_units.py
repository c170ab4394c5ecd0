import pytest

from rules.rounding import percent_text
from rules.units import GIB, MIB, ascii_digits, bytes_for_people, bytes_text, number_from_text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (12 * GIB, "12 GiB"),
        (13.7 * GIB, "13.7 GiB"),  # not '14 GiB': a pool of 10 GiB leaves 3.7 GiB of 13.7
        (9.99 * GIB, "10 GiB"),
        (1.25 * GIB, "1.2 GiB"),
        (512 * MIB, "512 MiB"),
        (630.5 * MIB, "630 MiB"),
        (100, "100 bytes"),
    ],
)
def test_it_writes_sizes_for_people_with_a_decimal_below_a_hundred(value, text) -> None:
    assert bytes_for_people(value) == text


@pytest.mark.parametrize(
    ("ratio", "text"), [(0.75, "75%"), (0.004, "under 1%"), (0.0, "0%"), (1.0, "100%")]
)
def test_it_never_rounds_a_small_share_down_to_nothing(ratio, text) -> None:
    assert percent_text(ratio) == text


@pytest.mark.parametrize(
    ("text", "number"),
    [("8", 8), ("-3", -3), ("0.75", 0.75), ("1e3", 1000.0), ("8G", None), ("", None), ("x", None)],
)
def test_number_from_text_prefers_an_integer_and_says_none_for_text(text, number) -> None:
    read = number_from_text(text)
    assert read == number
    assert type(read) is type(number)


def _rounded_twice(value: float) -> str:
    """bytes_for_people as first written: whole when round(amount, 1) == round(amount)."""
    for suffix, size in (("T", 1024 * GIB), ("G", GIB), ("M", MIB), ("K", 1024)):
        if value >= size:
            amount = value / size
            whole = amount >= 100 or round(amount, 1) == round(amount)
            return (f"{amount:.0f}" if whole else f"{amount:.1f}") + f" {suffix}iB"
    return f"{value:.0f} bytes"


def test_sizes_for_people_read_the_same_as_when_rounded_twice() -> None:
    hundredths = [whole + part / 100 for whole in range(120) for part in range(100)]
    values = [t * size + d for t in hundredths for size in (1024, MIB, GIB) for d in (-1, 0, 1)]
    for value in [*values, 0, 5, 2**45, 0.05 * GIB, 2.95 * GIB, 99.95 * GIB]:
        assert bytes_for_people(value) == _rounded_twice(value), value


@pytest.mark.parametrize(
    ("value", "text"), [(-0.0, "-0 bytes"), (0, "0 bytes"), (1023, "1023 bytes")]
)
def test_it_prints_small_sizes_in_bytes_sign_and_all(value: float, text: str) -> None:
    assert bytes_for_people(value) == text


def test_an_equal_int_and_float_print_alike_whichever_comes_first() -> None:
    assert bytes_for_people(13.5 * GIB) == "13.5 GiB"
    assert bytes_for_people(int(13.5 * GIB)) == "13.5 GiB"
    assert bytes_for_people(3 * MIB) == bytes_for_people(3.0 * MIB) == "3 MiB"


@pytest.mark.parametrize(
    ("text", "plain"),
    [("128", True), ("0", True), ("", False), ("¹", False), ("٣", False), ("12a", False)],
)
def test_only_plain_ascii_digits_count_as_a_number(text: str, plain: bool) -> None:
    assert ascii_digits(text) is plain


@pytest.mark.parametrize(
    ("kind", "text", "shown"),
    [
        ("bytes", "134217728", "128M"),
        ("bytes", "²", "²"),
        ("bytes", "9" * 30, "9" * 30),
        ("integer", "134217728", "134217728"),
        ("bytes", "8G", "8G"),
    ],
)
def test_a_size_reads_in_mycnf_spelling_and_anything_else_as_given(kind, text, shown) -> None:
    assert bytes_text(kind, text) == shown
