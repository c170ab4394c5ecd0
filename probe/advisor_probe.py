#!/usr/bin/env python3
"""advisor-probe: describe this database host for the InnoDB IO Advisor.

Copy it to the database host (or `curl -fsS https://ADVISOR/probe | python3 - --help`) and run it
there. It reads, and never changes, the host: memory and cores (and a container's cgroup
limits), the data directory's block devices (LVM, md RAID, hardware RAID through the vendor
tool when installed, cloud volumes), the filesystem, the kernel, and the server through the
`mariadb`/`mysql` client. It prints the advisor's profile JSON, with a `provenance` map that says
where each value came from and an `undetected` list of what to check by hand.

Python 3.8 or later, standard library only. Passwords are never asked for, printed or sent: the
client reads them from its own option files (`--defaults-file`).
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import json
import os
import pwd
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

PROBE_VERSION = "2026.11.0"

EXIT_OK = 0  # a complete profile was printed (or posted)
EXIT_ERROR = 1  # nothing useful could be done (the API refused, a file could not be read...)
EXIT_USAGE = 2  # bad command line (argparse's own code)
EXIT_PARTIAL = 3  # a profile was printed, but something asked for is missing: see `undetected`


# --------------------------------------------------------------------------- the vocabulary
class V:
    """Every profile field name and enum value the probe writes, in one place (docs/product.md,
    "Input: the profile", and the probe vocabulary of issue 12). A rename is one edit here."""

    FLAVOR = "server.flavor"
    VERSION = "server.version"
    RAM_GB = "hardware.ram_gb"
    MEMORY_LIMIT_GB = "hardware.memory_limit_gb"
    CPU_CORES = "hardware.cpu_cores"
    CPU_LIMIT = "hardware.cpu_limit"
    NUMA_NODES = "hardware.numa_nodes"
    FILESYSTEM = "hardware.filesystem"
    KERNEL = "hardware.kernel"
    MEDIA = "hardware.storage.media"
    RPM = "hardware.storage.rpm"
    DEVICE_COUNT = "hardware.storage.device_count"
    RAID_LEVEL = "hardware.storage.raid_level"
    CONTROLLER_CACHE = "hardware.storage.controller_cache"
    VOLUME_TYPE = "hardware.storage.volume_type"
    PROVISIONED_IOPS = "hardware.storage.provisioned_iops"
    PROVISIONED_MBPS = "hardware.storage.provisioned_mbps"
    MEASURED_IOPS = "hardware.storage.measured_iops"
    KIND = "workload.kind"
    DATA_SIZE_GB = "workload.data_size_gb"
    CONCURRENCY = "workload.concurrency"
    DURABILITY = "workload.durability"
    SHOW_VARIABLES = "current.show_variables"
    OS_SCHEDULER = "current.os.io_scheduler"
    OS_READ_AHEAD = "current.os.read_ahead_kb"
    OS_SWAPPINESS = "current.os.swappiness"
    PROVENANCE = "provenance"
    UNDETECTED = "undetected"
    PROBE = "probe"

    DETECTED, MEASURED, ASSUMED = "detected", "measured", "assumed"
    HDD, SATA_SSD, NVME, NETWORK_SSD = "hdd", "sata_ssd", "nvme", "network_ssd"
    RAID_LEVELS = ("none", "raid0", "raid1", "raid5", "raid6", "raid10")
    CACHE_NONE, CACHE_WT, CACHE_WB_BBU, CACHE_WB = (
        "none",
        "write_through",
        "write_back_bbu",
        "write_back",
    )
    FILESYSTEMS = ("xfs", "ext4")
    FILESYSTEM_OTHER = "other"
    VOLUME_TYPES = (
        "aws_gp2",
        "aws_gp3",
        "aws_io1",
        "aws_io2",
        "gcp_pd_balanced",
        "gcp_pd_ssd",
        "gcp_hyperdisk_balanced",
        "azure_premium_ssd",
        "azure_premium_ssd_v2",
        "azure_ultra_disk",
        "san",
    )
    FLAVORS = ("mysql", "percona", "mariadb")
    KIND_DEFAULT = "oltp"
    DURABILITY_FULL, DURABILITY_RELAXED = "full", "relaxed"
    # The API's bounds (rules/inputs/profile.py, rules/inputs/field_table.py): the probe stays
    # inside them.
    MAX_CURRENT_TEXT_BYTES = 1_000_000  # show_variables' limit, MAX_TEXT_BYTES there
    MAX_FROM_CHARS = 200
    MAX_PROVENANCE = 200
    MAX_UNDETECTED = 100
    MAX_UNDETECTED_CHARS = 200
    MIN_DATA_SIZE_GB = 0.001
    MAX_DATA_SIZE_GB = 1_048_576
    KERNEL_RELEASE = r"^\s*(\d{1,2})\.(\d{1,3})[0-9A-Za-z._+~-]*\s*$"  # rules/inputs/profile.py
    CURRENT_EMPTY_FORM = "variables"  # `current` needs one form; an empty one carries `os` alone
    MAX_CONCURRENCY = 100_000
    MAX_CPU_CORES = 1024
    MIN_CPU_LIMIT = 0.01  # hardware.cpu_limit's least
    MAX_RAM_GB = 16384
    MAX_DEVICES = 128
    MAX_PROVISIONED_IOPS = 10_000_000  # a bound for typing mistakes, far above any volume
    MAX_PROVISIONED_MBPS = 1_000_000


GIB = 1024**3
SECTOR_BYTES = 512  # /sys/block/*/size counts 512-byte sectors whatever the device's own
# (Documentation/ABI/stable/sysfs-block, "size")
CLIENT_TIMEOUT_S = 60
VENDOR_TIMEOUT_S = 60
POST_TIMEOUT_S = 60
FIO_MAX_SECONDS = 60  # issue 12: the fio test lasts at most 60 s
FIO_BLOCK = "16k"  # InnoDB's default page size, 16 KiB (MySQL manual, innodb_page_size)
# fio parameters as in AWS's "Benchmark EBS volumes" procedure: psync, 16 jobs, direct IO,
# 16 KiB blocks, norandommap (https://docs.aws.amazon.com/ebs/latest/userguide/benchmark_procedures.html)
FIO_JOBS = 16
FIO_DEFAULT_SIZE = GIB  # the same page uses --size=1G
# Free space the fio file may take, at most: a share of our choosing that leaves the server's
# own growth room; the probe refuses to run fio rather than fill a disk.
FIO_MAX_SHARE_OF_FREE = 0.25
FIO_LAYOUT_SHARE = 0.2  # share of the time budget spent writing the test file
# fio's own start and stop around each timed phase, kept out of the budget (measured here: about
# 0.5 s for 16 jobs; twice that for a slower host).
FIO_OVERHEAD_S = 1.0
FIO_GRACE_S = 5.0  # after a phase's runtime, fio is killed if it has not ended
FIO_FILE_PREFIX = ".advisor-probe-fio-"  # then 16 random hex digits
UNLIMITED_CGROUP_BYTES = 2**62  # cgroup v1 reports "no limit" as PAGE_COUNTER_MAX pages
# (9223372036854771712 on x86_64, kernel Documentation/admin-guide/cgroup-v1/memory.rst)

# Cloud volumes by the model string their disks report.
#   Amazon EBS on Nitro: NVMe model "Amazon Elastic Block Store"; instance store: "Amazon EC2
#   NVMe Instance Storage" (https://docs.aws.amazon.com/ebs/latest/userguide/nvme-ebs-volumes.html,
#   https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ssd-instance-store.html).
#   Google Persistent Disk: SCSI vendor "Google", model "PersistentDisk"; on NVMe "nvme_card-pd"
#   (https://cloud.google.com/compute/docs/disks/add-local-ssd#format_and_mount_linux and
#   https://cloud.google.com/compute/docs/disks/disk-symlinks).
#   Azure managed disks: SCSI vendor "Msft", model "Virtual Disk"
#   (https://learn.microsoft.com/en-us/troubleshoot/azure/virtual-machines/linux/troubleshoot-device-names-problems).
CLOUD_MODELS = (
    ("amazon elastic block store", "aws", "Amazon EBS volume"),
    ("persistentdisk", "gcp", "Google Persistent Disk"),
    ("nvme_card-pd", "gcp", "Google Persistent Disk (NVMe)"),
    ("virtual disk", "azure", "Azure managed disk"),
)
# Local instance storage is not a network volume: "Amazon EC2 NVMe Instance Storage", Google's
# local SSD "nvme_card" / "EphemeralDisk" match none of the models above and read as local flash.

# Hardware RAID logical drives by their SCSI vendor/model (lsscsi shows them so):
#   MegaRAID / PERC virtual drives: vendor AVAGO, LSI, DELL or BROADCOM, model the card's
#   (e.g. "PERC H730 Mini", "MR9361-8i") - StorCLI Reference Manual, docs.broadcom.com/doc/12352476.
#   HPE Smart Array logical drives: vendor HP or HPE, model "LOGICAL VOLUME" - HPE Smart Storage
#   Administrator User Guide (https://support.hpe.com/hpesc/public/docDisplay?docId=c03909334).
#   Microchip Adaptec: model "LogicalDrv" - maxView Storage Manager / ARCCONF Command Line
#   Utility User's Guide (https://ww1.microchip.com/downloads/aemDocuments/documents/DCS/ProductDocuments/UserGuides/maxView_Storage_Mgr_ARCCONF_Command_Line_Utility_UG_DS00004219.pdf).
MEGARAID_VENDORS = ("avago", "lsi", "dell", "broadcom", "broadcm")
MEGARAID_TOOLS = ("storcli64", "storcli", "perccli64", "perccli")
MEGACLI_TOOLS = ("MegaCli64", "megacli", "MegaCli")
SMARTARRAY_TOOLS = ("ssacli", "hpssacli", "hpacucli")
ADAPTEC_TOOLS = ("arcconf",)

SCHEDULER_ACTIVE = re.compile(r"\[([^\]\s]+)\]")
VERSION_NUMBER = re.compile(r"^(\d{1,2}\.\d{1,2}(?:\.\d{1,3})?)")
NAME_SAFE = re.compile(r"[^A-Za-z0-9_.:+/ -]")


def clip(text: object, limit: int = V.MAX_FROM_CHARS) -> str:
    """One line of at most `limit` characters, control characters removed."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


