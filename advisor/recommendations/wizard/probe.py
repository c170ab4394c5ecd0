"""Start from a probe: a probe's JSON opens the steps pre-filled, each field marked.

The document is read as the API reads it (`parse_profile` judges it); its report about itself
(probe, provenance, undetected) must be valid, since the steps show it, while a missing or wrong
server field is left for the steps to ask about. The session keeps the draft, as for any start,
and the report beside it: the marks of the pre-filled fields (with the value each had), what
the probe could not detect, and its version. A mark stays only while its field keeps the probe's
value, and so does its provenance entry in the profile sent when the steps are done.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.sessions.backends.base import SessionBase

from advisor.recommendations.wizard.posted_json import PostedJson, PostedRefused, decoded
from advisor.recommendations.wizard.steps import (
    CURRENT_TEXT,
    DRAFT_FIELD_CHARS,
    WIZARD_BY_PATH,
    WIZARD_FIELDS,
    draft_from_profile,
    value_at,
)
from rules.current.reduce import paste_text
from rules.inputs.errors import ProfileError
from rules.inputs.field_table import REPORT_SECTIONS
from rules.inputs.profile import Profile
from rules.inputs.validation import parse_profile

SESSION_KEY = "wizard_probe"
# A probe's document is a profile plus its report: 200 provenance entries of 200 characters and
# 100 undetected texts make about 100 KB; a pasted current configuration adds more. 512 KiB holds
# both with room and stays far below DATA_UPLOAD_MAX_MEMORY_SIZE (advisor/settings.py).
MAX_PROBE_BYTES = 512 * 1024
PASTE, UPLOAD = "probe_json", "probe_file"
SOURCE_LABELS = {
    "detected": "detected",
    "measured": "measured",
    "assumed": "assumed",
    "given": "from the probe",  # in the document, with no provenance entry
}


# The provenance of the current configuration the steps carry (as a pasted my.cnf).
_PASTED = ("current.variables", "current.mycnf", "current.show_variables")


@dataclass(frozen=True, slots=True)
class Mark:
    source: str  # a SOURCE_LABELS key
    origin: str  # the probe's "from", shown as a hint
    label: str


POSTED = PostedJson(
    upload=UPLOAD,
    paste=PASTE,
    max_bytes=MAX_PROBE_BYTES,
    what="a probe's JSON",
    empty="Paste the probe's JSON or choose its file.",
)


def read_document(text: str) -> dict[str, Any]:
    document = decoded(text)
    if not isinstance(document, dict):
        raise PostedRefused("A probe's JSON is one object, {...}, with server and hardware.")
    return document


def _report_problems(document: Mapping[str, Any]) -> list[str]:
    """The errors of the probe's report itself, as 'path: message' lines."""
    try:
        parse_profile(document)
    except ProfileError as refused:
        return [
            f"{path}: {'; '.join(messages)}"
            for path, messages in refused.errors.items()
            if path.split(".", 1)[0].split("[", 1)[0] in REPORT_SECTIONS
        ]
    return []


def start_from(document: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """(the draft, the report the session keeps) for a probe's document."""
    problems = _report_problems(document)
    if problems:
        raise PostedRefused("The probe's report is not valid: " + " ".join(problems[:3]))
    draft = draft_from_profile(_as_paste(document))
    provenance = document.get("provenance") or {}
    marks: dict[str, dict[str, str]] = {}
    for spec in WIZARD_FIELDS:
        if value_at(document, spec.path) is None:
            continue
        entry = provenance.get(spec.path, {})
        marks[spec.path] = {
            "source": entry.get("source", "given"),
            "from": entry.get("from", ""),
            "value": draft.get(spec.name, "")[:DRAFT_FIELD_CHARS],  # as the session keeps it
        }
    pasted = [p for p in provenance if p.startswith(_PASTED)]
    if draft.get(CURRENT_TEXT, "").strip() and pasted:
        entry = provenance[pasted[0]]
        marks["current"] = {"source": entry["source"], "from": entry.get("from", ""), "value": ""}
    report = {
        "probe": document.get("probe"),
        "undetected": list(document.get("undetected") or []),
        "marks": marks,
        "provenance": provenance,
    }
    return draft, report


def _as_paste(raw: dict[str, Any]) -> dict[str, Any]:
    """`current.variables` as the my.cnf text the paste step holds (the steps take no OS
    settings, so `current.os` is not carried)."""
    current = raw.get("current")
    if isinstance(current, Mapping) and isinstance(current.get("variables"), Mapping):
        variables = {str(k): str(v) for k, v in current["variables"].items()}
        return {**raw, "current": {"mycnf": paste_text("mycnf", variables)}}
    return raw


def report_of(session: SessionBase) -> dict[str, Any] | None:
    stored = session.get(SESSION_KEY)
    return stored if isinstance(stored, dict) else None


def marks_for(session: SessionBase, draft: Mapping[str, str]) -> dict[str, Mark]:
    """Draft field name -> its mark, for the fields that still hold the probe's value."""
    report = report_of(session)
    if report is None:
        return {}
    found: dict[str, Mark] = {}
    for path, mark in report.get("marks", {}).items():
        if path == "current":
            if draft.get(CURRENT_TEXT, "").strip():
                found[CURRENT_TEXT] = _mark(mark)
            continue
        spec = WIZARD_BY_PATH.get(path)
        if spec is not None and draft.get(spec.name, "") == mark.get("value"):
            found[spec.name] = _mark(mark)
    return found


def _mark(entry: Mapping[str, str]) -> Mark:
    source = entry.get("source", "given")
    return Mark(source, entry.get("from", ""), SOURCE_LABELS.get(source, source))


def profile_report(session: SessionBase, draft: Mapping[str, str]) -> dict[str, Any]:
    """The report to send with the finished steps: provenance only of unchanged fields."""
    report = report_of(session)
    if report is None:
        return {}
    kept = marks_for(session, draft)
    names = {spec.path: spec.name for spec in WIZARD_FIELDS}
    provenance = {
        path: entry
        for path, entry in report.get("provenance", {}).items()
        if names.get(path) in kept or (path.startswith(_PASTED) and CURRENT_TEXT in kept)
    }
    out: dict[str, Any] = {}
    if report.get("probe"):
        out["probe"] = report["probe"]
    if provenance:
        out["provenance"] = provenance
    if report.get("undetected"):
        out["undetected"] = report["undetected"]
    return out


def undetected(session: SessionBase) -> list[str]:
    report = report_of(session)
    return list(report.get("undetected", [])) if report else []


@dataclass(frozen=True, slots=True)
class ReportRow:
    field: str  # the field's label, or its path
    path: str
    mark: Mark


def report_rows(profile: Profile) -> tuple[str, tuple[ReportRow, ...], tuple[str, ...]]:
    """A stored result's probe report for its page: (probe version, provenance rows, what the
    probe could not detect); empty when the inputs came from no probe."""
    version = profile.probe.version if profile.probe is not None else ""
    rows: list[ReportRow] = []
    for given in profile.provenance:
        spec = WIZARD_BY_PATH.get(given.path)
        label = spec.label if spec is not None else given.path
        source = given.source.value
        mark = Mark(source, given.origin, SOURCE_LABELS.get(source, source))
        rows.append(ReportRow(label, given.path, mark))
    return version, tuple(rows), profile.undetected
