"""Turn untrusted JSON into a `Profile`, collecting every field error at once."""

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.current import CurrentParseError, parse_current
from rules.current.settle import settle_current
from rules.current.system import OS_KEYS
from rules.inputs.echo import inputs_echo
from rules.inputs.enums import (
    DEFAULT_HDD_RPM,
    FlashClass,
    Flavor,
    Media,
    RaidLevel,
)
from rules.inputs.errors import ProfileError
from rules.inputs.field_spec import build, input_sections, optional_sections
from rules.inputs.field_table import (
    CURRENT_FORMS,
    FIELDS,
    RAID_MIN_DEVICES,
    RAID_NEEDS_EVEN,
    REPORT_PATHS,
    FieldSpec,
    Kind,
)
from rules.inputs.lab_validation import check_kinds, coerce_lab_results
from rules.inputs.profile import KERNEL_RELEASE, Current, Profile
from rules.inputs.version import (
    FLAVOR_NAMES,
    SUPPORTED_RANGE_TEXT,
    exists,
    known_series_text,
    parse_version,
)
from rules.reference.catalog import catalog_for, known_names

# The sections and the keys each accepts, and which may be left out, from rules.inputs.profile.
_SECTIONS = input_sections(Profile)
_OPTIONAL_SECTIONS = optional_sections(Profile)
_KERNEL = KERNEL_RELEASE  # the API's Profile schema publishes the same pattern
# Checked choices to their members: a dict lookup costs a fifth of calling the enum.
_FLAVORS = {member.value: member for member in Flavor}
_RAID_LEVELS = {member.value: member for member in RaidLevel}
# What a probe's provenance may name: every input field the wizard and the API take (not the
# probe's own report), and the current configuration's parts.
PROVENANCE_PATHS: tuple[str, ...] = (
    *(spec.path for spec in FIELDS if spec.path not in REPORT_PATHS),
    *(f"current.{form}" for form in CURRENT_FORMS),
    *(f"current.os.{key}" for key in OS_KEYS),
)


class _Collector:
    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def add(self, path: str, message: str) -> None:
        self.errors.setdefault(path, []).append(message)


def parse_profile(raw: object) -> Profile:
    """Validate `raw` (decoded JSON) against the contract; raise ProfileError naming every field."""
    errors = _Collector()
    if not isinstance(raw, Mapping):
        raise ProfileError({"": ["the profile must be a JSON object"]})
    sections = _check_sections(raw, errors)
    values = {field.spec.path: _read_field(field, sections, errors) for field in _FIELDS}
    _check_cross_fields(values, sections, errors)
    current = _read_current(raw.get("current"), errors)
    if current is not None:
        current = _settle_current(current, values, errors)
    if errors.errors:
        raise ProfileError(errors.errors)
    return _build(values, current)


def _check_sections(raw: Mapping[str, Any], errors: _Collector) -> dict[str, Mapping[str, Any]]:
    found: dict[str, Mapping[str, Any]] = {"": raw}
    for path, parent, name, keys, allowed in _SECTION_CHECKS:
        container = found.get(parent) if path else raw
        if container is None:
            continue
        section = container.get(name) if path else container
        if section is None and path:
            if path not in _OPTIONAL_SECTIONS:
                errors.add(path, "is required")
            continue
        if not isinstance(section, Mapping):
            errors.add(path, "must be an object")
            continue
        found[path] = section
        for key in section:
            if key not in allowed:
                where = f"{path}.{_shown(key)}" if path else _shown(key)
                errors.add(where, "is not a known field; allowed: " + ", ".join(keys))
    return found


def _read_field(
    field: "_Field", sections: Mapping[str, Mapping[str, Any]], errors: _Collector
) -> Any:
    section = sections.get(field.parent)
    if section is None:
        return None
    value = section.get(field.name)
    spec = field.spec
    if value is None:
        if spec.required and not (spec.nullable and field.name in section):
            errors.add(spec.path, f"is required ({spec.describe_range()})")
        return spec.default
    return field.coerce(spec, value, errors)


def _coercer(spec: FieldSpec) -> "Coerce":
    """How `spec`'s present value is checked and read, chosen by its kind."""
    if spec.kind is Kind.INTEGER and spec.choices:
        return _coerce_rpm
    return _COERCERS.get(spec.kind, _coerce_number)


def _coerce_text(spec: FieldSpec, value: Any, errors: _Collector) -> str | None:
    if not isinstance(value, str) or not value.strip() or len(value) > spec.max_length:
        errors.add(spec.path, f"must be text of 1 to {spec.max_length} characters")
        return None
    return value.strip()


def _coerce_boolean(spec: FieldSpec, value: Any, errors: _Collector) -> bool | None:
    if not isinstance(value, bool):
        errors.add(spec.path, f"must be {spec.describe_range()}")
        return None
    return value


def _coerce_choice(spec: FieldSpec, value: Any, errors: _Collector) -> str | None:
    if not isinstance(value, str) or value not in spec.choices:
        errors.add(spec.path, f"must be {spec.describe_range()}")
        return None
    return value