# --------------------------------------------------------------------------- what was found
class Findings:
    """The profile being built, with where each value came from and what is missing."""

    def __init__(self) -> None:
        self.profile: dict = {}
        self.provenance: dict = {}
        self.undetected: list = []
        self.summary: list = []  # human lines for stderr
        self.incomplete = False  # something asked for (e.g. --fio) could not be done

    def set(self, path: str, value: object, source: str, origin: str) -> None:
        node = self.profile
        *parents, leaf = path.split(".")
        for key in parents:
            node = node.setdefault(key, {})
        node[leaf] = value
        if len(self.provenance) < V.MAX_PROVENANCE or path in self.provenance:
            self.provenance[path] = {"source": source, "from": clip(origin)}

    def get(self, path: str) -> object:
        node: object = self.profile
        for key in path.split("."):
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        return node

    def miss(self, text: str) -> None:
        line = clip(text, V.MAX_UNDETECTED_CHARS)
        if line not in self.undetected and len(self.undetected) < V.MAX_UNDETECTED:
            self.undetected.append(line)

    def note(self, text: str) -> None:
        self.summary.append(text)

    def document(self) -> dict:
        out = dict(self.profile)
        current = out.get("current")
        if isinstance(current, dict) and set(current) == {"os"}:  # no server read: os alone
            out["current"] = {V.CURRENT_EMPTY_FORM: {}, **current}
        out[V.PROVENANCE] = {k: v for k, v in self.provenance.items() if self.get(k) is not None}
        out[V.UNDETECTED] = list(self.undetected)
        out[V.PROBE] = {"version": PROBE_VERSION}
        return out

    def missing_required(self) -> list:
        required = (V.FLAVOR, V.VERSION, V.RAM_GB, V.CPU_CORES, V.MEDIA, V.DEVICE_COUNT)
        more = (V.KIND, V.DATA_SIZE_GB, V.CONCURRENCY)
        return [path for path in required + more if self.get(path) is None]


# --------------------------------------------------------------------------- the host's files
class Host:
    """Reads files under a root (`/`, or a fixture tree in tests); never writes."""

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        self.real = self.root == "/"
        self.unreadable: list = []
        self.errors: list = []

    def path(self, path: str) -> str:
        return os.path.join(self.root, path.lstrip("/"))

    def read(self, path: str) -> str | None:
        """The file's text, stripped; None when absent or unreadable (the latter noted)."""
        try:
            with open(self.path(path), encoding="utf-8", errors="replace") as handle:
                return handle.read(1_000_000).strip()
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as problem:
            reason = getattr(problem, "strerror", None) or type(problem).__name__
            if path not in self.unreadable:
                self.unreadable.append(path)
            self.errors.append(f"{path}: {reason}")
            return None

    def read_int(self, path: str) -> int | None:
        text = self.read(path)
        if text is None:
            return None
        try:
            return int(text.split()[0])
        except (ValueError, IndexError):
            return None

    def listdir(self, path: str) -> list:
        try:
            return sorted(os.listdir(self.path(path)))
        except OSError:
            return []

    def exists(self, path: str) -> bool:
        return os.path.lexists(self.path(path))

    def link_target(self, path: str) -> str:
        try:
            return os.path.realpath(self.path(path))
        except OSError:
            return ""


# --------------------------------------------------------------------------- memory and cpu
def _meminfo_bytes(host: Host) -> int | None:
    text = host.read("/proc/meminfo") or ""
    match = re.search(r"^MemTotal:\s+(\d+)\s*kB", text, re.MULTILINE)
    return int(match.group(1)) * 1024 if match else None


def _cgroup_paths(host: Host) -> dict:
    """controller -> cgroup path from /proc/self/cgroup ("" is the v2 unified hierarchy)."""
    paths = {}
    for line in (host.read("/proc/self/cgroup") or "").splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        for controller in parts[1].split(",") if parts[1] else [""]:
            paths[controller] = parts[2]
    return paths


def _walk_up(host: Host, mount: str, cgroup: str, name: str) -> list:
    """The values of `name` from the process's cgroup up to the mount's root (limits nest)."""
    values = []
    parts = [p for p in cgroup.split("/") if p]
    for depth in range(len(parts), -1, -1):
        file = "/".join([mount, *parts[:depth], name])
        text = host.read(file)
        if text is not None:
            values.append((file, text))
    return values


def _memory_limit(host: Host) -> tuple:
    """(bytes, where) of the lowest cgroup memory limit, or (None, "")."""
    paths = _cgroup_paths(host)
    found = []
    if "" in paths and host.exists("/sys/fs/cgroup/cgroup.controllers"):
        for file, text in _walk_up(host, "/sys/fs/cgroup", paths[""], "memory.max"):
            if text.isdigit():
                found.append((int(text), f"cgroup v2 {file}"))
    if "memory" in paths:
        for file, text in _walk_up(
            host, "/sys/fs/cgroup/memory", paths["memory"], "memory.limit_in_bytes"
        ):
            if text.isdigit() and int(text) < UNLIMITED_CGROUP_BYTES:
                found.append((int(text), f"cgroup v1 {file}"))
    return min(found) if found else (None, "")


def _cpu_quota(host: Host) -> tuple:
    """(cores, where) of the lowest CPU quota (quota / period), or (None, "")."""
    paths = _cgroup_paths(host)
    found = []
    if "" in paths and host.exists("/sys/fs/cgroup/cgroup.controllers"):
        for file, text in _walk_up(host, "/sys/fs/cgroup", paths[""], "cpu.max"):
            fields = text.split()
            if len(fields) == 2 and fields[0].isdigit() and fields[1].isdigit():
                found.append((int(fields[0]) / max(1, int(fields[1])), f"cgroup v2 {file}"))
    # v1 mounts the cpu controller as cpu,cpuacct (with a `cpu` link on most distributions)
    mounts = ("cpu", "cpu,cpuacct", "cpuacct,cpu")
    mount = next((f"/sys/fs/cgroup/{m}" for m in mounts if host.exists(f"/sys/fs/cgroup/{m}")), "")
    if "cpu" in paths and mount:
        quotas = _walk_up(host, mount, paths["cpu"], "cpu.cfs_quota_us")
        periods = dict(_walk_up(host, mount, paths["cpu"], "cpu.cfs_period_us"))
        for file, text in quotas:
            period = periods.get(file.replace("cfs_quota_us", "cfs_period_us"), "")
            if text.lstrip("-").isdigit() and int(text) > 0 and period.isdigit():
                found.append((int(text) / max(1, int(period)), f"cgroup v1 {file}"))
    return min(found) if found else (None, "")


def _count_cpu_list(text: str) -> int:
    count = 0
    for part in text.split(","):
        if "-" in part:
            low, high = part.split("-", 1)
            count += int(high) - int(low) + 1
        elif part.strip():
            count += 1
    return count


def probe_memory_and_cpu(host: Host, found: Findings) -> None:
    total = _meminfo_bytes(host)
    if total is None:
        found.miss("RAM: /proc/meminfo unreadable; enter hardware.ram_gb")
    else:
        origin = f"/proc/meminfo MemTotal {total / GIB:.2f} GiB"
        found.set(V.RAM_GB, min(V.MAX_RAM_GB, max(0.5, _gb(total))), V.DETECTED, origin)
        found.note(f"memory: {origin}")
        limit, where = _memory_limit(host)
        if limit is not None and limit < total:  # the server may use only this much
            limited = min(V.MAX_RAM_GB, max(0.5, _gb(limit)))
            found.set(V.MEMORY_LIMIT_GB, limited, V.DETECTED, f"{where}: {limit} bytes")
            found.note(f"memory limit: {limit / GIB:.2f} GiB ({where})")
    cores, origin = None, ""
    online = host.read("/sys/devices/system/cpu/online")
    try:
        if online:
            cores, origin = _count_cpu_list(online), "/sys/devices/system/cpu/online"
    except ValueError:
        cores = None
    if cores is None:
        listed = re.findall(r"^processor\s*:", host.read("/proc/cpuinfo") or "", re.MULTILINE)
        cores, origin = (len(listed), "/proc/cpuinfo") if listed else (None, "")
    if host.real and hasattr(os, "sched_getaffinity"):
        allowed = len(os.sched_getaffinity(0))
        if cores is None or allowed < cores:
            cores, origin = allowed, "the process's CPU affinity (taskset/cpuset)"
    if cores is None:
        found.miss("CPU cores: /sys/devices/system/cpu/online and /proc/cpuinfo unreadable")
    else:
        found.set(V.CPU_CORES, min(V.MAX_CPU_CORES, cores), V.DETECTED, origin)
        found.note(f"cpu: {cores} cores ({origin})")
    # A CFS quota limits CPU time, not which CPUs: the cores stay the host's (or the
    # affinity's), and the quota is the separate limit the threads follow (as memory.max is).
    quota, where = _cpu_quota(host)
    if quota is not None and (cores is None or quota < cores):
        limit = min(float(V.MAX_CPU_CORES), max(V.MIN_CPU_LIMIT, round(quota, 2)))
        found.set(V.CPU_LIMIT, limit, V.DETECTED, f"{where} ({quota:g} CPUs)")
        found.note(f"cpu limit: {quota:g} CPUs ({where})")
    # Measuring it would load the server; the advisor takes it when the user gives it.
    found.miss(
        "CPU speed: not measured (it would load the server); sysbench oltp_point_select on "
        "cached data gives hardware.measured_cpu (queries/s and threads)"
    )
    nodes = [n for n in host.listdir("/sys/devices/system/node") if re.match(r"node\d+$", n)]
    if nodes:
        found.set(V.NUMA_NODES, min(64, len(nodes)), V.DETECTED, "/sys/devices/system/node")


def _gb(count: int) -> float:
    return float(int(count / GIB * 100) / 100)


# --------------------------------------------------------------------------- block devices
def _unescape_mount(text: str) -> str:
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), text)


def find_mount(host: Host, path: str) -> dict | None:
    """The /proc/self/mountinfo entry whose mount point holds `path` (the longest)."""
    best = None
    for line in (host.read("/proc/self/mountinfo") or "").splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 6 or len(tail) < 2:
            continue
        point = _unescape_mount(fields[4])
        inside = path == point or path.startswith(point.rstrip("/") + "/")
        if inside and (best is None or len(point) >= len(best["point"])):
            best = {
                "point": point,
                "dev": fields[2],
                "options": fields[5],
                "fstype": tail[0],
                "source": _unescape_mount(tail[1]),
                "super": tail[2] if len(tail) > 2 else "",
            }
    return best


