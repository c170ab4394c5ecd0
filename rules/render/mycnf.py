"""The my.cnf drop-in: a `[mysqld]` section, every value under its one-line reason.

Also the pieces the other text exports share: the header lines, value spellings and the
sanitising that keeps user-supplied text (echoed in comments) on one line.
"""

import math
import re
import unicodedata
from decimal import Decimal

from rules.current import ORIGIN_LABELS
from rules.inputs.enums import ControllerCache, Media, RaidLevel
from rules.inputs.errors import OutputRefused
from rules.inputs.profile import Profile, Storage, Workload
from rules.output.result import Result, Setting
from rules.units import GIB, bytes_for_config

PRODUCT = "InnoDB IO Advisor"
SERVER_SCOPE = "mysqld"

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_BARE_VALUE = re.compile(r"^[A-Za-z0-9_.,+\-/:@%]+$")


def render_mycnf(result: Result, *, base_url: str = "") -> str:
    """The `[mysqld]` drop-in for `result`; raises OutputRefused when it must not be written."""
    if result.output_refused is not None:
        raise OutputRefused(result.output_refused)
    settings = server_settings(result)
    header = [
        *header_lines(result, "my.cnf drop-in", base_url=base_url),
        *(f"Warning: {warning}" for warning in result.warnings),
        restart_line(settings),
        *left_out_lines(result),
        "Install: copy into the server's include directory (a file ending in .cnf, e.g.",
        "/etc/mysql/conf.d/ or /etc/my.cnf.d/), then restart the server.",
    ]
    lines = [comment("#", line) for line in header]
    lines.append("")
    lines.append("[mysqld]")
    for setting in settings:
        lines.append("")
        lines.append(comment("#", setting.reason))
        lines.append(f"{variable_name(setting)} = {config_value(setting)}")
    return "\n".join(lines) + "\n"


def server_settings(result: Result) -> tuple[Setting, ...]:
    """The settings the exports write for the server itself, in result order: a setting equal
    to the version's default is left out unless the profile asks for it (`written`)."""
    return tuple(s for s in result.written_settings() if s.scope == SERVER_SCOPE)


def left_out_lines(result: Result) -> list[str]:
    """One header line naming the recommendations left out because they are the defaults."""
    left = [s for s in result.left_out() if s.scope == SERVER_SCOPE]
    if not left:
        return []
    shown = ", ".join(f"{variable_name(s)} = {config_value(s)}" for s in left)
    return [
        f"Left out, already this server's defaults: {shown} "
        "(set options.include_defaults to write them)"
    ]


def header_lines(result: Result, what: str, *, base_url: str = "") -> list[str]:
    """Product, versions, the inputs in one line and the permalink (text only, no comment mark)."""
    return [
        f"{PRODUCT}: {what}",
        f"Ruleset {result.ruleset_version}, calibration {result.calibration_version or 'none'}",
        f"Inputs: {inputs_summary(result.profile)}",
        f"Permalink: {permalink_url(result, base_url)}",
    ]


def restart_line(settings: tuple[Setting, ...]) -> str:
    static = [s.name for s in settings if not s.dynamic]
    if not static:
        return "Needs a restart to take effect: none (all of these can also be set online)"
    return "Needs a restart to take effect: " + ", ".join(static)


def permalink_url(result: Result, base_url: str = "") -> str:
    return base_url.rstrip("/") + result.permalink


def install_header(
    result: Result, what: str, path: str, command: str, *, base_url: str = ""
) -> list[str]:
    """The commented header of a system file: what it is, where it goes, what reloads it."""
    header = [
        *header_lines(result, what, base_url=base_url),
        f"Install: copy this file to {path}, then run",
    ]
    return [*(comment("#", line) for line in header), f"#   {command}"]


def comment(mark: str, text: str) -> str:
    """One comment line; user-supplied text can never start a new line of config or SQL."""
    text = one_line(text)
    return f"{mark} {text}" if text else mark


def one_line(text: str) -> str:
    """Control characters and line breaks of any kind become single spaces."""
    cleaned = "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text)
    return " ".join(cleaned.split())


def variable_name(setting: Setting) -> str:
    if _NAME.match(setting.name) is None:
        raise ValueError(f"not a server variable name: {setting.name!r}")
    return setting.name


