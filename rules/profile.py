"""The profile, declared once: what a person or a provisioning tool says about one server.

Each field the profile's JSON sets carries its input declaration (`accepts(...)`: kind, label,
help, range, choices, default); validation (`rules.validation.parse_profile`), the echo of the
inputs, the wizard's forms and the API's Profile schema all read these declarations, so they
accept the same fields, ranges and choices (product contract, "Input: the profile").
Built only by `parse_profile`; every field here has passed its range check.
Sizes stay in the contract's GB (GiB) units here and are converted with `units` where computed.
"""

import re
from dataclasses import dataclass, field

from rules.enums import (
    HDD_RPMS,
    ControllerCache,
    Durability,
    Filesystem,
    FlashClass,
    Flavor,
    Media,
    RaidLevel,
    WorkloadKind,
)
from rules.field_spec import Kind, accepts, input_text_of, values_of
from rules.units import GIB
from rules.version import ServerVersion, parse_version

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
            "Only for hard disks; 7200 when not given.",
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
            "RAID level of the data array; none for a single device.",
            required=False,
            choices=values_of(RaidLevel),
            default=RaidLevel.NONE.value,
        )
    )
    controller_cache: ControllerCache = field(
        metadata=accepts(
            Kind.CHOICE,
            "Controller cache",
            "RAID controller write cache; write_back_bbu when battery or flash backed.",
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
            "consumer drives do not. enterprise when not given.",
            required=False,
            nullable=True,
            choices=values_of(FlashClass),
        ),
    )
    measured_iops: MeasuredIops | None = None

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
class Hardware:
    ram_gb: float = field(
        metadata=accepts(
            Kind.NUMBER,
            "RAM (GB)",
            "Physical memory in GiB; in a container, its memory limit.",
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
            "lscpu's 'NUMA node(s)'; 2 or more on most multi-socket servers. Optional: with more "
            "than one, the buffer pool is interleaved across them.",
            required=False,
            nullable=True,
            minimum=1,
            maximum=64,
        ),
    )

    @property
    def ram_bytes(self) -> int:
        return int(self.ram_gb * GIB)


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
            "full: a commit survives a crash; relaxed: up to about a second may be lost.",
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
            "Upper bound on crash-recovery time; optional.",
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
            "Measured throughput today (optional)",
            "What the server does today with its current configuration, in the workload's unit "
            "(NOTPM, transactions/s, rows/s or queries/s); the estimate is then this measurement "
            "times the modelled gain, a much narrower range.",
            required=False,
            nullable=True,
            minimum=0.001,
            maximum=1e9,
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


@dataclass(frozen=True, slots=True)
class Options:
    """How the result is written, not what the server is."""

    include_defaults: bool = field(  # write settings equal to the version's default too
        default=False,
        metadata=accepts(
            Kind.BOOLEAN,
            "Write default values too",
            "true: the my.cnf and SQL also set the recommendations that equal this server's own "
            "default; false (the default): those are listed but left out.",
            required=False,
            default=False,
        ),
    )


@dataclass(frozen=True, slots=True)
class Profile:
    server: Server
    hardware: Hardware
    workload: Workload
    current: Current | None  # read by rules.current, not by a field table
    raw: dict[str, object]  # the validated input, normalised, echoed as the result's `inputs`
    options: Options = field(default_factory=Options)
