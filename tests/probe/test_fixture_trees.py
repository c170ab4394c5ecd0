"""The probe on fixture trees of hosts this machine is not: md RAID10, LVM over md, MegaRAID
with a battery (write-back and learn cycle, through StorCLI; and through MegaCLI), HP Smart
Array, Adaptec, an EBS NVMe volume and a cgroup v2 container. Expected values are the
machines' own, as each fixture's README describes them."""

import shutil
from typing import Any

import pytest

from tests.probe.run import FIXTURES, fixture_run, run_probe, source, storage

CASES: list[tuple[str, dict[str, Any]]] = [
    ("md-raid10", {"media": "hdd", "raid_level": "raid10", "device_count": 4}),
    ("lvm-over-md", {"media": "sata_ssd", "raid_level": "raid1", "device_count": 2}),
    (
        "megaraid-writeback",
        {
            "media": "hdd",
            "raid_level": "raid10",
            "device_count": 8,
            "controller_cache": "write_back_bbu",
        },
    ),
    (
        "megaraid-learn-cycle",
        {
            "media": "hdd",
            "raid_level": "raid10",
            "device_count": 8,
            "controller_cache": "write_back_bbu",
        },
    ),
    (
        "smartarray",
        {
            "media": "hdd",
            "rpm": 15000,
            "raid_level": "raid10",
            "device_count": 4,
            "controller_cache": "write_back_bbu",
        },
    ),
    (
        "megacli-raid10",
        {"raid_level": "raid10", "device_count": 8, "controller_cache": "write_back_bbu"},
    ),
    (
        "arcconf-raid10",
        {
            "media": "hdd",
            "raid_level": "raid10",
            "device_count": 6,
            "controller_cache": "write_back_bbu",
        },
    ),
    ("ebs-nvme", {"media": "network_ssd", "raid_level": "none", "device_count": 1}),
    ("cgroup-v2-container", {"media": "nvme", "raid_level": "none", "device_count": 1}),
    ("cgroup-v1-container", {"media": "nvme", "raid_level": "none", "device_count": 1}),
]


@pytest.mark.parametrize(("tree", "expected"), CASES, ids=[c[0] for c in CASES])
def test_it_reads_the_storage_of_each_fixture_host(tree: str, expected: dict[str, Any]) -> None:
    run = fixture_run(tree)
    run.no_traceback()
    profile = run.profile
    assert {key: storage(profile).get(key) for key in expected} == expected
    for key in expected:
        assert f"hardware.storage.{key}" in profile["provenance"]
    # No server client on PATH: a partial profile (exit 3) that says what is missing.
    assert run.code == 3
    assert any("server flavor" in line for line in profile["undetected"])


def test_it_says_it_did_not_measure_the_cpu_and_how_to() -> None:
    profile = fixture_run("md-raid10").profile
    assert "measured_cpu" not in profile["hardware"]
    lines = [line for line in profile["undetected"] if line.startswith("CPU speed")]
    assert len(lines) == 1
    assert "hardware.measured_cpu" in lines[0]


def test_it_reads_the_md_array_chain_and_the_disks_queue_settings() -> None:
    profile = fixture_run("md-raid10").profile
    assert profile["hardware"]["filesystem"] == "xfs"
    assert profile["current"]["os"] == {
        "io_scheduler": "mq-deadline",  # the member disks' (md itself has none)
        "read_ahead_kb": 4096,  # md0's, the device the filesystem reads through
        "swappiness": 1,
    }
    assert "md0" in profile["provenance"]["hardware.storage.raid_level"]["from"]
    assert source(profile, "hardware.storage.controller_cache") == "assumed"
    assert any("rpm" in line for line in profile["undetected"])


def test_it_follows_lvm_down_through_md_to_the_ssds() -> None:
    run = fixture_run("lvm-over-md")
    assert run.profile["hardware"]["filesystem"] == "ext4"
    assert run.profile["hardware"]["kernel"] == "4.18.0-513.5.1.el8_9.x86_64"
    assert "dm-2 (lvm) -> md127 (md raid1) -> (sda1 -> sda" in run.stderr


def test_a_battery_in_a_learn_cycle_is_named_for_the_user_to_check() -> None:
    learning = fixture_run("megaraid-learn-cycle").profile
    steady = fixture_run("megaraid-writeback").profile
    assert any("learn cycle" in line for line in learning["undetected"])
    assert not any("learn cycle" in line for line in steady["undetected"])
    cache = learning["provenance"]["hardware.storage.controller_cache"]
    assert cache["source"] == "detected"
    assert "Learning" in cache["from"]


def test_a_raid_logical_drive_without_its_vendor_tool_says_what_to_enter() -> None:
    run = fixture_run("megaraid-writeback", tools=False)
    run.no_traceback()
    profile = run.profile
    assert source(profile, "hardware.storage.raid_level") == "assumed"
    assert source(profile, "hardware.storage.device_count") == "assumed"
    assert source(profile, "hardware.storage.controller_cache") == "assumed"
    assert any("storcli64" in line and "not installed" in line for line in profile["undetected"])


