"""The profile, declared once: what a person or a provisioning tool says about one server.

Each field the profile's JSON sets carries its input declaration (`accepts(...)`: kind, label,
help, range, choices, default); validation (`rules.inputs.validation.parse_profile`), the echo of
the
inputs, the wizard's forms and the API's Profile schema all read these declarations, so they
accept the same fields, ranges and choices (product contract, "Input: the profile").
Built only by `parse_profile`; every field here has passed its range check.
Sizes stay in the contract's GB (GiB) units here and are converted with `units` where computed.
"""

import math
import re
from dataclasses import dataclass, field
from enum import StrEnum

from rules.inputs.enums import (
    HDD_RPMS,
    ControllerCache,
    Durability,
    Filesystem,
    FlashClass,
    Flavor,
    Media,
    RaidLevel,
    VolumeType,
    WorkloadKind,
)
from rules.inputs.field_spec import Kind, accepts, input_text_of, omit_when_absent, values_of
from rules.inputs.lab_results import MAX_RUNS, LabRun, echo_lab_results, read_lab_results
from rules.inputs.version import ServerVersion, parse_version
from rules.machine.volumes import (
    MAX_PROVISIONED_IOPS,
    MAX_PROVISIONED_MBPS,
    MAX_VOLUME_GB,
    MIN_PROVISIONED_IOPS,
    MIN_PROVISIONED_MBPS,
    MIN_VOLUME_GB,
)
from rules.units import GIB

KERNEL_RELEASE = re.compile(r"^\s*(\d{1,2})\.(\d{1,3})[0-9A-Za-z._+~-]*\s*$")


@dataclass(frozen=True, slots=True)
class Server:
    flavor: Flavor = field(
        metadata=accepts(
            Kind.CHOICE, "Server", "MySQL, Percona Server or MariaDB.", choices=values_of(Flavor)
        )
    )
    version: ServerVersion = field(
        metadata=accepts(
            Kind.TEXT,
            "Version",
            "Release, e.g. 8.0.36, 8.4 or 10.11.",
            max_length=40,
            read=parse_version,
        )
    )
    version_text: str = field(metadata=input_text_of("version"))


@dataclass(frozen=True, slots=True)
class MeasuredIops:
    random_read: float = field(
        metadata=accepts(
            Kind.NUMBER,
            "Measured random reads/s",
            "From fio, 16 KiB random reads; replaces the device model.",
            required=False,
            minimum=1,
            maximum=100_000_000,
        )
    )
    random_write: float = field(
        metadata=accepts(
            Kind.NUMBER,
            "Measured random writes/s",
            "From fio, 16 KiB random writes.",
            required=False,
            minimum=1,
            maximum=100_000_000,
        )
    )


