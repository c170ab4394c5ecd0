"""The contract's JSON result (product.md, "Output: the result"), its inverse and its schema.

The classes of `rules.output.result` declare the JSON, field by field (see
`rules.output.jsonshape`); this
module adds only what the fields cannot say: the keys computed on the way out (permalink, a
setting's my.cnf display, the cited sources, the format) and a setting's value as the server
spells it. `result_to_dict` is what the API returns and what is stored with a recommendation;
`result_from_dict` turns a stored one back into a `Result` so every face can render it again
(its `inputs`, the profile's echo, back into the typed profile);
`result_schema_components` is the API's OpenAPI description of the same JSON.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from rules.inputs.errors import OutdatedProfile
from rules.inputs.profile import Profile
from rules.inputs.stored import profile_from_stored
from rules.output.jsonshape import (
    Codec,
    Derived,
    Schema,
    Shape,
    from_json,
    json_copy,
    schema_components,
)
from rules.output.jsonwrite import to_json
from rules.output.result import Result, Setting
from rules.reference.bibliography import source
from rules.render.mycnf import config_value, permalink_url, server_value
from rules.units import number_from_text

# The JSON result's shape: 2 cites each source once, in `sources`, not in every evidence item.
RESULT_FORMAT = 2


@dataclass(frozen=True, slots=True)
class CitedSource:
    """A bibliography entry the result cites (format 2: once here, not in every evidence item)."""

    key: str
    author: str
    title: str
    date: str | None
    published: str | None
    citation: str


def _sources(result: Result, _base_url: object) -> list[dict[str, Any]]:
    """Every bibliography entry the result cites, once each, sorted by key, as JSON."""
    keys = {e.source for s in result.settings for e in s.evidence}
    keys |= {e.source for item in result.os for e in item.evidence}
    return [dict(cited) for cited in _cited_json(frozenset(keys))]


@lru_cache(maxsize=256)
def _cited_json(keys: frozenset[str]) -> tuple[dict[str, Any], ...]:
    """The JSON of the entries of `keys`, sorted: written once per set of keys, since results
    for alike machines cite the same sources (copied out: a copy of these flat dicts is about
    2.5x cheaper than writing them)."""
    cited = (found for key in sorted(keys) if (found := _cited(key)) is not None)
    return tuple(to_json(entry, RESULT_JSON) for entry in cited)


@cache
def _cited(key: str) -> CitedSource | None:
    """A bibliography entry as the result cites it (the bibliography does not change)."""
    try:
        entry = source(key)
    except LookupError:
        return None
    return CitedSource(
        key=entry.key,
        author=entry.author,
        title=entry.title,
        date=_text(entry.date),
        published=_text(entry.published),
        citation=entry.citation(),
    )


def _text(value: object) -> str | None:
    return None if value is None else str(value)


# A setting's value as the server spells it and as my.cnf does (`server_value`, `config_value`)
# depends on its name, kind and value only (the value's type too: 1, 1.0 and True differ): both
# are worked out once for each, as every result writes both and most values recur.
_spelled: dict[tuple[str, str, type, object], tuple[str, str]] = {}
_SPELLINGS_KEPT = 4096  # then all forgotten at once (308 varied profiles hold ~180)


def _server_text(_value: object, setting: Setting) -> str:
    value = setting.value
    found = _spelled.get((setting.name, setting.kind, value.__class__, value))
    return (found or _spell(setting))[0]


def _display(setting: Setting, _base_url: object) -> str:
    value = setting.value
    found = _spelled.get((setting.name, setting.kind, value.__class__, value))
    return (found or _spell(setting))[1]


def _spell(setting: Setting) -> tuple[str, str]:
    value = setting.value
    if len(_spelled) >= _SPELLINGS_KEPT:
        _spelled.clear()
    found = _spelled[(setting.name, setting.kind, value.__class__, value)] = (
        server_value(setting),
        config_value(setting),
    )
    return found


def _value_from_text(text: object, data: Mapping[str, Any]) -> int | float | str:
    """Invert `server_value`: byte counts and numbers back to int (or float), percent to float."""
    text, kind = str(text), str(data["kind"])
    if kind == "enum":
        return text
    if kind == "percent":
        return float(text)
    number = number_from_text(text)
    return text if number is None else number


def _inputs(profile: Profile, _result: Result) -> dict[str, Any]:
    """The result's `inputs`: a copy of the profile's echo, so the JSON shares nothing with it."""
    return dict(json_copy(profile.raw))


def _profile(inputs: Any, _data: Mapping[str, Any]) -> Profile:
    if not isinstance(inputs, Mapping):
        raise TypeError("inputs is not an object")
    return profile_from_stored(inputs)


RESULT_JSON = Shape(
    derived={
        Result: (
            Derived("permalink", "id", str, lambda r, base_url: permalink_url(r, base_url)),
            Derived("sources", None, tuple[CitedSource, ...], _sources, json=True),
            Derived(
                "format",
                None,
                int,
                lambda _r, _b: RESULT_FORMAT,
                "The result's shape: 2 cites each source once, in `sources`; stored results "
                "of format 1 also carried a `citation` in every evidence item.",
            ),
        ),
        Setting: (
            Derived(
                "display",
                "value",
                str,
                _display,
                "As written in my.cnf (48G).",
            ),
        ),
    },
    codecs={
        (Setting, "value"): Codec(
            dump=_server_text,
            load=_value_from_text,
            schema={"type": "string"},
        ),
        (Result, "profile"): Codec(
            dump=_inputs,
            load=_profile,
            schema={"type": "object", "additionalProperties": {}},
        ),
    },
    component_suffix="Output",
)


def result_to_dict(result: Result, *, base_url: str = "") -> dict[str, Any]:
    return to_json(result, RESULT_JSON, base_url)


def result_from_dict(data: Mapping[str, Any]) -> Result:
    """Rebuild a `Result` from `result_to_dict` output (e.g. a stored result); derived fields
    (permalink, display, citations, sources) are ignored. Its `inputs` are parsed into the typed
    profile here, once. Raises OutdatedProfile (a ValueError) when they no longer validate, and
    ValueError on a malformed one."""
    try:
        result: Result = from_json(Result, data, RESULT_JSON)
    except OutdatedProfile:
        raise
    except (KeyError, TypeError, AttributeError) as problem:
        raise ValueError(f"not a stored result: {problem!r}") from problem
    return result


def result_schema_components() -> dict[str, Schema]:
    """The result's OpenAPI 3.0 components, `ResultOutput` and what it holds."""
    return schema_components(Result, RESULT_JSON)
