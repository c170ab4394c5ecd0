"""Amazon RDS: a DB parameter group as JSON for `aws rds modify-db-parameter-group` and as a
Terraform `aws_db_parameter_group` block.

Only the parameters the family's parameter group lets a user change are set; every other
recommendation is listed with the note that RDS manages it. The buffer pool is written as RDS's
formula of the instance class memory (`{DBInstanceClassMemory*3/4}`: RDS User Guide, "Specifying
DB parameters", "DB parameter formulas",
https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_ParamValuesRef.html). What may be
changed, and whether it applies at once or at the next reboot, comes from the family's
`aws rds describe-engine-default-parameters` output: the user's own, kept with the result
(`with_rds_parameters`, rules.current.rds_parameters), or one vendored in rules/data/vendor/rds/
(see the
README there). Without either the export is refused, telling the user the command to run, rather
than guessing.
"""

import functools
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from rules.current.rds_parameters import RdsParameter, kept_for, read_engine_defaults
from rules.inputs.enums import Flavor
from rules.inputs.errors import OutputRefused, ProfileError
from rules.inputs.profile import Server
from rules.output.result import Result, Setting
from rules.render.deploy import deploy_header, deploy_settings
from rules.render.memory_share import BUFFER_POOL, pool_fraction
from rules.render.mycnf import comment, one_line, server_value, variable_name

# ModifyDBParameterGroup takes at most 20 parameters per request (RDS API Reference,
# ModifyDBParameterGroup, "Parameters": "A maximum of 20 parameters can be modified in a single
# request"); https://docs.aws.amazon.com/AmazonRDS/latest/APIReference/API_ModifyDBParameterGroup.html
MAX_PARAMETERS_PER_REQUEST = 20
HOST_NOTE = (
    "RDS manages the host: the IO scheduler, read-ahead, sysctl, transparent huge pages, NUMA "
    "and mount options of this result's operating-system advice do not apply."
)
GROUP_NAME = re.compile(r"^[a-z](?:-?[a-z0-9])*$")


@dataclass(frozen=True, slots=True)
class Entry:
    setting: Setting
    value: str
    apply_method: str  # "immediate" | "pending-reboot"


@dataclass(frozen=True, slots=True)
class ParameterGroup:
    family: str
    name: str
    entries: tuple[Entry, ...]
    managed: tuple[tuple[Setting, str], ...]  # (setting, why RDS does not take it)
    header: tuple[str, ...]


def rds_family(server: Server) -> str:
    """The parameter group family RDS runs the profile's server as (Percona runs as MySQL)."""
    engine = "mariadb" if server.flavor is Flavor.MARIADB else "mysql"
    return f"{engine}{server.version.major}.{server.version.minor}"


@functools.cache
def vendored_parameters(family: str) -> dict[str, RdsParameter] | None:
    """The vendored parameter list of `family`, or None when none is vendored."""
    if not re.fullmatch(r"(mysql|mariadb)\d+\.\d+", family):
        return None
    path = resources.files("rules").joinpath("data", "vendor", "rds", f"{family}.json")
    if not path.is_file():
        return None
    document = json.loads(path.read_text(encoding="utf-8"))
    return read_engine_defaults(document, family=family, field_path=f"vendored {family}.json")


def with_rds_parameters(result: Result, raw: object, *, field_path: str) -> Result:
    """`result` with the rows of the user's parameter list (`raw`, the decoded output of
    `aws rds describe-engine-default-parameters`) its settings need; ProfileError under
    `field_path` when `raw` is not that output for the profile's family.

    The list changes what the RDS exports say, and a stored result is found by its id alone, so
    the id is derived again over the rows kept: the same profile with another list (or none) is
    another result, and a permalink's RDS export never changes under it."""
    try:
        family = rds_family(result.profile.server)
    except OutputRefused as refused:
        raise ProfileError({field_path: [f"RDS cannot run this server: {refused}"]}) from None
    known = read_engine_defaults(raw, family=family, field_path=field_path)
    kept = kept_for(family, known, (s.name for s in result.settings))
    rows = [[p.name, p.modifiable, p.apply_type, p.allowed_values] for p in kept.parameters]
    payload = json.dumps([result.id, family, rows], separators=(",", ":"))
    digest = hashlib.sha256(payload.encode()).hexdigest()[: len(result.id)]
    return replace(result, id=digest, rds_parameters=kept)


