"""The validated profile: what a person or a provisioning tool says about one server.

Built only by `rules.validation.parse_profile`; every field here has passed its range check.
Sizes stay in the contract's GB (GiB) units here and are converted with `units` where computed.
"""

from dataclasses import dataclass, field

from rules.enums import (
    ControllerCache,
    Durability,
    Filesystem,
    FlashClass,
    Flavor,
    Media,
    RaidLevel,
    WorkloadKind,
)
from rules.units import GIB
from rules.version import ServerVersion


@dataclass(frozen=True, slots=True)
class Server:
    flavor: Flavor
    version: ServerVersion
    version_text: str


@dataclass(frozen=True, slots=True)
class MeasuredIops:
    random_read: float
    random_write: float


@dataclass(frozen=True, slots=True)
class Storage:
    media: Media
    rpm: int | None  # None for flash
    device_count: int
    raid_level: RaidLevel
    controller_cache: ControllerCache
    measured_iops: MeasuredIops | None = None
    flash_class: FlashClass | None = None  # None for disks; enterprise unless told otherwise

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
    text: str

    @property
    def has_blk_mq_schedulers(self) -> bool:
        """From Linux 5.0 only the multi-queue schedulers exist (none, mq-deadline, bfq, kyber)."""
        return self.major >= 5


@dataclass(frozen=True, slots=True)
class Hardware:
    ram_gb: float
    cpu_cores: int
    storage: Storage
    filesystem: Filesystem | None = None
    kernel: Kernel | None = None

    @property
    def ram_bytes(self) -> int:
        return int(self.ram_gb * GIB)


@dataclass(frozen=True, slots=True)
class Workload:
    kind: WorkloadKind
    data_size_gb: float
    concurrency: int
    durability: Durability
    recovery_target_minutes: float | None = None
    measured_throughput: float | None = None  # today's rate, in the kind's reference unit

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
class Profile:
    server: Server
    hardware: Hardware
    workload: Workload
    current: Current | None
    raw: dict[str, object]  # the validated input, normalised, echoed as the result's `inputs`
