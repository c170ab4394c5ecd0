"""Users' own measurements, turned into what the fit uses. Plain Python: no Django here.

A benchmark submission becomes one calibration `Point`, described in the same terms as the
published rows, so the fit treats it like any other source. Approved fio submissions give, per
media class, how far real arrays sit from the storage model's IOPS (`device_corrections`).
"""

import datetime
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from calibration.points import UNITS, Point
from rules.current.errors import CurrentParseError
from rules.current.names import normalise_name
from rules.current.reduce import reduce_current
from rules.current.server_numbers import parse_number
from rules.inputs.enums import ControllerCache, Media
from rules.inputs.profile import Profile, Storage
from rules.inputs.validation import parse_profile
from rules.machine.storage import array_capability
from rules.reference.catalog import catalog_for
from rules.units import GIB

SOURCE_PREFIX = "user-submission-"
BUFFER_POOL = "innodb_buffer_pool_size"
TRX_COMMIT = "innodb_flush_log_at_trx_commit"
FLUSH_METHOD = "innodb_flush_method"
MAX_DIRTY = "innodb_max_dirty_pages_pct"
READ_AHEAD_THRESHOLD = "innodb_read_ahead_threshold"
RANDOM_READ_AHEAD = "innodb_random_read_ahead"
SCHEDULER = "io_scheduler"  # not a server variable: the block device's scheduler
SETTING_NAMES = (
    BUFFER_POOL,
    TRX_COMMIT,
    FLUSH_METHOD,
    MAX_DIRTY,
    READ_AHEAD_THRESHOLD,
    RANDOM_READ_AHEAD,
    SCHEDULER,
)
# Compiled defaults, used only when the catalog has no row for the release (it normally has).
FALLBACK_DEFAULTS: dict[str, int | float | str] = {
    BUFFER_POOL: 128 * 1024 * 1024,
    TRX_COMMIT: 1,
    FLUSH_METHOD: "fsync",
    MAX_DIRTY: 90.0,
    READ_AHEAD_THRESHOLD: 56,
    RANDOM_READ_AHEAD: "OFF",
    SCHEDULER: "",
}
# Linear read-ahead needs `threshold` sequential pages of a 64-page extent: 64 never triggers.
READ_AHEAD_NEVER_THRESHOLD = 64
# How many samples count as much as the storage model's own prior (advisor-engineering-judgement):
# a media class's correction is shrunk by n / (n + SHRINK_SAMPLES), so one odd array moves it
# by a quarter of its log ratio, twenty arrays by 87%.
SHRINK_SAMPLES = 3
# A setting left to its default is a guessed input; named as the published rows name theirs.
POINT_FIELD_OF_SETTING = {
    BUFFER_POOL: "bp_gb",
    TRX_COMMIT: "trx_commit",
    FLUSH_METHOD: "flush_method",
    MAX_DIRTY: "max_dirty_pct",
    READ_AHEAD_THRESHOLD: "read_ahead",
    RANDOM_READ_AHEAD: "read_ahead",
    SCHEDULER: "io_scheduler",
}
CONTROLLER_CACHE_OF_PROFILE = {
    ControllerCache.NONE: "none",
    ControllerCache.WRITE_THROUGH: "write_through",
    ControllerCache.WRITE_BACK_BBU: "write_back_bbu",
    ControllerCache.WRITE_BACK_UNPROTECTED: "volatile",
}


@dataclass(frozen=True, slots=True)
class FioSample:
    """One approved fio submission: the described array and its measured random IOPS."""

    storage: Storage
    random_read_iops: float | None
    random_write_iops: float | None


def point_from_submission(
    *,
    id: str,
    profile: Mapping[str, object],
    metric: str,
    value: float,
    settings: Mapping[str, object],
    source: str,
    year: int | None = None,
) -> Point:
    """The calibration point of one benchmark submission; ValueError when it cannot be one.

    Settings the submitter did not give take the server's compiled default for the profile's
    release and are listed in `assumed_fields`, like the guesses of the published rows.
    """
    parsed = parse_profile(dict(profile))  # ProfileError is a ValueError
    kind = parsed.workload.kind.value
    unit = UNITS[kind]
    if metric.strip().lower() != unit.lower():
        raise ValueError(f"a {kind} result is measured in {unit}, not {metric!r}")
    if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
        raise ValueError(f"the measured value must be a positive number, not {value!r}")
    given, values = _settings(parsed, settings)
    trx_commit = _number(values[TRX_COMMIT], TRX_COMMIT)
    if trx_commit not in (0, 1, 2):
        raise ValueError(f"{TRX_COMMIT}: {values[TRX_COMMIT]!r} is not 0, 1 or 2")
    storage = parsed.hardware.storage
    measured = storage.measured_iops
    where = f"; published at {source.strip()}" if source.strip() else ""
    assumed = sorted(set(SETTING_NAMES) - given)
    return Point(
        id=f"{SOURCE_PREFIX}{id}",
        source=f"{SOURCE_PREFIX}{id}",
        year=year or datetime.date.today().year,
        kind=kind,
        unit=unit,
        value=float(value),
        data_gb=parsed.workload.data_size_gb,
        bp_gb=_number(values[BUFFER_POOL], BUFFER_POOL) / GIB,
        ram_gb=parsed.hardware.ram_gb,
        cpu_cores=parsed.hardware.cpu_cores,
        concurrency=parsed.workload.concurrency,
        media=storage.media.value,
        flash_class=storage.flash_class.value if storage.flash_class is not None else "",
        rpm=storage.rpm,
        device_count=storage.device_count,
        raid_level=storage.raid_level.value,
        controller_cache=CONTROLLER_CACHE_OF_PROFILE[storage.controller_cache],
        measured_read_iops=measured.random_read if measured else None,
        measured_write_iops=measured.random_write if measured else None,
        trx_commit=int(trx_commit),
        flush_method=str(values[FLUSH_METHOD]),
        max_dirty_pct=_number(values[MAX_DIRTY], MAX_DIRTY),
        read_ahead="on" if _read_ahead_on(values) else "off",
        io_scheduler=str(values[SCHEDULER]).strip().lower(),
        flags=frozenset(),
        excluded="",
        assumed_fields=frozenset(POINT_FIELD_OF_SETTING[name] for name in assumed),
        assumptions=f"user submission{where}; server defaults for: {', '.join(assumed) or '-'}",
    )


