"""The bibliography: every published source a rule may cite, loaded once from data/sources.json.

Rules cite sources by key (``Evidence.source``). The JSON is validated when this module is
imported, so a malformed entry fails at start-up, naming the entry, instead of at render time.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

__all__ = ["KINDS", "Source", "all_sources", "has_source", "source"]

# "lab": this project's own measurements (docs/lab.md), raw records committed beside the points.
KINDS = frozenset(
    {
        "assumption",
        "article",
        "manual",
        "book",
        "worklog",
        "bug-report",
        "benchmark-repo",
        "forum",
        "lab",
    }
)

_DATA_FILE = "sources.json"
_KEY_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_DATE_RE = re.compile(r"^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$")
_NOTES_REF_RE = re.compile(r"^S\d+$")
_REQUIRED_TEXT = ("author", "title", "published")


@dataclass(frozen=True, slots=True)
class Source:
    """One published source: who, what, when, where, and the findings rules may quote."""

    key: str
    author: str
    title: str
    date: str | None  # ISO, as precise as known: "2009", "2009-05" or "2009-06-08"
    published: str  # where, with the URL or reference exactly as the shared data gives it
    kind: str  # one of KINDS
    seed: str | None  # file name in shared/seeds/ when this is a seed article
    notes_ref: str | None  # S-number in calibration-notes.md, e.g. "S7"
    findings: tuple[str, ...]

    def citation(self) -> str:
        """One line: ``Author, “Title”, date, published.`` (``n.d.`` when undated)."""
        date = self.date if self.date is not None else "n.d."
        return f"{self.author}, “{self.title}”, {date}, {self.published.rstrip('.')}."


def _label(entry: object, index: int) -> str:
    if isinstance(entry, Mapping):
        key = entry.get("key")
        if isinstance(key, str) and key:
            return f"source #{index} ({key!r})"
    return f"source #{index}"


def _text(entry: Mapping[str, object], field: str, label: str) -> str:
    value = entry.get(field)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{label}: {field!r} must be a non-empty string, got {value!r}")
    return value


def _optional_text(
    entry: Mapping[str, object], field: str, label: str, pattern: re.Pattern[str] | None = None
) -> str | None:
    value = entry.get(field)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{label}: {field!r} must be null or a non-empty string, got {value!r}")
    if pattern is not None and not pattern.fullmatch(value):
        raise ValueError(f"{label}: {field!r} is malformed: {value!r}")
    return value


def _findings(entry: Mapping[str, object], label: str) -> tuple[str, ...]:
    value = entry.get("findings")
    if not isinstance(value, list) or not value:
        raise ValueError(f"{label}: 'findings' must be a non-empty list of sentences")
    findings: list[str] = []
    for number, finding in enumerate(value):
        if not isinstance(finding, str) or not finding.strip():
            raise ValueError(f"{label}: finding #{number} must be a non-empty string")
        findings.append(finding)
    return tuple(findings)


def _source(entry: object, index: int) -> Source:
    label = _label(entry, index)
    if not isinstance(entry, Mapping):
        raise ValueError(f"{label}: expected an object, got {type(entry).__name__}")
    key = _text(entry, "key", label)
    if not _KEY_RE.fullmatch(key):
        raise ValueError(f"{label}: key {key!r} is not kebab-case ([a-z0-9] words joined by '-')")
    author, title, published = (_text(entry, field, label) for field in _REQUIRED_TEXT)
    kind = _text(entry, "kind", label)
    if kind not in KINDS:
        raise ValueError(f"{label}: kind {kind!r} is not one of {sorted(KINDS)}")
    return Source(
        key=key,
        author=author,
        title=title,
        date=_optional_text(entry, "date", label, _DATE_RE),
        published=published,
        kind=kind,
        seed=_optional_text(entry, "seed", label),
        notes_ref=_optional_text(entry, "notes_ref", label, _NOTES_REF_RE),
        findings=_findings(entry, label),
    )


def _validate(entries: Sequence[object]) -> tuple[Source, ...]:
    """Turn raw JSON entries into sources sorted by key; ValueError names the first bad entry."""
    seen: dict[str, int] = {}
    sources: list[Source] = []
    for index, entry in enumerate(entries):
        parsed = _source(entry, index)
        if parsed.key in seen:
            raise ValueError(
                f"{_label(entry, index)}: duplicate key {parsed.key!r} "
                f"(first used by source #{seen[parsed.key]})"
            )
        seen[parsed.key] = index
        sources.append(parsed)
    return tuple(sorted(sources, key=lambda s: s.key))


def _load() -> tuple[Source, ...]:
    text = resources.files("rules").joinpath("data").joinpath(_DATA_FILE).read_text("utf-8")
    document = json.loads(text)
    if not isinstance(document, dict) or not isinstance(document.get("sources"), list):
        raise ValueError(f"{_DATA_FILE}: expected an object with a 'sources' list")
    entries: list[object] = document["sources"]
    return _validate(entries)


_SOURCES: tuple[Source, ...] = _load()
_BY_KEY: dict[str, Source] = {s.key: s for s in _SOURCES}


def source(key: str) -> Source:
    """The source with this key; KeyError (with near matches) for an unknown key."""
    try:
        return _BY_KEY[key]
    except KeyError:
        close = difflib.get_close_matches(key, _BY_KEY, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KeyError(
            f"unknown bibliography key {key!r} (rules/data/{_DATA_FILE}){hint}"
        ) from None


def all_sources() -> tuple[Source, ...]:
    """Every source, sorted by key."""
    return _SOURCES


def has_source(key: str) -> bool:
    return key in _BY_KEY