def block_index(host: Host) -> dict:
    """The "major:minor" and name -> (name, parent disk or None) for disks and partitions."""
    index = {}
    for disk in host.listdir("/sys/block"):
        dev = host.read(f"/sys/block/{disk}/dev")
        index[disk] = (disk, None)
        if dev:
            index[dev] = (disk, None)
        for sub in host.listdir(f"/sys/block/{disk}"):
            if host.exists(f"/sys/block/{disk}/{sub}/partition"):
                index[sub] = (sub, disk)
                sub_dev = host.read(f"/sys/block/{disk}/{sub}/dev")
                if sub_dev:
                    index[sub_dev] = (sub, disk)
    return index


def _resolve_source(host: Host, index: dict, mount: dict) -> str | None:
    if mount["dev"] in index:
        return index[mount["dev"]][0]
    source = mount["source"]
    if source.startswith("/dev/mapper/"):
        wanted = source[len("/dev/mapper/") :]
        for disk in host.listdir("/sys/block"):
            if host.read(f"/sys/block/{disk}/dm/name") == wanted:
                return disk
    name = os.path.basename(source)
    return name if source.startswith("/dev/") and name in index else None


def device_chain(host: Host, index: dict, name: str, depth: int = 0) -> dict:
    """The device and what it stands on: partition -> disk, dm -> slaves, md -> members."""
    node = {"name": name, "kind": "disk", "children": []}
    entry = index.get(name, (name, None))
    if entry[1] is not None:
        node["kind"] = "partition"
        node["children"].append(device_chain(host, index, entry[1], depth + 1))
        return node
    base = f"/sys/block/{name}"
    if host.exists(base + "/dm"):
        uuid = host.read(base + "/dm/uuid") or ""
        kinds = (("LVM-", "lvm"), ("CRYPT-", "dm-crypt"), ("mpath-", "multipath"))
        node["kind"] = next((k for p, k in kinds if uuid.startswith(p)), "device-mapper")
        node["dm_name"] = host.read(base + "/dm/name") or ""
    elif host.exists(base + "/md") or name.startswith("md"):
        node["kind"] = "md"
        node["level"] = (host.read(base + "/md/level") or "").lower()
        node["raid_disks"] = host.read_int(base + "/md/raid_disks")
    if depth < 8:
        for slave in host.listdir(base + "/slaves"):
            node["children"].append(device_chain(host, index, slave, depth + 1))
    if not node["children"] and node["kind"] == "disk":
        node.update(_disk_facts(host, name))
    return node


def _disk_facts(host: Host, name: str) -> dict:
    base = f"/sys/block/{name}"
    scheduler = host.read(base + "/queue/scheduler") or ""
    active = SCHEDULER_ACTIVE.search(scheduler)
    vendor = (host.read(base + "/device/vendor") or "").strip()
    model = (host.read(base + "/device/model") or "").strip()
    target = host.link_target(base)
    if name.startswith("nvme") or "/nvme/" in target:
        transport = "nvme"
    elif name.startswith("vd") or "virtio" in target:
        transport = "virtio"
    elif name.startswith("xvd"):
        transport = "xen"
    elif vendor.upper() == "ATA":  # libata presents SATA disks with vendor "ATA"
        transport = "sata"
    elif name.startswith("sd"):
        transport = "sas/scsi"
    else:
        transport = "unknown"
    sectors = host.read_int(base + "/size")
    return {
        "rotational": host.read(base + "/queue/rotational"),
        "scheduler": active.group(1) if active else (scheduler or None),
        "read_ahead_kb": host.read_int(base + "/queue/read_ahead_kb"),
        "nr_requests": host.read_int(base + "/queue/nr_requests"),
        "size_bytes": sectors * SECTOR_BYTES if sectors is not None else None,
        "vendor": vendor,
        "model": model,
        "transport": transport,
    }


def leaves_of(node: dict) -> list:
    if not node["children"]:
        return [node]
    out: list = []
    for child in node["children"]:
        for leaf in leaves_of(child):
            if leaf["name"] not in [seen["name"] for seen in out]:
                out.append(leaf)
    return out


def find_kind(node: dict, kind: str) -> dict | None:
    if node["kind"] == kind:
        return node
    for child in node["children"]:
        hit = find_kind(child, kind)
        if hit is not None:
            return hit
    return None


def describe_chain(node: dict) -> str:
    label = node["name"]
    if node["kind"] == "md":
        label += f" (md {node.get('level') or '?'})"
    elif node["kind"] not in ("disk", "partition"):
        label += f" ({node['kind']})"
    if not node["children"]:
        model = node.get("model") or node.get("transport") or ""
        return label + (f" [{model}]" if model else "")
    inner = ", ".join(describe_chain(child) for child in node["children"])
    return f"{label} -> {inner}" if len(node["children"]) == 1 else f"{label} -> ({inner})"


def mdstat_level(host: Host, name: str) -> tuple:
    """(level, member count) of md `name` from /proc/mdstat, e.g. "md0 : active raid10 sdb1[1]..."
    (format: kernel Documentation/admin-guide/md.rst and drivers/md/md.c md_seq_show)."""
    for line in (host.read("/proc/mdstat") or "").splitlines():
        match = re.match(
            rf"^{re.escape(name)}\s*:\s*\w+\s+(?:\(\S+\)\s+)?(raid\d+|linear)\s+(.*)", line
        )
        if match:
            members = re.findall(r"\S+\[\d+\](?!\(S\))", match.group(2))
            return match.group(1), len(members)
    return None, None


# --------------------------------------------------------------------------- hardware RAID
def run_tool(
    args: list,
    timeout: float = VENDOR_TIMEOUT_S,
    pass_fds: tuple = (),
    user: tuple | None = None,
) -> tuple:
    """(exit code, stdout, stderr) of a vendor or system tool; never raises for the tool. With
    `user` (uid, gid) the tool runs as that user; `pass_fds` are inherited, at the same numbers."""
    try:
        proc = subprocess.run(
            args,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            check=False,
            pass_fds=pass_fds,
            preexec_fn=None if user is None else _become(*user),
        )
    except subprocess.TimeoutExpired:
        return 124, "", f"{os.path.basename(args[0])} did not answer within {timeout:g} s"
    except OSError as problem:
        return 127, "", f"{os.path.basename(args[0])}: {problem.strerror or problem}"
    except subprocess.SubprocessError:  # _become failed in the child, before the tool started
        return 126, "", f"{os.path.basename(args[0])}: could not run as (uid, gid) {user}"
    return proc.returncode, proc.stdout, proc.stderr


def _become(uid: int, gid: int):  # a preexec_fn: () -> None
    """The child gives up root for uid and gid, with no supplementary groups, before the exec.
    (Popen's own user= and group= are Python 3.9+; the probe runs on 3.8, with no threads.)"""

    def drop() -> None:
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)

    return drop


def which(names: tuple) -> str | None:
    search = os.pathsep.join([os.environ.get("PATH", ""), "/opt/MegaRAID/storcli", "/usr/sbin"])
    for name in names:
        found = shutil.which(name, path=search)
        if found:
            return found
    return None


def storcli_tables(text: str) -> dict:
    """Each dashed table of StorCLI text output as a list of rows (dicts by header), keyed by the
    header line's first word (e.g. "DG/VD", "EID:Slt", "Property"). StorCLI prints tables as a
    header between two dashed rules, then rows, then a rule (StorCLI Reference Manual)."""
    tables: dict = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines) - 2:
        is_rule = re.fullmatch(r"\s*-{5,}\s*", lines[index])
        if is_rule and re.fullmatch(r"\s*-{5,}\s*", lines[index + 2]):
            header = lines[index + 1]
            names = header.split()
            starts = [m.start() for m in re.finditer(r"\S+", header)]
            rows = []
            index += 3
            while index < len(lines) and not re.fullmatch(r"\s*-{5,}\s*", lines[index]):
                rows.append(_table_row(lines[index], names, starts))
                index += 1
            if names:
                tables.setdefault(names[0], []).extend(rows)
        index += 1
    return tables


def _table_row(line: str, names: list, starts: list) -> dict:
    if names[:2] == ["Property", "Value"]:  # free text in both columns: split at the header's
        cut = starts[1]
        return {"Property": line[:cut].strip(), "Value": line[cut:].strip()}
    values = line.split()
    if len(values) > len(names):  # sizes are two words ("1.089 TB"): join the extras at Size
        at = names.index("Size") if "Size" in names else len(names) - 1
        extra = len(values) - len(names)
        values = [*values[:at], " ".join(values[at : at + extra + 1]), *values[at + extra + 1 :]]
    return dict(zip(names, values))


def properties(rows: list) -> dict:
    return {row.get("Property", "").lower(): row.get("Value", "") for row in rows}


def parse_storcli(show: str, battery: str) -> dict:
    """RAID level, members, media and write policy from `storcli /c0 show` and the battery (or
    CacheVault) state from `storcli /c0/bbu show all` (or `/c0/cv show all`)."""
    tables = storcli_tables(show)
    drives = tables.get("DG/VD", [])
    if not drives:
        return {}
    vd = drives[0]
    group = vd.get("DG/VD", "0/0").split("/")[0]
    members = [pd for pd in tables.get("EID:Slt", []) if pd.get("DG") == group]
    cache = vd.get("Cache", "")
    info = {
        "tool": "storcli",
        "level": vd.get("TYPE", "").lower(),
        "members": len(members),
        "interfaces": sorted({pd.get("Intf", "") for pd in members}),
        "media": sorted({pd.get("Med", "") for pd in members}),
        "write_back": "WB" in cache,  # RWBD, NRWBD, AWB: write-back; RWTD: write-through
        "always_write_back": "AWB" in cache,
        "cache_text": cache,
        "vd_count": len(drives),
    }
    state = properties(storcli_tables(battery).get("Property", []))
    info["battery_state"] = state.get("battery state") or state.get("state") or ""
    info["learning"] = state.get("learn cycle active", "").lower() == "yes"
    info["battery_present"] = bool(info["battery_state"])
    return info


