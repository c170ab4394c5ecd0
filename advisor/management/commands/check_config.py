"""`python manage.py check_config PROFILE [--mycnf FILE | --show-variables FILE] [--json]`.

Reports what the advisor would change in the server's current configuration and which of its
values are unsafe. Exit status: 0 nothing unsafe, 1 something unsafe, 2 a usage or input error
(a CI gate: `manage.py check_config host.json --mycnf /etc/mysql/my.cnf || exit 1`).
"""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from advisor.management.commands.recommend import BAD_INPUT, _decode, _read, profile_problems
from advisor.management.commands.recommend import Command as RecommendCommand
from advisor.recommendations.services import recommendation_check
from rules.check import NEEDS_CURRENT, CheckReport, report_to_dict
from rules.inputs.errors import ProfileError
from rules.inputs.validation import parse_profile
from rules.output.result import Setting
from rules.render.mycnf import config_value
from rules.units import bytes_text

UNSAFE = 1
# What --mycnf and --show-variables read at most; the profile's own limits then apply.
MAX_CONFIG_BYTES = 4_000_000


class Command(RecommendCommand):
    help = (
        "Check a server's current configuration (the profile's `current`, or --mycnf / "
        "--show-variables) against the advisor: list what it would change and every unsafe "
        "value. Exits 0 when nothing is unsafe, 1 when something is, 2 on bad input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="PROFILE", help="profile JSON file, or - for stdin")
        source = parser.add_mutually_exclusive_group()
        source.add_argument("--mycnf", metavar="FILE", help="the server's my.cnf")
        source.add_argument(
            "--show-variables", metavar="FILE", help="the output of SHOW GLOBAL VARIABLES"
        )
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        raw = _decode(_read(options["file"]))
        if not isinstance(raw, dict):
            raise CommandError("profile: must be a JSON object", returncode=BAD_INPUT)
        for form, option in (("mycnf", "mycnf"), ("show_variables", "show_variables")):
            if options[option] is not None:
                raw = {**raw, "current": {form: _config_text(options[option])}}
        try:
            profile = parse_profile(raw)
        except ProfileError as problem:
            raise CommandError(profile_problems(problem), returncode=BAD_INPUT) from None
        if profile.current is None:
            raise CommandError(
                f"{NEEDS_CURRENT}, or pass --mycnf FILE or --show-variables FILE",
                returncode=BAD_INPUT,
            )
        report = recommendation_check(profile=profile)
        data = report_to_dict(report)
        self._write(json.dumps(data, indent=2) + "\n" if options["json"] else _text(report))
        if not report.passed:
            raise SystemExit(UNSAFE)


def _config_text(name: str) -> str:
    path = Path(name)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError as problem:
        reason = problem.strerror or str(problem)
        raise CommandError(f"{name}: cannot read: {reason}", returncode=BAD_INPUT) from None
    if len(data) > MAX_CONFIG_BYTES:
        raise CommandError(f"{name}: larger than {MAX_CONFIG_BYTES:,} bytes", returncode=BAD_INPUT)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        raise CommandError(
            f"{name}: not UTF-8 text (offset {problem.start})", returncode=BAD_INPUT
        ) from None


def _text(report: CheckReport) -> str:
    count = len(report.unsafe)
    lines = [
        "PASS: nothing unsafe"
        if report.passed
        else f"FAIL: {count} unsafe value{'s' if count != 1 else ''}"
    ]
    for unsafe in report.unsafe:
        lines += [f"  unsafe  {unsafe.variable} = {unsafe.current}", f"          {unsafe.why}"]
    changes = report.changes
    lines.append(
        f"The advisor would change {len(changes)} setting{'s' if len(changes) != 1 else ''}:"
    )
    for s in changes:
        when = "now" if s.dynamic else "at the next restart"
        lines.append(f"  {s.name}: {current_text(s)} -> {config_value(s)} ({when}): {s.reason}")
    said = {unsafe.why for unsafe in report.unsafe}
    lines += [f"  warning: {w}" for w in report.result.warnings if w not in said]
    return "\n".join(lines) + "\n"


def current_text(setting: Setting) -> str:
    """Today's value, sizes as my.cnf writes them (104857600 reads as 100M)."""
    return bytes_text(setting.kind, setting.current or "")
