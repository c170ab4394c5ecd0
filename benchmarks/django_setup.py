"""Django for a benchmark script: production-like settings (DEBUG off) minus what needs a
deployment (HTTPS, collectstatic), with this checkout importable. One place, so that every
script that measures pages or the API measures the same settings."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_django(**environment: str) -> None:
    """Set the benchmark's environment (`environment` adds to it; a variable already set by the
    caller's shell wins) and call django.setup()."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    defaults = {
        "DJANGO_SETTINGS_MODULE": "advisor.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "benchmark-only-not-a-secret-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "testserver",
        "DJANGO_SSL_REDIRECT": "0",
        "DJANGO_STATIC_MANIFEST": "0",
        "DJANGO_LOG_LEVEL": "ERROR",
        **environment,
    }
    for name, value in defaults.items():
        os.environ.setdefault(name, value)
    import django

    django.setup()
