"""`python manage.py recommend FILE|- --format FORMAT [--revert] [--rds-parameters FILE]
[--lab-results FILE]`: print
one export (any of `rules.render.FORMATS`: json, mycnf, sql, udev, sysctl, ansible, k8s-percona,
rds-json, ...), or with --revert its twin that sets the profile's current configuration back.
The RDS exports read the user's `aws rds describe-engine-default-parameters` output; --lab-results
sets the profile's workload.lab_results from the lab's JSON lines (docs/lab.md)."""

import json
import os
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from advisor.recommendations.services import recommendation_compute
from rules.inputs.errors import NothingToRevert, OutputRefused, ProfileError
from rules.inputs.lab_results import MAX_LAB_TEXT_BYTES, LabTextError, decode_lab_text
from rules.inputs.validation import parse_profile
from rules.inputs.version import SUPPORTED_RANGE_TEXT
from rules.render import BY_NAME, FORMATS, render, render_revert

MAX_PROFILE_BYTES = 4_000_000
BAD_INPUT = 2
RDS_OPTION = "--rds-parameters"
LAB_OPTION = "--lab-results"


class Command(BaseCommand):
    help = (
        "Recommend InnoDB IO settings for the profile in FILE (or '-' for stdin) and print the "
        "export. Exits 2 with one line per problem when the profile is invalid."
    )
    requires_system_checks = ()  # reads no models; keeps the CLI fast and quiet

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="profile JSON file, or - for stdin")
        parser.add_argument(
            "--format",
            choices=FORMATS,
            default="json",
            metavar="FORMAT",
            help="; ".join(f"{name}: {BY_NAME[name].description}" for name in FORMATS)
            + " (default: json)",
        )
        parser.add_argument(
            "--base-url", default="", help="prefix of the permalink, e.g. https://advisor.example"
        )
        parser.add_argument(
            "--rds-parameters",
            metavar="FILE",
            help="for the RDS exports: the output of aws rds describe-engine-default-parameters "
            "--db-parameter-group-family FAMILY --output json, the parameters RDS lets you change",
        )
        parser.add_argument(
            LAB_OPTION,
            metavar="FILE",
            help="throughput measured on this host: the JSON lines python3 -m lab wrote (or a "
            "JSON list of {configuration, throughput}); sets workload.lab_results, and the "
            "estimate is anchored on them",
        )
        parser.add_argument(
            "--revert",
            action="store_true",
            help="print the revert twin: the profile's current values (needs `current`)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        raw = _decode(_read(options["file"]))
        if options.get("lab_results") is not None:
            raw = _with_lab_results(raw, options["lab_results"])
        try:
            profile = parse_profile(raw)
        except ProfileError as problem:
            raise CommandError(profile_problems(problem), returncode=BAD_INPUT) from None
        rds_file = options.get("rds_parameters")
        rds_parameters = None
        if rds_file is not None:
            rds_parameters = _decode(_read(rds_file, what=RDS_OPTION), what=RDS_OPTION)
        try:
            result = recommendation_compute(
                profile=profile, rds_parameters=rds_parameters, rds_field=RDS_OPTION
            )
            renderer = render_revert if options["revert"] else render
            text = renderer(result, options["format"], base_url=options["base_url"])
        except ProfileError as problem:  # only the RDS list is left to be invalid here
            message = profile_problems(problem, RDS_OPTION)
            raise CommandError(message, returncode=BAD_INPUT) from None
        except NothingToRevert as nothing:
            raise CommandError(f"cannot revert: {nothing}", returncode=BAD_INPUT) from None
        except OutputRefused as refused:
            label = BY_NAME[options["format"]].label
            message = f"cannot write {label}: {refused}"
            supported = SUPPORTED_RANGE_TEXT[profile.server.flavor]
            if result.output_refused is None:  # this format's own limit, not the version's
                message += " (other formats, and --format json, still work)"
            elif supported not in message:
                message += f" (supported: {supported}; --format json still works)"
            raise CommandError(message, returncode=BAD_INPUT) from None
        except Exception as bug:
            if options["traceback"]:
                raise
            raise CommandError(
                f"internal error ({type(bug).__name__}: {bug}); please report it with the "
                "profile, or run again with --traceback",
                returncode=1,
            ) from bug
        self._write(text)

    def _write(self, text: str) -> None:
        """The export is UTF-8 whatever the locale; a closed pipe (`| head`) is not an error."""
        try:
            buffer = getattr(self.stdout, "buffer", None)
            if buffer is None:
                self.stdout.write(text, ending="")
                return
            self.stdout.flush()
            buffer.write(text.encode("utf-8"))
            buffer.flush()
        except BrokenPipeError:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise SystemExit(1) from None


def profile_problems(problem: ProfileError, what: str = "profile") -> str:
    """One line per field problem, under a count."""
    lines = [
        f"{path or what}: {message}"
        for path, messages in problem.errors.items()
        for message in messages
    ]
    noun = "problem" if len(lines) == 1 else "problems"
    return "\n".join([f"{what}: {len(lines)} {noun}:", *lines])


def _with_lab_results(raw: object, name: str) -> object:
    """The profile with workload.lab_results from the lab's JSON lines in file `name`."""
    data = _read(name, what=LAB_OPTION)
    if len(data) > MAX_LAB_TEXT_BYTES:
        message = f"{LAB_OPTION}: {name} is larger than {MAX_LAB_TEXT_BYTES:,} bytes"
        raise CommandError(message, returncode=BAD_INPUT)
    if b"\x00" in data:
        raise CommandError(f"{LAB_OPTION}: this is a binary file", returncode=BAD_INPUT)
    try:
        runs = decode_lab_text(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, LabTextError) as problem:
        reason = "not UTF-8 text" if isinstance(problem, UnicodeDecodeError) else str(problem)
        raise CommandError(f"{LAB_OPTION}: {reason}", returncode=BAD_INPUT) from None
    if not isinstance(raw, dict) or not isinstance(raw.get("workload"), dict):
        return raw  # validation names what is missing
    return {**raw, "workload": {**raw["workload"], "lab_results": runs}}


def _read(name: str, *, what: str = "profile") -> bytes:
    if name == "-":
        data = sys.stdin.buffer.read(MAX_PROFILE_BYTES + 1)
        where = "stdin"
    else:
        where = name
        try:
            with Path(name).open("rb") as handle:
                data = handle.read(MAX_PROFILE_BYTES + 1)
        except FileNotFoundError:
            raise CommandError(f"{what}: no such file: {name}", returncode=BAD_INPUT) from None
        except IsADirectoryError:
            raise CommandError(f"{what}: {name} is a directory", returncode=BAD_INPUT) from None
        except OSError as problem:
            reason = problem.strerror or str(problem)
            raise CommandError(
                f"{what}: cannot read {name}: {reason}", returncode=BAD_INPUT
            ) from None
    if len(data) > MAX_PROFILE_BYTES:
        raise CommandError(
            f"{what}: {where} is larger than {MAX_PROFILE_BYTES:,} bytes", returncode=BAD_INPUT
        )
    return data


def _decode(data: bytes, *, what: str = "profile") -> object:
    if b"\x00" in data:
        raise CommandError(f"{what}: this is a binary file, not JSON text", returncode=BAD_INPUT)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        raise CommandError(
            f"{what}: not UTF-8 text (byte 0x{data[problem.start]:02x} at offset {problem.start})",
            returncode=BAD_INPUT,
        ) from None
    if not text.strip():
        raise CommandError(f"{what}: the input is empty", returncode=BAD_INPUT)
    try:
        return json.loads(text)
    except json.JSONDecodeError as problem:
        raise CommandError(
            f"{what}: invalid JSON at line {problem.lineno} column {problem.colno}: {problem.msg}",
            returncode=BAD_INPUT,
        ) from None
    except (ValueError, RecursionError) as problem:  # e.g. a 5,000-digit number, deep nesting
        reason = "nested too deeply" if isinstance(problem, RecursionError) else str(problem)
        raise CommandError(f"{what}: invalid JSON: {reason}", returncode=BAD_INPUT) from None
