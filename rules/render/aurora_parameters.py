"""Where each recommended setting goes in Aurora MySQL version 3 (MySQL 8.0-compatible, parameter
group family aurora-mysql8.0): the DB cluster parameter group, the DB parameter group, or a note
saying why Aurora does not take it.

The levels and what a user may change come from rules/data/aurora_mysql3_parameters.json,
derived by scripts/derive_aurora_parameters.py from the Aurora User Guide's "Aurora MySQL
configuration parameters" page, vendored in rules/data/vendor/aws/ (see the README there). A
setting in neither of its tables is not taken: the page says each table shows all of the
parameters of its level.
"""

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Literal

from rules.inputs.errors import OutputRefused
from rules.inputs.profile import Server
from rules.output.result import Setting

FAMILY = "aurora-mysql8.0"
# Every Aurora MySQL 3.x release is compatible with a MySQL 8.0 release (Aurora MySQL Release
# Notes, document history, e.g. "Aurora MySQL version 3.10.0, compatible with MySQL 8.0.42",
# https://docs.aws.amazon.com/AmazonRDS/latest/AuroraMySQLReleaseNotes/doc-history.html); its
# parameter group family is aurora-mysql8.0
# (RDS API Reference, CreateDBClusterParameterGroup, DBParameterGroupFamily: "Example:
# aurora-mysql5.7, aurora-mysql8.0"; the same text is in botocore's rds service model).
MYSQL_SERIES = (8, 0)
GUIDE_NOTE = (
    'What Aurora takes follows the Aurora User Guide, "Aurora MySQL configuration parameters" '
    "(its cluster-level and instance-level tables and its list of MySQL parameters that don't "
    "apply; the page as of 2023-06-10), "
    "https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/AuroraMySQL.Reference.ParameterGroups.html"
)
DATA_FILE = "aurora_mysql3_parameters.json"

Level = Literal["cluster", "instance"]

# Why the instance does not pace, shape or size its own writes on Aurora: the instance sends
# only redo records to the cluster's storage volume, and the storage nodes build the pages from
# them; the instance writes no data pages and takes no checkpoints (Verbitski et al., "Amazon
# Aurora: Design Considerations for High Throughput Cloud-Native Relational Databases", SIGMOD
# 2017, section 3.2, https://doi.org/10.1145/3035918.3056101; AWS Database Blog, "Planning I/O in
# Amazon Aurora", https://aws.amazon.com/blogs/database/planning-i-o-in-amazon-aurora/).
_STORAGE = "Aurora's storage layer builds and writes the pages from the redo the instance sends"
_NO_FLUSHING = f"{_STORAGE}, so there is no page flushing on the instance for this to pace"
_NO_FILES = f"{_STORAGE}; the instance has no data files of its own to open or write"
_NO_REDO_FILES = f"{_STORAGE}; there are no redo log files on the instance to size"
_WHY_NOT_APPLICABLE: dict[str, str] = {
    "innodb_io_capacity": _NO_FLUSHING,
    "innodb_io_capacity_max": _NO_FLUSHING,
    "innodb_max_dirty_pages_pct": _NO_FLUSHING,
    "innodb_adaptive_flushing": _NO_FLUSHING,
    "innodb_adaptive_flushing_lwm": _NO_FLUSHING,
    "innodb_flush_neighbors": f"{_STORAGE}, so there are no neighbouring page writes to group",
    "innodb_doublewrite": f"{_STORAGE}, so no page is written torn for a doublewrite to repair",
    "innodb_flush_method": _NO_FILES,
    "innodb_use_native_aio": _NO_FILES,
    "innodb_write_io_threads": _NO_FILES,
    "innodb_log_file_size": _NO_REDO_FILES,
    "innodb_log_files_in_group": _NO_REDO_FILES,
    "innodb_redo_log_capacity": _NO_REDO_FILES,
}
_WHY_STATUS = {
    "not modifiable": "Aurora MySQL 3 does not let a user change this {level}-level parameter",
    "not in version 3": "Aurora MySQL 3 no longer has this {level}-level parameter",
    "only at cluster creation": "Aurora MySQL 3 takes it only when the cluster is created",
    "only at the cluster level": "Aurora MySQL 3 takes it only at the cluster level",
}


@dataclass(frozen=True, slots=True)
class AuroraParameters:
    cluster: Mapping[str, str]  # name -> status, as derived
    instance: Mapping[str, str]
    not_applicable: frozenset[str]
    source_sha256: str


@functools.cache
def aurora_mysql3_parameters() -> AuroraParameters:
    """The derived lists (rules/data/aurora_mysql3_parameters.json)."""
    path = resources.files("rules").joinpath("data", DATA_FILE)
    data = json.loads(path.read_text(encoding="utf-8"))
    return AuroraParameters(
        cluster=dict(data["cluster"]),
        instance=dict(data["instance"]),
        not_applicable=frozenset(data["not_applicable"]),
        source_sha256=str(data["source_sha256"]),
    )


def require_aurora_mysql3(server: Server) -> str:
    """The flavor ("mysql" or "percona") of a profile Aurora MySQL version 3 can run; any other
    server is refused with the reason."""
    flavor, text, version = server.flavor.value, server.version_text, server.version
    if flavor == "mariadb":
        raise OutputRefused(
            f"Aurora MySQL runs MySQL, not MariaDB: no Aurora parameter group for mariadb {text} "
            "(RDS for MariaDB is the rds-json / rds-terraform formats)"
        )
    if flavor not in ("mysql", "percona"):
        raise OutputRefused(f"Aurora MySQL has no parameter group for {flavor} {text}".rstrip())
    if version.series != MYSQL_SERIES:
        raise OutputRefused(
            f"the Aurora export covers Aurora MySQL version 3, which is MySQL 8.0-compatible "
            f"(family {FAMILY}); this result is for {flavor} {text}"
        )
    return flavor


def placement(setting: Setting, known: AuroraParameters) -> Level | str:
    """ "cluster" or "instance" where Aurora MySQL 3 lets a user set `setting`, or else the
    note saying why it is not set."""
    name = setting.name
    if name in known.not_applicable:
        why = _WHY_NOT_APPLICABLE.get(name, "Aurora's architecture differs from MySQL's here")
        return f"on the guide's list of MySQL parameters that don't apply to Aurora MySQL: {why}"
    cluster, instance = known.cluster.get(name), known.instance.get(name)
    # Modifiable at both levels (none of today's settings is): the cluster group, which every
    # instance of the cluster reads, rather than one group per instance.
    if cluster == "modifiable":
        return "cluster"
    if instance == "modifiable":
        return "instance"
    if name == "innodb_flush_log_at_trx_commit" and cluster == "not modifiable":
        kept = "as recommended" if str(setting.value) == "1" else "the relaxed value cannot be had"
        return f"Aurora MySQL 3 always uses 1 and does not let a user change it: {kept}"
    level, status = ("cluster", cluster) if cluster is not None else ("instance", instance)
    if status is None:
        return (
            "in neither of the guide's tables of Aurora MySQL parameters (cluster and instance "
            "level), so no parameter group takes it"
        )
    return _WHY_STATUS[status].format(level=level)
