"""`workload.lab_results`: throughput measured on this host per configuration (issue #43 item 4).

Each entry is either the plain form, `{"configuration": {variable: value}, "throughput": n}` (with
an optional `label` and `kind`), or one record the lab writes (`python3 -m lab`, docs/lab.md,
format 1), which is reduced here to the plain form before anything else sees it: the variables the
server reported that the advisor reads, the measured rate, the configuration's name and the kind
its test measures. The record's my.cnf texts, probe document, host names and command lines are
dropped, so none of it is stored or echoed.
"""

import json
from dataclasses import dataclass
from typing import Any

from rules.inputs.enums import WorkloadKind

MAX_RUNS = 64  # 4 tests x 4 thread counts x 2 rounds x A/B: a full lab sweep of one host
MAX_VARIABLES = 100  # a configuration's variables: the catalog reads fewer than that per flavor
MAX_NAME_CHARS = 64  # the server's own limit on a variable's name
MAX_VALUE_CHARS = 200  # innodb_data_file_path, the longest value the advisor reads, is far less
MAX_LABEL_CHARS = 40
MIN_THROUGHPUT, MAX_THROUGHPUT = 0.001, 1e9  # as workload.measured_throughput
LAB_RECORD = "innodb-io-advisor lab run"  # a lab record's "record" key (lab.record)
LAB_FORMAT = 1
# sysbench test -> the workload kind whose reference benchmark it is; lab.to_csv.KINDS, which
# rules may not import (tests/rules/inputs/test_lab_results.py holds the two equal).
TEST_KINDS = {
    "oltp_read_write": WorkloadKind.READ_WRITE.value,
    "oltp_update_index": WorkloadKind.UPDATE_HEAVY.value,
    "oltp_point_select": WorkloadKind.READ_MOSTLY.value,
}
WORKLOAD_KINDS = tuple(member.value for member in WorkloadKind)
PLAIN_KEYS = ("configuration", "throughput", "label", "kind")
DESCRIBED = (
    f"a list of at most {MAX_RUNS} entries, each a lab record (one JSON line of python3 -m lab) "
    'or {"configuration": {variable: value}, "throughput": number}'
)


@dataclass(frozen=True, slots=True)
class LabRun:
    """One measured run: the configuration's variables (lower-case names, the server's text)
    and its rate in the workload kind's unit."""

    configuration: dict[str, str]
    throughput: float
    label: str = ""
    kind: str = ""  # the kind its test measures, when known


def read_lab_results(value: list[dict[str, Any]]) -> tuple[LabRun, ...]:
    """The checked entries (plain form) as runs."""
    return tuple(
        LabRun(
            dict(entry["configuration"]),
            float(entry["throughput"]),
            entry.get("label", ""),
            entry.get("kind", ""),
        )
        for entry in value
    )


def echo_lab_results(runs: tuple[LabRun, ...]) -> list[dict[str, Any]]:
    out = []
    for run in runs:
        entry: dict[str, Any] = {"configuration": run.configuration, "throughput": run.throughput}
        if run.label:
            entry["label"] = run.label
        if run.kind:
            entry["kind"] = run.kind
        out.append(entry)
    return out


# The most lab text a page or the CLI reads: MAX_RUNS records of the lab's format 1 are about
# 7.2 KB each (tests/data/lab-run-oltp-read-write.jsonl: 28,753 bytes for 4), 460 KB in all;
# 1 MiB holds that twice, and stays under the API's 2 MiB body with a profile beside it.
MAX_LAB_TEXT_BYTES = 1024 * 1024


class LabTextError(ValueError):
    """Why a lab text is not JSON lines nor a JSON list, naming the line."""


def decode_lab_text(text: str) -> list[Any]:
    """The runs in `text`: the lab's JSON lines (one record a line, blank lines skipped), or
    one JSON list of runs. LabTextError on the first line that is not JSON, or on more lines
    than MAX_RUNS, before decoding the rest."""
    stripped = text.strip()
    if not stripped:
        raise LabTextError("no lab results: paste the lab's JSON lines or a JSON list")
    if stripped.startswith("["):
        try:
            value = json.loads(stripped)
        except (ValueError, RecursionError):
            raise LabTextError("this list is not valid JSON") from None
        if not isinstance(value, list):
            raise LabTextError("this is not a JSON list")
        return value
    lines = [line for line in stripped.splitlines() if line.strip()]
    if len(lines) > MAX_RUNS:
        raise LabTextError(f"{len(lines)} lines: at most {MAX_RUNS} runs are read")
    runs = []
    for number, line in enumerate(lines, start=1):
        try:
            runs.append(json.loads(line))
        except (ValueError, RecursionError):
            raise LabTextError(f"line {number} is not one JSON record") from None
    return runs
