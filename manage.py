#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys
from pathlib import Path

# A dev install's settings: `make run` writes this file (DJANGO_DEBUG=1) so that every
# `manage.py` command afterwards runs as `make run` does, in a new shell with nothing exported.
# Variables already in the environment win. DJANGO_ENV_FILE names another file ("" for none).
DEFAULT_ENV_FILE = Path(__file__).resolve().parent / ".env"


def main() -> None:
    # `manage.py recommend` runs with no settings at all: advisor/settings.py sees the command
    # on this process's command line (OFFLINE_COMMANDS) and uses the development defaults.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line
    from dotenv import load_dotenv

    env_file = os.environ.get("DJANGO_ENV_FILE", str(DEFAULT_ENV_FILE))
    if env_file:
        load_dotenv(env_file, override=False)
    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as problem:  # a setting is missing or wrong: say which, in a line
        sys.exit(f"manage.py: {problem} (see .env.example; `make run` writes a dev .env)")


if __name__ == "__main__":
    main()
