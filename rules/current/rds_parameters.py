"""The list of parameters an RDS parameter group family lets a user change, as the user gives it.

AWS publishes that list only as the output of `aws rds describe-engine-default-parameters
--db-parameter-group-family <family> --output json` (RDS User Guide, "Parameters for MySQL",
https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/Appendix.MySQL.Parameters.html), so the
user runs it and hands us the output. It is read strictly here (the shape of the RDS API's
`DescribeEngineDefaultParameters` answer:
https://docs.aws.amazon.com/AmazonRDS/latest/APIReference/API_DescribeEngineDefaultParameters.html
and its `Parameter` type, API_Parameter.html), and every problem is a field error, never a crash.
A result keeps only the rows its own settings need (`RdsParameterList`), not the document.
"""

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.inputs.errors import ProfileError
from rules.output.jsonshape import doc

# A real family lists a few hundred parameters (mysql8.0 about 500); ten times that is no list.
MAX_PARAMETERS = 5000
MAX_TEXT = 4096  # AllowedValues of an enum parameter is a few hundred characters at most
# Server variable names (MySQL and MariaDB spell them in ASCII letters, digits, _ and -; RDS adds
# none of its own for these engines), at most 64 characters like any MySQL identifier.
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_\-]{0,63}")
FAMILY = re.compile(r"(mysql|mariadb)\d{1,2}\.\d{1,2}")
APPLY_TYPES = ("static", "dynamic")  # API_Parameter.html, ApplyType


@dataclass(frozen=True, slots=True)
class RdsParameter:
    name: str
    modifiable: bool
    apply_type: str = field(metadata=doc("static or dynamic, as RDS lists it."))
    allowed_values: str = ""


@dataclass(frozen=True, slots=True)
class RdsParameterList:
    """What the RDS exports of one result read from the user's list: its family and the rows of
    the result's own settings that the list names (a setting it does not name is not in the
    family's parameter group)."""

    family: str
    parameters: tuple[RdsParameter, ...]

    def by_name(self) -> dict[str, RdsParameter]:
        return {p.name: p for p in self.parameters}


class _Problems:
    def __init__(self, field_path: str) -> None:
        self.root = field_path
        self.errors: dict[str, list[str]] = {}

    def add(self, path: str, message: str) -> None:
        self.errors.setdefault(f"{self.root}.{path}" if path else self.root, []).append(message)


def read_engine_defaults(
    raw: object, *, family: str, field_path: str = "rds_parameters"
) -> dict[str, RdsParameter]:
    """The parameters of one `describe-engine-default-parameters` output for `family`, by name;
    ProfileError naming each problem under `field_path` (e.g. `rds_parameters.EngineDefaults.
    Parameters[3].ApplyType`) when it is not that output."""
    problems = _Problems(field_path)
    rows = _rows(raw, family, problems)
    found: dict[str, RdsParameter] = {}
    for index, row in enumerate(rows):
        where = f"EngineDefaults.Parameters[{index}]"
        parameter = _parameter(row, where, problems)
        if parameter is None:
            continue
        if parameter.name in found:
            problems.add(f"{where}.ParameterName", f"{parameter.name} is listed twice")
        found[parameter.name] = parameter
    if problems.errors:
        raise ProfileError(problems.errors)
    return found


def kept_for(
    family: str, known: Mapping[str, RdsParameter], names: Iterable[str]
) -> RdsParameterList:
    """The rows of `known` that `names` (a result's settings) need, in the order of `names`."""
    rows = tuple(known[name] for name in dict.fromkeys(names) if name in known)
    return RdsParameterList(family, rows)


def _rows(raw: object, family: str, problems: _Problems) -> list[Any]:
    hint = "must be the JSON that aws rds describe-engine-default-parameters prints"
    if not isinstance(raw, Mapping):
        problems.add("", hint)
        return []
    defaults = raw.get("EngineDefaults")
    if not isinstance(defaults, Mapping):
        problems.add("EngineDefaults", "is required and must be an object")
        return []
    listed = defaults.get("DBParameterGroupFamily")
    if not isinstance(listed, str) or FAMILY.fullmatch(listed) is None:
        problems.add("EngineDefaults.DBParameterGroupFamily", "must be a MySQL or MariaDB family")
    elif listed != family:
        problems.add(
            "EngineDefaults.DBParameterGroupFamily",
            f"is {listed}, but the profile's server runs as {family} on RDS: run the command "
            f"with --db-parameter-group-family {family}",
        )
    if defaults.get("Marker"):
        problems.add(
            "EngineDefaults.Marker",
            "this is one page of the list: run the command without --no-paginate or --max-items",
        )
    rows = defaults.get("Parameters")
    if not isinstance(rows, list):
        problems.add("EngineDefaults.Parameters", "is required and must be a list")
        return []
    if not rows:
        problems.add("EngineDefaults.Parameters", "is empty")
    if len(rows) > MAX_PARAMETERS:
        problems.add("EngineDefaults.Parameters", f"lists more than {MAX_PARAMETERS} parameters")
        return []
    return rows


def _parameter(row: object, where: str, problems: _Problems) -> RdsParameter | None:
    if not isinstance(row, Mapping):
        problems.add(where, "must be an object")
        return None
    count = len(problems.errors)
    name = row.get("ParameterName")
    if not isinstance(name, str) or NAME.fullmatch(name) is None:
        problems.add(f"{where}.ParameterName", "must be a server variable name")
    modifiable = row.get("IsModifiable")
    if not isinstance(modifiable, bool):
        problems.add(f"{where}.IsModifiable", "is required and must be true or false")
    apply_type = row.get("ApplyType")
    if apply_type not in APPLY_TYPES:
        problems.add(f"{where}.ApplyType", "is required and must be static or dynamic")
    allowed = row.get("AllowedValues", "")
    if not isinstance(allowed, str) or len(allowed) > MAX_TEXT:
        problems.add(f"{where}.AllowedValues", f"must be text of at most {MAX_TEXT} characters")
    for key in ("ParameterValue", "DataType", "Description", "Source", "MinimumEngineVersion"):
        value = row.get(key)
        if value is not None and (not isinstance(value, str) or len(value) > MAX_TEXT):
            problems.add(f"{where}.{key}", f"must be text of at most {MAX_TEXT} characters")
    read = isinstance(name, str) and isinstance(modifiable, bool) and isinstance(allowed, str)
    if len(problems.errors) > count or not read:
        return None
    return RdsParameter(str(name), bool(modifiable), str(apply_type), str(allowed))
