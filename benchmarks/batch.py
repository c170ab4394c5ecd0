"""A 10,000-profile batch through the real path: recorded in PostgreSQL, queued on Redis,
computed by two Celery worker processes. Prints the wall time and profiles per second.

    .venv/bin/python benchmarks/batch.py              # 10,000 distinct hosts, 2 workers
    HOSTS=2000 WORKERS=4 .venv/bin/python benchmarks/batch.py

Uses its own database (advisor_bench, migrated here) and Redis database 13 on 127.0.0.1:6379.
Results stored by an earlier run are removed first, so every run computes and stores every host.
It measures; it asserts nothing, except that every profile was done once (exit 1 otherwise).
"""

from __future__ import annotations

import itertools
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
HOSTS = int(os.environ.get("HOSTS", "10000"))
WORKERS = int(os.environ.get("WORKERS", "2"))
DATABASE = os.environ.get("BENCH_DATABASE", "advisor_bench")
ENV = {
    "DJANGO_SETTINGS_MODULE": "advisor.settings",
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    "DJANGO_LOG_LEVEL": "WARNING",
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/13",
}
os.environ.update(ENV)
sys.path.insert(0, str(PROJECT))

import django  # noqa: E402  (the environment above configures it)
import redis  # noqa: E402
from scratch_database import ensure_database  # noqa: E402  (beside this script)


def fleet(count: int) -> list[object]:
    """Distinct machines: every host is computed and stored (no two share a result)."""
    from advisor.fleet.services import BatchEntry
    from rules.inputs.examples import raw_profile

    servers = [("mysql", "8.0.36"), ("mysql", "8.4"), ("percona", "8.0.36"), ("mariadb", "10.11")]
    media = [
        {"media": "hdd", "rpm": 15000, "device_count": 8, "raid_level": "raid10"},
        {"media": "sata_ssd", "device_count": 2, "raid_level": "raid1"},
        {"media": "nvme", "device_count": 4, "raid_level": "raid10"},
    ]
    kinds = ["oltp", "read_write", "update_heavy", "bulk_insert", "read_mostly"]
    machines = list(itertools.product(servers, media, kinds))
    entries = []
    for i in range(count):
        (flavor, version), storage, kind = machines[i % len(machines)]
        profile = raw_profile(
            **{
                "server.flavor": flavor,
                "server.version": version,
                "hardware.storage": storage,
                "workload.kind": kind,
                "hardware.ram_gb": 4 + (i % 500),
                "workload.data_size_gb": 10 + i,
            }
        )
        entries.append(BatchEntry(f"db{i:05d}.example.com", profile))
    return entries


def start_workers() -> list[subprocess.Popen[bytes]]:
    celery = str(Path(sys.executable).parent / "celery")
    workers = []
    for n in range(WORKERS):
        args = [celery, "-A", "advisor", "worker", "--concurrency", "1", "--hostname",
                f"bench{n}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat",
                "--loglevel", "WARNING"]  # fmt: skip
        workers.append(
            subprocess.Popen(
                args,
                cwd=PROJECT,
                env={**os.environ},
                stdout=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
    return workers


def main() -> int:
    ensure_database(DATABASE)
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from advisor.fleet.services import batch_create
    from advisor.models import Batch, BatchItem

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:  # a row left by an earlier run would not be stored again
        cursor.execute("TRUNCATE advisor_recommendation CASCADE")
    redis.Redis(db=13).flushdb()
    owner, _ = get_user_model().objects.get_or_create(username="batch-benchmark")
    entries = fleet(HOSTS)
    workers = start_workers()
    try:
        time.sleep(5)  # let the workers connect; their start-up is not the batch's time
        started = time.perf_counter()
        batch = batch_create(owner=owner, entries=entries)  # record, commit, queue
        recorded = time.perf_counter() - started
        while Batch.objects.get(id=batch.id).status != Batch.Status.DONE:
            time.sleep(0.25)
        wall = time.perf_counter() - started
    finally:
        for worker in workers:
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in workers:
            worker.wait(30)
    items = BatchItem.objects.filter(batch=batch)
    once = items.filter(status="done", attempts=1).count()
    print(f"batch of {HOSTS:,} distinct profiles, {WORKERS} worker processes")
    print(f"  recorded and queued in {recorded:.1f} s")
    print(
        f"  done in {wall:.1f} s wall time: {HOSTS / wall:,.0f} profiles/s"
        " (target for 10,000 on two workers: under 10 s)"
    )
    print(f"  items done exactly once: {once:,} of {HOSTS:,}")
    return 0 if once == HOSTS else 1


if __name__ == "__main__":
    sys.exit(main())
