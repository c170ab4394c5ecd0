"""`python manage.py calibrate [--json]`: fit the model, write its artifact, record the run."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from advisor.calibration_admin.figures import bias, factor, held_out_targets, targets
from advisor.calibration_admin.runs import calibration_run_create
from advisor.management.migrated import require_migrated
from advisor.models import CalibrationRun
from calibration.interval import INTERVAL

# Report keys left out of --json: the per-point table and the parameters are in the artifact.
JSON_OMITS = ("table", "params")


class Command(BaseCommand):
    help = (
        "Fit the throughput model on the shipped published benchmarks plus approved user "
        "measurements, write a versioned artifact, record the run, and print how honest its "
        "80% intervals are under leave-one-source-out and leave-one-lab-out scoring."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--json", action="store_true", help="print the report as one JSON object"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        require_migrated()
        trigger = CalibrationRun.Trigger.COMMAND
        run = calibration_run_create(trigger=trigger)  # type: ignore[arg-type]  # a str at runtime
        if options["json"]:
            self.stdout.write(json.dumps(_as_json(run), sort_keys=True))
        else:
            self.stdout.write("\n".join(_lines(run)))


def _as_json(run: CalibrationRun) -> dict[str, Any]:
    report = {k: v for k, v in run.report.items() if k not in JSON_OMITS}
    return {**report, "version": run.version, "artifact": run.artifact, "trigger": run.trigger}


def _lines(run: CalibrationRun) -> list[str]:
    report = run.report
    share = f"{report.get('interval', INTERVAL):.0%}"
    lines = [
        f"Calibration {run.version}",
        f"  artifact: {run.artifact}",
        f"  {report['points']} points from {report['sources']} sources "
        f"({len(report['excluded'])} rows excluded, each with its reason)",
        f"  leave-one-source-out coverage of the {share} intervals: {report['coverage']:.3f}",
        f"  median interval width (high/low): {report['median_width_ratio']:.2f}",
        f"  median error (held out): {factor(report['median_abs_log_error'])}",
        f"  conformal level: {report.get('conformal_level', INTERVAL):.2f}, the lowest from "
        f"{INTERVAL:.2f} up at which held-out sources were covered {share} of the time",
        *_widening_lines(report),
        "  targets: "
        + "; ".join(f"{text} {'met' if ok else 'MISSED'}" for text, ok in targets(report)),
        *_pair_lines(report),
        *_held_out_lines(report),
        *_group_lines(report),
        "",
        "Error per source (each predicted by a fit without it):",
        f"  {'source':<40} {'points':>6} {'median error':>12} {'bias':>6} {'coverage':>8}",
    ]
    for row in report["per_source"]:
        lines.append(
            f"  {row['source']:<40} {row['points']:>6} "
            f"{factor(row['median_abs_log_error']):>12} {bias(row['mean_log_error']):>6} "
            f"{row['coverage']:>8.2f}"
        )
    lines.append("  (bias: published against predicted; positive means the model predicted low)")
    lines += _per_lab_lines(report)
    return lines


_YARDSTICKS = {"by_source": "leave-one-source-out", "by_lab": "leave-one-lab-out"}


def _held_out_lines(report: dict[str, Any]) -> list[str]:
    """Coverage and width held out by source and by lab, side by side, with their targets."""
    held_out = report.get("held_out")
    if not held_out:
        return []
    lines = ["", "Held out (80% intervals):"]
    for key, name in _YARDSTICKS.items():
        figures = held_out[key]
        unit = "sources" if key == "by_source" else "labs (authors or organisations)"
        lines.append(f"  {name}, {figures['units']} {unit}:")
        for what, label in (
            ("estimates", "estimates"),
            ("gains", "gains (priced pairs)"),
            ("gains_all_pairs", "gains (all pairs, unpriced ones as misses)"),
        ):
            row = figures.get(what)
            if not row or not row["count"]:
                continue
            lines.append(
                f"    {label:<44} {row['count']:>4}: coverage {row['coverage']:.3f}, "
                f"median width ×{row['median_width_ratio']:.2f}"
            )
        lines += _by_change_lines(figures.get("gains_by_change") or {})
        lines.append(
            "    targets: "
            + "; ".join(
                f"{text} {'met' if ok else 'MISSED'}" for text, ok in held_out_targets(figures)
            )
        )
    return lines


def _by_change_lines(by_change: dict[str, Any]) -> list[str]:
    """Gain coverage and median width by kind of change (the classes, and whether the
    bottleneck moves); an unpriced kind's pairs counted apart."""
    lines = []
    for name, row in by_change.items():
        priced = (
            f"{row['count']:>4} priced: coverage {row['coverage']:.3f}, "
            f"median width ×{row['median_width_ratio']:.2f}"
            if row["count"]
            else f"{0:>4} priced"
        )
        left = f"; {row['unpriced']} unpriced" if row.get("unpriced") else ""
        lines.append(f"      {name:<36} {priced}{left}")
    return lines


