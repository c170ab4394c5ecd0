"""What the calibration page shows, read from the newest artifact's report (not the database),
so a fresh clone with the shipped artifact shows the same page as a server that ran fits."""

import datetime
import re
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from advisor.calibration_admin.figures import MEANING, bias, factor, targets
from advisor.calibration_admin.plot import plot_svg
from calibration import artifact
from calibration.calibrate import Calibration
from calibration.domain import DOMAIN_COLUMNS, TOLERANCE
from calibration.gain_spread import CHANGE_CLASSES
from calibration.interval import DISKS_GROUP, INTERVAL, KIND_SEPARATOR
from calibration.outside import COLUMN_WORDS, figure
from calibration.submissions import SOURCE_PREFIX
from rules.reference import bibliography

_VERSION_TIME = re.compile(r"^(\d{8}\.\d{6})")


def latest_calibration() -> tuple[Calibration | None, str]:
    """The newest artifact, or None with the reason there is none to show."""
    try:
        calibration = artifact.load_latest()
    except (OSError, ValueError, KeyError) as problem:
        return None, f"The newest calibration artifact cannot be read ({problem})."
    if calibration is None:
        return None, "No calibration has been fitted yet: run python manage.py calibrate."
    return calibration, ""


def page_context(calibration: Calibration) -> dict[str, Any]:
    report = calibration.report
    cited = _sources(report)
    return {
        "version": calibration.version,
        "fitted_at": fitted_at(calibration.version),
        "report": report,
        "interval_percent": f"{report.get('interval', INTERVAL):.0%}",
        "median_error": factor(report["median_abs_log_error"]),
        "targets": targets(report),
        "pairs": _pairs(report),
        "groups": _groups(report),
        "reach": reach(calibration),
        "meaning": MEANING,
        "grouping": grouping(calibration),
        "plot": _plot(report),
        "per_source": [_source_row(row, cited) for row in report["per_source"]],
        "other_sources": [c for key, c in cited.items() if key not in _fitted(report)],
        "rows": [_point_row(row, cited) for row in report["table"]],
        "excluded": [_excluded_row(row, cited) for row in report["excluded"]],
    }


def grouping(calibration: Calibration) -> str:
    """How an estimate's interval is chosen: centred on it, as wide as the held-out misses
    where the same capacity bound in the same workload kind (else over every kind), at the
    level that held for sources the model had not seen."""
    bounds = calibration.bounds
    own = [
        f"{group_label(name)} {factor(high)}"
        for name, (_, high) in sorted(bounds.items())
        if name != "pooled"
    ]
    level = calibration.report.get("conformal_level", INTERVAL)
    widths = f"{', '.join(own)}; " if own else ""
    return (
        "An estimate's range is centred on it and as wide, either way, as the held-out misses "
        "of published results whose estimates were bound by the same capacity, in the same "
        "workload kind where enough sources have such results (on spinning disks, as those "
        "of disks, whatever bound them): "
        f"{widths}any other capacity, all results, {factor(bounds['pooled'][1])}. "
        f"Its conformal level is {level:.0%}, the lowest from {INTERVAL:.0%} up at which "
        f"held-out sources were covered {INTERVAL:.0%} of the time. "
        "Outside the published machines' range it is "
        f"{calibration.out_of_domain_widening:.2f} times wider (a gain's "
        f"{_gain_widening(calibration)}), as much as held-out results "
        "outside the other sources' range needed."
    )


def reach(calibration: Calibration) -> dict[str, Any]:
    """Where the published data reaches, per workload kind: the range of each input the
    estimator checks (calibration.domain), and for a kind whose CPU a measured machine prices
    against its point selects, the clients per core that price was seen at. An estimate more
    than the tolerance beyond them is widened and says why (calibration.outside)."""
    loads = calibration.cpu_cost_loads
    return {
        "columns": [COLUMN_WORDS[c][0] for c in DOMAIN_COLUMNS],
        "tolerance": f"{TOLERANCE - 1:.0%}",
        "rows": [
            {
                "kind": kind,
                "cells": [
                    f"{figure(c, ranges[c][0])} to {figure(c, ranges[c][1])}"
                    for c in DOMAIN_COLUMNS
                ],
                "priced": f"{loads[kind][0]:.2g} to {loads[kind][1]:.2g}" if kind in loads else "",
            }
            for kind, ranges in sorted(calibration.domain.items())
        ],
    }


