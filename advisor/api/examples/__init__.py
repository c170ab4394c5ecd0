"""The request bodies the OpenAPI schema offers as examples (Swagger's "Try it out" sends them):
the product contract's example profile (docs/product.md, kept equal by a test) in each
operation's body, so that a first try succeeds."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

_PROFILE_FILE = Path(__file__).with_name("profile.json")
# What a server ran before: the part of the check's example that makes it a check.
CURRENT_MYCNF = "[mysqld]\ninnodb_io_capacity = 200\ninnodb_flush_log_at_trx_commit = 1\n"


@cache
def example_profile() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(_PROFILE_FILE.read_text())
    return loaded


def request_examples() -> dict[tuple[str, str], Any]:
    """(path, method) -> the example body of that operation."""
    profile = example_profile()
    return {
        ("/api/v1/recommendations", "post"): profile,
        ("/api/v1/check", "post"): {**profile, "current": {"mycnf": CURRENT_MYCNF}},
        ("/api/v1/batches", "post"): {
            "profiles": [
                {"name": "db1.example.com", "profile": profile},
                {"name": "db2.example.com", "profile": {**profile, "current": None}},
            ]
        },
        ("/api/v1/measurements", "post"): {
            "kind": "fio",
            "profile": profile,
            "random_read_iops": 1500,
            "random_write_iops": 1400,
            "source": "fio randread/randwrite 16k, iodepth 32, on this array",
        },
    }
