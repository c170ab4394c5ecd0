"""A rule case's texts filled from its proposal's facts: `str.format_map`, parsed once.

A recommendation fills about 60 templates, some 10,000 characters, and `str.format` scans every
character on every call. A template is mostly fixed text, so it is split once into that text
and its field names, compiled into one f-string; filling then only looks the fields up (four
times as fast as `str.format_map`, the same text).
"""

import functools
import string
from collections.abc import Callable, Mapping

Filler = Callable[[Mapping[str, object]], str]


def fill(template: str, facts: Mapping[str, object]) -> str:
    """`template.format_map(facts)`."""
    return _compiled(template)(facts)


@functools.cache  # keyed by the rules' templates, a fixed set
def _compiled(template: str) -> Filler:
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:  # malformed: let str.format raise its own error
        return template.format_map
    pieces: list[str] = []  # the f-string's parts: fixed text by name, then each fact
    texts: dict[str, object] = {}
    for text, name, spec, conversion in parsed:
        if text:
            texts[f"_t{len(texts)}"] = text
            pieces.append(f"{{_t{len(texts) - 1}}}")
        if name is None:
            continue
        if spec or conversion or not name.isidentifier():  # beyond {name}: str.format does it
            return template.format_map
        pieces.append(f"{{facts[{name!r}]}}")  # formatted as str.format formats a plain {name}
    return _function("".join(pieces), texts)


def _function(body: str, texts: dict[str, object]) -> Filler:
    """One f-string per template: the fixed text as constants, the facts looked up by name
    (a loop appending to a list and joining it took twice as long)."""
    namespace = dict(texts)
    exec(f'def _fill(facts):\n    return f"{body}"', namespace)  # names: identifiers only
    filler: Filler = namespace["_fill"]  # type: ignore[assignment]
    return filler
