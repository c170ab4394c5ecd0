"""Amazon Aurora MySQL version 3: the DB cluster parameter group and the DB parameter group, as
JSON requests for `aws rds modify-db-cluster-parameter-group` / `modify-db-parameter-group` and
as Terraform `aws_rds_cluster_parameter_group` + `aws_db_parameter_group` blocks.

Each setting goes to the level where Aurora MySQL 3 lets a user change it
(`rules.render.aurora_parameters`); every other recommendation, including one left out as MySQL's
default, is listed with the reason Aurora does not take it. The buffer pool is a formula of the
instance class memory, as in the RDS export.
"""

import json
from dataclasses import dataclass, replace
from typing import Any

from rules.output.result import Result, Setting
from rules.render.aurora_parameters import (
    FAMILY,
    GUIDE_NOTE,
    AuroraParameters,
    aurora_mysql3_parameters,
    placement,
    require_aurora_mysql3,
)
from rules.render.deploy import deploy_header, deploy_settings
from rules.render.memory_share import BUFFER_POOL, pool_fraction
from rules.render.mycnf import SERVER_SCOPE, comment, one_line, server_value
from rules.render.rds import (
    GROUP_NAME,
    Entry,
    modify_requests,
    not_set_json,
    not_set_lines,
    terraform_group,
)

HOST_NOTE = (
    "Aurora manages the hosts and the storage: the IO scheduler, read-ahead, sysctl, transparent "
    "huge pages, NUMA and mount options of this result's operating-system advice do not apply."
)
APPLY_NOTE = (
    "ApplyMethod is immediate for what MySQL 8.0 changes online, pending-reboot otherwise; AWS "
    "takes immediate only for a parameter it lists as dynamic, so should a request be refused "
    "for that, send that parameter with pending-reboot."
)
# RDS lists MySQL's boolean parameters with AllowedValues "0,1" (RDS User Guide, "Parameters for
# MySQL", the describe-engine-default-parameters output shown there; vendored in
# rules/data/vendor/aws/Appendix.MySQL.Parameters.md). The server reads 1/0 as ON/OFF.
_BOOLEAN = {"ON": "1", "OFF": "0"}


@dataclass(frozen=True, slots=True)
class AuroraGroups:
    cluster_name: str
    instance_name: str
    cluster: tuple[Entry, ...]
    instance: tuple[Entry, ...]
    noted: tuple[tuple[Setting, str], ...]  # (setting, why Aurora does not take it)
    header: tuple[str, ...]


def group_names(result: Result) -> tuple[str, str]:
    """(DB cluster parameter group name, DB parameter group name) for `result`."""
    base = f"innodb-io-advisor-{result.id[:12].lower()}"
    if GROUP_NAME.match(base) is None:
        base = "innodb-io-advisor"
    return f"{base}-cluster", base


def aurora_groups(
    result: Result,
    *,
    base_url: str = "",
    what: str,
    use: list[str],
    known: AuroraParameters | None = None,
) -> AuroraGroups:
    """Both groups for `result`; raises OutputRefused for a server Aurora MySQL 3 does not run."""
    flavor = require_aurora_mysql3(result.profile.server)
    written = set(deploy_settings(result))
    known = known if known is not None else aurora_mysql3_parameters()
    levels: dict[str, list[Entry]] = {"cluster": [], "instance": []}
    noted: list[tuple[Setting, str]] = []
    for setting in result.settings:
        if setting.scope != SERVER_SCOPE:
            continue
        where = placement(setting, known)
        if where in levels:
            if setting in written:
                levels[where].append(_entry(result, setting))
        else:
            noted.append((setting, where))
    cluster_name, instance_name = group_names(result)
    notes = [GUIDE_NOTE, HOST_NOTE, APPLY_NOTE]
    if flavor == "percona":
        notes.append("Aurora MySQL is MySQL-compatible, not Percona Server: checked as MySQL 8.0.")
    if not levels["cluster"]:
        notes.append(
            "No recommended setting is one Aurora MySQL 3 lets a user change at the cluster "
            f"level: {cluster_name} keeps the {FAMILY} defaults."
        )
    if any(e.setting.name == BUFFER_POOL and e.value.startswith("{") for e in levels["instance"]):
        notes.append(
            f"{BUFFER_POOL} is a formula of DBInstanceClassMemory (the instance class memory "
            "less what RDS keeps for itself), the share of the profile's RAM recommended."
        )
    # The header's restart and left-out lines speak only of what Aurora takes.
    skipped = {setting for setting, _ in noted}
    kept = replace(result, settings=tuple(s for s in result.settings if s not in skipped))
    header = deploy_header(kept, what, [*use, *notes], base_url=base_url)
    return AuroraGroups(
        cluster_name,
        instance_name,
        tuple(levels["cluster"]),
        tuple(levels["instance"]),
        tuple(noted),
        tuple(header),
    )


