"""Checking `workload.lab_results` (rules.inputs.lab_results): each entry in the plain form, a
lab record reduced to it first, every problem named by its path, every size bounded."""

from collections.abc import Mapping
from typing import Any, Protocol

from rules.current.kept import looks_like_credential
from rules.inputs.lab_results import (
    DESCRIBED,
    LAB_FORMAT,
    LAB_RECORD,
    MAX_LABEL_CHARS,
    MAX_NAME_CHARS,
    MAX_RUNS,
    MAX_THROUGHPUT,
    MAX_VALUE_CHARS,
    MAX_VARIABLES,
    MIN_THROUGHPUT,
    PLAIN_KEYS,
    TEST_KINDS,
    WORKLOAD_KINDS,
)
from rules.reference.catalog import known_names


class Errors(Protocol):
    def add(self, path: str, message: str) -> None: ...


def coerce_lab_results(path: str, value: Any, errors: Errors) -> list[dict[str, Any]] | None:
    """The entries in the plain form, lab records reduced; None (with errors) when any is bad."""
    if not isinstance(value, list) or not value or len(value) > MAX_RUNS:
        errors.add(path, f"must be {DESCRIBED}")
        return None
    found = []
    for i, item in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(item, Mapping):
            errors.add(where, f"must be an object: {DESCRIBED}")
            continue
        entry = _reduced(item, where, errors) if "record" in item else _plain(item, where, errors)
        if entry is not None:
            found.append(entry)
    return found if len(found) == len(value) else None


def check_kinds(path: str, runs: list[dict[str, Any]], kind: str, errors: Errors) -> None:
    """Each run must measure the profile's workload kind, when its kind is known."""
    for i, entry in enumerate(runs):
        if entry.get("kind", kind) != kind:
            errors.add(
                f"{path}[{i}]",
                f"measures {entry['kind']}, but workload.kind is {kind}: anchor on runs of the "
                "same workload",
            )


def _plain(item: Mapping[str, Any], where: str, errors: Errors) -> dict[str, Any] | None:
    unknown = [key for key in item if key not in PLAIN_KEYS]
    if unknown:
        errors.add(
            f"{where}.{_shown(unknown[0])}",
            "is not a known field; allowed: " + ", ".join(PLAIN_KEYS),
        )
        return None
    configuration = _configuration(item.get("configuration"), f"{where}.configuration", errors)
    throughput = _throughput(item.get("throughput"), f"{where}.throughput", errors)
    label, kind = item.get("label", ""), item.get("kind", "")
    ok = configuration is not None and throughput is not None
    if not isinstance(label, str) or len(label) > MAX_LABEL_CHARS:
        errors.add(f"{where}.label", f"must be text of at most {MAX_LABEL_CHARS} characters")
        ok = False
    if kind != "" and kind not in WORKLOAD_KINDS:
        errors.add(f"{where}.kind", "must be one of " + ", ".join(WORKLOAD_KINDS))
        ok = False
    if not ok:
        return None
    entry: dict[str, Any] = {"configuration": configuration, "throughput": throughput}
    if label.strip():
        entry["label"] = label.strip()
    if kind:
        entry["kind"] = kind
    return entry


def _reduced(record: Mapping[str, Any], where: str, errors: Errors) -> dict[str, Any] | None:
    """A lab record as the plain form: what the advisor reads of it, nothing else."""
    if record.get("record") != LAB_RECORD or record.get("format") != LAB_FORMAT:
        errors.add(where, f'must be a lab record ("record": "{LAB_RECORD}", "format": 1)')
        return None
    run, result, server = record.get("run"), record.get("result"), record.get("server")
    if not (isinstance(run, Mapping) and isinstance(result, Mapping)):
        errors.add(where, "a lab record needs its run, server and result objects")
        return None
    if not isinstance(server, Mapping):
        errors.add(where, "a lab record needs its run, server and result objects")
        return None
    test = run.get("test")
    kind = TEST_KINDS.get(test) if isinstance(test, str) else None
    if kind is None:
        errors.add(
            f"{where}.run.test",
            "must be a test with a reference kind: " + ", ".join(TEST_KINDS),
        )
        return None
    throughput = _throughput(result.get("value"), f"{where}.result.value", errors)
    variables = server.get("variables")
    if not isinstance(variables, Mapping) or len(variables) > 10 * MAX_VARIABLES:
        errors.add(f"{where}.server.variables", "must be the object of variables the lab read")
        return None
    read = known_names()
    kept = {
        str(name).lower(): value
        for name, value in variables.items()
        if str(name).lower() in read and not looks_like_credential(str(name))
    }
    configuration = _configuration(kept, f"{where}.server.variables", errors)
    if throughput is None or configuration is None:
        return None
    label = run.get("config")
    entry: dict[str, Any] = {"configuration": configuration, "throughput": throughput}
    if isinstance(label, str) and label.strip():
        entry["label"] = label.strip()[:MAX_LABEL_CHARS]
    entry["kind"] = kind
    return entry


def _configuration(value: Any, where: str, errors: Errors) -> dict[str, str] | None:
    if not isinstance(value, Mapping) or len(value) > MAX_VARIABLES:
        errors.add(where, f"must be an object of at most {MAX_VARIABLES} variables and values")
        return None
    read = known_names()
    out: dict[str, str] = {}
    for name, raw in value.items():
        key = str(name).strip().lower().replace("-", "_")
        if len(key) > MAX_NAME_CHARS or key not in read:
            errors.add(f"{where}.{_shown(name)}", "is not a variable the advisor reads")
            return None
        if isinstance(raw, bool):
            raw = "ON" if raw else "OFF"
        if isinstance(raw, (int, float)) and not isinstance(raw, bool):
            raw = str(raw)
        if not isinstance(raw, str) or len(raw) > MAX_VALUE_CHARS:
            errors.add(
                f"{where}.{key}",
                f"must be a number or text of at most {MAX_VALUE_CHARS} characters",
            )
            return None
        out[key] = raw.strip()
    return out


def _throughput(value: Any, where: str, errors: Errors) -> float | None:
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if is_number and isinstance(value, int) and value.bit_length() > 64:
        is_number = False
    if not is_number or not MIN_THROUGHPUT <= value <= MAX_THROUGHPUT:
        errors.add(
            where,
            f"must be a number from {MIN_THROUGHPUT:g} to {int(MAX_THROUGHPUT)} (the workload's "
            "unit: NOTPM, transactions/s, rows/s or queries/s)",
        )
        return None
    return float(value)


def _shown(key: object) -> str:
    """A key as an error names it: cut short, so a hostile key is not echoed whole."""
    text = str(key)
    return text if len(text) <= 80 else text[:80] + "..."
