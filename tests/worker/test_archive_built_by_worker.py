"""A finished batch's archive is built by a real worker and served whole by gunicorn: the two
processes share BATCH_ARCHIVE_DIR, and the download's Content-Length is the zip's size."""

from __future__ import annotations

import io
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from advisor.models import Batch, BatchArchive
from tests.worker.conftest import Processes, wait_for
from tests.worker.test_worker_killed import record_batch, send_start

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
HOSTS = 40


def fetch(url: str, token: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_the_worker_builds_the_archive_and_gunicorn_serves_it_whole(
    processes: Processes, own_redis, tmp_path: Path
):
    env = {"BATCH_ARCHIVE_DIR": str(tmp_path / "archives")}
    batch = record_batch(HOSTS)
    token = Token.objects.create(user=batch.owner).key
    worker = processes.worker(own_redis.url, "builder", env=env)
    web = processes.web(own_redis.url, env=env)
    send_start(own_redis.url, batch)
    built = BatchArchive.objects.filter(batch=batch, format="mycnf", built_at__isnull=False)
    wait_for(built.exists, 60, "the worker to build the my.cnf archive", details=worker.output)
    assert Batch.objects.get(id=batch.id).status == Batch.Status.DONE

    url = f"{web}/api/v1/batches/{batch.id}/archive"
    status, headers, body = fetch(url, token)
    assert status == 200
    assert int(headers["Content-Length"]) == len(body) == built.get().size
    archive = zipfile.ZipFile(io.BytesIO(body))
    assert archive.testzip() is None
    assert len(archive.namelist()) == HOSTS + 1

    status, headers, body = fetch(f"{url}?format=sql", token)
    assert status == 409
    assert headers["Retry-After"] == "5"
    wait_for(lambda: fetch(f"{url}?format=sql", token)[0] == 200, 60, "the sql archive",
             interval=0.5, details=worker.output)  # fmt: skip
    status, headers, body = fetch(f"{url}?format=sql", token)
    assert int(headers["Content-Length"]) == len(body)
    assert zipfile.ZipFile(io.BytesIO(body)).testzip() is None
