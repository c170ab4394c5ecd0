#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    # `manage.py recommend` runs with no settings at all: advisor/settings.py sees the command
    # on this process's command line (OFFLINE_COMMANDS) and uses the development defaults.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
