#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

# Commands that only compute and print: they sign nothing and serve nothing, so a person at a
# shell can run them with no secret key or allowed hosts set (see advisor/settings.py).
OFFLINE_COMMANDS = frozenset({"recommend"})


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")
    if len(sys.argv) > 1 and sys.argv[1] in OFFLINE_COMMANDS:
        os.environ.setdefault("ADVISOR_OFFLINE_COMMAND", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
