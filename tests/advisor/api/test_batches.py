"""POST /api/v1/batches, its status and its archive (Celery eager here; tests/worker runs the
real worker)."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from unittest import mock

import pytest
from kombu.exceptions import OperationalError

from advisor.models import Batch, BatchItem
from rules.inputs.examples import raw_profile
from tests.advisor.archives import archive_zip, fetch_built

pytestmark = pytest.mark.django_db
URL = "/api/v1/batches"


def fleet(count: int = 3) -> dict:
    return {
        "profiles": [
            {"name": f"db{i}.example.com", "profile": raw_profile(**{"hardware.ram_gb": 8 + i})}
            for i in range(count)
        ]
    }


@pytest.fixture
def create(post_json, token, django_capture_on_commit_callbacks):
    """Create a batch as the token's user and run it (eagerly) once committed."""

    def run(body: dict, who: str | None = None):
        with django_capture_on_commit_callbacks(execute=True):
            return post_json(URL, body, token=who or token)

    return run


def path_of(url: str) -> str:
    return url.removeprefix("http://testserver")


def test_a_batch_needs_a_token(post_json):
    assert post_json(URL, fleet()).status_code == 401


def test_it_answers_202_with_the_batch_and_where_to_poll(create):
    response = create(fleet())
    assert response.status_code == 202
    body = response.json()
    assert body["total"] == 3
    assert response["Location"] == body["url"]
    assert body["url"].endswith(f"/api/v1/batches/{body['id']}")
    assert BatchItem.objects.filter(batch_id=body["id"]).count() == 3


def test_the_batch_is_recorded_before_it_is_queued(
    post_json, token, django_capture_on_commit_callbacks
):
    with mock.patch("advisor.fleet.tasks.batch_start.delay") as delay:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            response = post_json(URL, fleet(), token=token)
        assert response.status_code == 202
        assert not delay.called  # nothing is sent inside the transaction
        assert len(callbacks) == 1
        callbacks[0]()  # what the commit runs
    delay.assert_called_once_with(response.json()["id"])
    assert Batch.objects.get(id=response.json()["id"]).status == Batch.Status.QUEUED


def test_the_status_shows_progress_and_each_hosts_result_or_errors(create, get, token):
    body = fleet(2)
    body["profiles"][1]["profile"]["hardware"]["ram_gb"] = 0
    created = create(body).json()
    status = get(path_of(created["url"]), token=token).json()
    assert status["status"] == "done"
    assert status["progress"] == {"total": 2, "done": 1, "failed": 1, "pending": 0, "percent": 100}
    ok, bad = status["items"]["results"]
    assert ok["settings"]["innodb_buffer_pool_size"]
    assert ok["mycnf_url"].endswith(f"/api/v1/recommendations/{ok['recommendation_id']}/mycnf")
    assert ok["errors"] is None
    assert bad["status"] == "failed"
    assert list(bad["errors"]) == ["hardware.ram_gb"]
    assert bad["recommendation_id"] is None


def test_items_are_paginated_and_filterable(create, get, token):
    created = create(fleet(5)).json()
    first = get(f"{path_of(created['url'])}?page_size=2", token=token).json()["items"]
    assert [i["position"] for i in first["results"]] == [0, 1]
    assert first["count"] == 5
    assert first["previous"] is None
    second = get(path_of(first["next"]), token=token).json()["items"]
    assert [i["position"] for i in second["results"]] == [2, 3]
    assert (
        get(f"{path_of(created['url'])}?status=failed", token=token).json()["items"]["count"] == 0
    )
    bad = get(f"{path_of(created['url'])}?page_size=100000", token=token)
    assert bad.status_code == 400
    assert list(bad.json()["errors"]) == ["page_size"]


def test_a_token_sees_only_its_own_batches(create, get, other_token):
    created = create(fleet()).json()
    assert get(path_of(created["url"]), token=other_token).status_code == 404
    assert get(path_of(created["archive_url"]), token=other_token).status_code == 404


@pytest.mark.parametrize(
    ("body", "paths"),
    [
        ({"profiles": []}, ["profiles"]),
        ({"hosts": []}, ["hosts"]),
        ([], [""]),
        ({"profiles": [{"name": "a b", "profile": {}}]}, ["profiles.0.name"]),
        ({"profiles": [{"name": "db1", "profile": []}]}, ["profiles.0.profile"]),
        ({"profiles": [{"name": "db1", "profile": {}, "x": 1}]}, ["profiles.0.x"]),
        (
            {"profiles": [{"name": "db1", "profile": {}}, {"name": "db1", "profile": {}}]},
            ["profiles.1.name"],
        ),
        (  # db1.cnf and DB1.cnf overwrite each other when unpacked on macOS or Windows
            {"profiles": [{"name": "db1", "profile": {}}, {"name": "DB1", "profile": {}}]},
            ["profiles.1.name"],
        ),
        ({"profiles": [{"name": "con", "profile": {}}]}, ["profiles.0.name"]),
        ({"profiles": [{"name": "LPT1.example", "profile": {}}]}, ["profiles.0.name"]),
    ],
)
def test_a_malformed_batch_is_refused_whole_naming_each_problem(post_json, token, body, paths):
    response = post_json(URL, body, token=token)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == paths
    assert not Batch.objects.exists()