def parse_megacli(ldinfo: str, bbu: str) -> dict:
    """`MegaCli64 -LDInfo -Lall -aALL` and `-AdpBbuCmd -GetBbuStatus -aALL` (MegaCLI, in the
    Broadcom "12Gb/s MegaRAID SAS Software User Guide", docs.broadcom.com/doc/12353236)."""
    level = re.search(r"RAID Level\s*:\s*Primary-(\d+),\s*Secondary-(\d+)", ldinfo)
    if level is None:
        return {}
    per_span = re.search(r"Number Of Drives(?: per span)?\s*:\s*(\d+)", ldinfo)
    depth = re.search(r"Span Depth\s*:\s*(\d+)", ldinfo)
    spans = int(depth.group(1)) if depth else 1
    primary = int(level.group(1))
    name = {0: "raid0", 1: "raid10" if spans > 1 else "raid1", 5: "raid5", 6: "raid6"}
    policy = re.search(r"Current Cache Policy\s*:\s*(.*)", ldinfo)
    policy_text = policy.group(1) if policy else ""
    state = re.search(r"Battery State\s*:\s*(.*)", bbu)
    learning = re.search(r"Learn Cycle Active\s*:\s*(\w+)", bbu)
    return {
        "tool": "megacli",
        "level": name.get(primary, f"raid{primary}"),
        "members": int(per_span.group(1)) * spans if per_span else 0,
        "interfaces": [],
        "media": [],
        "write_back": "WriteBack" in policy_text,
        "always_write_back": "Write Cache OK if Bad BBU" in policy_text,
        "cache_text": policy_text.strip(),
        "battery_state": state.group(1).strip() if state else "",
        "learning": bool(learning and learning.group(1).lower() == "yes"),
        "battery_present": state is not None,
        "vd_count": len(re.findall(r"^Virtual Drive:", ldinfo, re.MULTILINE)) or 1,
    }


def parse_ssacli(text: str) -> dict:
    """`ssacli ctrl all show config detail` (HPE Smart Storage Administrator CLI, "show config
    detail"; HPE SSA User Guide, https://support.hpe.com/hpesc/public/docDisplay?docId=c03909334)."""
    tolerance = re.search(r"Fault Tolerance:\s*(\S+)", text)
    if tolerance is None:
        return {}
    levels = {"0": "raid0", "1": "raid1", "1+0": "raid10", "5": "raid5", "6": "raid6"}
    level = levels.get(tolerance.group(1), "raid" + tolerance.group(1).replace("+", ""))
    drives = re.split(r"^\s*physicaldrive\s+\S+\s*$", text, flags=re.MULTILINE)[1:]
    interfaces = sorted({m for d in drives for m in re.findall(r"Interface Type:\s*(.+)", d)})
    speeds = sorted({m for d in drives for m in re.findall(r"Rotational Speed:\s*(\d+)", d)})
    status = re.search(r"Cache Status:\s*(.+)", text)
    battery = re.search(r"Battery/Capacitor Status:\s*(.+)", text)
    ratio = re.search(r"(?:Accelerator|Cache) Ratio:\s*(\d+)% Read / (\d+)% Write", text)
    caching = re.search(r"Logical Drive: \d+.*?Caching:\s*(\w+)", text, re.DOTALL)
    writes = ratio is not None and int(ratio.group(2)) > 0
    cache_ok = status is not None and status.group(1).strip().upper() == "OK"
    enabled = caching is None or caching.group(1).lower() == "enabled"
    return {
        "tool": "ssacli",
        "level": level,
        "members": len(drives),
        "interfaces": [i.strip() for i in interfaces],
        "media": ["SSD" if any("Solid State" in i for i in interfaces) else "HDD"],
        "rpm": int(speeds[0]) if len(speeds) == 1 else None,
        "write_back": writes and enabled and cache_ok,
        "always_write_back": bool(
            re.search(r"No-Battery Write Cache:\s*Enabled", text, re.IGNORECASE)
        ),
        "cache_text": (status.group(1).strip() if status else "no cache board")
        + (f", {ratio.group(0)}" if ratio else ""),
        "battery_state": battery.group(1).strip() if battery else "",
        "learning": False,
        "battery_present": battery is not None,
        "vd_count": len(re.findall(r"^\s*Logical Drive:", text, re.MULTILINE)) or 1,
    }


def parse_arcconf(text: str) -> dict:
    """`arcconf GETCONFIG 1 AL`: the first logical device's RAID level, segments and write
    cache, and the battery or flash backup (ZMM) state (Adaptec RAID Controller Command Line
    Utility User's Guide, GETCONFIG; Microchip ARCCONF Command Line Utility User's Guide)."""
    level = re.search(r"^\s*RAID level\s*:\s*(\S+)", text, re.MULTILINE | re.IGNORECASE)
    if level is None:
        return {}
    device = text[level.start() :]
    device = device.split("Logical device number", 1)[0]
    members = re.findall(r"^\s*(?:Group \d+, )?Segment \d+\s*:\s*Present", device, re.MULTILINE)
    mode = re.search(r"Write-cache mode\s*:\s*(.+)", device)
    setting = re.search(r"Write-cache setting\s*:\s*(\w+)", device)
    status = re.search(r"Write-cache status\s*:\s*(\w+)", device)
    if mode is not None:
        write_back, policy = "write-back" in mode.group(1).lower(), mode.group(1).strip()
    else:
        on = bool(status and status.group(1).lower() == "on")
        write_back = bool(setting and setting.group(1).lower() == "enabled" and on)
        policy = "write cache {}, {}".format(
            setting.group(1) if setting else "?", status.group(1) if status else "?"
        )
    backup = re.search(
        r"(?:Overall Backup Unit Status|ZMM Information\s*-+\s*Status|Battery Information\s*-+"
        r"\s*Status)\s*:\s*(.+)",
        text,
    )
    state = backup.group(1).replace("ZMM", "").strip() if backup else ""
    drives = re.findall(r"Transfer Speed\s*:\s*(\w+)", text)
    solid = "Solid State" in text or re.search(r"Device is a Solid State", text) is not None
    return {
        "tool": "arcconf",
        "level": "raid" + level.group(1).replace("Simple_volume", "0"),
        "members": len(members),
        "interfaces": sorted(set(drives)),
        "media": ["SSD"] if solid else (["HDD"] if "Device is a Hard drive" in text else []),
        "write_back": write_back,
        "always_write_back": False,
        "cache_text": policy,
        "battery_state": state,
        "learning": False,
        "battery_present": backup is not None,
        "vd_count": len(re.findall(r"^Logical device number", text, re.MULTILINE)) or 1,
    }


def controller_kind(leaf: dict) -> str | None:
    vendor, model = leaf.get("vendor", "").lower(), leaf.get("model", "").lower()
    if vendor in MEGARAID_VENDORS:
        return "megaraid"
    if vendor in ("hp", "hpe") and "logical volume" in model:
        return "smartarray"
    if "logicaldrv" in model or vendor == "adaptec":
        return "adaptec"
    return None


def read_controller(kind: str, found: Findings) -> dict:
    """Run the installed vendor tool for `kind`; {} with a note when there is none."""
    if kind == "megaraid":
        tool = which(MEGARAID_TOOLS)
        if tool:
            code, show, err = run_tool([tool, "/c0", "show"])
            _, bbu, _ = run_tool([tool, "/c0/bbu", "show", "all"])
            if not properties(storcli_tables(bbu).get("Property", [])):
                _, bbu, _ = run_tool([tool, "/c0/cv", "show", "all"])
            info = parse_storcli(show, bbu) if code == 0 else {}
            return info or _tool_failed(found, tool, code, err)
        tool = which(MEGACLI_TOOLS)
        if tool:
            code, ldinfo, err = run_tool([tool, "-LDInfo", "-Lall", "-aALL", "-NoLog"])
            _, bbu, _ = run_tool([tool, "-AdpBbuCmd", "-GetBbuStatus", "-aALL", "-NoLog"])
            info = parse_megacli(ldinfo, bbu) if code == 0 else {}
            return info or _tool_failed(found, tool, code, err)
        names = "storcli64/perccli64 or MegaCli64"
    elif kind == "smartarray":
        tool = which(SMARTARRAY_TOOLS)
        if tool:
            code, text, err = run_tool([tool, "ctrl", "all", "show", "config", "detail"])
            info = parse_ssacli(text) if code == 0 else {}
            return info or _tool_failed(found, tool, code, err)
        names = "ssacli (or hpssacli)"
    else:
        tool = which(ADAPTEC_TOOLS)
        if tool:
            code, text, err = run_tool([tool, "GETCONFIG", "1", "AL"])
            info = parse_arcconf(text) if code == 0 else {}
            return info or _tool_failed(found, tool, code, err)
        names = "arcconf"
    found.miss(
        f"hardware RAID level, disks and controller cache: a {kind} logical drive, but {names} "
        "is not installed; enter them from the controller's BIOS or management tool"
    )
    return {}


def _tool_failed(found: Findings, tool: str, code: int, err: str) -> dict:
    why = clip(err.strip().splitlines()[0] if err.strip() else f"exit code {code}", 120)
    hint = "" if os.geteuid() == 0 else " (vendor tools need root: run the probe with sudo)"
    found.miss(f"hardware RAID: {os.path.basename(tool)} gave no readable answer: {why}{hint}")
    return {}


