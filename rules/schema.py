"""The profile's fields, declared once.

Validation, the wizard's forms and the API's serializers all read this table, so the three faces
accept the same fields, ranges and choices (product contract, "Input: the profile").
"""

from dataclasses import dataclass
from enum import StrEnum

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


class Kind(StrEnum):
    NUMBER = "number"
    INTEGER = "integer"
    CHOICE = "choice"
    TEXT = "text"


@dataclass(frozen=True, slots=True)
class FieldSpec:
    path: str
    kind: Kind
    label: str
    help: str
    required: bool = True
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    default: object = None
    nullable: bool = False
    max_length: int = 0

    @property
    def name(self) -> str:
        return self.path.rsplit(".", 1)[-1]

    def describe_range(self) -> str:
        if self.kind is Kind.CHOICE:
            return "one of " + ", ".join(self.choices)
        if self.minimum is not None and self.maximum is not None:
            noun = "a whole number" if self.kind is Kind.INTEGER else "a number"
            return f"{noun} from {_num(self.minimum)} to {_num(self.maximum)}"
        return "text"


def _num(value: float) -> str:
    return f"{value:g}" if value < 1e6 else f"{int(value)}"


def _values(enum: type[StrEnum]) -> tuple[str, ...]:
    return tuple(member.value for member in enum)


FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "server.flavor",
        Kind.CHOICE,
        "Server",
        "MySQL, Percona Server or MariaDB.",
        choices=_values(Flavor),
    ),
    FieldSpec(
        "server.version", Kind.TEXT, "Version", "Release, e.g. 8.0.36, 8.4 or 10.11.", max_length=40
    ),
    FieldSpec(
        "hardware.ram_gb",
        Kind.NUMBER,
        "RAM (GB)",
        "Physical memory in GiB; in a container, its memory limit.",
        minimum=0.5,
        maximum=16384,
    ),
    FieldSpec(
        "hardware.cpu_cores",
        Kind.INTEGER,
        "CPU cores",
        "Cores (or vCPUs) the server may use.",
        minimum=1,
        maximum=1024,
    ),
    FieldSpec(
        "hardware.storage.media",
        Kind.CHOICE,
        "Media",
        "Spinning disks, SATA SSD or NVMe.",
        choices=_values(Media),
    ),
    FieldSpec(
        "hardware.storage.rpm",
        Kind.INTEGER,
        "Disk speed (rpm)",
        "Only for hard disks; 7200 when not given.",
        required=False,
        nullable=True,
        choices=tuple(str(r) for r in HDD_RPMS),
    ),
    FieldSpec(
        "hardware.storage.device_count",
        Kind.INTEGER,
        "Devices",
        "Data devices in the array (1 for a single disk).",
        minimum=1,
        maximum=128,
    ),
    FieldSpec(
        "hardware.storage.raid_level",
        Kind.CHOICE,
        "RAID level",
        "RAID level of the data array; none for a single device.",
        required=False,
        choices=_values(RaidLevel),
        default=RaidLevel.NONE.value,
    ),
    FieldSpec(
        "hardware.storage.controller_cache",
        Kind.CHOICE,
        "Controller cache",
        "RAID controller write cache; write_back_bbu when battery or flash backed.",
        required=False,
        choices=_values(ControllerCache),
        default=ControllerCache.NONE.value,
    ),
    FieldSpec(
        "hardware.storage.flash_class",
        Kind.CHOICE,
        "Flash class",
        "Only for flash: enterprise drives have power-loss protection and fast syncs; "
        "consumer drives do not. enterprise when not given.",
        required=False,
        nullable=True,
        choices=_values(FlashClass),
    ),
    FieldSpec(
        "hardware.storage.measured_iops.random_read",
        Kind.NUMBER,
        "Measured random reads/s",
        "From fio, 16 KiB random reads; replaces the device model.",
        required=False,
        minimum=1,
        maximum=100_000_000,
    ),
    FieldSpec(
        "hardware.storage.measured_iops.random_write",
        Kind.NUMBER,
        "Measured random writes/s",
        "From fio, 16 KiB random writes.",
        required=False,
        minimum=1,
        maximum=100_000_000,
    ),
    FieldSpec(
        "hardware.filesystem",
        Kind.CHOICE,
        "Filesystem",
        "Filesystem of the data directory.",
        required=False,
        nullable=True,
        choices=_values(Filesystem),
    ),
    FieldSpec(
        "hardware.kernel",
        Kind.TEXT,
        "Linux kernel",
        "e.g. 5.15; decides scheduler names.",
        required=False,
        nullable=True,
        max_length=64,
    ),
    FieldSpec(
        "workload.kind",
        Kind.CHOICE,
        "Workload",
        "What the server mostly does.",
        choices=_values(WorkloadKind),
    ),
    FieldSpec(
        "workload.data_size_gb",
        Kind.NUMBER,
        "Data size (GB)",
        "Size of the InnoDB data and indexes in GiB.",
        minimum=0.001,
        maximum=1_048_576,
    ),
    FieldSpec(
        "workload.concurrency",
        Kind.INTEGER,
        "Concurrency",
        "Connections running queries at the same time.",
        minimum=1,
        maximum=100_000,
    ),
    FieldSpec(
        "workload.durability",
        Kind.CHOICE,
        "Durability",
        "full: a commit survives a crash; relaxed: up to about a second may be lost.",
        required=False,
        choices=_values(Durability),
        default=Durability.FULL.value,
    ),
    FieldSpec(
        "workload.recovery_target_minutes",
        Kind.NUMBER,
        "Crash-recovery target (minutes)",
        "Upper bound on crash-recovery time; optional.",
        required=False,
        nullable=True,
        minimum=0.5,
        maximum=1440,
    ),
    FieldSpec(
        "workload.measured_throughput",
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

FIELDS_BY_PATH: dict[str, FieldSpec] = {spec.path: spec for spec in FIELDS}

# Which device counts each RAID level accepts (product contract: raid1/raid10 need an even count
# >= 2, raid5 >= 3, raid6 >= 4).
RAID_MIN_DEVICES: dict[RaidLevel, int] = {
    RaidLevel.NONE: 1,
    RaidLevel.RAID0: 1,
    RaidLevel.RAID1: 2,
    RaidLevel.RAID5: 3,
    RaidLevel.RAID6: 4,
    RaidLevel.RAID10: 2,
}
RAID_NEEDS_EVEN: frozenset[RaidLevel] = frozenset({RaidLevel.RAID1, RaidLevel.RAID10})

CURRENT_FORMS: tuple[str, ...] = ("variables", "mycnf", "show_variables")
MAX_CURRENT_TEXT_BYTES = 1_000_000
