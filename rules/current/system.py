"""The optional `os` object: the kernel settings (I/O scheduler, read-ahead, swappiness)."""

import re
from collections.abc import Callable, Mapping

from rules.current.errors import CurrentParseError
from rules.current.messages import show
from rules.units import ascii_digits

OS_KEYS: tuple[str, ...] = ("io_scheduler", "read_ahead_kb", "swappiness")
MAX_SWAPPINESS = 200  # vm.swappiness range since Linux 5.8

_SYSFS_ACTIVE = re.compile(r"\[([^\]\s]+)\]")
_SCHEDULER = re.compile(r"[a-z][a-z0-9_-]{0,31}")


def read_os(raw: object) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise CurrentParseError("os", "must be an object with the keys " + ", ".join(OS_KEYS))
    settings: dict[str, str] = {}
    for key, value in raw.items():
        if not isinstance(key, str) or key not in _OS_READERS:
            raise CurrentParseError(
                "os", f"{show(key)} is not a known OS setting; allowed: " + ", ".join(OS_KEYS)
            )
        settings[key] = _OS_READERS[key](value)
    return settings


def _read_scheduler(value: object) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise CurrentParseError("os", "io_scheduler must be text such as mq-deadline")
    active = _SYSFS_ACTIVE.search(value)
    name = (active.group(1) if active else value).strip().lower()
    if not _SCHEDULER.fullmatch(name):
        raise CurrentParseError(
            "os",
            "io_scheduler must be one scheduler name (e.g. mq-deadline) or the line of "
            "/sys/block/<dev>/queue/scheduler, such as '[mq-deadline] none bfq'",
        )
    return name


def _read_os_integer(key: str, maximum: int) -> Callable[[object], str]:
    def read(value: object) -> str:
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and ascii_digits(value.strip()):
            number = int(value.strip()) if len(value.strip()) <= 12 else None
        if number is None or not 0 <= number <= maximum:
            raise CurrentParseError("os", f"{key} must be a whole number from 0 to {maximum}")
        return str(number)

    return read


_OS_READERS: dict[str, Callable[[object], str]] = {
    "io_scheduler": _read_scheduler,
    "read_ahead_kb": _read_os_integer("read_ahead_kb", 2**31 - 1),
    "swappiness": _read_os_integer("swappiness", MAX_SWAPPINESS),
}
