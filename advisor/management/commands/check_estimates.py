"""`python manage.py check_estimates FILE.csv [--json]`: score results the model never saw."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from advisor.calibration_admin.figures import bias, factor
from calibration.artifact import load_latest
from calibration.new_results import DIMENSIONS, ResultsFileError, read_results, score

SHOWN_SET_ASIDE = 10  # the text report names this many rows set aside; --json has them all


class Command(BaseCommand):
    help = (
        "Score published results in calibration/data/benchmarks.csv's columns against the "
        "shipped calibration, which was not fitted on them: how often each 80% interval holds "
        "its result, how wide and how far off the estimates are, and how close the estimated "
        "ratios of two configurations of one machine come. Rows from a source the calibration "
        "was fitted on are set aside, named."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="CSV file of results")
        parser.add_argument(
            "--json", action="store_true", help="print the report as one JSON object"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            points = read_results(options["file"])
        except ResultsFileError as error:
            raise CommandError(str(error)) from None
        calibration = load_latest()
        if calibration is None:
            raise CommandError("no calibration artifact: run `python manage.py calibrate` first")
        report = score(points, calibration)
        if options["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
        else:
            self.stdout.write("\n".join(_lines(report)))


def _lines(report: dict[str, Any]) -> list[str]:
    lines = [f"Calibration {report['calibration']}, scored on results it was not fitted on"]
    if report["points"]:
        lines += [
            f"  {report['points']} results from {report['sources']} sources",
            f"  inside their 80% intervals: {report['coverage']:.3f}",
            f"  median interval width (high/low): {report['median_width_ratio']:.2f}",
            f"  median error: {factor(report['median_abs_log_error'])}; median bias "
            f"{bias(report['median_log_error'])} (positive: the model estimated low)",
            *_pair_lines(report["pairs"]),
            "",
            f"  {'group':<28} {'points':>6} {'sources':>7} {'coverage':>8} {'width':>7} "
            f"{'error':>7}",
        ]
        for dimension in DIMENSIONS:
            for name, row in report["by_group"][dimension].items():
                lines.append(
                    f"  {dimension + ' ' + name:<28} {row['points']:>6} {row['sources']:>7} "
                    f"{row['coverage']:>8.2f} {row['median_width_ratio']:>7.2f} "
                    f"{factor(row['median_abs_log_error']):>7}"
                )
    else:
        lines.append("  no result to score")
    set_aside = report["set_aside"]
    if set_aside:
        lines += ["", f"  {len(set_aside)} rows set aside:"]
        lines += [
            f"    {r['id']} ({r['source']}): {r['reason']}" for r in set_aside[:SHOWN_SET_ASIDE]
        ]
        if len(set_aside) > SHOWN_SET_ASIDE:
            lines.append(
                f"    ... and {len(set_aside) - SHOWN_SET_ASIDE} more (--json has them all)"
            )
    return lines


def _pair_lines(pairs: dict[str, Any]) -> list[str]:
    if not pairs["pairs"]:
        return ["  no pair of results of one machine with settings changed"]
    return [
        f"  pairs of one machine with settings changed: {pairs['pairs']}; estimated ratio "
        f"within x{pairs['tolerance']} of the published for {pairs['within_tolerance']:.0%}; "
        f"wrong direction on a change above 25%: {pairs['wrong_direction']}; published ratio "
        f"inside its 80% gain interval: {_percent(pairs['gain_interval_coverage'])} "
        f"(pairs changing a class the gain does not price, left out: "
        f"{pairs.get('unpriced_pairs', 0)})",
    ]


def _percent(share: float | None) -> str:
    return "no pair" if share is None else f"{share:.0%}"
