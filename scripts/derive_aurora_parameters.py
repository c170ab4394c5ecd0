"""Derive what Aurora MySQL version 3 (family aurora-mysql8.0) lets a user set, from the vendored
Aurora User Guide page "Aurora MySQL configuration parameters"
(rules/data/vendor/aws/AuroraMySQL.Reference.ParameterGroups.md), into
rules/data/aurora_mysql3_parameters.json, which `rules/render/aurora.py` reads.

For each row of the cluster-level and the instance-level tables: whether version 3 has the
parameter at that level and whether a user may change it there, read from the "Modifiable"
column and the version remarks of the "Notes" column; and the list "MySQL parameters that don't
apply to Aurora MySQL" less the entries it says are available in version 3. A Modifiable text
or a list remark this script does not know stops it, so a new wording of the page is read by a
person before anything is exported from it.

`--check` writes nothing and exits 1 when the checked-in file differs from what the vendored
page gives (tests/test_derive_aurora_parameters.py runs the same comparison).
"""

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "rules" / "data" / "vendor" / "aws" / "AuroraMySQL.Reference.ParameterGroups.md"
TARGET = ROOT / "rules" / "data" / "aurora_mysql3_parameters.json"

MODIFIABLE = "modifiable"
NOT_MODIFIABLE = "not modifiable"
NOT_IN_VERSION_3 = "not in version 3"
AT_CREATION_ONLY = "only at cluster creation"
CLUSTER_LEVEL_ONLY = "only at the cluster level"

_SECTIONS = {
    "cluster": "## Cluster-level parameters",
    "instance": "## Instance-level parameters",
    "not_applicable": "## MySQL parameters that don't apply to Aurora MySQL",
}
# Remarks of the Notes column that put a row outside version 3 (at any level, or at one).
_NOT_IN_3 = re.compile(
    r"Removed from Aurora MySQL version 3"
    r"|Aurora MySQL version 2 only"
    r"|Only applies to Aurora MySQL version 2"
    r"|isn't supported for version 3"
    r"|Currently not available in Aurora MySQL version 3"
    r"|^Aurora MySQL version 2\. Use \S+ in Aurora MySQL version 3"
    r"|This parameter applies to Aurora MySQL version 2\."
)
_NOT_IN_3_AT_INSTANCE = re.compile(r"Removed at the instance level from Aurora MySQL version 3")
_CLUSTER_ONLY_IN_3 = re.compile(
    r"modifiable only at the (DB )?cluster level in Aurora MySQL version 3", re.IGNORECASE
)
_SOMETIMES_YES = re.compile(r"Modifiable in Aurora MySQL version 2 and higher")
_PER_VERSION = re.compile(r"Aurora MySQL version 2: (Yes|No) Aurora MySQL version 3: (Yes|No)")
_CREATION_ONLY = re.compile(
    r"Yes \(Aurora MySQL version 2\) Only at cluster creation time \(Aurora MySQL version 3\)"
)
# The one remark of the "don't apply" list that keeps an entry in version 3.
_AVAILABLE_IN_3 = re.compile(
    r"doesn't apply to Aurora MySQL version 2\. It is available in Aurora MySQL version 3"
)
_STILL_NOT_APPLYING = re.compile(r"This parameter doesn't apply to Aurora MySQL\.")


class UnknownWording(ValueError):
    """The page says something this script was not written to read."""


def plain(text: str) -> str:
    """Markdown cell text as words: escapes, code marks, links and HTML tags removed."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"\\(.)", r"\1", text).replace("`", "")
    return " ".join(text.split())


def sections(markdown: str) -> dict[str, list[str]]:
    """The lines of each section this script reads, by key."""
    found: dict[str, list[str]] = {}
    key = None
    for line in markdown.splitlines():
        if line.startswith("## "):
            heading = plain(line.split("<a ", 1)[0])
            key = next((k for k, h in _SECTIONS.items() if h == heading), None)
            if key is not None:
                if key in found:
                    raise UnknownWording(f"section {heading!r} appears twice")
                found[key] = []
            continue
        if key is not None:
            found[key].append(line)
    missing = set(_SECTIONS) - set(found)
    if missing:
        raise UnknownWording(f"sections not found: {', '.join(sorted(missing))}")
    return found


def table_rows(lines: list[str]) -> list[tuple[str, str, str]]:
    """(name, modifiable, notes) of each row of the section's one table, as plain text."""
    rows = []
    for line in lines:
        if not line.startswith("|"):
            continue
        cells = [plain(c) for c in line.strip().strip("|").split("|")]
        if len(cells) != 3:
            raise UnknownWording(f"a table row without three cells: {line[:80]!r}")
        if cells[0] == "Parameter name" or set(cells[0]) <= {"-", " "}:
            continue
        rows.append((cells[0], cells[1], cells[2]))
    if not rows:
        raise UnknownWording("a parameter table with no rows")
    return rows


