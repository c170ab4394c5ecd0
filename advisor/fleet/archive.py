"""The batch archive: one export per host (my.cnf unless asked otherwise; and its revert twin
where the host's profile gave the current configuration) and a CSV summary, as a zip."""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Mapping
from typing import Any, BinaryIO

from advisor.models import Batch, BatchItem
from rules.inputs.errors import OutdatedProfile, OutputRefused
from rules.output.revert import can_revert
from rules.render import host_filename, render, render_revert, result_from_dict

SUMMARY_COLUMNS = (
    "name",
    "status",
    "recommendation_id",
    "mycnf_file",
    "output_refused",
    "estimate",
    "warnings",
    "errors",
    "settings",
    "revert_file",
)


def batch_archive_write(*, batch: Batch, out: BinaryIO, fmt: str = "mycnf") -> None:
    """The batch as a zip written to `out`: export `fmt` of every host that has one
    (`<name>.cnf` for my.cnf, see `host_filename`), `revert/<that name>` setting back the
    current configuration where the host's profile gave one, and summary.csv with one row per
    host (its status, estimate, warnings, field errors or refusal). The file column is
    `<fmt>_file`. Links in the exports point at the batch's `base_url`.

    A worker writes it (`advisor.fleet.archive_files`), never a request: a 10,000-host batch
    takes tens of seconds in my.cnf and minutes in json, past any web worker's timeout.
    """
    table = io.StringIO()
    file_column = f"{fmt}_file"
    columns = tuple(file_column if c == "mycnf_file" else c for c in SUMMARY_COLUMNS)
    summary = csv.DictWriter(table, columns, lineterminator="\n")
    summary.writeheader()
    export_of: dict[str, tuple[str, str | None] | OutputRefused] = {}
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        items = batch.items.select_related("recommendation").order_by("position")
        for item in items.iterator(chunk_size=500):
            row = _summary_row(item, file_column)
            stored = item.recommendation
            if stored is not None:
                if stored.id not in export_of:
                    export_of[stored.id] = _export(stored.result, fmt, batch.base_url)
                texts = export_of[stored.id]
                if isinstance(texts, OutputRefused):
                    row["output_refused"] = str(texts)
                else:
                    text, twin = texts
                    row[file_column] = host_filename(item.name, fmt)
                    archive.writestr(row[file_column], text)
                    if twin is not None:
                        row["revert_file"] = f"revert/{row[file_column]}"
                        archive.writestr(row["revert_file"], twin)
            summary.writerow({key: _cell(value) for key, value in row.items()})
        archive.writestr("summary.csv", table.getvalue())


def _export(
    stored: Mapping[str, Any], fmt: str, base_url: str
) -> tuple[str, str | None] | OutputRefused:
    """The host's export and, when its profile gave the current configuration, the revert."""
    try:
        result = result_from_dict(stored)
    except OutdatedProfile as outdated:
        return OutputRefused(
            f"computed by an earlier version whose inputs no longer pass: {outdated}"
        )
    try:
        text = render(result, fmt, base_url=base_url)
        twin = render_revert(result, fmt, base_url=base_url) if can_revert(result) else None
    except OutputRefused as refused:
        return refused
    return text, twin


def _summary_row(item: BatchItem, file_column: str) -> dict[str, str]:
    row = dict.fromkeys(SUMMARY_COLUMNS, "")
    row[file_column] = row.pop("mycnf_file")
    row |= {"name": item.name, "status": item.status}
    if item.errors:
        row["errors"] = "; ".join(
            f"{p}: {m}" if p else m for p, ms in item.errors.items() for m in ms
        )
    stored = item.recommendation
    if stored is None:
        return row
    result = stored.result
    estimate = (result.get("estimate") or {}).get("recommended")
    row |= {
        "recommendation_id": stored.id,
        "warnings": " | ".join(result.get("warnings") or ()),
        "settings": "; ".join(f"{s['name']}={s['display']}" for s in result["settings"]),
    }
    if estimate:
        row["estimate"] = f"{estimate['low']:g}-{estimate['high']:g} {estimate['unit']}"
    return row


# What a spreadsheet may read as the start of a formula (OWASP "CSV Injection"): = + - @, and a
# leading tab or carriage return, which some spreadsheets skip before reading the formula.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


def _cell(value: str) -> str:
    """A spreadsheet must never read a cell as a formula."""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value