def refusal(family: str) -> str:
    """What a user without a parameter list is told: the one command that makes it."""
    return (
        f"AWS publishes which parameters RDS lets a user change in the {family} family only "
        "as the output of one command; run aws rds describe-engine-default-parameters "
        f"--db-parameter-group-family {family} --output json > params.json and pass the file "
        "with the profile (on the command line --rds-parameters params.json; in the API the "
        "rds_parameters field next to the profile; on the result page the form under its RDS "
        "files)"
    )


def parameter_group(
    result: Result,
    *,
    base_url: str = "",
    parameters: Mapping[str, RdsParameter] | None = None,
    what: str,
    use: Sequence[str],
) -> ParameterGroup:
    """The parameter group for `result`: what is set, what RDS manages, and the header."""
    settings = deploy_settings(result)
    family = rds_family(result.profile.server)
    known = parameters
    kept = result.rds_parameters
    if known is None and kept is not None and kept.family == family:
        known = kept.by_name()
    if known is None:
        known = vendored_parameters(family)
    if known is None:
        raise OutputRefused(refusal(family), field="rds_parameters")
    entries: list[Entry] = []
    managed: list[tuple[Setting, str]] = []
    for setting in settings:
        parameter = known.get(setting.name)
        if parameter is None:
            managed.append((setting, f"not in the {family} parameter group"))
        elif not parameter.modifiable:
            managed.append((setting, f"RDS sets it; not modifiable in {family}"))
        else:
            entries.append(_entry(result, setting, parameter))
    group_name = f"innodb-io-advisor-{result.id[:12].lower()}"
    if GROUP_NAME.match(group_name) is None:
        group_name = "innodb-io-advisor"
    flavor = result.profile.server.flavor
    notes = [HOST_NOTE]
    if flavor == "percona":
        notes.append("RDS runs MySQL Community Server, not Percona Server: checked as MySQL.")
    if any(e.setting.name == BUFFER_POOL and e.value.startswith("{") for e in entries):
        notes.append(
            f"{BUFFER_POOL} is a formula of DBInstanceClassMemory (the instance class memory "
            "less what RDS keeps for itself), the share of the profile's RAM recommended."
        )
    header = deploy_header(result, what, [*use, *notes], base_url=base_url)
    return ParameterGroup(family, group_name, tuple(entries), tuple(managed), tuple(header))


def _entry(result: Result, setting: Setting, parameter: RdsParameter) -> Entry:
    method = "immediate" if parameter.apply_type == "dynamic" else "pending-reboot"
    share = (
        pool_fraction(result, result.profile.hardware.ram_bytes)
        if setting.name == BUFFER_POOL
        else None
    )
    if share is not None:
        value = f"{{DBInstanceClassMemory*{share[0]}/{share[1]}}}"
    else:
        value = server_value(setting)
        if parameter.allowed_values == "0,1" and value in ("ON", "OFF"):
            value = "1" if value == "ON" else "0"
    return Entry(setting, value, method)