@dataclass(frozen=True, slots=True)
class Storage:
    media: Media = field(
        metadata=accepts(
            Kind.CHOICE, "Media", "Spinning disks, SATA SSD or NVMe.", choices=values_of(Media)
        )
    )
    rpm: int | None = field(  # None for flash
        metadata=accepts(
            Kind.INTEGER,
            "Disk speed (rpm)",
            "Only for hard disks; 7,200 rpm is assumed when not given.",
            required=False,
            nullable=True,
            choices=tuple(str(r) for r in HDD_RPMS),
        )
    )
    device_count: int = field(
        metadata=accepts(
            Kind.INTEGER,
            "Devices",
            "Data devices in the array (1 for a single disk).",
            minimum=1,
            maximum=128,
        )
    )
    raid_level: RaidLevel = field(
        metadata=accepts(
            Kind.CHOICE,
            "RAID level",
            "RAID level of the data array; a single device has none.",
            required=False,
            choices=values_of(RaidLevel),
            default=RaidLevel.NONE.value,
        )
    )
    controller_cache: ControllerCache = field(
        metadata=accepts(
            Kind.CHOICE,
            "Controller cache",
            "The RAID controller's write cache: write-back only counts as protected when a battery "
            "or flash module backs it.",
            required=False,
            choices=values_of(ControllerCache),
            default=ControllerCache.NONE.value,
        )
    )
    flash_class: FlashClass | None = field(  # None for disks; enterprise unless told otherwise
        default=None,
        metadata=accepts(
            Kind.CHOICE,
            "Flash class",
            "Only for flash: enterprise drives have power-loss protection and fast syncs; "
            "consumer drives do not. Enterprise is assumed when not given.",
            required=False,
            nullable=True,
            choices=values_of(FlashClass),
        ),
    )
    measured_iops: MeasuredIops | None = None
    volume_type: VolumeType | None = field(
        default=None,
        metadata=accepts(
            Kind.CHOICE,
            "Volume type",
            "Only for network volumes: the provider's volume type; its published baseline IOPS and "
            "throughput are used unless provisioned figures are given.",
            required=False,
            nullable=True,
            choices=values_of(VolumeType),
            omit_absent=True,
        ),
    )
    provisioned_iops: int | None = field(
        default=None,
        metadata=accepts(
            Kind.INTEGER,
            "Provisioned IOPS",
            "Only for network volumes: the IOPS each volume is provisioned with (reads and writes "
            "together); overrides the volume type's baseline.",
            required=False,
            nullable=True,
            minimum=MIN_PROVISIONED_IOPS,
            maximum=MAX_PROVISIONED_IOPS,
            omit_absent=True,
        ),
    )
    provisioned_mbps: int | None = field(
        default=None,
        metadata=accepts(
            Kind.INTEGER,
            "Provisioned throughput (MB/s)",
            "Only for network volumes: each volume's throughput limit in MiB/s (MB/s on Azure); "
            "it caps 16 KiB page IOs too.",
            required=False,
            nullable=True,
            minimum=MIN_PROVISIONED_MBPS,
            maximum=MAX_PROVISIONED_MBPS,
            omit_absent=True,
        ),
    )

    volume_size_gb: float | None = field(
        default=None,
        metadata=accepts(
            Kind.NUMBER,
            "Volume size (GB)",
            "Only for network volumes: each volume's size in GiB; gp2, pd-balanced and pd-ssd "
            "IOPS grow with it. Left out, each volume is taken to hold its share of the data "
            "and no more.",
            required=False,
            nullable=True,
            minimum=MIN_VOLUME_GB,
            maximum=MAX_VOLUME_GB,
            omit_absent=True,
        ),
    )

    @property
    def is_network(self) -> bool:
        return self.media is Media.NETWORK_SSD

    @property
    def is_rotational(self) -> bool:
        return self.media is Media.HDD

    @property
    def has_protected_write_cache(self) -> bool:
        return self.controller_cache is ControllerCache.WRITE_BACK_BBU


@dataclass(frozen=True, slots=True)
class Kernel:
    major: int
    minor: int
    text: str  # as given, e.g. "4.18.0-513.el8": the suffix names the distribution's build


def kernel_from_text(text: str) -> Kernel:
    match = KERNEL_RELEASE.match(text)
    if match is None:
        raise ValueError(f"not a Linux release: {text!r}")
    return Kernel(int(match.group(1)), int(match.group(2)), text)


@dataclass(frozen=True, slots=True)
class MeasuredCpu:
    """The server's own CPU speed: point selects on cached data, as sysbench oltp_point_select
    measures them. The estimate then takes this machine's speed per statement from it instead
    of from the year's typical core (a virtual CPU can be several times slower)."""

    point_select_qps: float = field(
        metadata=accepts(
            Kind.NUMBER,
            "Measured point selects/s",
            "sysbench oltp_point_select on data the buffer pool holds, against this server "
            "(same release and cores): its queries per second.",
            minimum=1,
            maximum=1e9,
        )
    )
    threads: int = field(
        metadata=accepts(
            Kind.INTEGER,
            "Threads of that run",
            "The client threads that measurement ran with (sysbench --threads). At no more "
            "threads than cores it stays within the load of the published runs that price a "
            "workload's CPU against point selects; more widens those estimates.",
            minimum=1,
            maximum=100_000,
        )
    )