def fio_sample(
    *,
    profile: Mapping[str, object],
    random_read_iops: float | None,
    random_write_iops: float | None,
) -> FioSample:
    """An fio submission's array, validated as part of its profile (ProfileError otherwise)."""
    for number in (random_read_iops, random_write_iops):
        if number is not None and not (math.isfinite(number) and number > 0):
            raise ValueError(f"measured IOPS must be positive numbers, not {number!r}")
    if random_read_iops is None and random_write_iops is None:
        raise ValueError("an fio submission needs random read or random write IOPS")
    storage = parse_profile(dict(profile)).hardware.storage
    return FioSample(storage, random_read_iops, random_write_iops)


def device_corrections(samples: Iterable[FioSample]) -> dict[str, float]:
    """Per media class and direction, the shrunk mean log ratio of measured over modelled IOPS.

    Every key of a local media class is present ("hdd_read", "hdd_write", "sata_ssd_read",
    ...); a class without samples gets 0.0, which is what the shrinkage gives for n = 0. Network
    volumes get none: their rate is what was provisioned, not a model of their devices.
    """
    ratios: dict[str, list[float]] = defaultdict(list)
    for sample in samples:
        # The model's own figures: measured IOPS already in the profile must not replace them.
        model = array_capability(replace(sample.storage, measured_iops=None))
        media = sample.storage.media.value
        if sample.random_read_iops is not None:
            ratios[f"{media}_read"].append(
                math.log(sample.random_read_iops / model.random_read_iops)
            )
        if sample.random_write_iops is not None:
            ratios[f"{media}_write"].append(
                math.log(sample.random_write_iops / model.random_write_iops)
            )
    corrections: dict[str, float] = {}
    local = (m for m in Media if m is not Media.NETWORK_SSD)
    for key in (f"{m.value}_{d}" for m in local for d in ("read", "write")):
        found = ratios.get(key, [])
        n = len(found)
        corrections[key] = (sum(found) / n) * n / (n + SHRINK_SAMPLES) if n else 0.0
    return corrections


def _settings(
    profile: Profile, settings: Mapping[str, object]
) -> tuple[set[str], dict[str, int | float | str]]:
    """The modelled settings by name: those given, else the release's compiled default."""
    given = {normalise_name(str(name)): value for name, value in settings.items()}
    catalog = catalog_for(profile.server.flavor, profile.server.version)
    values: dict[str, int | float | str] = {}
    for name in SETTING_NAMES:
        raw = given.get(name)
        if raw is None or raw == "":
            default = catalog.default(name) if name != SCHEDULER else None
            values[name] = default if default is not None else FALLBACK_DEFAULTS[name]
        elif isinstance(raw, bool) or not isinstance(raw, int | float | str):
            raise ValueError(f"{name}: {raw!r} is not a setting value")
        else:
            values[name] = raw
    return {n for n in SETTING_NAMES if given.get(n) not in (None, "")}, values


def _number(value: int | float | str, name: str) -> float:
    number = parse_number(value) if isinstance(value, str) else value
    if number is None or not math.isfinite(number) or number < 0:
        raise ValueError(f"{name}: {value!r} is not a number the server accepts")
    return float(number)


def _read_ahead_on(values: Mapping[str, int | float | str]) -> bool:
    threshold = _number(values[READ_AHEAD_THRESHOLD], READ_AHEAD_THRESHOLD)
    random_on = str(values[RANDOM_READ_AHEAD]).strip().upper() in ("ON", "1", "TRUE")
    return threshold < READ_AHEAD_NEVER_THRESHOLD or random_on


def kept_submission_fields(
    profile: Mapping[str, Any], server_settings: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the profile, the server settings) as stored: the profile's pasted `current` reduced to
    what the advisor reads, and of the settings only those the model reads (a pasted server's
    variables can hold paths, hosts and secrets)."""
    kept = dict(profile)
    current = profile.get("current")
    if isinstance(current, Mapping):
        try:
            kept["current"] = reduce_current(current)
        except CurrentParseError:  # never read, so never used: not kept either
            del kept["current"]
    settings = {
        name: value
        for name, value in server_settings.items()
        if normalise_name(str(name)) in SETTING_NAMES
    }
    return kept, settings
