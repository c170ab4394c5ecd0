"""The user's lab results on the result page: the JSON lines `python3 -m lab` wrote (or a JSON
list of runs), uploaded or pasted, set as the profile's workload.lab_results; the profile's
validation reduces them to what the advisor reads and names each problem, as the API and the CLI
do."""

from __future__ import annotations

from advisor.recommendations.wizard.posted_json import PostedJson, PostedRefused
from rules.inputs.lab_results import MAX_LAB_TEXT_BYTES, LabTextError, decode_lab_text

PASTE, UPLOAD = "lab_text", "lab_file"
MAX_TEXT_BYTES = MAX_LAB_TEXT_BYTES
LAB_FIELD = "workload.lab_results"

POSTED = PostedJson(
    upload=UPLOAD,
    paste=PASTE,
    max_bytes=MAX_TEXT_BYTES,
    what="the lab's JSON lines",
    empty="Paste the lab's JSON lines or choose the file it wrote (--out).",
)


def with_lab_results(inputs: dict[str, object], text: str) -> dict[str, object]:
    """The echoed profile with its lab results replaced by those in `text`, and any
    measured_throughput left out (a run of the current configuration says it); PostedRefused
    when `text` is neither JSON lines nor a JSON list."""
    try:
        runs = decode_lab_text(text)
    except LabTextError as problem:
        raise PostedRefused(f"{LAB_FIELD}: {problem}.") from None
    workload = dict(inputs["workload"])  # type: ignore[call-overload]  # an echoed profile's section
    workload["lab_results"] = runs
    workload.pop("measured_throughput", None)
    return {**inputs, "workload": workload}