def _per_lab_lines(report: dict[str, Any]) -> list[str]:
    by_lab = (report.get("held_out") or {}).get("by_lab")
    if not by_lab:
        return []
    lines = [
        "",
        "Error per lab (each predicted by a fit without any of its sources):",
        f"  {'lab':<40} {'sources':>7} {'points':>6} {'median error':>12} {'bias':>6} "
        f"{'coverage':>8} {'width':>6}",
    ]
    for row in by_lab["per_lab"]:
        lines.append(
            f"  {row['lab']:<40} {row['sources']:>7} {row['points']:>6} "
            f"{factor(row['median_abs_log_error']):>12} {bias(row['mean_log_error']):>6} "
            f"{row['coverage']:>8.2f} {row['median_width_ratio']:>6.2f}"
        )
    return lines


def _widening_lines(report: dict[str, Any]) -> list[str]:
    estimate = report.get("out_of_domain_widening")
    gain = (report.get("pairs") or {}).get("out_of_domain_widening")
    if estimate is None or gain is None:
        return []
    outside = (report.get("by_group") or {}).get("domain", {}).get("outside", {})
    return [
        f"  outside the data's range: estimates {estimate:.2f} times wider, gains {gain:.2f} "
        "times (measured on held-out points and pairs outside the other sources' range; "
        f"{outside.get('points', 0)} points covered {outside.get('coverage', 0):.2f})"
    ]


def _pair_lines(report: dict[str, Any]) -> list[str]:
    pairs = report.get("pairs") or {}
    if not pairs.get("pairs"):
        return []
    unpriced = (pairs.get("spread") or {}).get("unpriced") or {}
    return [
        f"  within-source pairs: {pairs['pairs']}; estimated ratio within "
        f"×{pairs['tolerance']} of the published for {pairs['within_tolerance']:.0%}; "
        f"wrong direction on a change above 25%: {pairs['wrong_direction']} "
        f"({', '.join(pairs['wrong_direction_pairs']) or 'none'})",
        "  classes of change a gain does not count (listed beside it with their published "
        "ratios): " + ("; ".join(f"{k} ({why})" for k, why in unpriced.items()) or "none"),
    ]


def _group_lines(report: dict[str, Any]) -> list[str]:
    lines = ["", "By group (held out):", f"  {'group':<28} {'points':>6} {'sources':>7} "
             f"{'coverage':>8} {'width':>7} {'error':>7}"]  # fmt: skip
    for dimension, groups in (report.get("by_group") or {}).items():
        for name, row in groups.items():
            lines.append(
                f"  {dimension + ' ' + name:<28} {row['points']:>6} {row['sources']:>7} "
                f"{row['coverage']:>8.2f} {row['median_width_ratio']:>7.2f} "
                f"{factor(row['median_abs_log_error']):>7}"
            )
    return lines
