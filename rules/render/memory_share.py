"""The recommended buffer pool as a share of the profile's RAM, for the tools that size it from
the memory they give the server (RDS's `{DBInstanceClassMemory*3/4}`, the Percona Operator's
`{{containerMemoryLimit * 3/4}}`)."""

import math
from collections.abc import Mapping

from rules.result import Result
from rules.units import GIB

BUFFER_POOL = "innodb_buffer_pool_size"
PERCENT = 100  # shares are whole percents, rounded down so the pool never grows past the advice


def memory_share(result: Result) -> tuple[int, int] | None:
    """(numerator, denominator) of the buffer pool over the profile's RAM, in lowest terms;
    None without both."""
    setting = result.setting(BUFFER_POOL)
    hardware = result.inputs.get("hardware")
    ram_gb = hardware.get("ram_gb") if isinstance(hardware, Mapping) else None
    if setting is None or not isinstance(setting.value, int) or isinstance(setting.value, bool):
        return None
    if not isinstance(ram_gb, int | float) or isinstance(ram_gb, bool) or ram_gb <= 0:
        return None
    percent = math.floor(setting.value * PERCENT / (ram_gb * GIB))
    if not 0 < percent <= PERCENT:
        return None
    divisor = math.gcd(percent, PERCENT)
    return percent // divisor, PERCENT // divisor
