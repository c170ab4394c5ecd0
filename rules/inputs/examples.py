"""Profile builders shared by the rule and calibration tests: the contract's example, overridden."""

import copy
from typing import Any

from rules.inputs.errors import ProfileError
from rules.inputs.profile import Profile
from rules.inputs.validation import parse_profile

EXAMPLE: dict[str, Any] = {
    "server": {"flavor": "mysql", "version": "8.0.36"},
    "hardware": {
        "ram_gb": 64,
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
        "kernel": "5.15",
    },
    "workload": {
        "kind": "oltp",
        "data_size_gb": 200,
        "concurrency": 64,
        "durability": "full",
        "recovery_target_minutes": None,
    },
    "current": None,
}


def raw_profile(**overrides: Any) -> dict[str, Any]:
    """The example with dotted-path overrides: raw_profile(**{"hardware.ram_gb": 8})."""
    raw = copy.deepcopy(EXAMPLE)
    for path, value in overrides.items():
        node = raw
        *parents, leaf = path.split(".")
        for part in parents:
            node = node.setdefault(part, {})  # a section the example leaves out: added
        node[leaf] = value
    return raw


def profile(**overrides: Any) -> Profile:
    return parse_profile(raw_profile(**overrides))


def parse_or_errors(raw: Any) -> tuple[Profile | None, dict[str, list[str]]]:
    """(the profile, {}) or (None, the errors by field path)."""
    try:
        return parse_profile(raw), {}
    except ProfileError as refused:
        return None, refused.errors


def hdd(count: int, level: str, *, rpm: int = 7200, cache: str = "none") -> dict[str, Any]:
    return {
        "hardware.storage.media": "hdd",
        "hardware.storage.rpm": rpm,
        "hardware.storage.device_count": count,
        "hardware.storage.raid_level": level,
        "hardware.storage.controller_cache": cache,
    }


def flash(media: str, count: int = 1, level: str = "none") -> dict[str, Any]:
    return {
        "hardware.storage.media": media,
        "hardware.storage.rpm": None,
        "hardware.storage.device_count": count,
        "hardware.storage.raid_level": level,
        "hardware.storage.controller_cache": "none",
    }


def network(
    count: int = 1,
    level: str = "none",
    *,
    volume_type: str | None = None,
    iops: int | None = None,
    mbps: int | None = None,
) -> dict[str, Any]:
    """Overrides for network volumes (unset figures left out)."""
    given = {"volume_type": volume_type, "provisioned_iops": iops, "provisioned_mbps": mbps}
    found: dict[str, Any] = flash("network_ssd", count, level)
    found |= {f"hardware.storage.{k}": v for k, v in given.items() if v is not None}
    return found


def two_core_read_write(**overrides: Any) -> dict[str, Any]:
    """A small machine whose core count lies below every published read_write machine's and
    whose other columns (clients, device rates, pool share) lie inside the data's."""
    return raw_profile(
        **{
            "hardware.cpu_cores": 2,
            "hardware.ram_gb": 24,
            "hardware.storage": {
                "media": "nvme",
                "device_count": 1,
                "raid_level": "none",
                "controller_cache": "none",
                "measured_iops": {"random_read": 48000, "random_write": 50000},
            },
            "workload.kind": "read_write",
            "workload.data_size_gb": 2,
            "workload.concurrency": 16,
            **overrides,
        }
    )


# What sysbench oltp_point_select made on such a machine, as hardware.measured_cpu gives it.
MEASURED_POINT_SELECTS = {"point_select_qps": 68000, "threads": 16}


def two_core_read_write_measured_at_one_client_a_core(**overrides: Any) -> dict[str, Any]:
    """two_core_read_write with its point selects measured, run and measured at one client a
    core: within the clients per core at which published machines priced read_write's CPU
    against their point selects (calibration.kind_cpu_cost.priced_loads: up to 0.83, 1.04 with
    the domain's tolerance), so the price is inside the data; its 2 cores are not, measured or
    not (calibration.domain)."""
    return two_core_read_write(
        **{
            "hardware.measured_cpu": {"point_select_qps": 20000, "threads": 2},
            "workload.concurrency": 2,
            **overrides,
        }
    )


def eight_core_read_write_measured_at_one_client_a_core(**overrides: Any) -> dict[str, Any]:
    """two_core_read_write with 8 cores, as many as the smallest published read_write machine
    had, its point selects measured, run and measured at one client a core: every column and
    the load its CPU price was seen at lie inside the data, so its estimates are not widened."""
    return two_core_read_write(
        **{
            "hardware.cpu_cores": 8,
            "hardware.measured_cpu": {"point_select_qps": 80000, "threads": 8},
            "workload.concurrency": 8,
            **overrides,
        }
    )
