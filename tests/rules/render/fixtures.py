"""Hand-built results for the renderer tests, so they do not depend on the engine."""

from rules.inputs.profile import Profile
from rules.inputs.stored import profile_from_stored
from rules.output.result import (
    Change,
    Effect,
    Estimate,
    Estimates,
    Evidence,
    OsItem,
    Result,
    Setting,
)
from rules.units import GIB, MIB

SOURCE_A = "callaghan-2009-2disk"
SOURCE_B = "percona-2009-readahead"
SOURCE_C = "percona-2008-xtradb-iobound"

UDEV_SCHEDULER = (
    'ACTION=="add|change", KERNEL=="sd[a-z]*", ATTR{queue/rotational}=="1", '
    'ATTR{queue/scheduler}="mq-deadline"'
)
UDEV_READ_AHEAD = (
    'ACTION=="add|change", KERNEL=="sd[a-z]*", ATTR{queue/rotational}=="1", '
    'ATTR{queue/read_ahead_kb}="128"'
)


def inputs(
    flavor: str = "mysql",
    version: str = "8.0.36",
    *,
    current: dict[str, object] | None = None,
    kernel: str | None = "5.15",
) -> dict[str, object]:
    """The contract's example profile, normalised as the engine echoes it."""
    return {
        "server": {"flavor": flavor, "version": version},
        "hardware": {
            "ram_gb": 64.0,
            "cpu_cores": 16,
            "storage": {
                "media": "hdd",
                "rpm": 15000,
                "device_count": 8,
                "raid_level": "raid10",
                "controller_cache": "write_back_bbu",
                "measured_iops": None,
            },
            "filesystem": "xfs",
            "kernel": kernel,
        },
        "workload": {
            "kind": "oltp",
            "data_size_gb": 200.0,
            "concurrency": 64,
            "durability": "full",
            "recovery_target_minutes": None,
        },
        "current": current,
    }


def profile(
    flavor: str = "mysql",
    version: str = "8.0.36",
    *,
    current: dict[str, object] | None = None,
    kernel: str | None = "5.15",
) -> Profile:
    """The typed profile behind `inputs(...)`, read as a stored result's inputs are."""
    return profile_from_stored(inputs(flavor, version, current=current, kernel=kernel))


def _setting(
    name: str,
    value: int | float | str,
    kind: str,
    *,
    dynamic: bool,
    source: str = SOURCE_A,
    reason: str | None = None,
    scope: str = "mysqld",
    current: str | None = None,
    current_is_default: bool = False,
    change: Change | None = None,
    effect: Effect | None = None,
) -> Setting:
    return Setting(
        name=name,
        value=value,
        rule=name.replace("_", "-"),
        reason=reason or f"Reason for {name}.",
        explanation=f"Why {name} has this value on this machine.",
        evidence=(Evidence(source, f"Finding behind {name}."),),
        dynamic=dynamic,
        scope=scope,
        kind=kind,
        current=current,
        current_is_default=current_is_default,
        change=change,
        effect=effect,
    )


def settings() -> tuple[Setting, ...]:
    return (
        _setting(
            "innodb_io_capacity",
            1600,
            "number",
            dynamic=True,
            reason="Background flushing may use about the 1,600 random writes/s of\n8 × 15k disks.",
            current="200",
            change=Change.RAISE,
            effect=Effect(5.0, 20.0),
        ),
        _setting("innodb_io_capacity_max", 3200, "number", dynamic=True),
        _setting("innodb_read_io_threads", 8, "number", dynamic=False, source=SOURCE_C),
        _setting(
            "innodb_flush_method",
            "O_DIRECT",
            "enum",
            dynamic=False,
            current="fsync",
            current_is_default=True,
            change=Change.CHANGE,
        ),
        _setting("innodb_buffer_pool_size", 48 * GIB, "bytes", dynamic=True),
        _setting("innodb_redo_log_capacity", 1536 * MIB, "bytes", dynamic=True),
        _setting("innodb_log_buffer_size", 16 * MIB + 512, "bytes", dynamic=True),
        _setting("innodb_max_dirty_pages_pct", 90.0, "percent", dynamic=True),
        _setting("innodb_max_dirty_pages_pct_lwm", 12.5, "percent", dynamic=True),
        _setting("innodb_random_read_ahead", "OFF", "enum", dynamic=True, source=SOURCE_B),
        _setting("innodb_flush_log_at_trx_commit", 1, "number", dynamic=True, change=Change.KEEP),
        _setting("open_files_limit", 65535, "number", dynamic=False, scope="mysqld_safe"),
    )