def test_more_than_10000_profiles_is_413_saying_to_split(post_json, token):
    body = {"profiles": [{"name": f"h{i}", "profile": {}} for i in range(10_001)]}
    response = post_json(URL, body, token=token)
    assert response.status_code == 413
    assert "at most 10,000 profiles" in response.json()["message"]
    assert not Batch.objects.exists()


def test_a_body_over_10_mib_is_413_before_it_is_read(client, token):
    body = json.dumps({"profiles": [{"name": "h", "profile": {"x": "y" * (10 * 1024 * 1024)}}]})
    response = client.post(
        URL, body, content_type="application/json", HTTP_AUTHORIZATION=f"Token {token}"
    )
    assert response.status_code == 413
    assert "10 MiB" in response.json()["message"]


def test_the_archive_waits_for_the_batch_with_409(post_json, get, token):
    with mock.patch("advisor.fleet.tasks.batch_start.delay"):
        created = post_json(URL, fleet(), token=token).json()
    response = get(path_of(created["archive_url"]), token=token)
    assert response.status_code == 409
    assert "not finished" in response.json()["message"]
    assert response["Retry-After"] == "5"


def test_the_archive_has_one_mycnf_per_host_and_a_summary(create, get, token):
    body = fleet(2)
    body["profiles"].append({"name": "old", "profile": raw_profile(**{"server.version": "5.6"})})
    body["profiles"].append({"name": "broken", "profile": {"server": {}}})
    created = create(body).json()
    response = get(path_of(created["archive_url"]), token=token)
    assert response["Content-Type"] == "application/zip"
    archive = archive_zip(response)
    names = archive.namelist()
    assert names == ["db0.example.com.cnf", "db1.example.com.cnf", "summary.csv"]
    assert "\n# InnoDB IO Advisor" in archive.read("db0.example.com.cnf").decode()  # after the lead
    rows = list(csv.DictReader(io.StringIO(archive.read("summary.csv").decode())))
    assert [r["name"] for r in rows] == ["db0.example.com", "db1.example.com", "old", "broken"]
    assert rows[0]["mycnf_file"] == "db0.example.com.cnf"
    assert "innodb_io_capacity=" in rows[0]["settings"]
    assert rows[2]["output_refused"]
    assert not rows[2]["mycnf_file"]
    assert rows[3]["status"] == "failed"
    assert "hardware: is required" in rows[3]["errors"]


def test_the_archive_holds_the_export_the_format_asks_for(
    create, get, token, django_capture_on_commit_callbacks
):
    body = fleet(2)
    body["profiles"].append(
        {
            "name": "maria",
            "profile": raw_profile(**{"server.flavor": "mariadb", "server.version": "11.4"}),
        }
    )
    created = create(body).json()
    url = path_of(created["archive_url"]) + "?format=k8s-percona"
    archive = archive_zip(
        fetch_built(lambda: get(url, token=token), django_capture_on_commit_callbacks)
    )
    names = archive.namelist()
    assert names == ["db0.example.com-percona.yaml", "db1.example.com-percona.yaml", "summary.csv"]
    text = archive.read("db0.example.com-percona.yaml").decode()
    assert "configuration: |" in text
    rows = list(csv.DictReader(io.StringIO(archive.read("summary.csv").decode())))
    assert "mycnf_file" not in rows[0]
    assert rows[0]["k8s-percona_file"] == "db0.example.com-percona.yaml"
    assert "runs Percona Server for MySQL" in rows[2]["output_refused"]  # a MariaDB host