def _entry(result: Result, setting: Setting) -> Entry:
    method = "immediate" if setting.dynamic else "pending-reboot"
    share = (
        pool_fraction(result, result.profile.hardware.ram_bytes)
        if setting.name == BUFFER_POOL
        else None
    )
    if share is not None:
        return Entry(setting, f"{{DBInstanceClassMemory*{share[0]}/{share[1]}}}", method)
    value = server_value(setting)
    return Entry(setting, _BOOLEAN.get(value, value), method)


def render_aurora_json(
    result: Result, *, base_url: str = "", known: AuroraParameters | None = None
) -> str:
    """`ModifyDBClusterParameterGroup` and `ModifyDBParameterGroup` requests, with the header and
    the settings Aurora does not take beside them."""
    cluster_name, instance_name = group_names(result)
    use = [
        f"Apply: aws rds create-db-cluster-parameter-group --db-cluster-parameter-group-name "
        f"{cluster_name} --db-parameter-group-family {FAMILY} --description TEXT",
        f"and aws rds create-db-parameter-group --db-parameter-group-name {instance_name} "
        f"--db-parameter-group-family {FAMILY} --description TEXT; then send each request:",
        "jq -c '.ModifyDBClusterParameterGroup[0]' this.json | aws rds "
        "modify-db-cluster-parameter-group --cli-input-json file:///dev/stdin",
        "jq -c '.ModifyDBParameterGroup[0]' this.json | aws rds modify-db-parameter-group "
        "--cli-input-json file:///dev/stdin",
        f"and give the cluster --db-cluster-parameter-group-name {cluster_name}, each instance "
        f"--db-parameter-group-name {instance_name}.",
    ]
    groups = aurora_groups(
        result, base_url=base_url, what="Aurora MySQL parameter groups", use=use, known=known
    )
    document: dict[str, Any] = {
        "Comment": [one_line(line) for line in groups.header],
        "DBParameterGroupFamily": FAMILY,
        "ModifyDBClusterParameterGroup": modify_requests(
            groups.cluster, "DBClusterParameterGroupName", groups.cluster_name
        ),
        "ModifyDBParameterGroup": modify_requests(
            groups.instance, "DBParameterGroupName", groups.instance_name
        ),
        "NotSetOnAurora": not_set_json(groups.noted),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def render_aurora_terraform(
    result: Result, *, base_url: str = "", known: AuroraParameters | None = None
) -> str:
    """An `aws_rds_cluster_parameter_group` and an `aws_db_parameter_group` resource."""
    use = [
        "Use: put these resources in a Terraform configuration with the AWS provider and point",
        "the aws_rds_cluster and its aws_rds_cluster_instance resources at them:",
        "db_cluster_parameter_group_name = aws_rds_cluster_parameter_group.innodb_io_advisor.name",
        "db_parameter_group_name = aws_db_parameter_group.innodb_io_advisor.name",
    ]
    what = "Terraform Aurora MySQL parameter groups"
    groups = aurora_groups(result, base_url=base_url, what=what, use=use, known=known)
    lines = [comment("#", line) for line in groups.header]
    blocks = (
        ("aws_rds_cluster_parameter_group", groups.cluster_name, groups.cluster),
        ("aws_db_parameter_group", groups.instance_name, groups.instance),
    )
    for resource, name, entries in blocks:
        lines += terraform_group(resource, name, FAMILY, result.id, entries)
    lines += not_set_lines("# Not set: Aurora MySQL 3 does not take these", groups.noted)
    return "\n".join(lines) + "\n"
