"""What the model reads from a server's configuration: the variables, the release's defaults
beneath them, and the figures derived from them (redo size, io_capacity_max, change buffering)."""

import math
from collections.abc import Mapping
from functools import lru_cache

from rules.inputs.enums import Flavor
from rules.inputs.profile import Profile
from rules.inputs.version import ServerVersion
from rules.reference.catalog import catalog_for
from rules.units import MIB

ConfigValue = int | float | str


def change_buffer_of(config: Mapping[str, ConfigValue]) -> bool:
    """Whether secondary-index changes are buffered, from innodb_change_buffering with the
    release's defaults filled in (none since MySQL 8.4, mysql-manual-8-4-defaults; the variable
    is gone in MariaDB 11.0, where the catalog has no default and nothing is buffered)."""
    value = config.get("innodb_change_buffering")
    return value is not None and str(value).strip().lower() not in ("none", "0")


# The server variables the model reads; a configuration that leaves one out runs the release's
# compiled default, taken from the variable catalog (rules/data/variables.json).
SERVER_VARIABLES = (
    "innodb_buffer_pool_size",
    "innodb_flush_log_at_trx_commit",
    "innodb_flush_method",
    "innodb_max_dirty_pages_pct",
    "innodb_read_ahead_threshold",
    "innodb_random_read_ahead",
    "innodb_doublewrite",
    "innodb_flush_neighbors",
    "sync_binlog",
    "innodb_io_capacity",
    "innodb_io_capacity_max",
    "innodb_redo_log_capacity",
    "innodb_log_file_size",
    "innodb_log_files_in_group",
    "innodb_change_buffering",
)


def with_server_defaults(
    profile: Profile, config: Mapping[str, ConfigValue]
) -> dict[str, ConfigValue]:
    """`config` over the release's compiled defaults of every variable the model reads.

    A configuration that sizes the redo by its old file variables, on a release that sizes it
    by innodb_redo_log_capacity, runs with those files (the server reads them when the capacity
    is unset: mysql-manual-redo-log), so the default capacity is left out then."""
    return over_defaults(server_defaults(profile.server.flavor, profile.server.version), config)


def over_defaults(
    defaults: tuple[dict[str, ConfigValue], dict[str, ConfigValue]],
    config: Mapping[str, ConfigValue],
) -> dict[str, ConfigValue]:
    """with_server_defaults from server_defaults' pair, read once for many configurations."""
    legacy = "innodb_log_file_size" in config or "innodb_log_files_in_group" in config
    return {**defaults[legacy and "innodb_redo_log_capacity" not in config], **config}


@lru_cache(maxsize=256)
def server_defaults(
    flavor: Flavor, version: ServerVersion
) -> tuple[dict[str, ConfigValue], dict[str, ConfigValue]]:
    """The release's defaults, then the same without innodb_redo_log_capacity (for a
    configuration that sizes the redo by its file variables)."""
    catalog = catalog_for(flavor, version)
    defaults = {name: catalog.default(name) for name in SERVER_VARIABLES}
    if defaults["innodb_redo_log_capacity"] is not None:
        # 8.0.30+ sizes the redo by capacity; the old file variables are then ignored.
        defaults["innodb_log_file_size"] = None
    kept = {name: value for name, value in defaults.items() if value is not None}
    return kept, {k: v for k, v in kept.items() if k != "innodb_redo_log_capacity"}


def read_ahead_on(config: Mapping[str, ConfigValue]) -> bool:
    threshold = int(float(config.get("innodb_read_ahead_threshold", 56)))
    return threshold < 64 or str(config.get("innodb_random_read_ahead")) == "ON"


def scheduler_of(config: Mapping[str, ConfigValue]) -> str:
    return str(config.get("io_scheduler", ""))


def redo_mb_of(profile: Profile, config: Mapping[str, ConfigValue]) -> float:
    """Total redo under `config`: innodb_redo_log_capacity (MySQL 8.0.30+), else the file size
    times the files in the group (two by default on MySQL and before MariaDB 10.5, one since:
    mariadb-docs-log-file-size); unknown when neither is set."""
    if "innodb_redo_log_capacity" in config:
        return float(config["innodb_redo_log_capacity"]) / MIB
    if "innodb_log_file_size" not in config:
        return math.inf
    server = profile.server
    single = server.flavor is Flavor.MARIADB and server.version.key() >= (10, 5, 0)
    files = float(config.get("innodb_log_files_in_group", 1 if single else 2))
    return float(config["innodb_log_file_size"]) * files / MIB


def io_capacity_max_of(config: Mapping[str, ConfigValue]) -> float:
    """innodb_io_capacity_max as set, else its default: twice innodb_io_capacity, at least
    2000 (mysql-manual-io-capacity)."""
    if "innodb_io_capacity_max" in config:
        return float(config["innodb_io_capacity_max"])
    io_capacity = float(config.get("innodb_io_capacity", 200))
    return max(2000.0, 2.0 * io_capacity)


def io_capacity_of(config: Mapping[str, ConfigValue]) -> float:
    """innodb_io_capacity as set, else its default, 200 (mysql-manual-io-capacity): the pages per
    second background tasks, the change buffer's merges among them, may use."""
    return float(config.get("innodb_io_capacity", 200))


def mysql_8_or_later(profile: Profile) -> bool:
    """MySQL or Percona Server 8.0 or later (calibration.model's mysql8_cpu); MariaDB never
    took 8.0's code."""
    server = profile.server
    return server.flavor is not Flavor.MARIADB and server.version.key() >= (8, 0, 0)


def flush_neighbors_of(profile: Profile, config: Mapping[str, ConfigValue]) -> int:
    """innodb_flush_neighbors as set or by the release's default (calibration.features,
    EXTENT_PAGES); a MySQL release before 5.6 has no such variable and flushes every dirty page
    of the extent, as 2 does."""
    if "innodb_flush_neighbors" in config:
        return int(float(config["innodb_flush_neighbors"]))
    server = profile.server
    if server.flavor is not Flavor.MARIADB and server.version.key() < (5, 6, 0):
        return 2
    return 1