def version3_status(level: str, modifiable: str, notes: str) -> str:
    """What version 3 allows for one row at `level` ("cluster" or "instance")."""
    if _NOT_IN_3.search(notes) or (level == "instance" and _NOT_IN_3_AT_INSTANCE.search(notes)):
        return NOT_IN_VERSION_3
    if level == "instance" and _CLUSTER_ONLY_IN_3.search(notes):
        return CLUSTER_LEVEL_ONLY
    if modifiable == "Yes":
        return MODIFIABLE
    if modifiable == "No":
        return NOT_MODIFIABLE
    if modifiable == "Sometimes" and _SOMETIMES_YES.search(notes):
        return MODIFIABLE
    per_version = _PER_VERSION.fullmatch(modifiable)
    if per_version:
        return MODIFIABLE if per_version.group(2) == "Yes" else NOT_MODIFIABLE
    if _CREATION_ONLY.fullmatch(modifiable):
        return AT_CREATION_ONLY
    raise UnknownWording(f"Modifiable {modifiable!r} (notes: {notes[:120]!r})")


def level_table(level: str, lines: list[str]) -> dict[str, str]:
    statuses: dict[str, str] = {}
    for name, modifiable, notes in table_rows(lines):
        if re.fullmatch(r"[a-z][a-z0-9_-]*", name) is None:
            raise UnknownWording(f"not a parameter name: {name!r}")
        status = version3_status(level, modifiable, notes)
        if statuses.get(name, status) != status:
            raise UnknownWording(f"{name} is listed twice at the {level} level, differently")
        statuses[name] = status
    return dict(sorted(statuses.items()))


def not_applicable(lines: list[str]) -> list[str]:
    """The names of the "don't apply" list that still do not apply in version 3."""
    names = []
    for line in lines:
        if not line.startswith("+ "):
            continue
        match = re.fullmatch(r"\+ `([a-z][a-z0-9_]*)`(?: – (.*))?", line.strip())
        if match is None:
            raise UnknownWording(f"a list entry not of the form + `name` – remark: {line!r}")
        name, remark = match.group(1), plain(match.group(2) or "")
        if _AVAILABLE_IN_3.search(remark):
            continue
        if remark and not _STILL_NOT_APPLYING.match(remark):
            raise UnknownWording(f"{name}: remark {remark!r}")
        names.append(name)
    if not names:
        raise UnknownWording("an empty list of parameters that don't apply")
    return sorted(names)


def derive(markdown_bytes: bytes) -> dict[str, object]:
    """The derived lists of the vendored page's bytes."""
    found = sections(markdown_bytes.decode("utf-8"))
    return {
        "about": (
            "Derived by scripts/derive_aurora_parameters.py from "
            "rules/data/vendor/aws/AuroraMySQL.Reference.ParameterGroups.md (see "
            "rules/data/vendor/README.md); do not edit, run the script."
        ),
        "source_sha256": hashlib.sha256(markdown_bytes).hexdigest(),
        "aurora_mysql_version": 3,
        "family": "aurora-mysql8.0",
        "cluster": level_table("cluster", found["cluster"]),
        "instance": level_table("instance", found["instance"]),
        "not_applicable": not_applicable(found["not_applicable"]),
    }


def derived_text(markdown_bytes: bytes) -> str:
    return json.dumps(derive(markdown_bytes), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on a change")
    args = parser.parse_args(argv)
    text = derived_text(SOURCE.read_bytes())
    old = TARGET.read_text(encoding="utf-8") if TARGET.exists() else None
    if old == text:
        print(f"unchanged {TARGET.relative_to(ROOT)}")
        return 0
    if args.check:
        print(f"would change {TARGET.relative_to(ROOT)}: run scripts/derive_aurora_parameters.py")
        return 1
    TARGET.write_text(text, encoding="utf-8")
    print(f"changed   {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
