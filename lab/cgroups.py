"""Emulated machines: a child cgroup that caps the lab server's memory, CPU and device IO.

One host stands in for a small VM, a pod or a slow device. The kernel's interfaces:

* cgroup v1 (Documentation/admin-guide/cgroup-v1/): one hierarchy per controller, each mounted
  at /sys/fs/cgroup/<controller>. memory.limit_in_bytes caps the group's memory, page cache
  included (memory.rst, "2.2.1 Accounting details": "All mapped anon pages (RSS) and cache
  pages (Page Cache) are accounted"); cpu.cfs_quota_us / cpu.cfs_period_us caps CPU time
  (sched-bwc.rst); cpuset.cpus pins the group to CPUs (cpusets.rst); blkio.throttle.
  {read,write}_{iops,bps}_device caps a device's rate (blkio-controller.rst).
* cgroup v2 (Documentation/admin-guide/cgroup-v2.rst): one tree at /sys/fs/cgroup; a child
  gets a controller only when its parent lists it in cgroup.subtree_control, and a non-root
  cgroup that holds processes cannot give controllers to children ("no internal process"
  rule). memory.max, cpu.max ("$MAX $PERIOD"), cpuset.cpus, io.max ("MAJ:MIN riops=N ...").

The group is made under the lab's own cgroup of each controller (so it stays inside any limit
the lab itself runs under), named ``ia-lab-<pid>-<n>``, and removed at the end; the server
joins it between fork and exec (`Cgroup.join`), before it allocates anything. Where the
machine does not allow it, `CgroupRefused` says exactly why.
"""

from __future__ import annotations

import errno
import itertools
import os
import stat
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

CGROUP_ROOT = Path("/sys/fs/cgroup")
CGROUP2_MAGIC_NAME = "cgroup2fs"  # what `stat -fc %T /sys/fs/cgroup` prints for a v2 mount
RMDIR_TRIES = 50  # a group empties a moment after its last process exits
RMDIR_WAIT_S = 0.1
V1_CPU_PERIOD_US = 100_000  # the kernel's default cfs period (sched-bwc.rst)
_counter = itertools.count(1)


class CgroupRefused(RuntimeError):
    """This machine will not let the lab set the limits asked for; the message says why."""


@dataclass(frozen=True)
class Limits:
    """What the emulated machine is allowed. None: not limited."""

    memory_bytes: int | None = None
    cpus: float | None = None  # CPU time, in cores (a quota)
    cpuset: str | None = None  # CPUs to run on, e.g. "0" or "0-1"
    read_iops: int | None = None
    write_iops: int | None = None
    read_bps: int | None = None
    write_bps: int | None = None

    @property
    def io(self) -> bool:
        rates = (self.read_iops, self.write_iops, self.read_bps, self.write_bps)
        return any(rate is not None for rate in rates)

    @property
    def any(self) -> bool:
        return self != Limits()

    def label(self) -> str:
        """A short name for the source name (lab-<host>-<label>): "mem1g-cpu1-wiops300"."""
        parts = []
        if self.memory_bytes is not None:
            parts.append(f"mem{_size_label(self.memory_bytes)}")
        if self.cpus is not None:
            parts.append(f"cpu{self.cpus:g}")
        if self.cpuset is not None:
            parts.append(f"cpuset{self.cpuset.replace(',', '_')}")
        rates = (
            ("riops", self.read_iops),
            ("wiops", self.write_iops),
            ("rbps", self.read_bps),
            ("wbps", self.write_bps),
        )
        for name, rate in rates:
            if rate is not None:
                parts.append(f"{name}{_size_label(rate) if 'bps' in name else rate}")
        return "-".join(parts) or "unlimited"


def _size_label(count: int) -> str:
    for suffix, factor in (("g", 1024**3), ("m", 1024**2), ("k", 1024)):
        if count % factor == 0:
            return f"{count // factor}{suffix}"
    return str(count)


def cgroup_version(root: Path = CGROUP_ROOT) -> int:
    """2 when /sys/fs/cgroup is the unified hierarchy, else 1 (a tmpfs of v1 mounts).

    The test `stat -fc %T /sys/fs/cgroup` makes: os.statvfs has no type, so the answer comes
    from the mount table, whose type column says cgroup2 for the unified mount."""
    for line in Path("/proc/self/mounts").read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) > 2 and fields[1] == str(root):
            return 2 if fields[2] == "cgroup2" else 1
    return 1


