"""What a pasted my.cnf costs the API: server time of POST /api/v1/recommendations by paste size.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/advisor \
        .venv/bin/python benchmarks/paste_cost.py [-n 9]

The figures behind advisor.ratelimit.COST_UNIT_BYTES: a request counts one unit per started
32 KiB of body because a paste's parse grows with its size. The paste is distinct
`name=value` lines in a [mysqld] section. Requests go through Django's test Client (middleware,
throttle, parser, engine, one INSERT), against a throw-away database dropped at the end.
"""

import argparse
import json
import statistics
import time

from django_setup import setup_django

setup_django(DJANGO_API_RATE_ANON="1000000000/minute")  # measure work, not 429s

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from advisor.ratelimit import COST_UNIT_BYTES  # noqa: E402
from rules.inputs.examples import raw_profile  # noqa: E402

SIZES = (0, 16 * 1024, 64 * 1024, 256 * 1024)


def body(paste_bytes: int) -> str:
    profile = raw_profile()
    if paste_bytes:
        lines, size = ["[mysqld]\n"], 9
        while size < paste_bytes - 40:
            lines.append(f"some_variable_{len(lines)}=value_{len(lines)}\n")
            size += len(lines[-1])
        profile["current"] = {"mycnf": "".join(lines)}
    return json.dumps(profile)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--runs", type=int, default=9, help="requests per size")
    args = parser.parse_args(argv)
    setup_test_environment()
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = "bench_paste_cost"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        client = Client()
        print(f"{'paste bytes':>12} {'body bytes':>11} {'units':>6}", end="")
        print(f" {'min ms':>8} {'median ms':>10}")
        for size in SIZES:
            data = body(size)
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                response = client.post("/api/v1/recommendations", data, "application/json")
                times.append((time.perf_counter() - start) * 1000)
                assert response.status_code in (200, 201), response.content[:300]
            units = max(1, -(-len(data) // COST_UNIT_BYTES))
            print(
                f"{size:>12,} {len(data):>11,} {units:>6} "
                f"{min(times):>8.1f} {statistics.median(times):>10.1f}"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
