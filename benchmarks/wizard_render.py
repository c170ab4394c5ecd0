"""Server render time of every wizard page and HTMX partial: median over N requests.

    .venv/bin/python benchmarks/wizard_render.py [-n 50]        # SQLite in memory
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/advisor \
        .venv/bin/python benchmarks/wizard_render.py            # PostgreSQL

Requests go through Django's test Client (the whole middleware stack, templates and database, no
network), against a throw-away database created for the run (`bench_wizard_render` on
PostgreSQL, in memory on SQLite) and dropped at the end. The target is well under 100 ms each.
"""

import argparse
import statistics
import time
from collections.abc import Callable

from django_setup import setup_django

setup_django(DJANGO_PAGE_RATE="1000000000/minute")  # measure pages, not 429s

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

HTMX = {"HTTP_HX_REQUEST": "true"}
TARGET_MS = 100.0
STORAGE = {
    "media": "hdd",
    "rpm": "15000",
    "device_count": "8",
    "raid_level": "raid10",
    "controller_cache": "write_back_bbu",
}


def requests(client: Client, permalink: str) -> list[tuple[str, Callable[[], object]]]:
    """(label, request) for each page and partial; each must answer 2xx/3xx (404 for the last)."""
    hardware = {"ram_gb": "64", "cpu_cores": "16", "kernel": ""}
    return [
        ("GET /  (start page)", lambda: client.get("/")),
        ("GET /wizard/server/  (step page)", lambda: client.get("/wizard/server/")),
        ("GET /wizard/storage/  (step page)", lambda: client.get("/wizard/storage/")),
        (
            "POST /wizard/hardware/  (HTMX: next step)",
            lambda: client.post("/wizard/hardware/", hardware, **HTMX),
        ),
        (
            "POST /wizard/storage/check/  (HTMX: live check)",
            lambda: client.post(
                "/wizard/storage/check/", STORAGE, HTTP_HX_TRIGGER_NAME="device_count", **HTMX
            ),
        ),
        (
            "POST /presets/<slug>/  (compute, store, redirect)",
            lambda: client.post("/presets/8-disk-raid10/"),
        ),
        ("GET /r/<id>/  (result page)", lambda: client.get(permalink)),
        (
            "GET /r/<id>/?whatif=ssd  (HTMX: comparison)",
            lambda: client.get(permalink, {"whatif": "ssd"}, **HTMX),
        ),
        (
            "GET /r/<id>/?whatif=ssd  (page, no JS)",
            lambda: client.get(permalink, {"whatif": "ssd"}),
        ),
        ("GET /r/<id>/download/mycnf", lambda: client.get(permalink + "download/mycnf")),
        ("GET /sources/", lambda: client.get("/sources/")),
        ("GET /r/<unknown>/  (404 page)", lambda: client.get("/r/0000000000000000dead/")),
    ]


def measure(request: Callable[[], object], runs: int) -> list[float]:
    for _ in range(3):  # warm caches: templates, the calibration artifact, connections
        request()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        response = request()
        times.append((time.perf_counter() - start) * 1000)
        status = getattr(response, "status_code", 0)
        if status >= 500:
            raise SystemExit(f"server error {status}")
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--runs", type=int, default=50, help="requests per row")
    args = parser.parse_args(argv)
    setup_test_environment()
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = "bench_wizard_render"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        client = Client()
        permalink = client.post("/presets/8-disk-raid10/")["Location"]
        client.post("/wizard/server/", {"flavor": "mysql", "version": "8.0.36"})
        print(f"{connection.vendor}, {args.runs} requests per row, Django test Client\n")
        print(f"{'page or partial':<52} {'median ms':>10} {'p90 ms':>8}")
        worst = 0.0
        for label, request in requests(client, permalink):
            times = measure(request, args.runs)
            median = statistics.median(times)
            p90 = statistics.quantiles(times, n=10)[-1]
            worst = max(worst, median)
            print(f"{label:<52} {median:>10.1f} {p90:>8.1f}")
        verdict = "under" if worst < TARGET_MS else "OVER"
        print(f"\nslowest median {worst:.1f} ms: {verdict} the {TARGET_MS:.0f} ms target")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
