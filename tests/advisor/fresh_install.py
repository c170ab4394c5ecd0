"""The real manage.py in a process of its own, on a new SQLite file nobody migrated: what a user
sees on a fresh dev install, traceback or not."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_manage(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python manage.py ARGS` with DEBUG on, a test-only secret, a database file in
    `tmp_path` and `env` on top of this process's environment."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
            "DJANGO_SECRET_KEY": "test-only",
            "DJANGO_DEBUG": "1",
            "DJANGO_ENV_FILE": "",  # not a developer's own .env
            **env,
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