@dataclass(frozen=True, slots=True)
class Hardware:
    ram_gb: float = field(
        metadata=accepts(
            Kind.NUMBER,
            "RAM (GB)",
            "Physical memory of the host in GiB.",
            minimum=0.5,
            maximum=16384,
        )
    )
    cpu_cores: int = field(
        metadata=accepts(
            Kind.INTEGER,
            "CPU cores",
            "Cores (or vCPUs) the server may use.",
            minimum=1,
            maximum=1024,
        )
    )
    storage: Storage
    filesystem: Filesystem | None = field(
        default=None,
        metadata=accepts(
            Kind.CHOICE,
            "Filesystem",
            "Filesystem of the data directory.",
            required=False,
            nullable=True,
            choices=values_of(Filesystem),
        ),
    )
    kernel: Kernel | None = field(
        default=None,
        metadata=accepts(
            Kind.TEXT,
            "Linux kernel",
            "uname -r, e.g. 5.15 or 4.18.0-513.el8; decides the IO scheduler names (multi-queue "
            "from 4.19 and on RHEL 8). Left out, the udev rule carries both generations.",
            required=False,
            nullable=True,
            max_length=64,
            read=kernel_from_text,
            echo=lambda kernel: kernel.text,
        ),
    )
    numa_nodes: int | None = field(  # lscpu's "NUMA node(s)"; None when not given
        default=None,
        metadata=accepts(
            Kind.INTEGER,
            "NUMA nodes",
            "lscpu's 'NUMA node(s)'; 2 or more on most multi-socket servers. With more than one, "
            "the buffer pool is interleaved across them.",
            required=False,
            nullable=True,
            minimum=1,
            maximum=64,
        ),
    )

    memory_limit_gb: float | None = field(  # a cgroup's memory.max; None when not limited
        default=None,
        metadata=accepts(
            Kind.NUMBER,
            "Memory limit (GB)",
            "The server's memory limit in GiB (a container's or cgroup's); below RAM, "
            "every memory-sized value uses it instead of RAM.",
            required=False,
            nullable=True,
            minimum=0.5,
            maximum=16384,
            omit_absent=True,
        ),
    )
    cpu_limit: float | None = field(  # a cgroup's cpu.max quota / period; None when not limited
        default=None,
        metadata=accepts(
            Kind.NUMBER,
            "CPU limit (cores)",
            "The CPUs the server may use under a container's or cgroup's quota (docker --cpus, "
            "a Kubernetes CPU limit, cpu.max), fractions allowed; below the cores, IO threads, "
            "log writer threads, buffer pool instances and page cleaners follow it.",
            required=False,
            nullable=True,
            minimum=0.01,
            maximum=1024,
            omit_absent=True,
        ),
    )
    measured_cpu: MeasuredCpu | None = field(default=None, metadata=omit_when_absent())

    @property
    def ram_bytes(self) -> int:
        return int(self.ram_gb * GIB)

    @property
    def is_memory_limited(self) -> bool:
        return self.memory_limit_gb is not None and self.memory_limit_gb < self.ram_gb

    @property
    def is_cpu_limited(self) -> bool:
        return self.cpu_limit is not None and self.cpu_limit < self.cpu_cores

    @property
    def usable_cores(self) -> float:
        """The CPUs the server may use: the cores, or the CPU limit when it is lower."""
        if self.cpu_limit is not None and self.cpu_limit < self.cpu_cores:
            return self.cpu_limit
        return float(self.cpu_cores)

    @property
    def thread_cores(self) -> int:
        """`usable_cores` as a whole number for thread counts: a fractional limit rounds up (a
        1.5-CPU quota lets two threads run at once, each part of the time), at least 1."""
        return max(1, math.ceil(self.usable_cores - 1e-9))

    @property
    def memory_bytes(self) -> int:
        """What the server may use: RAM, or the memory limit when it is lower."""
        if self.memory_limit_gb is not None and self.memory_limit_gb < self.ram_gb:
            return int(self.memory_limit_gb * GIB)
        return self.ram_bytes


@dataclass(frozen=True, slots=True)
class Workload:
    kind: WorkloadKind = field(
        metadata=accepts(
            Kind.CHOICE,
            "Workload",
            "What the server mostly does.",
            choices=values_of(WorkloadKind),
        )
    )
    data_size_gb: float = field(
        metadata=accepts(
            Kind.NUMBER,
            "Data size (GB)",
            "Size of the InnoDB data and indexes in GiB.",
            minimum=0.001,
            maximum=1_048_576,
        )
    )
    concurrency: int = field(
        metadata=accepts(
            Kind.INTEGER,
            "Concurrency",
            "Connections running queries at the same time.",
            minimum=1,
            maximum=100_000,
        )
    )
    durability: Durability = field(
        metadata=accepts(
            Kind.CHOICE,
            "Durability",
            "Full: a commit survives a crash; relaxed: up to about a second of commits may be "
            "lost.",
            required=False,
            choices=values_of(Durability),
            default=Durability.FULL.value,
        )
    )
    recovery_target_minutes: float | None = field(
        default=None,
        metadata=accepts(
            Kind.NUMBER,
            "Crash-recovery target (minutes)",
            "Upper bound on crash-recovery time.",
            required=False,
            nullable=True,
            minimum=0.5,
            maximum=1440,
        ),
    )
    measured_throughput: float | None = field(  # today's rate, in the kind's reference unit
        default=None,
        metadata=accepts(
            Kind.NUMBER,
            "Measured throughput today",
            "What the server does today with its current configuration, in the workload's unit "
            "(NOTPM, transactions/s, rows/s or queries/s); the estimate is then this measurement "
            "times the modelled gain, a much narrower range.",
            required=False,
            nullable=True,
            minimum=0.001,
            maximum=1e9,
        ),
    )

    lab_results: tuple[LabRun, ...] = field(
        default=(),
        metadata=accepts(
            Kind.LAB_RESULTS,
            "Lab results",
            "Throughput measured on this host (a staging copy, never production) per "
            "configuration, in the workload's unit: the lab's own JSON-lines records "
            "(python3 -m lab), of which only the reported variables the advisor reads, the rate "
            "and the test's kind are kept, or "
            '{"configuration": {variable: value}, "throughput": n, "label": optional}. The '
            "estimates are then anchored to them: a measured configuration's estimate is the "
            "range of its runs, the others the model's scaled by this host's factor (measured "
            "over modelled). Not with measured_throughput.",
            required=False,
            max_items=MAX_RUNS,
            read=read_lab_results,
            echo=echo_lab_results,
            omit_absent=True,
        ),
    )

    @property
    def data_size_bytes(self) -> int:
        return int(self.data_size_gb * GIB)


