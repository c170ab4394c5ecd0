"""`python manage.py lab ...`: the lab (lab/, docs/lab.md) with the same arguments as
`python3 -m lab`; `--to-csv RESULTS.jsonl` prints its records as calibration rows."""

import argparse
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from lab.cli import add_arguments, main


class Command(BaseCommand):
    help = (
        "Run sysbench on throwaway MariaDB servers (A/B/A/B, optionally under cgroup limits "
        "that emulate a smaller machine) and print one JSON record per run."
    )
    requires_system_checks = ()  # reads no models

    def add_arguments(self, parser: CommandParser) -> None:
        add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        code = main(argparse.Namespace(**options), sys.stdout, sys.stderr)
        if code:
            sys.exit(code)