# --------------------------------------------------------------------------- storage
def probe_storage(host: Host, found: Findings, datadir: str, args: argparse.Namespace) -> None:
    mount = find_mount(host, datadir)
    if mount is None:
        found.miss(f"datadir {datadir}: no mount found in /proc/self/mountinfo")
        return
    _record_filesystem(found, mount)
    index = block_index(host)
    top = _resolve_source(host, index, mount)
    if top is None:
        found.miss(
            f"storage: {mount['point']} is {mount['fstype']} from {mount['source']}, not a local "
            "block device; enter media, device count and RAID level"
        )
        return
    chain = device_chain(host, index, top)
    leaves = leaves_of(chain)
    found.note(
        f"datadir {datadir} on {mount['point']} ({mount['fstype']}): {describe_chain(chain)}"
    )
    for leaf in leaves:
        size = leaf.get("size_bytes")
        found.note(
            f"  {leaf['name']}: {leaf.get('transport')}, rotational={leaf.get('rotational')}, "
            f"model={leaf.get('model') or '?'}, size={_gb(size) if size else '?'} GiB, "
            f"scheduler={leaf.get('scheduler')}, read_ahead_kb={leaf.get('read_ahead_kb')}, "
            f"nr_requests={leaf.get('nr_requests')}"
        )
    _record_os(host, found, chain, leaves)
    where = describe_chain(chain)
    cloud = _cloud_of(leaves)
    if cloud is None and args.volume_type:  # the user says it is a network volume (e.g. a SAN)
        cloud = ("given", "network volume", leaves[0].get("model") or leaves[0]["name"])
    elif cloud is None and (args.provisioned_iops or args.provisioned_mbps):
        found.miss("--provisioned-iops/--provisioned-mbps ignored: not a known network volume")
    controller_type = controller_kind(leaves[0]) if len(leaves) == 1 else None
    if cloud is not None:
        _record_cloud(found, cloud, leaves, chain, host, args)
    elif controller_type is not None:
        info = read_controller(controller_type, found)
        if info:
            _record_controller(found, info, leaves[0])
        else:
            _record_plain(host, found, chain, leaves, where, controller=controller_type)
    else:
        _record_plain(host, found, chain, leaves, where)
    if host.unreadable:
        found.miss("unreadable: " + ", ".join(host.unreadable[:5]) + " (run as root?)")


def _record_filesystem(found: Findings, mount: dict) -> None:
    fstype = mount["fstype"]
    value = fstype if fstype in V.FILESYSTEMS else V.FILESYSTEM_OTHER
    options = ",".join(o for o in (mount["options"], mount["super"]) if o)
    found.set(
        V.FILESYSTEM,
        value,
        V.DETECTED,
        f"/proc/self/mountinfo: {mount['point']} {fstype} {options}",
    )


def _record_os(host: Host, found: Findings, chain: dict, leaves: list) -> None:
    scheduler = leaves[0].get("scheduler")
    if scheduler and re.fullmatch(r"[a-z][a-z0-9_-]{0,31}", scheduler):
        origin = f"/sys/block/{leaves[0]['name']}/queue/scheduler"
        found.set(V.OS_SCHEDULER, scheduler, V.DETECTED, origin)
    top = chain["children"][0]["name"] if chain["kind"] == "partition" else chain["name"]
    read_ahead = host.read_int(f"/sys/block/{top}/queue/read_ahead_kb")
    if read_ahead is not None and 0 <= read_ahead < 2**31:
        found.set(V.OS_READ_AHEAD, read_ahead, V.DETECTED, f"/sys/block/{top}/queue/read_ahead_kb")
    swappiness = host.read_int("/proc/sys/vm/swappiness")
    if swappiness is not None and 0 <= swappiness <= 200:
        found.set(V.OS_SWAPPINESS, swappiness, V.DETECTED, "/proc/sys/vm/swappiness")


def _cloud_of(leaves: list) -> tuple | None:
    for leaf in leaves:
        model = leaf.get("model", "").lower()
        for needle, provider, label in CLOUD_MODELS:
            if needle in model:
                if provider == "azure" and leaf.get("vendor", "").lower() != "msft":
                    continue
                return provider, label, leaf.get("model", "")
    return None


def _media_of(leaves: list) -> tuple:
    """(media, source, why) of the physical devices."""
    kinds = set()
    virtual = [leaf["name"] for leaf in leaves if leaf.get("transport") in ("virtio", "xen")]
    for leaf in leaves:
        if leaf.get("transport") == "nvme":
            kinds.add(V.NVME)
        elif leaf.get("rotational") == "0":
            kinds.add(V.SATA_SSD)
        elif leaf.get("rotational") == "1":
            kinds.add(V.HDD)
    names = ",".join(leaf["name"] for leaf in leaves[:8])
    if not kinds:
        return None, V.ASSUMED, f"{names}: no queue/rotational"
    media = V.HDD if V.HDD in kinds else sorted(kinds)[0]
    rotational = ",".join(sorted({str(leaf.get("rotational")) for leaf in leaves}))
    why = f"{names}: queue/rotational={rotational}, transport {leaves[0].get('transport')}"
    if virtual:
        why += "; a virtual disk: its rotational flag is the hypervisor's, not the media's"
        return media, V.ASSUMED, why
    return media, V.DETECTED, why


def _record_plain(
    host: Host, found: Findings, chain: dict, leaves: list, where: str, controller: str = ""
) -> None:
    media, source, why = _media_of(leaves)
    if media is not None:
        found.set(V.MEDIA, media, source, why)
    if source == V.ASSUMED:
        found.miss(f"storage media: {why}; check what the volume really is (HDD, SSD, NVMe)")
    md = find_kind(chain, "md")
    count = min(V.MAX_DEVICES, len(leaves))
    if md is not None:
        level, members = md.get("level"), md.get("raid_disks")
        stat_level, stat_members = mdstat_level(host, md["name"])
        level = level or stat_level
        members = members or stat_members or len(leaves_of(md))
        origin = f"md {md['name']}: /sys/block/{md['name']}/md/level {level}, {members} disks"
        count = min(V.MAX_DEVICES, members)
        if level in V.RAID_LEVELS:
            found.set(V.RAID_LEVEL, level, V.DETECTED, origin)
        else:
            found.set(V.RAID_LEVEL, "raid0", V.ASSUMED, origin + " (treated as striping)")
            found.miss(f"RAID level: md {md['name']} is {level}, which the advisor does not model")
        found.set(V.DEVICE_COUNT, count, V.DETECTED, origin)
    elif len(leaves) > 1:
        found.set(V.DEVICE_COUNT, count, V.DETECTED, where)
        found.set(V.RAID_LEVEL, "raid0", V.ASSUMED, f"{where}: several devices under device-mapper")
        found.miss(
            "RAID level: LVM/device-mapper spans several devices; striped (raid0) or linear is "
            "not in sysfs (see `dmsetup table`)"
        )
    elif controller:  # the controller hides its disks: one logical drive is all sysfs shows
        hidden = f"{where}: a {controller} logical drive; its disks are behind the controller"
        found.set(V.DEVICE_COUNT, 1, V.ASSUMED, hidden)
        found.set(V.RAID_LEVEL, "none", V.ASSUMED, hidden)
    else:
        found.set(V.DEVICE_COUNT, 1, V.DETECTED, where)
        found.set(V.RAID_LEVEL, "none", V.DETECTED, f"{where}: one device, no md RAID")
    if controller:
        found.set(V.CONTROLLER_CACHE, V.CACHE_NONE, V.ASSUMED, f"{controller} tool unavailable")
    else:
        found.set(
            V.CONTROLLER_CACHE,
            V.CACHE_NONE,
            V.ASSUMED,
            "no hardware RAID logical drive under the datadir",
        )
    if media == V.HDD:
        found.miss("disk rpm: not visible in sysfs; the advisor assumes 7200 unless told")
    elif media is not None:
        found.miss("flash class: power-loss protection (enterprise) or not (consumer)")


def _record_controller(found: Findings, info: dict, leaf: dict) -> None:
    tool = info["tool"]
    level = info["level"] if info["level"] in V.RAID_LEVELS else None
    origin = f"{tool}: {info['level']} of {info['members']} disks on {leaf['name']}"
    if level is None:
        found.set(V.RAID_LEVEL, "raid0", V.ASSUMED, origin + " (level not modelled)")
        found.miss(f"RAID level: the controller reports {info['level']}; enter the nearest")
    else:
        found.set(V.RAID_LEVEL, level, V.DETECTED, origin)
    if info["members"] > 0:
        found.set(V.DEVICE_COUNT, min(V.MAX_DEVICES, info["members"]), V.DETECTED, origin)
    else:
        found.miss(f"device count: {tool} did not list the member disks")
    media_words = " ".join(info["media"] + info["interfaces"]).upper()
    if "SSD" in media_words or "SOLID STATE" in media_words:
        found.set(V.MEDIA, V.SATA_SSD, V.DETECTED, f"{tool}: member disks {media_words}")
        found.miss("flash class: power-loss protection (enterprise) or not (consumer)")
    elif "HDD" in media_words or info["interfaces"]:
        found.set(V.MEDIA, V.HDD, V.DETECTED, f"{tool}: member disks {media_words}")
        if info.get("rpm") in (5400, 7200, 10000, 15000):
            found.set(V.RPM, info["rpm"], V.DETECTED, f"{tool}: Rotational Speed {info['rpm']}")
        else:
            found.miss(f"disk rpm: {tool} does not report it; the advisor assumes 7200")
    else:
        media, _source, why = _media_of([leaf])
        if media is not None:
            found.set(V.MEDIA, media, V.ASSUMED, f"{why}; {tool} gave no member media")
        found.miss(f"member disk media: {tool} did not report HDD or SSD")
    cache, why = controller_cache(info)
    found.set(V.CONTROLLER_CACHE, cache, V.DETECTED, f"{tool}: {why}")
    if info["learning"]:
        found.miss(
            "controller cache: the battery is in a learn cycle; until it ends the controller "
            "writes through (the profile gives its normal write-back state)"
        )
    if info.get("vd_count", 1) > 1:
        found.miss(f"{tool} lists {info['vd_count']} logical drives; the first was read")


def controller_cache(info: dict) -> tuple:
    """The profile's controller_cache from a write policy and battery state. A write-back cache
    turns to write-through while the battery is bad or learning, unless forced ("Always
    WriteBack"): Dell OpenManage Server Administrator User's Guide, "Battery Properties and
    Tasks" (https://dl.dell.com/topicspdf/dell-opnmang-srvr-admin-v8.3_users-guide_en-us.pdf)."""
    state = info["battery_state"] or "no battery"
    healthy = state.strip().lower() in ("optimal", "ok", "ready", "learning", "charging")
    healthy = healthy or info["learning"]
    text = f"cache policy {info['cache_text'] or '?'}, battery {state}"
    if info["learning"]:
        text += ", learn cycle active"
    if not info["write_back"]:
        return V.CACHE_WT, text
    if healthy and info["battery_present"]:
        return V.CACHE_WB_BBU, text
    if info["always_write_back"]:
        return V.CACHE_WB, text + " (write-back without a working battery: unsafe)"
    return V.CACHE_WT, text + " (falls back to write-through without a working battery)"


