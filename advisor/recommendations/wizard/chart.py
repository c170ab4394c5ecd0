"""The estimate as an inline SVG drawn on the server: readable without JavaScript, no inline style.

Each bar is an 80% prediction interval of the workload's reference benchmark on a shared axis
that starts at zero, so two intervals compare at a glance. When one interval is many times the
other (a single hard disk against an SSD: about 500 against 48,000 NOTPM) a linear axis would
draw the smaller one a few pixels wide, so the axis turns logarithmic and says so. Colours come
from the stylesheet (`.chart` classes), which also follows the light/dark scheme.
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from rules.output.headline import bottleneck_words
from rules.output.result import Estimate

WIDTH, LEFT, RIGHT, TOP, ROW, AXIS = 500, 130, 30, 6, 50, 40
CHAR_PX = 7.2  # rough width of one 13px character, to keep labels inside the plot
# Beyond this ratio of the largest high to the smallest low, the smallest bar would be under
# about a twentieth of the plot's width on a linear axis: the axis turns logarithmic.
LOG_AXIS_RATIO = 20


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    estimate: Estimate
    tone: str  # "current" | "recommended" | "variant"


def number(value: float) -> str:
    """1,234 for large figures, 3 significant digits for small ones."""
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def interval_text(estimate: Estimate) -> str:
    share = f"{estimate.interval:.0%}"
    return f"{number(estimate.low)} to {number(estimate.high)} {estimate.unit} ({share} interval)"


def describe(bars: Sequence[Bar]) -> str:
    parts = []
    for bar in bars:
        bottleneck = bottleneck_words(bar.estimate.bottleneck)
        text = f"{bar.label}: {interval_text(bar.estimate)}, bottleneck {bottleneck}"
        if not bar.estimate.in_domain:
            text += ", outside the calibration data"
        parts.append(text)
    return "; ".join(parts) + "."


def _nice_step(span: float) -> float:
    """A round tick step (1, 2, 2.5 or 5 times a power of ten) for a quarter of `span`."""
    raw = max(span, 1e-9) / 4
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


@dataclass(frozen=True, slots=True)
class Axis:
    """Where a value sits on the plot, and the ticks that say so."""

    x: Callable[[float], float]
    ticks: tuple[float, ...]
    log: bool


def _linear_axis(bars: Sequence[Bar], plot: float) -> Axis:
    step = _nice_step(max(bar.estimate.high for bar in bars) * 1.05)
    top = step * 4

    def x(value: float) -> float:
        return round(LEFT + plot * max(0.0, min(value, top)) / top, 1)

    return Axis(x, tuple(step * i for i in range(5)), log=False)


def _log_axis(bars: Sequence[Bar], plot: float) -> Axis:
    """Powers of ten around the bars; each bar then shows its own width (high over low)."""
    first = math.floor(math.log10(min(bar.estimate.low for bar in bars)))
    last = math.ceil(math.log10(max(bar.estimate.high for bar in bars)))
    last = max(last, first + 1)

    def x(value: float) -> float:
        power = min(max(math.log10(max(value, 10.0**first)), first), last)
        return round(LEFT + plot * (power - first) / (last - first), 1)

    return Axis(x, tuple(10.0**p for p in range(first, last + 1)), log=True)


def choose_axis(bars: Sequence[Bar], plot: float) -> Axis:
    low = min(bar.estimate.low for bar in bars)
    high = max(bar.estimate.high for bar in bars)
    if low > 0 and high / low > LOG_AXIS_RATIO:
        return _log_axis(bars, plot)
    return _linear_axis(bars, plot)


def interval_chart(bars: Sequence[Bar], *, chart_id: str, title: str) -> SafeString:
    plot = WIDTH - LEFT - RIGHT
    height = TOP + ROW * len(bars) + AXIS
    axis = choose_axis(bars, plot)
    grid = format_html_join(
        "",
        '<line class="grid" x1="{0}" x2="{0}" y1="{1}" y2="{2}"/>'
        '<text class="tick" x="{0}" y="{3}" text-anchor="middle">{4}</text>',
        (
            (axis.x(tick), TOP, TOP + ROW * len(bars), TOP + ROW * len(bars) + 16, number(tick))
            for tick in axis.ticks
        ),
    )
    rows = format_html_join("", "{}", ((_row(bar, i, axis.x),) for i, bar in enumerate(bars)))
    unit = bars[0].estimate.unit
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" role="img" '
        'aria-labelledby="{id}-title {id}-desc" xmlns="http://www.w3.org/2000/svg">'
        '<title id="{id}-title">{title}</title><desc id="{id}-desc">{desc}</desc>'
        '{grid}{rows}<text class="axis-label" x="{mid}" y="{unit_y}" text-anchor="middle">'
        "{unit} ({share} prediction interval{scale})</text></svg>",
        w=WIDTH,
        h=height,
        id=chart_id,
        title=title,
        desc=describe(bars),
        grid=grid,
        rows=rows,
        mid=LEFT + plot / 2,
        unit_y=height - 4,
        unit=unit,
        share=f"{bars[0].estimate.interval:.0%}",
        scale="; logarithmic axis" if axis.log else "",
    )


def _row(bar: Bar, index: int, x: Callable[[float], float]) -> SafeString:
    estimate = bar.estimate
    y = TOP + ROW * index
    low, high = x(estimate.low), x(estimate.high)
    label = f"{number(estimate.low)}–{number(estimate.high)}"
    label_px = CHAR_PX * len(label)
    if high + 8 + label_px <= WIDTH - RIGHT:  # beside the bar, on its right
        label_x, label_y = high + 6, y + 29
    else:  # above the bar, never left of the plot where the row's name is
        label_x, label_y = max(LEFT, min(low, WIDTH - RIGHT - label_px)), y + 12
    tone = f"band band--{bar.tone}" + ("" if estimate.in_domain else " band--outside")
    return format_html(
        '<g class="row"><text class="label" x="{lx}" y="{ly}" text-anchor="end">{name}</text>'
        '<text class="note" x="{lx}" y="{ny}" text-anchor="end">{note}</text>'
        '<line class="track" x1="{x0}" x2="{x1}" y1="{cy}" y2="{cy}"/>'
        '<rect class="{tone}" x="{low}" y="{by}" width="{bw}" height="18" rx="3"/>'
        '<text class="range" x="{rx}" y="{ry}">{label}</text></g>',
        lx=LEFT - 10,
        ly=y + 22,
        ny=y + 38,
        name=bar.label,
        note=estimate.bottleneck if estimate.in_domain else "outside calibration",
        x0=LEFT,
        x1=WIDTH - RIGHT,
        cy=y + 25,
        tone=tone,
        low=low,
        by=y + 16,
        bw=max(2.0, round(high - low, 1)),
        rx=label_x,
        ry=label_y,
        label=label,
    )
