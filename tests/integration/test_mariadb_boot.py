"""Exported my.cnf files boot a real MariaDB 10.11, which reports every value we wrote."""

import itertools
from pathlib import Path
from typing import Any

import pytest

from lab.mariadb_server import boot_and_read, same_value
from rules.engine import recommend
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.render.mycnf import render_mycnf

pytestmark = pytest.mark.mariadb

STORAGES: list[dict[str, Any]] = [
    {
        "media": "hdd",
        "rpm": 7200,
        "device_count": 1,
        "raid_level": "none",
        "controller_cache": "none",
    },
    {
        "media": "hdd",
        "rpm": 15000,
        "device_count": 8,
        "raid_level": "raid10",
        "controller_cache": "write_back_bbu",
    },
    {
        "media": "hdd",
        "rpm": 10000,
        "device_count": 6,
        "raid_level": "raid5",
        "controller_cache": "write_through",
    },
    {
        "media": "hdd",
        "rpm": 5400,
        "device_count": 2,
        "raid_level": "raid1",
        "controller_cache": "write_back",
    },
    {"media": "sata_ssd", "device_count": 2, "raid_level": "raid1", "controller_cache": "none"},
    {"media": "nvme", "device_count": 4, "raid_level": "raid10", "controller_cache": "none"},
    {
        "media": "nvme",
        "device_count": 1,
        "raid_level": "none",
        "controller_cache": "none",
        "measured_iops": {"random_read": 450000, "random_write": 180000},
    },
]
# RAM stays within what this 24 GiB machine can allocate for a buffer pool.
MACHINES = [(1, 1, 4), (2, 2, 8), (8, 4, 64), (16, 8, 200)]  # (ram_gb, cores, concurrency)
WORKLOADS = [
    ("oltp", "full", None),
    ("read_write", "relaxed", 10),
    ("update_heavy", "full", 2),
    ("bulk_insert", "relaxed", None),
    ("read_mostly", "full", 0.5),
]


def _profiles() -> list[tuple[str, dict[str, Any]]]:
    """Every storage once, machines and workloads cycled so each value of each shows up."""
    machines, workloads = itertools.cycle(MACHINES), itertools.cycle(WORKLOADS)
    cases = []
    for index, storage in enumerate(STORAGES * 3):
        ram, cores, clients = next(machines)
        kind, durability, recovery = next(workloads)
        version = ("10.11", "10.11.19", "10.11.6")[index % 3]
        raw = raw_profile(
            **{
                "server.flavor": "mariadb",
                "server.version": version,
                "hardware.ram_gb": ram,
                "hardware.cpu_cores": cores,
                "hardware.storage": storage,
                "workload.kind": kind,
                "workload.durability": durability,
                "workload.concurrency": clients,
                "workload.recovery_target_minutes": recovery,
                "workload.data_size_gb": ram * (index + 1),
            }
        )
        # Every other profile writes the version's defaults too, so those values boot as well.
        raw["options"] = {"include_defaults": index % 2 == 0}
        cases.append((f"{index:02d}-{storage['media']}-{storage['raid_level']}-{kind}", raw))
    return cases


PROFILES = _profiles()


def _written_values(mycnf: str) -> dict[str, str]:
    values = {}
    for line in mycnf.splitlines():
        if "=" in line and not line.startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


@pytest.mark.parametrize("raw", [raw for _, raw in PROFILES], ids=[name for name, _ in PROFILES])
def test_an_exported_mycnf_boots_mariadb_and_reads_back(raw, mariadb_template_datadir: Path):
    result = recommend(parse_profile(raw))
    mycnf = render_mycnf(result)
    written = _written_values(mycnf)
    assert set(written) == {s.name for s in result.written_settings()}
    assert len(written) >= (16 if raw["options"]["include_defaults"] else 5)
    boot = boot_and_read(mycnf, written, template_datadir=mariadb_template_datadir)
    assert boot.started, boot.error_log[-3000:]
    mismatched = {
        name: (value, boot.values.get(name))
        for name, value in written.items()
        if not same_value(value, boot.values.get(name, ""))
    }
    assert not mismatched, f"written vs reported: {mismatched}\n{boot.error_log[-2000:]}"
    assert "[ERROR]" not in boot.error_log


def test_the_boot_profiles_cover_every_media_workload_and_durability() -> None:
    raws = [raw for _, raw in PROFILES]
    assert {r["hardware"]["storage"]["media"] for r in raws} == {"hdd", "sata_ssd", "nvme"}
    assert {r["workload"]["kind"] for r in raws} == {kind for kind, _, _ in WORKLOADS}
    assert {r["workload"]["durability"] for r in raws} == {"full", "relaxed"}
    assert len(raws) == 21