@dataclass(frozen=True, slots=True)
class Current:
    """What the server runs today, normalised: lower-case underscore names to raw string values."""

    variables: dict[str, str] = field(default_factory=dict)
    os: dict[str, str] = field(default_factory=dict)
    origin: str = "variables"  # variables | mycnf | show_variables
    notes: tuple[str, ...] = ()
    dropped: int = 0  # pasted variables the advisor does not read, dropped unstored
    # names given only as `loose-name` in an option file: a server that does not know one
    # warns and starts anyway (rules.reference.removed)
    loose: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Options:
    """How the result is written, not what the server is."""

    include_defaults: bool = field(  # write settings equal to the version's default too
        default=False,
        metadata=accepts(
            Kind.BOOLEAN,
            "Write default values too",
            "When on, the my.cnf and SQL also set the recommendations that equal this server's own "
            "default; off (the default), those are listed but left out.",
            required=False,
            default=False,
        ),
    )


class Source(StrEnum):
    """How a probe came by a field's value."""

    DETECTED = "detected"  # read from the system (sysfs, /proc, the server's variables)
    MEASURED = "measured"  # timed on the system (fio, a sync test)
    ASSUMED = "assumed"  # neither: a default the probe chose


@dataclass(frozen=True, slots=True)
class FieldProvenance:
    path: str  # a dotted field path of the profile, e.g. hardware.storage.media
    source: Source
    origin: str  # the probe's "from": what it read or ran


def read_provenance(value: dict[str, dict[str, str]]) -> tuple[FieldProvenance, ...]:
    return tuple(
        FieldProvenance(path, Source(entry["source"]), entry.get("from", ""))
        for path, entry in value.items()
    )


def echo_provenance(value: tuple[FieldProvenance, ...]) -> dict[str, dict[str, str]]:
    return {p.path: {"source": p.source.value, "from": p.origin} for p in value}


@dataclass(frozen=True, slots=True)
class Probe:
    """Which probe wrote the profile (advisor-probe); it never changes a recommendation."""

    version: str = field(
        metadata=accepts(
            Kind.TEXT,
            "Probe version",
            "The version of the probe that wrote this profile.",
            max_length=40,
        )
    )


@dataclass(frozen=True, slots=True)
class Profile:
    server: Server
    hardware: Hardware
    workload: Workload
    current: Current | None  # read by rules.current, not by a field table
    raw: dict[str, object]  # the validated input, normalised, echoed as the result's `inputs`
    options: Options = field(default_factory=Options)
    # What a probe says about its own reading: echoed in the result's inputs, never read by a
    # rule, so they do not change a recommendation.
    probe: Probe | None = field(default=None, metadata=omit_when_absent())
    provenance: tuple[FieldProvenance, ...] = field(
        default=(),
        metadata=accepts(
            Kind.PROVENANCE,
            "Provenance",
            "Optional, as a probe writes it: for a dotted field path (e.g. "
            "hardware.storage.media), whether its value was detected, measured or assumed, and "
            "from what.",
            required=False,
            choices=values_of(Source),
            max_items=200,
            max_length=200,
            read=read_provenance,
            echo=echo_provenance,
            omit_absent=True,
        ),
    )
    undetected: tuple[str, ...] = field(
        default=(),
        metadata=accepts(
            Kind.TEXT_LIST,
            "Not detected",
            "Optional, as a probe writes it: what it could not detect.",
            required=False,
            max_items=100,
            max_length=200,
            read=tuple,
            echo=list,
            omit_absent=True,
        ),
    )
