"""Every export of a result, all from one `Result`, and the one registry every face reads.

A new format is one `Format` entry in `REGISTRY`: the wizard's downloads, the API's `?format=`
and `/recommendations/{id}/<format>`, its OpenAPI schema, the CLI's `--format` and the fleet
archive's `?format=` all pick it up from here.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass

from rules.output.result import Result
from rules.output.revert import revert
from rules.render.ansible import render_ansible, render_ansible_tasks
from rules.render.aurora import render_aurora_json, render_aurora_terraform
from rules.render.jsonout import result_from_dict, result_to_dict
from rules.render.k8s import (
    render_k8s_mariadb_operator,
    render_k8s_mysql_operator,
    render_k8s_percona,
)
from rules.render.mycnf import render_mycnf
from rules.render.os_revert import render_sysctl_revert, render_udev_revert
from rules.render.rds import render_rds_json, render_rds_terraform
from rules.render.sql import render_sql
from rules.render.sysctl import render_sysctl
from rules.render.udev import render_udev

__all__ = [
    "BY_NAME",
    "CONTENT_TYPES",
    "FILENAMES",
    "FORMATS",
    "REGISTRY",
    "Format",
    "filename_for",
    "host_filename",
    "render",
    "render_json",
    "render_mycnf",
    "render_revert",
    "render_sql",
    "render_sysctl",
    "render_udev",
    "result_from_dict",
    "result_to_dict",
    "revert_filename_for",
]

TEXT = "text/plain; charset=utf-8"
# RFC 9512 registers application/yaml.
YAML = "application/yaml; charset=utf-8"


def render_json(result: Result, *, base_url: str = "") -> str:
    data = result_to_dict(result, base_url=base_url)
    return json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


@dataclass(frozen=True, slots=True)
class Format:
    name: str  # the `?format=` value; stable
    label: str  # what the wizard's download button says
    renderer: Callable[..., str]
    content_type: str
    filename: str  # `{id}` is the result's id
    description: str  # one line for the API docs and the CLI's help
    group: str  # "server" | "os" | "deploy" | "data": where the wizard shows it


REGISTRY: tuple[Format, ...] = (
    Format("json", "JSON", render_json, "application/json", "innodb-io-advisor-{id}.json",
           "the result with every reason, source and estimate", "data"),
    Format("mycnf", "my.cnf", render_mycnf, TEXT, "innodb-io-advisor-{id}.cnf",
           "a [mysqld] drop-in", "server"),
    Format("sql", "SQL", render_sql, "application/sql; charset=utf-8",
           "innodb-io-advisor-{id}.sql", "SET PERSIST / SET GLOBAL for a running server",
           "server"),
    Format("udev", "udev rules", render_udev, TEXT, "60-innodb-io-advisor.rules",
           "the IO scheduler and read-ahead rules", "os"),
    Format("sysctl", "sysctl.d", render_sysctl, TEXT, "60-innodb-io-advisor.conf",
           "an /etc/sysctl.d/ file: swappiness, dirty page cache", "os"),
    Format("ansible", "Ansible vars", render_ansible, YAML, "innodb-io-advisor-{id}.yml",
           "an Ansible vars file: the drop-in for mysql_config_include_files and each value",
           "deploy"),
    Format("ansible-tasks", "Ansible tasks", render_ansible_tasks, YAML,
           "innodb-io-advisor-{id}-tasks.yml",
           "community.mysql.mysql_variables tasks setting the dynamic values online", "deploy"),
    Format("k8s-percona", "Percona Operator", render_k8s_percona, YAML,
           "innodb-io-advisor-{id}-percona.yaml",
           "PerconaServerMySQL spec.mysql.configuration, as a merge patch", "deploy"),
    Format("k8s-mysql-operator", "MySQL Operator", render_k8s_mysql_operator, YAML,
           "innodb-io-advisor-{id}-innodbcluster.yaml",
           "InnoDBCluster spec.mycnf (MySQL Operator for Kubernetes), as a merge patch",
           "deploy"),
    Format("k8s-mariadb-operator", "MariaDB Operator", render_k8s_mariadb_operator, YAML,
           "innodb-io-advisor-{id}-mariadb.yaml",
           "MariaDB spec.myCnf (mariadb-operator), as a merge patch", "deploy"),
    Format("rds-json", "RDS parameter group (JSON)", render_rds_json, "application/json",
           "innodb-io-advisor-{id}-rds.json",
           "ModifyDBParameterGroup requests for aws rds modify-db-parameter-group", "deploy"),
    Format("rds-terraform", "RDS parameter group (Terraform)", render_rds_terraform, TEXT,
           "innodb-io-advisor-{id}-rds.tf", "a Terraform aws_db_parameter_group resource",
           "deploy"),
    Format("aurora-json", "Aurora MySQL parameter groups (JSON)", render_aurora_json,
           "application/json", "innodb-io-advisor-{id}-aurora.json",
           "Aurora MySQL 3 requests for aws rds modify-db-cluster-parameter-group and "
           "modify-db-parameter-group", "deploy"),
    Format("aurora-terraform", "Aurora MySQL parameter groups (Terraform)",
           render_aurora_terraform, TEXT, "innodb-io-advisor-{id}-aurora.tf",
           "Terraform aws_rds_cluster_parameter_group and aws_db_parameter_group for Aurora "
           "MySQL 3", "deploy"),
)  # fmt: skip

BY_NAME: dict[str, Format] = {f.name: f for f in REGISTRY}
FORMATS: tuple[str, ...] = tuple(BY_NAME)
CONTENT_TYPES: dict[str, str] = {f.name: f.content_type for f in REGISTRY}
# The udev and sysctl files keep the names they must have where they go.
FILENAMES: dict[str, str] = {f.name: f.filename for f in REGISTRY}


def render(result: Result, fmt: str, *, base_url: str = "") -> str:
    """The export `fmt` (one of FORMATS); raises OutputRefused when it cannot be written."""
    entry = BY_NAME.get(fmt)
    if entry is None:
        raise ValueError(f"unknown format {fmt!r}; expected one of: {', '.join(FORMATS)}")
    return entry.renderer(result, base_url=base_url)


def filename_for(result: Result, fmt: str) -> str:
    """The download file name of export `fmt` for `result`."""
    return FILENAMES[fmt].format(id=result.id)


def host_filename(host: str, fmt: str) -> str:
    """The file name of host `host`'s export `fmt` in a fleet archive: `db1.cnf`,
    `db1-percona.yaml`, `db1-60-innodb-io-advisor.rules`."""
    pattern = FILENAMES[fmt]
    if "{id}" in pattern:
        return host + pattern.split("{id}", 1)[1]
    return f"{host}-{pattern}"


OS_REVERTERS = {"udev": render_udev_revert, "sysctl": render_sysctl_revert}


def render_revert(result: Result, fmt: str, *, base_url: str = "") -> str:
    """The revert twin of export `fmt`: the same renderer, given
    `rules.output.revert.revert(result)`;
    the udev and sysctl twins say how to undo the OS change instead (`rules.render.os_revert`).
    Raises NothingToRevert when the result carries no current configuration."""
    reverted = revert(result)
    if fmt in OS_REVERTERS:
        return OS_REVERTERS[fmt](result, base_url=base_url)
    return render(reverted, fmt, base_url=base_url)


def revert_filename_for(result: Result, fmt: str) -> str:
    """The twin's download name: `-revert` before the extension (`...-revert.cnf`)."""
    stem, dot, extension = filename_for(result, fmt).rpartition(".")
    return f"{stem}-revert{dot}{extension}" if dot else f"{extension}-revert"
