"""Predicted against published, as an inline SVG a person reads without JavaScript.

Log axes; every point is predicted by the fit that left its source out, with its 80% interval
as a vertical whisker, so a whisker crossing the diagonal is a covered point. One colour and
marker shape per source, named in the legend; hollow markers fell outside their interval.
Colours are presentation attributes (the CSP forbids inline styles); text and axes use
currentColor so the plot follows the page's light or dark scheme.
"""

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from calibration.submissions import SOURCE_PREFIX

# Tableau 10: distinguishable on light and dark backgrounds.
PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)
SHAPES = ("circle", "square", "triangle", "diamond")
LEFT, TOP, SIZE = 72, 16, 440  # the square plot area, in SVG units
LEGEND_X = LEFT + SIZE + 28
WIDTH = LEGEND_X + 250
PLOT_HEIGHT = TOP + SIZE + 64
USER_SUBMISSIONS = "user submissions"  # one legend entry for all of them, however many
LEGEND_ROW = 18
MARKER = 4.5


def source_style(index: int) -> tuple[str, str]:
    """Colour and shape of the index-th source; colours first, then shapes, so 40 differ."""
    return PALETTE[index % len(PALETTE)], SHAPES[(index // len(PALETTE)) % len(SHAPES)]


def legend_key(source: str) -> str:
    return USER_SUBMISSIONS if source.startswith(SOURCE_PREFIX) else source


def plot_svg(table: Sequence[dict[str, Any]], sources: Sequence[str]) -> str:
    """The whole figure; `sources` fixes the legend order (and so each source's style)."""
    every = [*sources, *(row["source"] for row in table)]
    legend = list(dict.fromkeys(legend_key(key) for key in every))
    styles = {key: source_style(i) for i, key in enumerate(legend)}
    height = max(PLOT_HEIGHT, TOP + 22 + (len(legend) + 3) * LEGEND_ROW + 16)
    values = [v for row in table for v in (row["published"], row["low"], row["high"]) if v > 0]
    lo, hi = _decades(values)
    scale = _Scale(lo, hi)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        'class="calibration-plot" role="img" aria-labelledby="plot-title plot-desc" '
        'font-family="system-ui, sans-serif" font-size="12">',
        '<title id="plot-title">Predicted against published throughput, log scales</title>',
        f'<desc id="plot-desc">{len(table)} published results, each predicted by the model '
        "fitted without its source, with its 80% interval as a vertical line.</desc>",
        *_axes(scale, lo, hi),
        *(_point(row, styles[legend_key(row["source"])], scale) for row in table),
        *_legend(legend, styles),
    ]
    return "\n".join([*parts, "</svg>"])


class _Scale:
    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.span = lo, max(hi - lo, 1)

    def x(self, value: float) -> float:
        return LEFT + SIZE * (math.log10(value) - self.lo) / self.span

    def y(self, value: float) -> float:
        return TOP + SIZE - SIZE * (math.log10(value) - self.lo) / self.span

    def clamp(self, value: float) -> float:
        return min(max(value, 10.0**self.lo), 10.0 ** (self.lo + self.span))


def _decades(values: Sequence[float]) -> tuple[int, int]:
    if not values:
        return 0, 1
    return math.floor(math.log10(min(values))), math.ceil(math.log10(max(values)))


def _axes(scale: _Scale, lo: int, hi: int) -> list[str]:
    bottom, right = TOP + SIZE, LEFT + SIZE
    parts = [
        f'<rect x="{LEFT}" y="{TOP}" width="{SIZE}" height="{SIZE}" fill="none" '
        'stroke="currentColor" stroke-opacity="0.5"/>',
        f'<line x1="{LEFT}" y1="{bottom}" x2="{right}" y2="{TOP}" stroke="currentColor" '
        'stroke-opacity="0.6" stroke-dasharray="5 4"/>',
    ]
    for power in range(lo, hi + 1):
        at, label = 10.0**power, _tick(power)
        x, y = scale.x(at), scale.y(at)
        parts += [
            f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{bottom}" stroke="currentColor" '
            'stroke-opacity="0.12"/>',
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" stroke="currentColor" '
            'stroke-opacity="0.12"/>',
            f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle" '
            f'fill="currentColor">{label}</text>',
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" '
            f'fill="currentColor">{label}</text>',
        ]
    middle = TOP + SIZE / 2
    parts += [
        f'<text x="{LEFT + SIZE / 2}" y="{bottom + 40}" text-anchor="middle" '
        'fill="currentColor">published result (its benchmark\'s unit, log scale)</text>',
        f'<text x="18" y="{middle}" text-anchor="middle" fill="currentColor" '
        f'transform="rotate(-90 18 {middle})">predicted without its source (log scale)</text>',
    ]
    return parts


def _tick(power: int) -> str:
    value = 10**power
    for size, suffix in ((1_000_000, "M"), (1_000, "k")):
        if value >= size:
            return f"{value // size}{suffix}"
    return f"{10.0**power:g}"


def _point(row: dict[str, Any], style: tuple[str, str], scale: _Scale) -> str:
    colour, shape = style
    x = scale.x(scale.clamp(row["published"]))
    y = scale.y(scale.clamp(row["predicted"]))
    y_low, y_high = scale.y(scale.clamp(row["low"])), scale.y(scale.clamp(row["high"]))
    inside = "inside" if row["covered"] else "outside"
    label = (
        f"#{row['id']} {row['source']}: published {row['published']:g} {row['unit']}, "
        f"predicted {row['predicted']:g} (80%: {row['low']:g} to {row['high']:g}, {inside})"
    )
    fill = colour if row["covered"] else "none"
    return (
        f"<g><title>{escape(label)}</title>"
        f'<line x1="{x:.1f}" y1="{y_low:.1f}" x2="{x:.1f}" y2="{y_high:.1f}" '
        f'stroke="{colour}" stroke-opacity="0.55" stroke-width="1.5"/>'
        f"{_marker(shape, x, y, colour, fill)}</g>"
    )


def _marker(shape: str, x: float, y: float, colour: str, fill: str) -> str:
    r = MARKER
    paint = f'fill="{fill}" stroke="{colour}" stroke-width="1.5"'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" {paint}/>'
    if shape == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" {paint}/>'
    corners = (
        ((x, y - r * 1.2), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8))
        if shape == "triangle"
        else ((x, y - r * 1.3), (x + r * 1.1, y), (x, y + r * 1.3), (x - r * 1.1, y))
    )
    points = " ".join(f"{a:.1f},{b:.1f}" for a, b in corners)
    return f'<polygon points="{points}" {paint}/>'


