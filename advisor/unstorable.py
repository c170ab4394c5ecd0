"""Text that JSON can carry but PostgreSQL and UTF-8 cannot: NUL characters and lone surrogates.

Both are valid JSON escapes (`\\u0000`, `\\ud800`), so a parser accepts them; PostgreSQL's jsonb
refuses NUL, and a lone surrogate cannot be encoded as UTF-8 (not even in an error message).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
UNSTORABLE_MESSAGE = "must not contain NUL characters or unpaired surrogates"


def unstorable_path(value: object, path: str = "") -> str | None:
    """The dotted path of the first text PostgreSQL cannot store (a NUL character or an unpaired
    surrogate, both valid in JSON), or None."""
    if isinstance(value, str):
        return path if UNSTORABLE.search(value) else None
    if isinstance(value, Mapping):
        for key, item in value.items():
            where = f"{path}.{printable(str(key))}" if path else printable(str(key))
            if UNSTORABLE.search(str(key)):
                return where
            found = unstorable_path(item, where)
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = unstorable_path(item, f"{path}.{index}" if path else str(index))
            if found is not None:
                return found
    return None


def printable(text: str) -> str:
    """`text` with NUL and lone surrogates written as escapes, so that it can be sent as UTF-8."""
    return UNSTORABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