def config_value(setting: Setting) -> str:
    """The my.cnf spelling: sizes with G/M/K when exact, percentages without trailing zeros."""
    value = setting.value
    if setting.kind == "bytes" and isinstance(value, int) and not isinstance(value, bool):
        return _bytes_text(value)
    text = server_value(setting)
    if isinstance(value, str) and _BARE_VALUE.match(text) is None:
        if '"' in text or "\\" in text or not text:
            raise ValueError(f"{setting.name}: value cannot be written to my.cnf: {text!r}")
        return f'"{text}"'
    return text


def server_value(setting: Setting) -> str:
    """The server's own spelling: plain integers (bytes for sizes), decimals, enum words."""
    value = setting.value
    if isinstance(value, bool):
        return "ON" if value else "OFF"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return decimal_text(value)
    if one_line(value) != value:
        raise ValueError(f"{setting.name}: value holds control characters: {value!r}")
    return value


def decimal_text(value: float) -> str:
    """12.5 -> '12.5', 90.0 -> '90', 1e-05 -> '0.00001': exact, no exponent, no trailing zeros."""
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    if value == int(value):
        return str(int(value))
    return format(Decimal(repr(value)).normalize(), "f")


def _bytes_text(value: int) -> str:
    text = bytes_for_config(value)
    if text.endswith("T"):  # MySQL 5.7 reads only K, M and G suffixes
        return f"{value // GIB}G"
    return text


def inputs_summary(profile: Profile) -> str:
    """One line: 'mysql 8.0.36 · 64 GiB RAM · 16 cores · 8 × hdd 15000 rpm raid10, … · oltp, …'."""
    server, hardware = profile.server, profile.hardware
    ram, limit = _num(hardware.ram_gb), _num(hardware.memory_limit_gb)
    kernel = hardware.kernel.text if hardware.kernel is not None else None
    parts = [
        _join(" ", server.flavor, server.version_text),
        _join(" ", f"{ram} GiB RAM" if ram else None, f"(limit {limit} GiB)" if limit else None),
        _plural(hardware.cpu_cores, "core"),
        _storage_summary(hardware.storage),
        _join(", ", hardware.filesystem, f"kernel {kernel}" if kernel else None),
        _workload_summary(profile.workload),
    ]
    if profile.current is not None:
        origin = ORIGIN_LABELS.get(profile.current.origin)
        parts.append(f"compared with the {origin}" if origin else "current settings given")
    return _join(" · ", *parts)


def _storage_summary(storage: Storage) -> str:
    count, media, rpm = _num(storage.device_count), storage.media, _num(storage.rpm)
    raid, cache = storage.raid_level, storage.controller_cache
    device = _join(
        " ",
        f"{count} × {media}" if count else media,
        f"{rpm} rpm" if rpm else None,
        raid if raid is not RaidLevel.NONE else None,
    )
    cache_text: str | None = "no write cache"
    if cache is not ControllerCache.NONE:
        cache_text = f"{cache} cache"
    volume = _join(
        " ",
        storage.volume_type,
        f"{_num(storage.provisioned_iops)} IOPS" if storage.provisioned_iops else None,
        f"{_num(storage.provisioned_mbps)} MB/s" if storage.provisioned_mbps else None,
    )
    if media is Media.NETWORK_SSD:
        cache_text = None  # a network volume has no controller cache to speak of
    iops, measured = storage.measured_iops, None
    if iops is not None:
        read, write = _num(iops.random_read), _num(iops.random_write)
        measured = f"measured {read} random reads/s, {write} random writes/s"
    return _join(", ", device, volume or None, cache_text, measured)


def _workload_summary(workload: Workload) -> str:
    data = _num(workload.data_size_gb)
    target = _num(workload.recovery_target_minutes)
    return _join(
        ", ",
        workload.kind,
        f"{data} GiB data" if data else None,
        _plural(workload.concurrency, "client"),
        f"durability {workload.durability}",
        f"recovery target {target} min" if target else None,
    )


def _num(value: object) -> str | None:
    """Numbers without a trailing '.0'; other values as text; None when missing."""
    if value is None or value == "" or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return decimal_text(value) if math.isfinite(value) else None
    return str(value)


def _plural(value: object, noun: str) -> str | None:
    text = _num(value)
    if text is None:
        return None
    return f"{text} {noun}" if text == "1" else f"{text} {noun}s"


def _join(separator: str, *pieces: object) -> str:
    """The pieces that are present, joined."""
    return separator.join(str(piece) for piece in pieces if piece is not None and piece != "")