def os_items() -> tuple[OsItem, ...]:
    return (
        OsItem(
            name="io_scheduler",
            value="mq-deadline",
            devices="data devices (rotational)",
            rule="io-scheduler-per-device-class",
            explanation="Deadline keeps reads from starving behind writes on disks.",
            evidence=(Evidence(SOURCE_C, "NOOP vs CFQ: 4x."),),
            commands=("echo mq-deadline > /sys/block/sdX/queue/scheduler",),
            persist=UDEV_SCHEDULER + "\n",
            persist_path="/etc/udev/rules.d/60-innodb-io-advisor.rules",
            current="cfq",
            change=Change.CHANGE,
        ),
        OsItem(
            name="read_ahead_kb",
            value="128",
            devices="data devices (rotational)",
            rule="os-read-ahead",
            explanation="Small read-ahead for random IO.",
            evidence=(Evidence(SOURCE_B, "read-ahead off: ~15% gain."),),
            commands=("echo 128 > /sys/block/sdX/queue/read_ahead_kb",),
            persist=UDEV_READ_AHEAD,
            persist_path="/etc/udev/rules.d/60-innodb-io-advisor.rules",
        ),
        OsItem(
            name="vm.swappiness",
            value="1",
            devices="all",
            rule="os-swappiness",
            explanation="Keep the buffer pool out of swap.",
            evidence=(Evidence(SOURCE_A, "swapping hurts."),),
            commands=("sysctl -w vm.swappiness=1",),
            persist="vm.swappiness = 1\n",
            persist_path="/etc/sysctl.d/60-innodb-io-advisor.conf",
        ),
    )


def estimates() -> Estimates:
    return Estimates(
        recommended=Estimate("NOTPM", 5200.0, 9100.0, 0.8, "random reads", True),
        current=Estimate("NOTPM", 2100.0, 3900.0, 0.8, "page flushing", False),
    )


def mysql80_result() -> Result:
    """MySQL 8.0: SET PERSIST, a current config, two warnings, an estimate for both."""
    return Result(
        id="7f3c0a1b2c3d4e5f",
        ruleset_version="2026.1",
        calibration_version="2026.1-118pts",
        profile=profile(current={"origin": "variables", "innodb_io_capacity": "200"}),
        settings=settings(),
        os=os_items(),
        estimate=estimates(),
        warnings=("RAM is smaller than the data:\nexpect reads from disk.", "Second warning."),
    )


def mysql57_result() -> Result:
    """MySQL 5.7: no SET PERSIST; no calibration, no estimate, no warnings."""
    return Result(
        id="57aa57aa57aa57aa",
        ruleset_version="2026.1",
        calibration_version=None,
        profile=profile("mysql", "5.7.44", kernel=None),
        settings=settings(),
        os=os_items()[2:],
        estimate=None,
    )


def mariadb_result() -> Result:
    """MariaDB 10.11: SET GLOBAL, only a sysctl OS item (so no udev rule)."""
    return Result(
        id="ma1011ma1011ma10",
        ruleset_version="2026.1",
        calibration_version="2026.1-118pts",
        profile=profile("mariadb", "10.11"),
        settings=settings()[:3],
        os=os_items()[2:],
        estimate=Estimates(recommended=estimates().recommended),
    )


def refused_result() -> Result:
    """MySQL 5.0: estimates only; my.cnf and SQL are refused."""
    return Result(
        id="50oldoldoldoldol",
        ruleset_version="2026.1",
        calibration_version=None,
        profile=profile("mysql", "5.0.77"),
        settings=settings()[:2],
        os=(),
        estimate=None,
        warnings=("MySQL 5.0 is older than the supported range.",),
        output_refused="my.cnf and SQL are written for MySQL 5.7, 8.0, 8.4 and 9.x; got 5.0.77.",
    )


ALL = (mysql80_result, mysql57_result, mariadb_result, refused_result)