def own_cgroups() -> dict[str, str]:
    """Controller -> this process's cgroup path, from /proc/self/cgroup ("" is v2's tree)."""
    paths: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text(encoding="utf-8").splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path
    return paths


def block_device_of(path: Path) -> tuple[int, int]:
    """(major, minor) of the whole disk holding `path`: a throttle applies to a disk, so a
    partition is taken to its disk through /sys/dev/block/MAJ:MIN/partition."""
    device = os.stat(path).st_dev
    major, minor = os.major(device), os.minor(device)
    if major == 0:
        raise CgroupRefused(
            f"{path} is on a filesystem without a block device (device {major}:{minor}, "
            "e.g. tmpfs or overlay): an io limit cannot apply to it"
        )
    node = Path(f"/sys/dev/block/{major}:{minor}")
    if (node / "partition").exists():
        parent = (node.resolve().parent / "dev").read_text(encoding="utf-8").strip()
        major, minor = (int(n) for n in parent.split(":"))
    return major, minor


@dataclass
class Cgroup:
    """A child group per controller (v1) or one child group (v2), with its limits set."""

    version: int
    limits: Limits
    device: tuple[int, int] | None
    directories: list[Path] = field(default_factory=list)
    settings: dict[str, str] = field(default_factory=dict)  # file -> value written

    def join(self) -> None:
        """Move the calling process into every group: the `before_exec` of the server."""
        for directory in self.directories:
            (directory / "cgroup.procs").write_text(str(os.getpid()), encoding="ascii")

    def holds(self, pid: int) -> bool:
        """Whether `pid` is in every group of this Cgroup."""
        return all(
            str(pid) in (directory / "cgroup.procs").read_text(encoding="ascii").split()
            for directory in self.directories
        )

    def remove(self) -> list[str]:
        """Remove every group; returns the problems (a group still busy after 5 s)."""
        problems = []
        for directory in reversed(self.directories):
            for _ in range(RMDIR_TRIES):
                try:
                    directory.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError as error:
                    if error.errno != errno.EBUSY:
                        problems.append(f"{directory}: {error.strerror}")
                        break
                    time.sleep(RMDIR_WAIT_S)
            else:
                problems.append(f"{directory}: still busy")
        self.directories.clear()
        return problems

    def describe(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "limits": asdict(self.limits),
            "device": f"{self.device[0]}:{self.device[1]}" if self.device else None,
            "groups": [str(d) for d in self.directories],
            "settings": dict(self.settings),
        }


def create(limits: Limits, datadir_parent: Path, root: Path = CGROUP_ROOT) -> Cgroup:
    """Make the group(s) and write the limits; CgroupRefused (with nothing left behind) when
    the machine does not allow it."""
    if os.geteuid() != 0:
        raise CgroupRefused("not root: only root may create cgroups here (no delegation)")
    device = block_device_of(datadir_parent) if limits.io else None
    version = cgroup_version(root)
    group = Cgroup(version, limits, device)
    name = f"ia-lab-{os.getpid()}-{next(_counter)}"
    try:
        if version == 1:
            _create_v1(group, root, name)
        else:
            _create_v2(group, root, name)
    except OSError as error:
        group.remove()
        raise CgroupRefused(f"cgroup v{version}: {error}") from error
    except CgroupRefused:
        group.remove()
        raise
    return group


def _v1_files(limits: Limits, device: tuple[int, int] | None) -> dict[str, dict[str, str]]:
    """Controller -> {file: value} for cgroup v1."""
    files: dict[str, dict[str, str]] = {}
    if limits.memory_bytes is not None:
        files["memory"] = {"memory.limit_in_bytes": str(limits.memory_bytes)}
    if limits.cpus is not None:
        quota = round(limits.cpus * V1_CPU_PERIOD_US)
        files["cpu"] = {"cpu.cfs_period_us": str(V1_CPU_PERIOD_US), "cpu.cfs_quota_us": str(quota)}
    if limits.cpuset is not None:
        files["cpuset"] = {"cpuset.cpus": limits.cpuset}  # cpuset.mems is copied from the parent
    if device is not None:
        dev = f"{device[0]}:{device[1]}"
        rates = {
            "blkio.throttle.read_iops_device": limits.read_iops,
            "blkio.throttle.write_iops_device": limits.write_iops,
            "blkio.throttle.read_bps_device": limits.read_bps,
            "blkio.throttle.write_bps_device": limits.write_bps,
        }
        files["blkio"] = {f: f"{dev} {rate}" for f, rate in rates.items() if rate is not None}
    return files