def test_the_archive_holds_aurora_parameter_groups_and_refuses_them_for_mariadb(
    create, get, token, django_capture_on_commit_callbacks
):
    body = fleet(1)
    body["profiles"].append(
        {
            "name": "maria",
            "profile": raw_profile(**{"server.flavor": "mariadb", "server.version": "10.11"}),
        }
    )
    created = create(body).json()
    url = path_of(created["archive_url"]) + "?format=aurora-json"
    archive = archive_zip(
        fetch_built(lambda: get(url, token=token), django_capture_on_commit_callbacks)
    )
    assert archive.namelist() == ["db0.example.com-aurora.json", "summary.csv"]
    document = json.loads(archive.read("db0.example.com-aurora.json"))
    assert document["DBParameterGroupFamily"] == "aurora-mysql8.0"
    noted = {n["ParameterName"] for n in document["NotSetOnAurora"]}
    assert "innodb_flush_method" in noted
    rows = list(csv.DictReader(io.StringIO(archive.read("summary.csv").decode())))
    assert rows[0]["aurora-json_file"] == "db0.example.com-aurora.json"
    assert "not MariaDB" in rows[1]["output_refused"]


def test_the_archive_is_sent_whole_with_a_content_length_equal_to_its_body(create, get, token):
    """Issue 6: the zip was written while it was sent, with no length; a worker killed at the
    web server's timeout left the client a 200 and a truncated zip it could not tell apart."""
    created = create(fleet(3)).json()
    response = get(path_of(created["archive_url"]), token=token)
    assert response.status_code == 200
    body = b"".join(response.streaming_content)
    assert int(response["Content-Length"]) == len(body)
    archive = zipfile.ZipFile(io.BytesIO(body))
    assert archive.testzip() is None
    assert len(archive.namelist()) == 4


def test_an_archive_not_yet_built_answers_409_with_retry_after_until_its_build_ran(
    create, get, token, django_capture_on_commit_callbacks
):
    created = create(fleet(2)).json()
    url = path_of(created["archive_url"]) + "?format=json"
    with django_capture_on_commit_callbacks() as queued:
        first = get(url, token=token)
    assert first.status_code == 409  # an error: `curl -f -o fleet.zip` must not save it
    assert first["Retry-After"] == "5"
    assert first.json()["message"] == (
        "The json archive of this batch (2 hosts) is being built; ask again in 5 s (Retry-After)."
    )
    assert len(queued) == 1  # its build, queued once the request's work is committed
    assert get(url, token=token).status_code == 409  # not built until the build runs
    queued[0]()  # the build (tasks run in-process here)
    archive = archive_zip(get(url, token=token))
    assert archive.namelist() == ["db0.example.com.json", "db1.example.com.json", "summary.csv"]


@pytest.mark.django_db(transaction=True)
def test_broker_down_when_an_archive_is_asked_for_is_503_and_asks_again_next_time(
    post_json, get, token
):
    created = post_json(URL, fleet(1), token=token).json()  # no broker set: runs in-process
    url = path_of(created["archive_url"]) + "?format=sql"
    refused = OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")
    with mock.patch("advisor.fleet.tasks.batch_archive_build.delay", side_effect=refused):
        response = get(url, token=token)
    assert response.status_code == 503
    assert "cannot be built now" in response.json()["message"]
    assert response["Retry-After"]
    assert archive_zip(get(url, token=token)).namelist() == ["db0.example.com.sql", "summary.csv"]


def test_an_unknown_archive_format_is_a_400_naming_the_field(create, get, token):
    created = create(fleet(1)).json()
    response = get(path_of(created["archive_url"]) + "?format=xlsx", token=token)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["format"]


@pytest.mark.django_db(transaction=True)
def test_broker_down_refuses_the_batch_whole_with_503_and_keeps_nothing(post_json, token):
    refused = OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")
    with mock.patch("advisor.fleet.tasks.batch_start.delay", side_effect=refused):
        response = post_json(URL, fleet(), token=token)
    assert response.status_code == 503
    assert "refused whole" in response.json()["message"]
    assert response["Retry-After"]
    assert not Batch.objects.exists()
    assert not BatchItem.objects.exists()


@pytest.mark.parametrize("text", ["nul\u0000", "half\ud800"])
def test_text_postgresql_cannot_store_is_a_400_naming_where(post_json, token, text):
    body = {"profiles": [{"name": "db1", "profile": {"server": {"version": text}}}]}
    response = post_json(URL, body, token=token)
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "profiles.0.profile.server.version": [
            "must not contain NUL characters or unpaired surrogates"
        ]
    }
    assert not Batch.objects.exists()


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t=", "\r=", "\n="])
def test_no_summary_cell_starts_a_formula(create, get, token, start):
    """A client's own key comes back in the errors cell; a spreadsheet must not run it."""
    profile = {**raw_profile(), f"{start}HYPERLINK(1)": 1}
    created = create({"profiles": [{"name": "db1", "profile": profile}]}).json()
    archive = archive_zip(get(path_of(created["archive_url"]), token=token))
    (row,) = csv.DictReader(io.StringIO(archive.read("summary.csv").decode()))
    assert row["errors"].startswith("'" + start)
