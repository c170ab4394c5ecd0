"""Emulated machines on this host: a cgroup with memory and cpu limits holds the server, and is
gone afterwards; an io limit needs a block device (tmpfs has none: the lab says so)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab import cgroups
from lab.mariadb_server import running_server

LIMITS = cgroups.Limits(memory_bytes=256 * 1024**2, cpus=0.5)
DISK_DIR = Path("/var/tmp")  # ext4 on a virtio disk on this project's machines
TMPFS = Path("/dev/shm")


def create_or_skip(limits: cgroups.Limits, where: Path) -> cgroups.Cgroup:
    """The group, or a skip that says exactly why this machine refuses it (not root, cgroup v2
    without delegation, no such controller)."""
    try:
        return cgroups.create(limits, where)
    except cgroups.CgroupRefused as refused:
        pytest.skip(f"cgroups cannot be set here: {refused}")


def test_it_reads_the_cgroup_version_as_the_mount_table_says() -> None:
    mounts = Path("/proc/self/mounts").read_text()
    unified = any(
        line.split()[1:3] == ["/sys/fs/cgroup", "cgroup2"] for line in mounts.splitlines()
    )
    assert cgroups.cgroup_version() == (2 if unified else 1)


@pytest.mark.mariadb
def test_the_server_runs_inside_a_group_with_memory_and_cpu_limits(tmp_path: Path) -> None:
    group = create_or_skip(LIMITS, tmp_path)
    made = list(group.directories)
    try:
        settings = set(group.settings.values())
        assert str(256 * 1024**2) in settings
        assert {"50000", "100000"} <= settings or "50000 100000" in settings
        with running_server("", parent=tmp_path, before_exec=group.join) as server:
            assert group.holds(server.pid)
            own = Path(f"/proc/{server.pid}/cgroup").read_text()
            assert group.directories[0].name in own
    finally:
        problems = group.remove()
    assert problems == []
    assert made
    assert all(not directory.exists() for directory in made)


def test_an_io_limit_names_the_datadirs_disk() -> None:
    if not DISK_DIR.is_dir():
        pytest.skip(f"{DISK_DIR} does not exist here")
    try:
        major, minor = cgroups.block_device_of(DISK_DIR)
    except cgroups.CgroupRefused as refused:
        pytest.skip(f"{DISK_DIR} has no block device here: {refused}")
    group = create_or_skip(cgroups.Limits(write_iops=300), DISK_DIR)
    made = list(group.directories)
    try:
        assert f"{major}:{minor} 300" in " ".join(group.settings.values()) or any(
            "wiops=300" in value for value in group.settings.values()
        )
    finally:
        assert group.remove() == []
    assert all(not directory.exists() for directory in made)


def test_an_io_limit_on_tmpfs_is_refused_saying_why() -> None:
    if not TMPFS.is_dir():
        pytest.skip(f"no {TMPFS} here")
    with pytest.raises(cgroups.CgroupRefused, match="without a block device"):
        cgroups.create(cgroups.Limits(read_iops=300), TMPFS)
