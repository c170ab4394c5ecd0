"""POST /api/v1/recommendations and the stored recommendation's exports."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml

from advisor.api.examples import example_profile
from advisor.models import Recommendation
from advisor.recommendations.services import recommendation_compute
from rules.inputs.errors import ProfileError
from rules.inputs.examples import (
    eight_core_read_write_measured_at_one_client_a_core,
    raw_profile,
    two_core_read_write,
    two_core_read_write_measured_at_one_client_a_core,
)
from rules.inputs.validation import parse_profile
from rules.render import CONTENT_TYPES, render

pytestmark = pytest.mark.django_db
URL = "/api/v1/recommendations"
OLD_MYSQL = raw_profile(**{"server.version": "5.6.51"})


def test_it_stores_a_recommendation_and_answers_201_with_its_id_and_permalink(post_json):
    response = post_json(URL, raw_profile())
    assert response.status_code == 201
    body = response.json()
    assert Recommendation.objects.filter(id=body["id"]).exists()
    assert body["permalink"] == f"http://testserver/r/{body['id']}/"
    assert response["Location"] == f"{URL}/{body['id']}"
    assert {s["name"] for s in body["settings"]} >= {"innodb_io_capacity", "innodb_flush_method"}


def test_an_estimate_outside_the_data_says_why(post_json, get):
    """A provisioning tool reads why an estimate is outside (estimate.*.outside), as stored:
    2 cores are fewer than any published read_write machine had, measured or not; 8 measured
    at one client a core lie inside."""
    created = post_json(URL, two_core_read_write(**{"workload.concurrency": 2})).json()
    recommended = created["estimate"]["recommended"]
    assert recommended["in_domain"] is False
    assert any(
        line.startswith("CPU cores: 2, where published read_write results ran ")
        for line in recommended["outside"]
    )
    assert get(f"{URL}/{created['id']}").json()["estimate"] == created["estimate"]
    small = post_json(URL, two_core_read_write_measured_at_one_client_a_core()).json()
    assert small["estimate"]["recommended"]["in_domain"] is False
    measured = post_json(URL, eight_core_read_write_measured_at_one_client_a_core()).json()
    assert measured["estimate"]["recommended"]["in_domain"] is True
    assert measured["estimate"]["recommended"]["outside"] == []


def test_store_false_computes_without_storing(post_json):
    response = post_json(f"{URL}?store=false", raw_profile())
    assert response.status_code == 200
    assert response.json()["id"]
    assert not Recommendation.objects.exists()


def test_a_store_flag_that_is_not_a_boolean_is_refused_naming_it(post_json):
    response = post_json(f"{URL}?store=perhaps", raw_profile())
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["store"]


@pytest.mark.parametrize(
    ("fmt", "content_type", "suffix"),
    [
        ("mycnf", "text/plain; charset=utf-8", ".cnf"),
        ("sql", "application/sql; charset=utf-8", ".sql"),
        ("udev", "text/plain; charset=utf-8", ".rules"),
        ("sysctl", "text/plain; charset=utf-8", ".conf"),
        ("ansible", "application/yaml; charset=utf-8", ".yml"),
        ("ansible-tasks", "application/yaml; charset=utf-8", "-tasks.yml"),
        ("k8s-percona", "application/yaml; charset=utf-8", "-percona.yaml"),
        ("k8s-mysql-operator", "application/yaml; charset=utf-8", "-innodbcluster.yaml"),
        ("aurora-json", "application/json; charset=utf-8", "-aurora.json"),
        ("aurora-terraform", "text/plain; charset=utf-8", "-aurora.tf"),
    ],
)
def test_format_returns_the_export_itself_with_a_filename(post_json, fmt, content_type, suffix):
    response = post_json(f"{URL}?format={fmt}&store=false", raw_profile())
    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert response["Content-Disposition"].endswith(f'{suffix}"')
    profile = parse_profile(raw_profile())
    expected = render(recommendation_compute(profile=profile), fmt, base_url="http://testserver")
    assert response.content.decode() == expected


@pytest.mark.parametrize("fmt", ["k8s-mariadb-operator", "rds-json", "rds-terraform"])
def test_an_export_this_server_cannot_have_is_a_422_saying_why(post_json, get, fmt):
    created = post_json(URL, raw_profile())  # MySQL 8.0: no MariaDB Operator, no RDS list yet
    assert created.status_code == 201
    why = "runs MariaDB" if fmt.startswith("k8s") else "describe-engine-default-parameters"
    for response in (
        post_json(f"{URL}?format={fmt}&store=false", raw_profile()),
        get(f"{created['Location']}/{fmt}"),
        get(f"{created['Location']}?format={fmt}"),
    ):
        assert response.status_code == 422
        assert why in response.json()["message"]


@pytest.mark.parametrize("fmt", ["aurora-json", "aurora-terraform"])
def test_aurora_for_a_mariadb_server_is_a_422_saying_why(post_json, fmt):
    mariadb = raw_profile(**{"server.flavor": "mariadb", "server.version": "11.4"})
    response = post_json(f"{URL}?format={fmt}&store=false", mariadb)
    assert response.status_code == 422
    assert "Aurora MySQL runs MySQL, not MariaDB" in response.json()["message"]


@pytest.mark.parametrize("fmt", ["ansible", "ansible-tasks", "k8s-percona", "k8s-mysql-operator"])
def test_each_new_export_has_its_own_download_endpoint(post_json, get, fmt):
    created = post_json(URL, raw_profile())
    response = get(f"{created['Location']}/{fmt}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/yaml; charset=utf-8"
    assert response.content.decode() == get(f"{created['Location']}?format={fmt}").content.decode()


@pytest.mark.parametrize(
    ("accept", "starts"),
    [
        ("text/plain", "# What changes for you"),
        ("application/sql", "--"),
        ("application/json", "{"),
    ],
)
def test_the_accept_header_picks_the_export_too(post_json, accept, starts):
    response = post_json(f"{URL}?store=false", raw_profile(), HTTP_ACCEPT=accept)
    assert response.status_code == 200
    assert response.content.decode().startswith(starts)


def test_an_accept_header_we_cannot_meet_gets_json(post_json):
    response = post_json(f"{URL}?store=false", raw_profile(), HTTP_ACCEPT="image/png")
    assert response["Content-Type"] == "application/json"


def test_an_unknown_format_is_a_400_naming_the_format_field(post_json):
    response = post_json(f"{URL}?format=yaml", raw_profile())
    assert response.status_code == 400
    message = (
        "must be one of json, mycnf, sql, udev, sysctl, ansible, ansible-tasks, k8s-percona, "
        "k8s-mysql-operator, k8s-mariadb-operator, rds-json, rds-terraform, aurora-json, "
        "aurora-terraform"
    )
    assert response.json()["errors"] == {"format": [message]}


@pytest.mark.parametrize(
    "raw",
    [
        raw_profile(**{"hardware.ram_gb": 0}),
        raw_profile(**{"hardware.storage.raid_level": "raid5", "hardware.storage.device_count": 2}),
        raw_profile(**{"server.flavor": "oracle", "workload.kind": "batch"}),
        raw_profile(**{"hardware.storage.media": "nvme"}),  # rpm given for flash
        raw_profile(current={"variables": {"not a name!": 1}}),
        {"server": {"flavor": "mysql"}},
        [],
    ],
)
def test_profile_errors_are_exactly_the_validation_errors(post_json, raw):
    with pytest.raises(ProfileError) as expected:
        parse_profile(raw)
    response = post_json(URL, raw)
    assert response.status_code == 400
    body = response.json()
    assert body["errors"] == expected.value.errors
    assert "problem" in body["message"]


def test_json_describes_a_refused_output_and_the_exports_answer_422(post_json):
    response = post_json(URL, OLD_MYSQL)
    assert response.status_code == 201
    refused = response.json()["output_refused"]
    assert refused
    mycnf = post_json(f"{URL}?format=mycnf", OLD_MYSQL)
    assert mycnf.status_code == 422
    assert mycnf.json()["errors"] == {"server.version": [refused]}


def test_a_stored_recommendation_reads_back_in_every_format(post_json, get):
    created = post_json(URL, raw_profile()).json()
    again = get(f"{URL}/{created['id']}")
    assert again.status_code == 200
    assert again.json() == created
    for fmt, start in (("mycnf", "# What changes"), ("sql", "--"), ("udev", "#"), ("sysctl", "#")):
        export = get(f"{URL}/{created['id']}/{fmt}")
        assert export.status_code == 200, export.content
        assert export.content.decode().startswith(start)
        assert get(f"{URL}/{created['id']}?format={fmt}").content == export.content


def test_a_stored_old_version_refuses_mycnf_with_422(post_json, get):
    created = post_json(URL, OLD_MYSQL).json()
    response = get(f"{URL}/{created['id']}/mycnf")
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["server.version"]


@pytest.mark.parametrize("suffix", ["", "/mycnf", "/sql", "/udev", "/sysctl"])
def test_an_unknown_id_is_a_404_in_the_error_shape(get, suffix):
    response = get(f"{URL}/0123456789abcdef0123{suffix}")
    assert response.status_code == 404
    assert set(response.json()) == {"message", "errors"}


def test_a_body_that_is_not_json_is_a_400(client):
    response = client.post(URL, "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["message"].startswith("The request body is not valid JSON")


@pytest.mark.parametrize("body", ['{"hardware": {"ram_gb": NaN}}', "[" * 100_000 + "]" * 100_000])
def test_bodies_python_could_choke_on_are_400_not_500(client, body):
    assert client.post(URL, body, content_type="application/json").status_code == 400


def test_a_form_post_is_415_saying_what_to_send(client):
    response = client.post(URL, {"ram_gb": "8"})
    assert response.status_code == 415
    assert set(response.json()) == {"message", "errors"}


def test_a_body_over_the_limit_is_413_with_the_limit_in_the_message(client, settings):
    settings.API_MAX_BODY_BYTES = 1000
    body = json.dumps(raw_profile(current={"mycnf": "#" * 2000}))
    response = client.post(URL, body, content_type="application/json")
    assert response.status_code == 413
    assert "1000 bytes" in response.json()["message"]


def test_include_defaults_flows_through_the_api_into_the_my_cnf(post_json):
    plain = post_json(f"{URL}?format=mycnf&store=false", raw_profile())
    asked = post_json(
        f"{URL}?format=mycnf&store=false", {**raw_profile(), "options": {"include_defaults": True}}
    )
    assert plain.status_code == asked.status_code == 200
    assert "\ninnodb_flush_log_at_trx_commit = 1\n" not in plain.content.decode()
    assert "\ninnodb_flush_log_at_trx_commit = 1\n" in asked.content.decode()


def test_each_setting_says_whether_it_is_the_default_and_written(post_json):
    body = post_json(f"{URL}?store=false", raw_profile()).json()
    trx = next(s for s in body["settings"] if s["name"] == "innodb_flush_log_at_trx_commit")
    assert (trx["is_default"], trx["written"]) == (True, False)


YAML_FORMATS = [f for f, content_type in CONTENT_TYPES.items() if "yaml" in content_type]


def _yaml_schema(get, path: str, status: str) -> dict:
    operation = json.loads(get("/api/v1/schema?format=json").content)["paths"][path]
    post_or_get = operation.get("post") or operation["get"]
    return post_or_get["responses"][status]["content"]["application/yaml"]["schema"]


@pytest.mark.parametrize("fmt", YAML_FORMATS)
def test_a_yaml_export_is_the_document_the_schema_declares(post_json, get, fmt):
    """A client parses application/yaml; schemathesis found the ansible vars file declared as a
    string while it parses to an object."""
    profile = example_profile()  # what schemathesis sent
    if fmt == "k8s-mariadb-operator":
        profile = {**profile, "server": {"flavor": "mariadb", "version": "11.4"}}
    created = post_json(f"{URL}?format={fmt}", profile)
    assert created.status_code == 201, created.content
    document = yaml.safe_load(created.content)
    jsonschema.Draft4Validator(_yaml_schema(get, URL, "201")).validate(document)
    path = "/api/v1/recommendations/{recommendation_id}/" + fmt
    fetched = get(f"{created['Location']}/{fmt}")
    jsonschema.Draft4Validator(_yaml_schema(get, path, "200")).validate(
        yaml.safe_load(fetched.content)
    )
