"""Rounding that keeps recommended values readable without pretending to more precision."""

import math


def clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def round_readable(value: float) -> int:
    """Two significant figures, then to a multiple of 50 above 1,000: 1437 -> 1400, 187 -> 190."""
    if value <= 0:
        return 0
    digits = math.floor(math.log10(value))
    step = 10 ** max(digits - 1, 0)
    rounded = int(round(value / step) * step)
    return rounded if rounded < 1000 else int(round(rounded / 50) * 50)


def percent_text(ratio: float) -> str:
    """A share for explanations: '75%', and 'under 1%' rather than a misleading '0%'."""
    if 0 < ratio < 0.005:
        return "under 1%"
    return f"{ratio:.0%}"


def rounded_text(exact: float, readable: int) -> str:
    """The clause that says an explanation's figure was rounded: ", rounded down to 1,200" after
    "25% of the 5,000 writes/s is 1,250"; empty when the readable figure is the exact one."""
    if readable == round(exact):
        return ""
    return f", rounded {'down' if readable < exact else 'up'} to {readable:,}"
