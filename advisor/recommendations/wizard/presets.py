"""The machines on the start page: one click gives a full result.

The first five are the seed articles' machines (the same profiles as tests/golden/profiles/, which
name the article each comes from); the last is a modern NVMe server. Each preset is a raw profile,
exactly what a client would POST to the API, so it goes through the same validation.
"""

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Preset:
    slug: str
    title: str
    blurb: str
    source: str | None  # bibliography key of the seed article
    profile: dict[str, Any]


def _profile(
    server: tuple[str, str],
    hardware: dict[str, Any],
    storage: dict[str, Any],
    workload: dict[str, Any],
) -> dict[str, Any]:
    flavor, version = server
    return {
        "server": {"flavor": flavor, "version": version},
        "hardware": {**hardware, "storage": {"measured_iops": None, **storage}},
        "workload": {"recovery_target_minutes": None, **workload},
        "current": None,
    }


PRESETS: tuple[Preset, ...] = (
    Preset(
        "2-disk-sata",
        "2-disk SATA box",
        "2 cores, 2 GB RAM, two 7,200 rpm SATA disks in software RAID0; IO-bound TPC-C.",
        # Mark Callaghan, "InnoDB, IO-bound OLTP, 2-disk server", 2009-06-08 (seed 000).
        "callaghan-2009-2disk",
        _profile(
            ("mysql", "8.0.36"),
            {"ram_gb": 2, "cpu_cores": 2, "filesystem": "xfs", "kernel": None},
            {
                "media": "hdd",
                "rpm": 7200,
                "device_count": 2,
                "raid_level": "raid0",
                "controller_cache": "none",
            },
            {"kind": "oltp", "data_size_gb": 2, "concurrency": 8, "durability": "relaxed"},
        ),
    ),
    Preset(
        "10-disk-insert",
        "10-disk RAID0 insert server",
        "8 cores, 16 GB RAM, ten disks in RAID0 loading a billion rows into indexed tables.",
        # Mark Callaghan, "InnoDB insert performance", 2008-12-10 (seed 001).
        "callaghan-2008-insert",
        _profile(
            ("percona", "8.0.36"),
            {"ram_gb": 16, "cpu_cores": 8, "filesystem": None, "kernel": None},
            {
                "media": "hdd",
                "rpm": 7200,
                "device_count": 10,
                "raid_level": "raid0",
                "controller_cache": "none",
            },
            {"kind": "bulk_insert", "data_size_gb": 100, "concurrency": 4, "durability": "relaxed"},
        ),
    ),
    Preset(
        "6-disk-bbu",
        "6-disk RAID10 with battery-backed cache",
        "8 cores, 32 GB RAM, six 10k disks in RAID10 behind a PERC 6 with BBU; TPC-C-like.",
        # Vadim Tkachenko, "XtraDB benchmarks – 1.5X gain in IO-bound load", 2008-12 (seed 002).
        "percona-2008-xtradb-iobound",
        _profile(
            ("percona", "8.0.36"),
            {"ram_gb": 32, "cpu_cores": 8, "filesystem": None, "kernel": None},
            {
                "media": "hdd",
                "rpm": 10000,
                "device_count": 6,
                "raid_level": "raid10",
                "controller_cache": "write_back_bbu",
            },
            {"kind": "oltp", "data_size_gb": 4, "concurrency": 20, "durability": "full"},
        ),
    ),
    Preset(
        "8-disk-raid10",
        "8-disk RAID10",
        "16 cores, 32 GB RAM, eight 15k disks in RAID10 with BBU; TPC-C-like, 100 warehouses.",
        # Vadim Tkachenko, "read_ahead (disabled) as steroid", 2009-05-12 (seed 004).
        "percona-2009-readahead",
        _profile(
            ("mysql", "8.4.3"),
            {"ram_gb": 32, "cpu_cores": 16, "filesystem": None, "kernel": None},
            {
                "media": "hdd",
                "rpm": 15000,
                "device_count": 8,
                "raid_level": "raid10",
                "controller_cache": "write_back_bbu",
            },
            {"kind": "oltp", "data_size_gb": 10, "concurrency": 32, "durability": "full"},
        ),
    ),
    Preset(
        "single-hdd",
        "A single hard disk",
        "4 cores, 8 GB RAM, one 7,200 rpm disk; a small web application on MariaDB.",
        # Seed 004's remark: "for a single HDD read-ahead may be useful".
        "percona-2009-readahead",
        _profile(
            ("mariadb", "10.11"),
            {"ram_gb": 8, "cpu_cores": 4, "filesystem": "ext4", "kernel": None},
            {
                "media": "hdd",
                "rpm": 7200,
                "device_count": 1,
                "raid_level": "none",
                "controller_cache": "none",
            },
            {"kind": "read_write", "data_size_gb": 20, "concurrency": 16, "durability": "full"},
        ),
    ),
    Preset(
        "nvme-modern",
        "Modern NVMe server",
        "64 cores, 256 GB RAM, four NVMe drives in RAID10, 1 TB of OLTP data on MariaDB 11.4.",
        None,
        _profile(
            ("mariadb", "11.4"),
            {"ram_gb": 256, "cpu_cores": 64, "filesystem": "xfs", "kernel": "6.8"},
            {
                "media": "nvme",
                "device_count": 4,
                "raid_level": "raid10",
                "controller_cache": "none",
            },
            {
                "kind": "oltp",
                "data_size_gb": 1000,
                "concurrency": 256,
                "durability": "full",
                "recovery_target_minutes": 5,
            },
        ),
    ),
)
PRESETS_BY_SLUG: dict[str, Preset] = {preset.slug: preset for preset in PRESETS}