def _record_cloud(
    found: Findings,
    cloud: tuple,
    leaves: list,
    chain: dict,
    host: Host,
    args: argparse.Namespace,
) -> None:
    label, model = cloud[1], cloud[2]
    origin = f"{leaves[0]['name']} model '{model}': {label}"
    if args.volume_type:
        found.set(V.VOLUME_TYPE, args.volume_type, V.DETECTED, "--volume-type")
        found.set(
            V.MEDIA, V.NETWORK_SSD, V.DETECTED, origin + f", --volume-type {args.volume_type}"
        )
    else:
        found.set(V.MEDIA, V.NETWORK_SSD, V.ASSUMED, origin + " (SSD-backed assumed)")
        found.miss(
            f"volume type of the {label} (e.g. gp3 or io2): not visible from the host; give "
            "--volume-type (HDD-backed volumes look the same)"
        )
    md = find_kind(chain, "md")
    if md is not None:
        level = md.get("level") or mdstat_level(host, md["name"])[0]
        count = md.get("raid_disks") or len(leaves)
        if level in V.RAID_LEVELS:
            found.set(V.RAID_LEVEL, level, V.DETECTED, f"md {md['name']} over {label}s")
        found.set(V.DEVICE_COUNT, min(V.MAX_DEVICES, count), V.DETECTED, f"md {md['name']}")
    else:
        found.set(V.DEVICE_COUNT, 1, V.DETECTED, origin)
        found.set(V.RAID_LEVEL, "none", V.DETECTED, origin)
    found.set(V.CONTROLLER_CACHE, V.CACHE_NONE, V.DETECTED, f"{label}: no RAID controller")
    for option, path, bound in (
        ("provisioned_iops", V.PROVISIONED_IOPS, V.MAX_PROVISIONED_IOPS),
        ("provisioned_mbps", V.PROVISIONED_MBPS, V.MAX_PROVISIONED_MBPS),
    ):
        value = getattr(args, option)
        if value is not None:
            found.set(path, min(bound, value), V.DETECTED, f"--{option.replace('_', '-')}")
        else:
            flag = "--" + option.replace("_", "-")
            found.miss(f"{option}: the volume's limit is not visible from the host; give {flag}")


# --------------------------------------------------------------------------- kernel
def probe_kernel(host: Host, found: Findings) -> None:
    release = host.read("/proc/sys/kernel/osrelease")
    origin = "/proc/sys/kernel/osrelease"
    if release is None and host.real:
        release, origin = os.uname().release, "uname -r"
    if release and re.match(V.KERNEL_RELEASE, release) and len(release) <= 64:
        found.set(V.KERNEL, release, V.DETECTED, origin)
    else:
        found.miss("kernel release: /proc/sys/kernel/osrelease unreadable")


# --------------------------------------------------------------------------- the server
class ClientError(Exception):
    pass


# The variables the advisor reads: the only SHOW GLOBAL VARIABLES rows the probe prints or posts.
# The rest (hostname, paths, wsrep_provider_options, whatever else the server prints in clear)
# stay on the host; the advisor would drop them at the door anyway (rules/current/kept.py). The
# probe is one standard-library file, so it carries the list; tests/probe/test_probe_post.py
# holds it equal to rules.reference.catalog.known_names() | rules.current.kept.KEPT_UNCATALOGUED.
ADVISOR_READS = frozenset(
    {
        "binlog_cache_size",
        "innodb_adaptive_flushing",
        "innodb_adaptive_flushing_lwm",
        "innodb_buffer_pool_chunk_size",
        "innodb_buffer_pool_dump_at_shutdown",
        "innodb_buffer_pool_dump_pct",
        "innodb_buffer_pool_instances",
        "innodb_buffer_pool_load_at_startup",
        "innodb_buffer_pool_size",
        "innodb_change_buffering",
        "innodb_cleaner_lsn_age_factor",
        "innodb_data_file_buffering",
        "innodb_data_file_write_through",
        "innodb_dedicated_server",
        "innodb_doublewrite",
        "innodb_empty_free_list_algorithm",
        "innodb_flush_log_at_trx_commit",
        "innodb_flush_method",
        "innodb_flush_neighbors",
        "innodb_fsync_threshold",
        "innodb_io_capacity",
        "innodb_io_capacity_max",
        "innodb_log_buffer_size",
        "innodb_log_file_buffering",
        "innodb_log_file_size",
        "innodb_log_file_write_through",
        "innodb_log_files_in_group",
        "innodb_log_write_ahead_size",
        "innodb_log_writer_threads",
        "innodb_lru_scan_depth",
        "innodb_max_dirty_pages_pct",
        "innodb_max_dirty_pages_pct_lwm",
        "innodb_page_cleaners",
        "innodb_parallel_doublewrite_path",
        "innodb_random_read_ahead",
        "innodb_read_ahead_threshold",
        "innodb_read_io_threads",
        "innodb_redo_log_capacity",
        "innodb_use_fdatasync",
        "innodb_use_global_flush_log_at_trx_commit",
        "innodb_use_native_aio",
        "innodb_write_io_threads",
        "internal_tmp_mem_storage_engine",
        "join_buffer_size",
        "key_buffer_size",
        "log_bin",
        "max_connections",
        "max_heap_table_size",
        "performance_schema",
        "query_cache_limit",
        "query_cache_min_res_unit",
        "query_cache_size",
        "query_cache_type",
        "query_cache_wlock_invalidate",
        "read_buffer_size",
        "read_rnd_buffer_size",
        "sort_buffer_size",
        "sync_binlog",
        "table_open_cache",
        "temptable_max_ram",
        "thread_handling",
        "thread_stack",
        "tmp_table_size",
    }
)


def client_command(args: argparse.Namespace) -> list:
    client = args.client or which(("mariadb", "mysql"))
    if args.client and not (os.path.isfile(client) and os.access(client, os.X_OK)):
        raise ClientError(f"--client {client}: not an executable file")
    if client is None:
        raise ClientError(
            "no mysql or mariadb client found (install one, or give --client PATH, or "
            "--variables-file with saved SHOW GLOBAL VARIABLES output)"
        )
    command = [client]
    if args.defaults_file:  # must come first on the client's command line
        command.append(f"--defaults-file={args.defaults_file}")
    if args.socket:
        command.append(f"--socket={args.socket}")
    if args.user:
        command.append(f"--user={args.user}")
    return [*command, "--batch", "--skip-column-names", "--connect-timeout=10"]


def run_sql(command: list, sql: str) -> str:
    code, out, err = run_tool([*command, "-e", sql], timeout=CLIENT_TIMEOUT_S)
    if code != 0:
        first = next((line for line in err.splitlines() if line.strip()), f"exit code {code}")
        if "1045" in first or "Access denied" in first:
            raise ClientError(
                "the server refused the login ("
                + clip(re.sub(r"'[^']*'@", "'...'@", first), 120)
                + "); give --defaults-file with a [client] user and password that may read "
                "the variables"
            )
        raise ClientError(f"{os.path.basename(command[0])}: {clip(first, 160)}")
    return out


def parse_variables(text: str) -> dict:
    """name -> value from SHOW GLOBAL VARIABLES in batch (tab) or table (`| a | b |`) form."""
    values = {}
    for line in text.splitlines():
        row = _variable_row(line)
        if row is not None:
            values[row[0]] = row[1]
    return values


def _variable_row(line: str) -> tuple | None:
    """(name, value) of one batch (tab) or table row; None for anything else."""
    if "\t" in line:
        name, _, value = line.partition("\t")
    elif line.strip().startswith("|"):
        parts = [p.strip() for p in line.strip().strip("|").split("|", 1)]
        name, value = [*parts, ""][:2]
    else:
        return None
    name = name.strip().lower()
    if re.fullmatch(r"[a-z0-9_]{1,64}", name) and name != "variable_name":
        return name, value.strip()
    return None


def flavor_of(variables: dict) -> tuple:
    version = variables.get("version", "")
    comment = variables.get("version_comment", "")
    number = VERSION_NUMBER.match(version)
    if "mariadb" in (version + comment).lower():
        flavor = "mariadb"
    elif "percona" in comment.lower():
        flavor = "percona"
    else:
        flavor = "mysql"
    return flavor, number.group(1) if number else None


def advisor_rows(text: str) -> str:
    """The rows of the SHOW GLOBAL VARIABLES text the advisor reads (ADVISOR_READS), as the client
    printed them, cut to the API's limit (rules/inputs/field_table.py MAX_CURRENT_TEXT_BYTES)."""
    out, size = [], 0
    for line in text.splitlines():
        row = _variable_row(line)
        if row is None or row[0] not in ADVISOR_READS:
            continue
        size += len(line.encode("utf-8")) + 1
        if size > V.MAX_CURRENT_TEXT_BYTES:
            break
        out.append(line + "\n")
    return "".join(out)


def probe_server(found: Findings, args: argparse.Namespace) -> str | None:
    """Flavor, version, variables, data size and durability; the server's datadir, if read."""
    if args.variables_file:
        try:
            with open(args.variables_file, encoding="utf-8", errors="replace") as handle:
                text = handle.read(V.MAX_CURRENT_TEXT_BYTES * 4)
        except OSError as problem:
            raise ClientError(f"--variables-file: {problem.strerror or problem}") from None
        origin, command = f"--variables-file {os.path.basename(args.variables_file)}", None
    else:
        command = client_command(args)
        text = run_sql(command, "SHOW GLOBAL VARIABLES")
        origin = f"SHOW GLOBAL VARIABLES through {os.path.basename(command[0])}"
    variables = parse_variables(text)
    if not variables:
        raise ClientError(f"{origin}: no variables in the output")
    flavor, version = flavor_of(variables)
    if version:
        found.set(V.FLAVOR, flavor, V.DETECTED, f"{origin}: version {variables.get('version')}")
        found.set(V.VERSION, version, V.DETECTED, f"{origin}: version {variables.get('version')}")
        found.note(f"server: {flavor} {variables.get('version')}")
    else:
        found.miss("server version: no `version` row in the variables")
    rows = advisor_rows(text)
    if rows:
        found.set(V.SHOW_VARIABLES, rows, V.DETECTED, f"{origin}: the rows the advisor reads")
    else:
        found.miss("current settings: none of the variables the advisor reads in the output")
    _record_workload(found, variables, origin)
    if command is not None:
        _record_data_size(found, command)
    else:
        found.miss("data size: a saved variables file does not carry it; enter data_size_gb")
    return variables.get("datadir") or None


