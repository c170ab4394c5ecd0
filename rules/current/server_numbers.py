"""Numbers as the server reads them from an option or a variable value."""

import functools
import math
import re

from rules.units import GIB, KIB, MIB, TIB

_SIZE_SUFFIX_BYTES = {"K": KIB, "M": MIB, "G": GIB, "T": TIB, "P": TIB * 1024, "E": TIB * 1024**2}

_INTEGER = re.compile(r"[+-]?[0-9]{1,40}")
_SUFFIXED = re.compile(r"([+-]?[0-9]{1,40})([KMGTPE])", re.IGNORECASE)
_DECIMAL = re.compile(
    r"[+-]?(?:[0-9]{1,40}\.[0-9]{0,40}|\.[0-9]{1,40}|[0-9]{1,40}(?=[eE]))"
    r"(?:[eE][+-]?[0-9]{1,3})?"
)


def parse_number(text: str) -> int | float | None:
    """A number as the server reads it: 200, 1900M (bytes, 1024-based), 0.5; else None."""
    if not isinstance(text, str) or len(text) > 100:
        return None
    return _parse(text)


@functools.lru_cache(maxsize=4096)  # read about 20 times per recommendation, mostly defaults
def _parse(text: str) -> int | float | None:
    text = text.strip()
    if _INTEGER.fullmatch(text):
        return int(text)
    suffixed = _SUFFIXED.fullmatch(text)
    if suffixed:
        return int(suffixed.group(1)) * _SIZE_SUFFIX_BYTES[suffixed.group(2).upper()]
    if _DECIMAL.fullmatch(text):
        value = float(text)
        return value if math.isfinite(value) else None
    return None