def group_label(group: str) -> str:
    """An interval group as the page says it: "CPU in read_write" for CPU|read_write,
    "spinning disks in oltp" for disks|oltp."""
    bottleneck, _, kind = group.partition(KIND_SEPARATOR)
    if bottleneck == DISKS_GROUP:
        bottleneck = "spinning disks"
    return f"{bottleneck} in {kind}" if kind else bottleneck


def fitted_at(version: str) -> datetime.datetime | None:
    """Versions start with the fit's UTC time, `YYYYmmdd.HHMMSS`."""
    match = _VERSION_TIME.match(version)
    if match is None:
        return None
    moment = datetime.datetime.strptime(match.group(1), "%Y%m%d.%H%M%S")
    return moment.replace(tzinfo=datetime.UTC)


def citation(key: str) -> dict[str, str]:
    """Full and short citation of a source key; user submissions are not in the bibliography."""
    anchor = f"source-{key}"
    if key.startswith(SOURCE_PREFIX):
        number = key.removeprefix(SOURCE_PREFIX)
        text = f"User submission #{number}, approved by an administrator."
        return {"key": key, "anchor": anchor, "full": text, "short": f"submission #{number}"}
    if not bibliography.has_source(key):
        return {
            "key": key,
            "anchor": anchor,
            "full": f"{key} (not in the bibliography)",
            "short": key,
        }
    entry = bibliography.source(key)
    short = f"{entry.author}, {entry.date or 'n.d.'}"
    return {"key": key, "anchor": anchor, "full": entry.citation(), "short": short}


def _gain_widening(calibration: Calibration) -> str:
    spread = calibration.gain_spread
    return "unknown" if spread is None else f"{spread.out_of_domain_widening:.2f} times"


def _pairs(report: dict[str, Any]) -> dict[str, Any]:
    """The pairs' summary; `widths`: the 80% half-width of one class's change predicted at
    ~0% (calibration.gain_spread), each priced class, and each unpriced one with why."""
    pairs = dict(report.get("pairs") or {})
    spread = pairs.get("spread") or {}
    if pairs.get("within_tolerance") is not None and "unpriced" in spread:
        pairs["within_percent"] = f"{pairs['within_tolerance']:.0%}"
        scale = spread["scales"]["plain"]
        pairs["widths"] = [
            (name, factor(spread["intercepts"].get(name, spread["intercepts"]["pooled"]) * scale))
            for name in CHANGE_CLASSES
            if name not in spread["unpriced"]
        ] + [(name, f"not priced ({why})") for name, why in spread["unpriced"].items()]
    pairs["sources"] = [_pair_source_row(key, row) for key, row in _worst_first(pairs)]
    return pairs


def _worst_first(pairs: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The pairs by source, the sources whose ratios the model misses most first: they set the
    gain interval's width. A report from before the by-source count has none: no table."""
    by_source = pairs.get("by_source") or {}
    return sorted(by_source.items(), key=lambda kv: -kv[1]["median_abs_log_error"])


def _pair_source_row(key: str, row: dict[str, Any]) -> dict[str, Any]:
    return {
        **row,
        "source": citation(key),
        "within_percent": f"{row['within_tolerance']:.0%}",
        "error": factor(row["median_abs_log_error"]),
    }


def _groups(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {**row, "name": f"{dimension}: {name}", "error": factor(row["median_abs_log_error"])}
        for dimension, groups in (report.get("by_group") or {}).items()
        for name, row in groups.items()
    ]


def _fitted(report: dict[str, Any]) -> set[str]:
    return {row["source"] for row in report["per_source"]}


def _sources(report: dict[str, Any]) -> dict[str, dict[str, str]]:
    keys = [row["source"] for row in (*report["per_source"], *report["excluded"])]
    return {key: citation(key) for key in dict.fromkeys(keys)}


def _plot(report: dict[str, Any]) -> SafeString:
    # plot_svg escapes every piece of text it writes; the rest is numbers and fixed markup.
    sources = [row["source"] for row in report["per_source"]]
    return mark_safe(plot_svg(report["table"], sources))


def _source_row(row: dict[str, Any], cited: dict[str, dict[str, str]]) -> dict[str, Any]:
    return {
        **row,
        "citation": cited[row["source"]],
        "error": factor(row["median_abs_log_error"]),
        "bias": bias(row["mean_log_error"]),
    }


def _point_row(row: dict[str, Any], cited: dict[str, dict[str, str]]) -> dict[str, Any]:
    return {**row, "citation": cited[row["source"]], "assumed": ", ".join(row["assumed"])}


def _excluded_row(row: dict[str, Any], cited: dict[str, dict[str, str]]) -> dict[str, Any]:
    return {**row, "citation": cited[row["source"]]}