def _legend(sources: Sequence[str], styles: dict[str, tuple[str, str]]) -> list[str]:
    parts = [
        f'<text x="{LEGEND_X}" y="{TOP + 4}" font-weight="600" fill="currentColor">Sources</text>'
    ]
    for i, key in enumerate(sources):
        colour, shape = styles[key]
        y = TOP + 22 + i * LEGEND_ROW
        parts.append(
            _marker(shape, LEGEND_X + 6, y - 4, colour, colour)
            + f'<text x="{LEGEND_X + 18}" y="{y}" fill="currentColor">{escape(key)}</text>'
        )
    y = TOP + 22 + len(sources) * LEGEND_ROW + 8
    parts += [
        f'<line x1="{LEGEND_X}" y1="{y - 4}" x2="{LEGEND_X + 12}" y2="{y - 4}" '
        'stroke="currentColor" stroke-dasharray="3 2"/>'
        f'<text x="{LEGEND_X + 18}" y="{y}" fill="currentColor" fill-opacity="0.8">'
        "predicted = published</text>",
        f'<text x="{LEGEND_X}" y="{y + LEGEND_ROW}" fill="currentColor" fill-opacity="0.8">'
        "filled: inside its 80% interval</text>",
        f'<text x="{LEGEND_X}" y="{y + 2 * LEGEND_ROW}" fill="currentColor" fill-opacity="0.8">'
        "hollow: outside it</text>",
    ]
    return parts