def _record_workload(found: Findings, variables: dict, origin: str) -> None:
    trx = variables.get("innodb_flush_log_at_trx_commit")
    sync = variables.get("sync_binlog")
    log_bin = variables.get("log_bin", "OFF").upper() in ("ON", "1")
    if trx is not None:
        full = trx == "1" and (not log_bin or sync == "1")
        found.set(
            V.DURABILITY,
            V.DURABILITY_FULL if full else V.DURABILITY_RELAXED,
            V.ASSUMED,
            f"today's settings: innodb_flush_log_at_trx_commit={trx}, "
            f"log_bin={'ON' if log_bin else 'OFF'}, sync_binlog={sync}",
        )
        found.miss("durability: taken from today's settings; say whether a crash may lose commits")
    connections = variables.get("max_connections", "")
    if connections.isdigit() and int(connections) > 0:
        value = min(V.MAX_CONCURRENCY, int(connections))
        found.set(
            V.CONCURRENCY, value, V.ASSUMED, f"max_connections={connections}, the most at once"
        )
        found.miss("concurrency: assumed from max_connections; enter the queries running at once")


def _record_data_size(found: Findings, command: list) -> None:
    sql = (
        "SELECT COALESCE(SUM(DATA_LENGTH + INDEX_LENGTH), 0) FROM information_schema.TABLES "
        "WHERE ENGINE = 'InnoDB'"
    )
    try:
        out = run_sql(command, sql).strip()
        size = int(out.split()[0]) if out else 0
    except (ClientError, ValueError, IndexError) as problem:
        found.miss(f"data size: information_schema not read ({clip(problem, 120)})")
        return
    gb = min(V.MAX_DATA_SIZE_GB, max(V.MIN_DATA_SIZE_GB, round(size / GIB, 3)))
    found.set(
        V.DATA_SIZE_GB,
        gb,
        V.DETECTED,
        f"information_schema.TABLES: InnoDB data+index {size} bytes",
    )
    found.note(f"data: {size / GIB:.3f} GiB of InnoDB data and indexes")


# --------------------------------------------------------------------------- fio
def _fio_number(value: str) -> int:
    match = re.fullmatch(r"(\d+)([kKmMgG]?)", value.strip())
    if match is None:
        raise argparse.ArgumentTypeError("a size such as 256M or 1G")
    factor = {"": 1, "k": 1024, "m": 1024**2, "g": GIB}[match.group(2).lower()]
    size = int(match.group(1)) * factor
    if not 16 * 1024 * 1024 <= size <= 64 * GIB:
        raise argparse.ArgumentTypeError("from 16M to 64G")
    return size


def probe_fio(found: Findings, datadir: str, args: argparse.Namespace) -> None:
    """Random 16 KiB reads then writes on a temporary file in the datadir's filesystem."""
    fio = which(("fio",))
    if fio is None:
        found.miss("measured_iops: fio is not installed (apt-get install fio / dnf install fio)")
        found.incomplete = True
        return
    directory = datadir if os.path.isdir(datadir) else os.path.dirname(datadir.rstrip("/"))
    try:
        reads, writes, how = measure_iops(fio, directory, args)
    except FioError as problem:
        found.miss(f"measured_iops: {problem}")
        found.incomplete = True
        return
    found.set(
        V.MEASURED_IOPS,
        {"random_read": max(1, round(reads)), "random_write": max(1, round(writes))},
        V.MEASURED,
        f"fio {FIO_BLOCK} psync x{FIO_JOBS} direct, {how}",
    )
    found.note(f"fio: {reads:.0f} random reads/s, {writes:.0f} random writes/s ({how})")


class FioError(Exception):
    pass


def measure_iops(fio: str, directory: str, args: argparse.Namespace) -> tuple:
    """(random reads/s, random writes/s, how) on a test file made in `directory`.

    The directory is the datadir, which its owner (mysql) may write: between any check and any
    use of a name there, the owner can put a symlink in its place, and root would write through
    it. So the name is used once, to make the file (O_EXCL, in a directory opened without
    following symlinks); after that the file is reached through its descriptor only: written,
    checked with fstat, handed to fio as /proc/self/fd/N, emptied and, if the name still leads
    to it, unlinked relative to the directory's descriptor."""
    try:
        directory_fd = open_directory(directory)
    except OSError as problem:
        raise FioError(f"cannot open {directory}: {problem.strerror or problem}") from None
    try:
        user = fio_user(os.fstat(directory_fd), os.geteuid(), directory)
        _check_free_space(directory_fd, args.fio_size)
        handle, name = create_test_file(directory_fd, directory)
        try:
            if user is not None:
                os.fchown(handle, *user)  # fio, run as the owner, opens the file again
            return _timed_runs(fio, handle, user, args, directory)
        except OSError as problem:  # e.g. ENOSPC while writing the file
            raise FioError(f"test file in {directory}: {problem.strerror or problem}") from None
        finally:
            discard_test_file(directory_fd, name, handle)
    finally:
        os.close(directory_fd)