def render_rds_json(
    result: Result, *, base_url: str = "", parameters: Mapping[str, RdsParameter] | None = None
) -> str:
    """`ModifyDBParameterGroup` requests (at most 20 parameters each) with the header and the
    settings RDS manages beside them; raises OutputRefused without a parameter list."""
    use = [
        "Apply: aws rds create-db-parameter-group --db-parameter-group-name NAME",
        "--db-parameter-group-family FAMILY --description TEXT, then for each request:",
        "jq -c '.ModifyDBParameterGroup[0]' this.json | aws rds modify-db-parameter-group "
        "--cli-input-json file:///dev/stdin",
    ]
    group = parameter_group(
        result, base_url=base_url, parameters=parameters, what="RDS parameter group", use=use
    )
    document: dict[str, Any] = {
        "Comment": [one_line(line) for line in group.header],
        "DBParameterGroupFamily": group.family,
        "ModifyDBParameterGroup": modify_requests(
            group.entries, "DBParameterGroupName", group.name
        ),
        "ManagedByRds": not_set_json(group.managed),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def render_rds_terraform(
    result: Result, *, base_url: str = "", parameters: Mapping[str, RdsParameter] | None = None
) -> str:
    """An `aws_db_parameter_group` resource; raises OutputRefused without a parameter list."""
    use = [
        "Use: put this resource in a Terraform configuration with the AWS provider and point",
        "the instance's parameter_group_name at it:",
        "parameter_group_name = aws_db_parameter_group.innodb_io_advisor.name",
    ]
    what = "Terraform RDS parameter group"
    group = parameter_group(result, base_url=base_url, parameters=parameters, what=what, use=use)
    lines = [comment("#", line) for line in group.header]
    lines += terraform_group(
        "aws_db_parameter_group", group.name, group.family, result.id, group.entries
    )
    lines += not_set_lines("# Managed by RDS, so not set here:", group.managed)
    return "\n".join(lines) + "\n"


def modify_requests(entries: Sequence[Entry], name_key: str, name: str) -> list[dict[str, Any]]:
    """The AWS modify requests for `entries`, at most MAX_PARAMETERS_PER_REQUEST each."""
    return [
        {
            name_key: name,
            "Parameters": [
                {
                    "ParameterName": variable_name(e.setting),
                    "ParameterValue": e.value,
                    "ApplyMethod": e.apply_method,
                }
                for e in entries[i : i + MAX_PARAMETERS_PER_REQUEST]
            ],
        }
        for i in range(0, len(entries), MAX_PARAMETERS_PER_REQUEST)
    ]


def not_set_json(noted: Sequence[tuple[Setting, str]]) -> list[dict[str, str]]:
    """The settings a managed service does not take, each with the value and why."""
    return [
        {"ParameterName": variable_name(s), "Recommended": server_value(s), "Note": why}
        for s, why in noted
    ]


def terraform_group(
    resource: str, name: str, family: str, result_id: str, entries: Sequence[Entry]
) -> list[str]:
    """One Terraform parameter-group resource with a block per parameter, each under its reason."""
    lines = [
        "",
        f'resource "{resource}" "innodb_io_advisor" {{',
        f"  name        = {hcl_quote(name)}",
        f"  family      = {hcl_quote(family)}",
        f"  description = {hcl_quote('InnoDB IO Advisor ' + result_id)}",
    ]
    for entry in entries:
        lines += [
            "",
            "  " + comment("#", entry.setting.reason),
            "  parameter {",
            f"    name         = {hcl_quote(variable_name(entry.setting))}",
            f"    value        = {hcl_quote(entry.value)}",
            f"    apply_method = {hcl_quote(entry.apply_method)}",
            "  }",
        ]
    return [*lines, "}"]


def not_set_lines(title: str, noted: Sequence[tuple[Setting, str]]) -> list[str]:
    """The settings a managed service does not take, each with why, as comments under `title`."""
    if not noted:
        return []
    return ["", title] + [
        comment("#", f"{variable_name(s)} = {server_value(s)}: {why}") for s, why in noted
    ]


def hcl_quote(text: str) -> str:
    """A quoted HCL string: JSON escaping, and template sequences (${, %{) doubled."""
    return json.dumps(text, ensure_ascii=False).replace("${", "$${").replace("%{", "%%{")
