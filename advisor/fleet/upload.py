"""An uploaded fleet file as the API's list of {name, profile} entries.

JSON is the API's own body (`{"profiles": [...]}`) or just its list. CSV has a `name` column and
one column per profile field, named by its dotted path (`hardware.storage.media`); numbers are
read as numbers and empty cells left out, so validation names the same fields as everywhere.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from advisor.fleet.services import BatchInvalid
from rules.inputs.field_table import FIELDS, FIELDS_BY_PATH, REPORT_PATHS, Kind

# A probe's report (provenance, ...) is JSON-shaped and not a fact about the host: JSON only.
CSV_COLUMNS: tuple[str, ...] = (
    "name",
    *(spec.path for spec in FIELDS if spec.path not in REPORT_PATHS),
)


def entries_from_upload(filename: str, data: bytes) -> list[Any]:
    """The raw entries of a .json or .csv file; BatchInvalid (key `file`) when unreadable."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BatchInvalid({"file": ["must be UTF-8 text"]}) from None
    if filename.lower().endswith(".json"):
        return _from_json(text)
    if filename.lower().endswith(".csv"):
        return _from_csv(text)
    raise BatchInvalid({"file": ["must be a .csv or .json file"]})


def _from_json(text: str) -> list[Any]:
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as problem:
        raise BatchInvalid({"file": [f"is not valid JSON: {problem}"]}) from None
    if isinstance(document, dict) and set(document) == {"profiles"}:
        document = document["profiles"]
    if not isinstance(document, list):
        raise BatchInvalid({"file": ['must hold a list of {"name", "profile"} objects']})
    return document


def _from_csv(text: str) -> list[Any]:
    if "\x00" in text:
        raise BatchInvalid({"file": ["holds NUL characters; is it really a CSV file?"]})
    reader = csv.DictReader(io.StringIO(text))
    try:
        return _csv_entries(reader)
    except csv.Error as problem:  # the csv module's own words, except for its cell limit
        reason = str(problem)
        if "field limit" in reason:
            reason = f"a cell is longer than {csv.field_size_limit():,} characters"
        raise BatchInvalid({"file": [f"line {reader.reader.line_num}: {reason}"]}) from None


def _csv_entries(reader: csv.DictReader[str]) -> list[Any]:
    header = reader.fieldnames or []
    unknown = [column for column in header if column not in CSV_COLUMNS]
    if "name" not in header or unknown:
        problem = f"unknown columns {', '.join(unknown)}; " if unknown else "no name column; "
        raise BatchInvalid({"file": [problem + "the columns are " + ", ".join(CSV_COLUMNS)]})
    entries = []
    for row in reader:
        profile: dict[str, Any] = {}
        for path, cell in row.items():
            if path in (None, "name") or cell is None or not cell.strip():
                continue
            node = profile
            *parents, leaf = path.split(".")
            for part in parents:
                node = node.setdefault(part, {})
            node[leaf] = _value(path, cell.strip())
        entries.append({"name": (row.get("name") or "").strip(), "profile": profile})
    return entries


def _value(path: str, cell: str) -> Any:
    """A number for numeric fields when the cell reads as one, true/false for booleans; text
    otherwise."""
    kind = FIELDS_BY_PATH[path].kind
    if kind is Kind.BOOLEAN:
        return {"true": True, "false": False}.get(cell.lower(), cell)
    if kind not in (Kind.NUMBER, Kind.INTEGER):
        return cell
    try:
        number = float(cell)
    except ValueError:
        return cell  # validation says what the field accepts
    return int(number) if number.is_integer() else number
