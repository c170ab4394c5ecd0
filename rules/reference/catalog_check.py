"""Check the catalog's MariaDB rows against what a real `mariadbd --verbose --help` prints.

Used by scripts/check_mariadb_catalog.py and the real-server test; the engine never calls it.
"""

import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass

from rules.inputs.enums import Flavor
from rules.inputs.version import ServerVersion, parse_version
from rules.reference.catalog import (
    NUMERIC_TYPES,
    VariableSpec,
    as_number,
    catalog_for,
    variable_names,
)

_HELP_VERSION = re.compile(r"Ver\s+(\d+\.\d+\.\d+)")
_HELP_OPTION = re.compile(r"^  --([a-z0-9-]+)")
_HELP_VALUE = re.compile(r"^(\S+)\s*(.*?)\s*$")
_PARENS = re.compile(r"\([^()]*\)")


@dataclass(frozen=True, slots=True)
class ServerHelp:
    """What `mariadbd --verbose --help` prints: the release, each variable's value, enum lists."""

    version: ServerVersion
    values: Mapping[str, str]  # variable name (underscores) -> printed value
    choices: Mapping[str, tuple[str, ...]]  # variable name -> "One of: ..." values


@dataclass(frozen=True, slots=True)
class Disagreement:
    name: str
    field: str  # exists | default | values
    catalog: str
    server: str

    def __str__(self) -> str:
        return f"{self.name}: {self.field} catalog={self.catalog} server={self.server}"


def parse_mariadbd_help(text: str) -> ServerHelp:
    match = _HELP_VERSION.search(text)
    version = parse_version(match.group(1)) if match else None
    if version is None:
        raise ValueError("no 'Ver X.Y.Z' line in the mariadbd help output")
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("Variables (--")), None)
    if start is None:
        raise ValueError("no variables table in the mariadbd help output (need --verbose)")
    values: dict[str, str] = {}
    for line in lines[start + 2 :]:
        found = _HELP_VALUE.match(line)
        if found is None:  # the blank line that ends the table
            break
        values[found.group(1).replace("-", "_")] = found.group(2)
    described: dict[str, list[str]] = {}
    current: list[str] = []
    for line in lines[:start]:
        option = _HELP_OPTION.match(line)
        if option is not None:
            current = described.setdefault(option.group(1).replace("-", "_"), [])
            line = line[option.end() :]
        current.append(line.strip())
    choices: dict[str, tuple[str, ...]] = {}
    for name, parts in described.items():
        text_ = _PARENS.sub("", " ".join(parts))
        if "One of:" in text_:
            items = text_.split("One of:", 1)[1].split(",")
            choices[name] = tuple(item.split()[0].rstrip(".") for item in items if item.split())
    return ServerHelp(version, values, choices)


def read_mariadbd_help(binary: str = "mariadbd") -> ServerHelp:
    """Run `mariadbd --no-defaults --verbose --help` (no server is started) and parse it."""
    completed = subprocess.run(
        [binary, "--no-defaults", "--verbose", "--help"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return parse_mariadbd_help(completed.stdout)


def _server_default(printed: str, spec: VariableSpec) -> str:
    if spec.type == "bool":
        return {"TRUE": "ON", "FALSE": "OFF"}.get(printed.upper(), printed.upper())
    return printed


def _same_default(spec: VariableSpec, printed: str) -> bool:
    if spec.type in NUMERIC_TYPES:
        number = as_number(printed)
        return number is not None and number == spec.default
    server = _server_default(printed, spec)
    return str(spec.default).casefold() == server.casefold()


def compare_with_mariadbd(server: ServerHelp) -> list[Disagreement]:
    """Every MariaDB catalog variable, resolved for the server's release, against the server:
    existence, the printed default (computed defaults are skipped) and the enum value list."""
    catalog = catalog_for(Flavor.MARIADB, server.version)
    names = variable_names(Flavor.MARIADB)
    found: list[Disagreement] = []
    for name in names:
        spec = catalog.get(name)
        printed = server.values.get(name)
        if spec is None or printed is None:
            if (spec is None) != (printed is None):
                shown = "absent" if printed is None else "present"
                found.append(Disagreement(name, "exists", str(spec is not None), shown))
            continue
        if spec.default is not None and not _same_default(spec, printed):
            found.append(Disagreement(name, "default", str(spec.default), printed))
        listed = server.choices.get(name)
        if spec.type == "enum" and listed is not None and set(listed) != set(spec.values):
            found.append(Disagreement(name, "values", ",".join(spec.values), ",".join(listed)))
    return found
