"""A 10,000-host batch's archive: built once as a worker builds it, then downloaded through
gunicorn (production settings, its default 30 s timeout). Prints the build time and size of each
format, and checks each download is whole: Content-Length equals the bytes received and
`zipfile.testzip()` finds nothing wrong.

    .venv/bin/python benchmarks/archive.py                   # 10,000 hosts; mycnf and json
    HOSTS=2000 FORMATS=mycnf,sql .venv/bin/python benchmarks/archive.py

The hosts are one profile with a different RAM size each, so every one is computed and stored
(computed here in-process, chunk by chunk, as the worker does; not timed). Uses its own
database (advisor_bench_archive, migrated here) and a temporary BATCH_ARCHIVE_DIR. Exit 1 when
a download is not whole.
"""

from __future__ import annotations

import io
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
HOSTS = int(os.environ.get("HOSTS", "10000"))
FORMATS = os.environ.get("FORMATS", "mycnf,json").split(",")
DATABASE = os.environ.get("BENCH_DATABASE", "advisor_bench_archive")
ARCHIVES = tempfile.mkdtemp(prefix="advisor-archives-")
ENV = {
    "DJANGO_SETTINGS_MODULE": "advisor.settings",
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    "DJANGO_SECURE_COOKIES": "0",
    "DJANGO_SSL_REDIRECT": "0",  # plain HTTP on loopback
    "DJANGO_LOG_LEVEL": "WARNING",
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
    "BATCH_ARCHIVE_DIR": ARCHIVES,
    "BATCH_CHUNK_SECONDS": "100",
}
os.environ.update(ENV)
sys.path.insert(0, str(PROJECT))

import django  # noqa: E402  (the environment above configures it)
from scratch_database import ensure_database  # noqa: E402  (beside this script)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_gunicorn(port: int) -> subprocess.Popen[bytes]:
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    web = subprocess.Popen(
        [gunicorn, "advisor.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        cwd=PROJECT,
        env={**os.environ},
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return web
        except OSError:
            time.sleep(0.2)
    web.terminate()
    raise SystemExit("gunicorn did not answer within 30 s")


def main() -> int:
    ensure_database(DATABASE)
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from advisor.fleet import processing
    from advisor.fleet.archive_files import archive_build
    from advisor.models import Batch, BatchItem
    from rules.inputs.examples import raw_profile

    call_command("migrate", verbosity=0)
    owner, _ = get_user_model().objects.get_or_create(username="archive-benchmark")
    token, _ = Token.objects.get_or_create(user=owner)
    port = free_port()
    batch = Batch.objects.create(owner=owner, total=HOSTS, base_url=f"http://127.0.0.1:{port}")
    items = (
        BatchItem(
            batch=batch,
            position=i,
            name=f"db{i:05d}.example.com",
            profile=raw_profile(**{"hardware.ram_gb": 4 + i / 4}),
        )
        for i in range(HOSTS)
    )
    BatchItem.objects.bulk_create(items, batch_size=1000)
    started = time.perf_counter()
    for first in range(0, HOSTS, 250):
        processing.batch_process_chunk(
            batch_id=batch.id,
            first=first,
            last=first + 250,
            queue_chunk=lambda *chunk: None,
            queue_archive=lambda *archive: None,  # built below, timed
        )
    print(f"batch of {HOSTS:,} hosts computed in {time.perf_counter() - started:.1f} s")
    web = start_gunicorn(port)
    whole = True
    try:
        for fmt in FORMATS:
            started = time.perf_counter()
            size = archive_build(batch_id=batch.id, fmt=fmt)
            built = time.perf_counter() - started
            url = f"http://127.0.0.1:{port}/api/v1/batches/{batch.id}/archive?format={fmt}"
            request = urllib.request.Request(url, headers={"Authorization": f"Token {token.key}"})
            started = time.perf_counter()
            with urllib.request.urlopen(request, timeout=60) as response:
                status, length, body = response.status, response.headers["Content-Length"], b""
                while chunk := response.read(1 << 20):
                    body += chunk
            fetched = time.perf_counter() - started
            archive = zipfile.ZipFile(io.BytesIO(body))
            broken = archive.testzip()
            ok = status == 200 and int(length) == len(body) == size and broken is None
            whole = whole and ok
            print(
                f"  {fmt}: built in {built:.1f} s, {size / 1e6:.1f} MB, "
                f"{len(archive.namelist()):,} files; downloaded in {fetched:.2f} s: "
                f"{status}, Content-Length {length}, received {len(body):,} bytes, "
                f"testzip {'ok' if broken is None else broken}"
            )
    finally:
        web.terminate()
        web.wait(30)
        shutil.rmtree(ARCHIVES)
    return 0 if whole else 1


if __name__ == "__main__":
    sys.exit(main())