def test_an_ebs_volume_takes_its_type_and_limits_from_the_command_line() -> None:
    bare = fixture_run("ebs-nvme").profile
    assert source(bare, "hardware.storage.media") == "assumed"
    assert any("--volume-type" in line for line in bare["undetected"])
    given = fixture_run(
        "ebs-nvme",
        "--volume-type",
        "aws_gp3",
        "--provisioned-iops",
        "6000",
        "--provisioned-mbps",
        "250",
    ).profile
    assert storage(given)["volume_type"] == "aws_gp3"
    assert storage(given)["provisioned_iops"] == 6000
    assert storage(given)["provisioned_mbps"] == 250
    assert source(given, "hardware.storage.media") == "detected"


def test_provisioned_limits_on_a_local_disk_are_ignored_with_a_note() -> None:
    profile = fixture_run("md-raid10", "--provisioned-iops", "3000").profile
    assert "provisioned_iops" not in storage(profile)
    assert any("ignored" in line for line in profile["undetected"])


def test_a_cgroup_v2_limit_below_the_host_is_the_memory_limit_and_the_cpu_limit() -> None:
    profile = fixture_run("cgroup-v2-container").profile
    hardware = profile["hardware"]
    assert hardware["ram_gb"] == pytest.approx(65843212 / 1024**2, abs=0.01)  # the host's
    assert hardware["memory_limit_gb"] == 4.0  # memory.max 4294967296
    assert hardware["cpu_cores"] == 16  # the host's, /sys/devices/system/cpu/online 0-15
    assert hardware["cpu_limit"] == 2.0  # cpu.max 200000 100000
    assert "cpu.max" in profile["provenance"]["hardware.cpu_limit"]["from"]
    assert "memory.max" in profile["provenance"]["hardware.memory_limit_gb"]["from"]


def test_a_host_without_a_limit_has_no_memory_limit_field() -> None:
    profile = fixture_run("md-raid10").profile
    assert "memory_limit_gb" not in profile["hardware"]
    assert "cpu_limit" not in profile["hardware"]
    assert profile["hardware"]["cpu_cores"] == 16


def test_every_provenance_path_is_a_field_the_profile_has() -> None:
    for tree, _ in CASES:
        profile = fixture_run(tree).profile
        for path, entry in profile["provenance"].items():
            node: Any = profile
            for key in path.split("."):
                node = node[key]
            assert entry["source"] in ("detected", "measured", "assumed")
            assert 0 < len(entry["from"]) <= 200
        assert all(0 < len(line) <= 200 for line in profile["undetected"])
        assert profile["probe"]["version"]


@pytest.mark.parametrize(
    ("vendor", "model", "media", "label"),
    [
        # Google Persistent Disk on SCSI: vendor Google, model PersistentDisk (disk-symlinks doc)
        ("Google  ", "PersistentDisk  ", "network_ssd", "Google Persistent Disk"),
        ("", "nvme_card-pd", "network_ssd", "Google Persistent Disk (NVMe)"),
        # Azure managed disk: vendor Msft, model Virtual Disk (Azure device-name troubleshooting)
        ("Msft    ", "Virtual Disk    ", "network_ssd", "Azure managed disk"),
        # Local instance storage stays local flash (AWS instance store, Google local SSD)
        ("", "Amazon EC2 NVMe Instance Storage", "nvme", None),
        ("", "nvme_card", "nvme", None),
    ],
)
def test_cloud_volumes_are_told_apart_from_local_instance_storage(
    tmp_path, vendor: str, model: str, media: str, label: str | None
) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES / "ebs-nvme", tree)
    device = tree / "sys/block/nvme1n1/device"
    (device / "model").write_text(model + "\n")
    if vendor:
        (device / "vendor").write_text(vendor + "\n")
    run = run_probe("--root", str(tree), "--datadir", "/var/lib/mysql", path="/nonexistent")
    run.no_traceback()
    assert storage(run.profile)["media"] == media
    origin = run.profile["provenance"]["hardware.storage.media"]["from"]
    assert (label in origin) if label else ("queue/rotational=0" in origin)


def test_a_cgroup_v1_limit_is_read_under_the_process_cgroup_path() -> None:
    profile = fixture_run("cgroup-v1-container").profile
    hardware = profile["hardware"]
    assert hardware["memory_limit_gb"] == 8.0  # memory.limit_in_bytes 8589934592
    assert hardware["cpu_cores"] == 16  # the host's
    assert hardware["cpu_limit"] == 1.5  # cfs quota 150000 / period 100000, kept fractional
    assert "docker/3f1c9a" in profile["provenance"]["hardware.cpu_limit"]["from"]