def _create_v1(group: Cgroup, root: Path, name: str) -> None:
    own = own_cgroups()
    for controller, files in _v1_files(group.limits, group.device).items():
        mount = root / controller
        if not mount.is_dir():
            raise CgroupRefused(f"cgroup v1: the {controller} controller is not mounted at {mount}")
        directory = mount / own.get(controller, "/").lstrip("/") / name
        directory.mkdir()
        group.directories.append(directory)
        if controller == "cpuset":  # a new cpuset has no memory nodes until given its parent's
            mems = (directory.parent / "cpuset.mems").read_text(encoding="ascii").strip()
            _write(group, directory / "cpuset.mems", mems)
        for file, value in files.items():
            _write(group, directory / file, value)


def _v2_files(limits: Limits, device: tuple[int, int] | None) -> dict[str, str]:
    files = {}
    if limits.memory_bytes is not None:
        files["memory.max"] = str(limits.memory_bytes)
    if limits.cpus is not None:
        files["cpu.max"] = f"{round(limits.cpus * V1_CPU_PERIOD_US)} {V1_CPU_PERIOD_US}"
    if limits.cpuset is not None:
        files["cpuset.cpus"] = limits.cpuset
    if device is not None:
        keys = (
            ("riops", limits.read_iops),
            ("wiops", limits.write_iops),
            ("rbps", limits.read_bps),
            ("wbps", limits.write_bps),
        )
        rates = " ".join(f"{key}={rate}" for key, rate in keys if rate is not None)
        files["io.max"] = f"{device[0]}:{device[1]} {rates}"
    return files


def _create_v2(group: Cgroup, root: Path, name: str) -> None:
    files = _v2_files(group.limits, group.device)
    needed = sorted({file.split(".")[0] for file in files})
    parent = root / own_cgroups().get("", "/").lstrip("/")
    available = (parent / "cgroup.controllers").read_text(encoding="ascii").split()
    missing = [c for c in needed if c not in available]
    if missing:
        raise CgroupRefused(
            f"cgroup v2: {parent} is not delegated the {', '.join(missing)} controller(s) "
            f"(its cgroup.controllers: {' '.join(available) or 'none'}); run the lab in a "
            "delegated cgroup, e.g. `systemd-run --scope -p Delegate=yes ...`"
        )
    try:
        enable = " ".join(f"+{c}" for c in needed)
        (parent / "cgroup.subtree_control").write_text(enable, encoding="ascii")
    except OSError as error:
        if error.errno == errno.EBUSY:
            raise CgroupRefused(
                f"cgroup v2: {parent} holds processes, so it cannot give controllers to a "
                "child (the no-internal-process rule); run the lab from a cgroup of its own"
            ) from error
        raise
    directory = parent / name
    directory.mkdir()
    group.directories.append(directory)
    for file, value in files.items():
        _write(group, directory / file, value)


def _write(group: Cgroup, path: Path, value: str) -> None:
    """Write one setting and read it back: the kernel may round or refuse it."""
    if not stat.S_ISREG(path.stat().st_mode):
        raise CgroupRefused(f"{path} is not a cgroup file")
    path.write_text(value, encoding="ascii")
    group.settings[str(path)] = path.read_text(encoding="ascii").strip()


def not_reproduced(limits: Limits, version: int) -> list[str]:
    """What these limits do not make of the host: said in every result they shaped."""
    notes = [
        "sysbench runs outside the group, on the same host: its CPU is not limited and it "
        "shares the host's cores with the server"
    ]
    if limits.memory_bytes is not None:
        notes.append(
            "memory: the limit counts the group's page cache (as a VM's RAM would), but the "
            "server still reads the host's RAM in /proc/meminfo, and the kernel's own memory "
            "and other groups' cache are the host's"
        )
    if limits.cpus is not None:
        notes.append(
            "cpu: a quota caps CPU time per 100 ms period, not the number of cores: the server "
            "still sees every host core and may run on all of them in bursts, then waits"
        )
    if limits.cpuset is not None:
        notes.append("cpuset: the CPUs are the host's, with the host's caches and clock")
    if limits.io:
        notes.append(
            "io: a throttle caps the rate, not the latency of one IO: an IO alone still takes "
            "the host device's time, so a slow device's queueing at low depth is not reproduced"
        )
        if version == 1:
            notes.append(
                "io: under cgroup v1 buffered writeback is not throttled (the kernel's flusher "
                "threads write the page cache outside the group); only direct and synchronous "
                "IO is (blkio-controller.rst)"
            )
    return notes
