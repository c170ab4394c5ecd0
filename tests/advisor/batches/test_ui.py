"""The batch page: upload, progress (HTMX polling that stops when done), archive."""

from __future__ import annotations

import io
import json
import re
from unittest import mock

import pytest
from django.core.management import call_command
from kombu.exceptions import OperationalError

from advisor.models import Batch
from rules.inputs.examples import raw_profile
from tests.advisor.archives import archive_zip, fetch_built

pytestmark = pytest.mark.django_db


@pytest.fixture
def token(capsys) -> str:
    call_command("create_api_token", "browser-user")
    return capsys.readouterr().out.strip()


def upload(client, token, body: bytes, name: str = "fleet.json", **extra):
    file = io.BytesIO(body)
    file.name = name
    return client.post("/batches/", {"token": token, "file": file}, **extra)


def fleet_json(count: int = 2) -> bytes:
    return json.dumps(
        {"profiles": [{"name": f"db{i}", "profile": raw_profile()} for i in range(count)]}
    ).encode()


def test_the_form_asks_for_a_token_and_a_file(client):
    html = client.get("/batches/").content.decode()
    assert 'name="token"' in html
    assert 'type="file"' in html
    assert 'enctype="multipart/form-data"' in html


def test_an_upload_runs_the_batch_and_the_page_offers_the_archive(
    client, token, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(client, token, fleet_json())
    assert response.status_code == 302
    page = client.get(response["Location"])
    html = page.content.decode()
    assert "100%" in html
    assert "hx-trigger" not in html  # done: nothing polls any more
    link = re.search(r'href="(/batches/[^"]+/archive)"', html).group(1)
    names = archive_zip(client.get(link)).namelist()
    assert names == ["db0.cnf", "db1.cnf", "summary.csv"]


def test_the_page_offers_the_archive_with_each_other_export(
    client, token, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        location = upload(client, token, fleet_json())["Location"]
    html = client.get(location).content.decode()
    links = re.findall(r'href="(/batches/[^"]+/archive\?format=([a-z0-9-]+))"', html)
    assert {fmt for _, fmt in links} >= {"ansible", "k8s-percona", "rds-terraform", "json"}
    link = next(href for href, fmt in links if fmt == "ansible-tasks")
    response = fetch_built(lambda: client.get(link), django_capture_on_commit_callbacks)
    names = archive_zip(response).namelist()
    assert names == ["db0-tasks.yml", "db1-tasks.yml", "summary.csv"]
    assert client.get(link.split("?")[0] + "?format=xlsx").status_code == 404


def test_an_archive_being_built_is_a_page_that_asks_again_by_itself(
    client, token, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        location = upload(client, token, fleet_json())["Location"]
    with django_capture_on_commit_callbacks() as queued:
        waiting = client.get(f"{location}archive?format=sql")
    assert waiting.status_code == 409
    assert waiting["Refresh"] == waiting["Retry-After"] == "5"
    assert "The archive is being built" in waiting.content.decode()
    assert len(queued) == 1
    queued[0]()
    assert archive_zip(client.get(f"{location}archive?format=sql")).namelist() == [
        "db0.sql",
        "db1.sql",
        "summary.csv",
    ]


def test_a_running_batch_polls_its_progress_partial(client, token):
    with mock.patch("advisor.fleet.tasks.batch_start.delay"):
        location = upload(client, token, fleet_json())["Location"]
    html = client.get(location).content.decode()
    assert 'hx-trigger="every 2s"' in html
    assert f'hx-get="{location}"' in html
    partial = client.get(location, HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<div id="batch-progress"')
    assert "<html" not in partial


def test_a_bad_token_or_file_shows_the_form_again_with_the_errors(client, token):
    response = upload(client, "wrong", fleet_json())
    assert response.status_code == 400
    assert "is not a valid API token" in response.content.decode()
    response = upload(client, token, b'{"profiles": [{"name": "a b", "profile": {}}]}')
    assert response.status_code == 400
    assert "profiles.0.name" in response.content.decode()
    assert not Batch.objects.exists()


def test_broker_down_shows_503_and_stores_nothing(client, token):
    down = OperationalError("connection refused")
    with (
        mock.patch("advisor.fleet.tasks.batch_start.delay", side_effect=down),
        mock.patch("advisor.fleet.services.transaction.on_commit", side_effect=lambda f: f()),
    ):
        response = upload(client, token, fleet_json())
    assert response.status_code == 503
    assert "broker is unavailable" in response.content.decode()
    assert not Batch.objects.exists()


def test_another_browser_cannot_see_the_batch(client, token, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        location = upload(client, token, fleet_json())["Location"]
    client.logout()
    client.cookies.clear()
    assert client.get(location).status_code == 404
    assert client.get(f"{location}archive").status_code == 404


def test_the_pages_hold_no_inline_script_or_style(client, token):
    with mock.patch("advisor.fleet.tasks.batch_start.delay"):
        location = upload(client, token, fleet_json())["Location"]
    for html in (client.get("/batches/").content.decode(), client.get(location).content.decode()):
        assert not re.search(r"<script(?![^>]*\bsrc=)", html)
        assert not re.search(r"\son[a-z]+=", html)
        assert " style=" not in html
        assert "<style" not in html


def test_the_archive_has_a_revert_my_cnf_for_each_host_that_gave_its_current_config(
    client, token, django_capture_on_commit_callbacks
):
    with_current = {**raw_profile(), "current": {"variables": {"innodb_io_capacity": "300"}}}
    body = json.dumps(
        {
            "profiles": [
                {"name": "db0", "profile": with_current},
                {"name": "db1", "profile": raw_profile()},
            ]
        }
    ).encode()
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(client, token, body)
    link = re.search(
        r'href="(/batches/[^"]+/archive)"', client.get(response["Location"]).content.decode()
    ).group(1)
    archive = archive_zip(client.get(link))
    assert archive.namelist() == ["db0.cnf", "revert/db0.cnf", "db1.cnf", "summary.csv"]
    twin = archive.read("revert/db0.cnf").decode()
    assert "innodb_io_capacity = 300\n" in twin
    assert "Revert of result" in twin
    summary = archive.read("summary.csv").decode().splitlines()
    assert summary[0].endswith(",revert_file")
    assert summary[1].endswith(",revert/db0.cnf")
    assert summary[2].endswith(",")