def open_directory(path: str) -> int:
    """A descriptor of the directory `path`, opened one name at a time from `/` without following
    a symlink: the directory checked is the one written, whatever is renamed meanwhile."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    handle = os.open("/", flags)
    try:
        for name in os.path.abspath(path).split("/"):
            if name:
                inner = os.open(name, flags, dir_fd=handle)
                os.close(handle)
                handle = inner
    except OSError:
        os.close(handle)
        raise
    return handle


def fio_user(directory: os.stat_result, euid: int, where: str) -> tuple | None:
    """(uid, gid) fio runs as, or None for this process's own user.

    Run as root (`sudo advisor-probe --fio`, docs/probe.md) in a directory another user
    owns - the datadir, owned by mysql wherever a package installed the server - the test file
    is handed to that owner and fio runs as them: what fio then writes, the owner could write
    anyway. Refusing instead would make --fio useless where it is used most; the file itself is
    safe either way (measure_iops). A root-owned directory that others may write (group or
    world, without the sticky bit) has no one owner to become: refused."""
    if euid != 0:
        return None
    if directory.st_uid != 0:
        try:
            gid = pwd.getpwuid(directory.st_uid).pw_gid
        except KeyError:  # no passwd entry: the directory's group
            gid = directory.st_gid
        return directory.st_uid, gid
    shared = directory.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    if shared and not directory.st_mode & stat.S_ISVTX:
        raise FioError(
            f"fio refused: {where} is root's but others may write it (mode "
            f"{stat.S_IMODE(directory.st_mode):o}); let only its owner write it (chmod go-w)"
        )
    return None


def _check_free_space(directory_fd: int, size: int) -> None:
    stats = os.statvfs(directory_fd)
    free = stats.f_bavail * stats.f_frsize  # as shutil.disk_usage counts it
    if size > free * FIO_MAX_SHARE_OF_FREE:
        raise FioError(
            f"fio refused: a {size // 1024**2} MiB test file would take more than "
            f"{FIO_MAX_SHARE_OF_FREE:.0%} of the {free // 1024**2} MiB free"
        )


def create_test_file(directory_fd: int, where: str) -> tuple:
    """(descriptor, name) of a new empty file in the directory. O_CREAT|O_EXCL fails on any name
    that exists, a symlink included (POSIX open(), "If O_CREAT and O_EXCL are set ... a symbolic
    link"); O_NOFOLLOW says so twice. fstat then checks it is a plain file with one name, ours."""
    name = FIO_FILE_PREFIX + os.urandom(8).hex()
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        handle = os.open(name, flags, 0o600, dir_fd=directory_fd)
    except PermissionError:
        raise FioError(f"cannot write a test file in {where} (run as root?)") from None
    except OSError as problem:
        raise FioError(f"cannot make a test file in {where}: {problem.strerror}") from None
    made = os.fstat(handle)
    if not stat.S_ISREG(made.st_mode) or made.st_nlink != 1 or made.st_uid != os.geteuid():
        os.close(handle)
        raise FioError(f"the test file made in {where} is not a plain file of ours; not used")
    return handle, name


def discard_test_file(directory_fd: int, name: str, handle: int) -> None:
    """Empty the test file through its descriptor and close it; unlink its name only while the
    name still leads to it. (Should the owner swap the name between the check and the unlink, the
    entry removed is one in their own directory, which they could remove themselves.)"""
    with contextlib.suppress(OSError):
        os.ftruncate(handle, 0)
        mine = os.fstat(handle)
        there = os.stat(name, dir_fd=directory_fd, follow_symlinks=False)
        if (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino):
            os.unlink(name, dir_fd=directory_fd)
    os.close(handle)


def _timed_runs(
    fio: str, handle: int, user: tuple | None, args: argparse.Namespace, directory: str
) -> tuple:
    budget = float(args.fio_seconds)
    started = time.monotonic()
    size = _lay_out(handle, args.fio_size, started + budget * FIO_LAYOUT_SHARE)
    deadline = started + budget  # the remaining time is split between reads and writes
    phase = max(1, int((deadline - time.monotonic() - 2 * FIO_OVERHEAD_S) / 2))
    reads = fio_run(fio, handle, "randread", phase, user)
    last = max(1, int(deadline - time.monotonic() - FIO_OVERHEAD_S))
    writes = fio_run(fio, handle, "randwrite", min(phase, last), user)
    elapsed = time.monotonic() - started
    how = f"{phase} s each on a {size // 1024**2} MiB file in {directory} ({elapsed:.1f} s)"
    return reads, writes, how


def _lay_out(handle: int, size: int, deadline: float) -> int:
    """Write the test file (fio would, uncounted); a timestamped chunk so it is not all zeros."""
    chunk = bytearray(os.urandom(1024 * 1024))
    written = 0
    while written < size:
        chunk[:8] = written.to_bytes(8, "little")
        written += os.write(handle, chunk)
        if time.monotonic() > deadline and written >= 16 * 1024 * 1024:
            break
    os.ftruncate(handle, written)
    os.fsync(handle)
    return written


def fio_run(fio: str, handle: int, mode: str, seconds: int, user: tuple | None) -> float:
    """IOPS of one fio phase on the open test file. fio gets the descriptor (inherited through
    pass_fds) and opens it as /proc/self/fd/N: the file itself, with no name looked up in the
    directory (proc(5), /proc/pid/fd)."""
    size = os.fstat(handle).st_size
    command = [
        fio,
        "--name=advisor-probe",
        f"--filename=/proc/self/fd/{handle}",
        f"--size={size}",
        f"--bs={FIO_BLOCK}",
        f"--rw={mode}",
        "--direct=1",
        "--ioengine=psync",
        f"--numjobs={FIO_JOBS}",
        "--group_reporting",
        "--norandommap",
        "--time_based",
        f"--runtime={seconds}",
        "--output-format=json",
    ]
    code, out, err = run_tool(command, timeout=seconds + FIO_GRACE_S, pass_fds=(handle,), user=user)
    if code != 0:
        first = next((line for line in err.splitlines() if line.strip()), f"exit code {code}")
        raise FioError(f"fio {mode} failed: {clip(first, 150)}")
    try:
        report = json.loads(out[out.index("{") :])
        job = report["jobs"][0]
        return float(job["read" if mode == "randread" else "write"]["iops"])
    except (ValueError, KeyError, IndexError) as problem:
        raise FioError(f"fio {mode}: unreadable JSON report ({type(problem).__name__})") from None


# --------------------------------------------------------------------------- the API
def advisor_url(url: str) -> str:
    """The --post URL, if the profile may travel there: https, or plain http to this host only.
    The profile names the host's hardware and settings; over plain http anyone on the way reads
    it. (An argparse `type`: the URL is refused before the host is read.)"""
    try:
        parsed = urllib.parse.urlsplit(url)
        scheme, host = parsed.scheme, parsed.hostname
    except ValueError:  # e.g. an unclosed [ in the host
        scheme, host = "", None
    if scheme not in ("http", "https") or not host:
        raise argparse.ArgumentTypeError(f"{url!r} is not an http(s) URL")
    if scheme == "http" and not _is_loopback(host):
        raise argparse.ArgumentTypeError(
            f"{url!r}: plain http sends the profile in clear; use https "
            "(plain http only to localhost, 127.0.0.0/8 or ::1)"
        )
    return url


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback  # 127.0.0.0/8 and ::1 (RFC 6890)
    except ValueError:
        return False


def post_profile(document: dict, url: str, fmt: str) -> tuple:
    """(permalink, my.cnf text or None) from the advisor's API at `url` (see advisor_url)."""
    base = url.rstrip("/")
    endpoint = (
        base if base.endswith("/api/v1/recommendations") else base + "/api/v1/recommendations"
    )
    body = json.dumps(document).encode("utf-8")
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    result = _http_json(urllib.request.Request(endpoint, data=body, headers=headers, method="POST"))
    permalink = urllib.parse.urljoin(endpoint, str(result.get("permalink", "")))
    text = None
    if fmt == "mycnf":
        export = f"{endpoint}/{urllib.parse.quote(str(result.get('id', '')))}/mycnf"
        request = urllib.request.Request(export, headers={"Accept": "text/plain"})
        text = _http_text(request)
    return permalink, text


def _http_json(request: urllib.request.Request) -> dict:
    try:
        data = json.loads(_http_text(request))
    except ValueError:
        raise ClientError(f"{request.full_url}: the answer is not JSON") from None
    if not isinstance(data, dict):
        raise ClientError(f"{request.full_url}: unexpected answer")
    return data


def _http_text(request: urllib.request.Request) -> str:
    try:
        with urllib.request.urlopen(request, timeout=POST_TIMEOUT_S) as response:
            return response.read(10_000_000).decode("utf-8", "replace")
    except urllib.error.HTTPError as problem:
        raise ClientError(f"the advisor answered {problem.code}: {_api_error(problem)}") from None
    except (urllib.error.URLError, OSError) as problem:
        reason = getattr(problem, "reason", problem)
        raise ClientError(f"cannot reach {request.full_url}: {clip(reason, 150)}") from None


def _api_error(problem: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(problem.read(100_000).decode("utf-8", "replace"))
    except (ValueError, OSError):
        return problem.reason or "no details"
    lines = [str(body.get("message", ""))]
    for field, messages in list((body.get("errors") or {}).items())[:20]:
        lines.append(f"  {field}: {'; '.join(str(m) for m in messages)[:300]}")
    return "\n".join(line for line in lines if line)


# --------------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="advisor-probe",
        description="Describe this database host as an InnoDB IO Advisor profile (JSON on "
        "stdout). Reads the host; changes nothing (--fio writes one temporary file).",
        epilog="Exit codes: 0 complete profile; 1 error; 2 usage; 3 profile printed but "
        "incomplete (see its `undetected` list). Passwords: put them in a --defaults-file "
        "[client] section; the probe never reads, prints or sends them.",
    )
    server = parser.add_argument_group("the server")
    server.add_argument("--defaults-file", metavar="FILE", help="client option file to use")
    server.add_argument("--socket", metavar="PATH", help="the server's unix socket")
    server.add_argument("--user", metavar="NAME", help="user to log in as")
    server.add_argument("--client", metavar="PATH", help="the mysql/mariadb client to run")
    server.add_argument(
        "--variables-file",
        metavar="FILE",
        help="saved SHOW GLOBAL VARIABLES output, instead of asking the server",
    )
    server.add_argument("--datadir", metavar="PATH", help="data directory (default: the server's)")
    storage = parser.add_argument_group("cloud volumes")
    storage.add_argument("--volume-type", choices=V.VOLUME_TYPES, help="the volume's type")
    storage.add_argument(
        "--provisioned-iops", type=_bounded_int(V.MAX_PROVISIONED_IOPS), metavar="N"
    )
    storage.add_argument(
        "--provisioned-mbps", type=_bounded_int(V.MAX_PROVISIONED_MBPS), metavar="N"
    )
    measure = parser.add_argument_group("measuring")
    measure.add_argument("--fio", action="store_true", help="run a short fio test (<= 60 s)")
    measure.add_argument(
        "--fio-seconds",
        type=_bounded_int(FIO_MAX_SECONDS),
        default=FIO_MAX_SECONDS,
        metavar="S",
        help=f"time budget of the fio test, 1 to {FIO_MAX_SECONDS} (default {FIO_MAX_SECONDS})",
    )
    measure.add_argument(
        "--fio-size",
        type=_fio_number,
        default=FIO_DEFAULT_SIZE,
        metavar="SIZE",
        help="size of the fio test file (default 1G)",
    )
    out = parser.add_argument_group("output")
    out.add_argument(
        "--post",
        metavar="URL",
        type=advisor_url,
        help="send the profile to the advisor at URL (https; plain http only to localhost)",
    )
    out.add_argument(
        "--format",
        choices=("json", "mycnf"),
        default="json",
        help="json: the profile (or the permalink with --post); mycnf: the my.cnf drop-in "
        "(needs --post)",
    )
    out.add_argument("--quiet", action="store_true", help="no summary on stderr")
    out.add_argument("--version", action="version", version=f"advisor-probe {PROBE_VERSION}")
    parser.add_argument("--root", default="/", help=argparse.SUPPRESS)  # fixture trees, tests
    return parser


def _bounded_int(maximum: int):  # an argparse `type`: text -> int or ArgumentTypeError
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number from 1 to {maximum}") from None
        if not 1 <= value <= maximum:
            raise argparse.ArgumentTypeError(f"a whole number from 1 to {maximum}")
        return value

    return read


def collect(args: argparse.Namespace) -> Findings:
    host = Host(args.root)
    found = Findings()
    if os.geteuid() != 0 and host.real:
        found.note(
            "not running as root: RAID controller tools and some sysfs nodes need root; "
            "run with sudo for a complete profile"
        )
    probe_memory_and_cpu(host, found)
    datadir = args.datadir
    try:
        server_datadir = probe_server(found, args)
    except ClientError as problem:
        found.note(f"server: {problem}")
        found.miss(f"server flavor, version, variables and data size: {problem}")
        server_datadir = None
    datadir = datadir or server_datadir or "/var/lib/mysql"
    datadir = os.path.normpath(datadir)
    if host.real and os.path.exists(datadir):
        datadir = os.path.realpath(datadir)
    probe_storage(host, found, datadir, args)
    probe_kernel(host, found)
    if found.get(V.KIND) is None:
        found.set(V.KIND, V.KIND_DEFAULT, V.ASSUMED, "the probe cannot see the workload")
        found.miss("workload kind: assumed oltp; choose the one that fits")
    if args.fio:
        if host.real:
            probe_fio(found, datadir, args)
        else:
            found.miss("measured_iops: fio runs only on the real root")
    return found


def main(argv: list | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.format == "mycnf" and not args.post:
        parser.error("--format mycnf needs --post URL (the advisor computes the my.cnf)")
    found = collect(args)
    missing = found.missing_required()
    for path in missing:
        found.miss(f"{path}: not detected; required by the advisor")
    document = found.document()
    if not args.quiet:
        for line in found.summary:
            print(f"advisor-probe: {line}", file=sys.stderr)
        for line in found.undetected:
            print(f"advisor-probe: check: {line}", file=sys.stderr)
    if args.post:
        if missing:
            print(
                "advisor-probe: not posted: missing " + ", ".join(missing) + " (the profile is "
                "printed instead; complete it and post it with curl)",
                file=sys.stderr,
            )
            print(json.dumps(document, indent=2))
            return EXIT_PARTIAL
        try:
            permalink, text = post_profile(document, args.post, args.format)
        except ClientError as problem:
            print(f"advisor-probe: {problem}", file=sys.stderr)
            return EXIT_ERROR
        if text is not None:
            print(f"advisor-probe: permalink {permalink}", file=sys.stderr)
            sys.stdout.write(text)
        else:
            print(permalink)
    else:
        print(json.dumps(document, indent=2))
    return EXIT_PARTIAL if missing or found.incomplete else EXIT_OK


def entry() -> int:
    try:
        return main()
    except KeyboardInterrupt:
        print("advisor-probe: interrupted", file=sys.stderr)
        return 128 + signal.SIGINT
    except BrokenPipeError:  # e.g. `advisor-probe | head`: stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_ERROR
    except Exception as problem:  # the last guard: a message, never a traceback
        print(
            f"advisor-probe: internal error: {type(problem).__name__}: {clip(problem, 150)} "
            f"(advisor-probe {PROBE_VERSION}; please report it)",
            file=sys.stderr,
        )
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(entry())