def _coerce_text_list(spec: FieldSpec, value: Any, errors: _Collector) -> list[str] | None:
    if not isinstance(value, list) or len(value) > spec.max_items:
        errors.add(spec.path, f"must be {spec.describe_range()}")
        return None
    bad = [
        i
        for i, item in enumerate(value)
        if not isinstance(item, str) or not item.strip() or len(item) > spec.max_length
    ]
    if bad:
        errors.add(f"{spec.path}[{bad[0]}]", f"must be text of 1 to {spec.max_length} characters")
        return None
    return [item.strip() for item in value]


def _coerce_provenance(
    spec: FieldSpec, value: Any, errors: _Collector
) -> dict[str, dict[str, str]] | None:
    if not isinstance(value, Mapping) or len(value) > spec.max_items:
        errors.add(spec.path, f"must be {spec.describe_range()}")
        return None
    found: dict[str, dict[str, str]] = {}
    for path, entry in value.items():
        where = f"{spec.path}.{_shown(path)}"
        if path not in PROVENANCE_PATHS:
            errors.add(where, "is not a field path of the profile, e.g. hardware.storage.media")
            continue
        if not isinstance(entry, Mapping) or set(entry) - {"source", "from"}:
            errors.add(where, 'must be {"source": ..., "from": ...} and nothing else')
            continue
        source, origin = entry.get("source"), entry.get("from", "")
        if not isinstance(source, str) or source not in spec.choices:
            errors.add(f"{where}.source", "must be one of " + ", ".join(spec.choices))
            continue
        if not isinstance(origin, str) or len(origin) > spec.max_length:
            errors.add(f"{where}.from", f"must be text of at most {spec.max_length} characters")
            continue
        found[path] = {"source": source, "from": origin.strip()}
    return found if len(found) == len(value) else None


def _coerce_lab(spec: FieldSpec, value: Any, errors: _Collector) -> list[dict[str, Any]] | None:
    return coerce_lab_results(spec.path, value, errors)


def _shown(path: object) -> str:
    """A key as an error names it: cut short, so a hostile key is not echoed whole."""
    text = str(path)
    return text if len(text) <= 80 else text[:80] + "..."


def _coerce_rpm(spec: FieldSpec, value: Any, errors: _Collector) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or str(value) not in spec.choices:
        errors.add(spec.path, "must be one of " + ", ".join(spec.choices))
        return None
    return value


def _coerce_number(spec: FieldSpec, value: Any, errors: _Collector) -> float | int | None:
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(value, int) and value.bit_length() > 64:  # beyond any range; isfinite overflows
        errors.add(spec.path, f"must be {spec.describe_range()}")
        return None
    if not is_number or not math.isfinite(value):
        errors.add(spec.path, f"must be {spec.describe_range()}")
        return None
    if spec.kind is Kind.INTEGER and value != int(value):
        errors.add(spec.path, f"must be {spec.describe_range()}")
        return None
    assert spec.minimum is not None
    assert spec.maximum is not None
    if not spec.minimum <= value <= spec.maximum:
        errors.add(spec.path, f"must be {spec.describe_range()}; got {value}")
        return None
    return int(value) if spec.kind is Kind.INTEGER else float(value)


Coerce = Callable[[FieldSpec, Any, _Collector], Any]
_COERCERS: dict[Kind, Coerce] = {
    Kind.TEXT: _coerce_text,
    Kind.BOOLEAN: _coerce_boolean,
    Kind.TEXT_LIST: _coerce_text_list,
    Kind.PROVENANCE: _coerce_provenance,
    Kind.LAB_RESULTS: _coerce_lab,
    Kind.CHOICE: _coerce_choice,
}


@dataclass(frozen=True, slots=True)
class _Field:
    """A field's spec with what reading it needs, worked out once, not on every request."""

    spec: FieldSpec
    parent: str  # the section's dotted path, "" for the root
    name: str
    coerce: Coerce


_FIELDS = tuple(_Field(s, s.path.rpartition(".")[0], s.name, _coercer(s)) for s in FIELDS)
# (path, its parent's path, its key there, the keys it accepts, the same as a set)
_SECTION_CHECKS = tuple(
    (path, *path.rpartition(".")[::2], keys, frozenset(keys)) for path, keys in _SECTIONS.items()
)


