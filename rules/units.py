"""Byte units, and numbers read back from text. Everything inside the engine is bytes; these
helpers only format (or read) at the edges."""

import functools

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB
TIB = 1024 * GIB

_SUFFIXES = (("T", TIB), ("G", GIB), ("M", MIB), ("K", KIB))


def bytes_for_config(value: int) -> str:
    """The shortest exact my.cnf spelling: 8G, 1536M, or plain bytes when no suffix is exact."""
    for suffix, size in _SUFFIXES:
        if value >= size and value % size == 0:
            return f"{value // size}{suffix}"
    return str(value)


def ascii_digits(text: str) -> bool:
    """Plain 0-9 digits only: str.isdigit() also accepts '¹' or '٣', which int() refuses."""
    return text.isascii() and text.isdigit()


def bytes_text(kind: str, text: str) -> str:
    """A value as people read it: sizes in my.cnf spelling (134217728 reads as 128M)."""
    if kind == "bytes" and ascii_digits(text) and len(text) < 25:
        return bytes_for_config(int(text))
    return text


def bytes_for_people(value: float) -> str:
    """A rounded human figure for explanations: '12 GiB', '13.7 GiB', '512 MiB'.

    One decimal below 100 units, so that figures an explanation adds up (RAM = pool + the rest)
    still add up as printed: '13.7 GiB' rather than '14 GiB' for 13.7 GiB.
    """
    if value >= KIB:  # about 20 per recommendation, mostly the same few sizes
        return _with_suffix(value)
    return f"{value:.0f} bytes"


# Sizes worked out from the inputs, so bounded. Equal keys (8589934592 and 8589934592.0) print
# alike from here on: the figure is value / size either way; -0.0 and NaN never get here.
@functools.lru_cache(maxsize=1024)
def _with_suffix(value: float) -> str:
    for suffix, size in _SUFFIXES:
        if value >= size:
            amount = value / size
            if amount >= 100:
                return f"{amount:.0f} {suffix}iB"
            # Whole when one decimal rounds to .0 (the same test as round(amount, 1) ==
            # round(amount), without rounding twice; checked over millions of values).
            text = f"{amount:.1f}"
            return f"{text[:-2] if text.endswith('.0') else text} {suffix}iB"
    raise AssertionError("unreachable: value >= KIB")


def round_down(value: int, step: int) -> int:
    return (value // step) * step


def number_from_text(text: str) -> int | float | None:
    """An integer where the text is one, else a float, else None (a form field, a stored value)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None