def _check_cross_fields(
    values: dict[str, Any], sections: Mapping[str, Mapping[str, Any]], errors: _Collector
) -> None:
    version = values.get("server.version")
    if version is not None and parse_version(version) is None:
        errors.add("server.version", "must be a release such as 8.0.36, 8.4 or 10.11")
    elif version is not None and values.get("server.flavor") is not None:
        _check_version_exists(_FLAVORS[values["server.flavor"]], version, errors)
    kernel = values.get("hardware.kernel")
    if kernel is not None and _KERNEL.match(kernel) is None:
        errors.add("hardware.kernel", "must be a Linux release such as 5.15 or 4.18.0-513.el8")
    media, count = values.get("hardware.storage.media"), values.get("hardware.storage.device_count")
    level = values.get("hardware.storage.raid_level")
    if media is not None and media != Media.HDD and values.get("hardware.storage.rpm") is not None:
        errors.add("hardware.storage.rpm", "applies only to media hdd; leave it out for flash")
    if media == Media.HDD and values.get("hardware.storage.flash_class") is not None:
        errors.add("hardware.storage.flash_class", "applies only to flash; leave it out for hdd")
    if media == Media.NETWORK_SSD and values.get("hardware.storage.flash_class") is not None:
        errors.add(
            "hardware.storage.flash_class",
            "applies only to local flash (sata_ssd, nvme); leave it out for network_ssd",
        )
    if media is not None and media != Media.NETWORK_SSD:
        for name in ("volume_type", "provisioned_iops", "provisioned_mbps", "volume_size_gb"):
            if values.get(f"hardware.storage.{name}") is not None:
                errors.add(
                    f"hardware.storage.{name}",
                    f"applies only to media network_ssd (a cloud or SAN volume); for {media} "
                    "leave it out (give measured_iops for a rate you measured)",
                )
    _check_lab_results(values, errors)
    if level is not None and count is not None:
        _check_raid(_RAID_LEVELS[level], count, errors)
    iops = sections.get("hardware.storage.measured_iops")
    if iops is not None:
        for name in ("random_read", "random_write"):
            if iops.get(name) is None:
                errors.add(
                    f"hardware.storage.measured_iops.{name}", "is required with measured_iops"
                )


def _check_lab_results(values: dict[str, Any], errors: _Collector) -> None:
    """Lab runs measure the profile's workload, and stand instead of measured_throughput."""
    runs, path = values.get("workload.lab_results"), "workload.lab_results"
    if not runs:
        return
    if values.get("workload.measured_throughput") is not None:
        errors.add(
            path,
            "give either lab_results or measured_throughput, not both (a run of the current "
            "configuration in lab_results says what measured_throughput would)",
        )
    if values.get("workload.kind") is not None:
        check_kinds(path, runs, values["workload.kind"], errors)


def _check_version_exists(flavor: Flavor, text: str, errors: _Collector) -> None:
    """Refuse a release the flavor never had (MySQL 11.4, MariaDB 8.0); older real ones pass."""
    version = parse_version(text)
    if version is None or exists(flavor, version):
        return
    errors.add(
        "server.version",
        f"{FLAVOR_NAMES[flavor]} {version.major}.{version.minor} does not exist (its series are "
        f"{known_series_text(flavor)}); supported for my.cnf: {SUPPORTED_RANGE_TEXT[flavor]}",
    )


def _check_raid(level: RaidLevel, count: int, errors: _Collector) -> None:
    path = "hardware.storage.raid_level"
    if level is RaidLevel.NONE and count != 1:
        errors.add(path, f"none fits a single device; {count} devices need a RAID level")
        return
    need = RAID_MIN_DEVICES[level]
    article = "an even" if level in RAID_NEEDS_EVEN else "a"
    if count < need or (level in RAID_NEEDS_EVEN and count % 2):
        errors.add(
            path, f"{level.value} needs {article} device count of at least {need}; got {count}"
        )


def _read_current(raw: Any, errors: _Collector) -> Current | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        return None  # already reported by _check_sections
    forms = [key for key in CURRENT_FORMS if key in raw]
    unknown = [key for key in raw if key not in (*CURRENT_FORMS, "os")]
    for key in unknown:
        errors.add(
            f"current.{_shown(key)}", "is not a known field; allowed: " + ", ".join(CURRENT_FORMS)
        )
    if len(forms) != 1:
        errors.add("current", "give exactly one of: " + ", ".join(CURRENT_FORMS))
        return None
    try:
        return parse_current(raw)
    except CurrentParseError as problem:
        errors.add(f"current.{problem.field}", str(problem))
        return None


def _settle_current(current: Current, values: dict[str, Any], errors: _Collector) -> Current:
    """Keep what the advisor reads and check it against the release's catalog, when known."""
    flavor, version = values.get("server.flavor"), values.get("server.version")
    parsed = parse_version(version) if version is not None else None
    if flavor is None or parsed is None:
        return current
    catalog = catalog_for(_FLAVORS[flavor], parsed)
    settled, problems = settle_current(current, catalog, known_names())
    for path, messages in problems.items():
        for message in messages:
            errors.add(path, message)
    return settled


def _build(values: dict[str, Any], current: Current | None) -> Profile:
    """The typed profile from the checked inputs, through the declarations of
    rules.inputs.profile."""
    values = dict(values)
    media = values["hardware.storage.media"]
    hdd, local_flash = media == Media.HDD, media in (Media.SATA_SSD, Media.NVME)
    rpm, flash = "hardware.storage.rpm", "hardware.storage.flash_class"
    values[rpm] = (values[rpm] or DEFAULT_HDD_RPM) if hdd else None
    values[flash] = (values[flash] or FlashClass.ENTERPRISE.value) if local_flash else None
    # The echo reads the built profile; its inputs dict, new here, is then filled in place
    # (dataclasses.replace rebuilt the whole profile for this one field).
    raw: dict[str, object] = {}
    profile: Profile = build(Profile, values, current=current, raw=raw)
    raw.update(inputs_echo(profile))
    return profile
