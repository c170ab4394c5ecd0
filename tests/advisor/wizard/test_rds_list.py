"""The result page takes the user's RDS parameter list (issue #45, item 4): where the RDS
exports are refused for want of it, a plain form posts the command's output to /r/<id>/rds/,
which stores the result again with the list kept and sends the browser to its permalink; a list
that is not the command's output shows the page again with the problem named, 400."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from advisor.models import Recommendation
from advisor.recommendations.services import recommendation_compute, recommendation_create
from advisor.recommendations.wizard.rds_list import MAX_LIST_BYTES
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.render.jsonout import result_to_dict
from tests.rules.rds_lists import NOT_LISTED, NOT_MODIFIABLE, engine_defaults
from tests.rules.render.fixtures import refused_result

pytestmark = pytest.mark.django_db
FORM = 'id="rds-list"'
MARIADB = {"server.flavor": "mariadb", "server.version": "10.11.6"}


def stored(**overrides: Any):
    return recommendation_create(profile=parse_profile(raw_profile(**overrides)))


def rds_url(result) -> str:
    return f"{result.permalink}rds/"


def test_a_result_without_a_list_offers_the_form_under_its_rds_files(client: Client) -> None:
    result = stored()
    page = client.get(result.permalink).content.decode()
    assert page.count(FORM) == 1
    form = page.split(FORM, 1)[1].split("</form>", 1)[0]
    assert 'name="rds_file"' in form
    assert 'name="rds_text"' in form
    assert "csrfmiddlewaretoken" in form
    assert "on the result page the form under its RDS files" in page
    for fmt in ("rds-json", "rds-terraform"):
        refused = client.get(f"{result.permalink}download/{fmt}")
        assert refused.status_code == 409
        assert f'href="{result.permalink}#rds-list"' in refused.content.decode()


def test_the_posted_list_gives_a_new_result_whose_rds_files_are_written(client: Client) -> None:
    result = stored()
    text = json.dumps(engine_defaults(result))
    response = client.post(rds_url(result), {"rds_text": text})
    assert response.status_code == 302, response.content[:3000]
    permalink = response["Location"]
    assert permalink != result.permalink
    assert Recommendation.objects.count() == 2
    page = client.get(permalink).content.decode()
    assert FORM not in page  # the list is kept: nothing left to ask for
    for fmt in ("rds-json", "rds-terraform"):
        assert f'href="{permalink}download/{fmt}"' in page
        assert client.get(f"{permalink}download/{fmt}").status_code == 200
    document = json.loads(client.get(f"{permalink}download/rds-json").content)
    listed = engine_defaults(result)["EngineDefaults"]["Parameters"]
    modifiable = {p["ParameterName"] for p in listed if p["IsModifiable"]}
    requests = document["ModifyDBParameterGroup"]
    written = {p["ParameterName"] for r in requests for p in r["Parameters"]}
    assert written
    assert written <= modifiable
    assert {m["ParameterName"] for m in document["ManagedByRds"]} == {NOT_MODIFIABLE, NOT_LISTED}
    # the same result the API computes from the profile and the list; the same list again lands
    # on it
    api = recommendation_compute(
        profile=parse_profile(raw_profile()), rds_parameters=engine_defaults(result)
    )
    assert permalink == api.permalink
    assert client.post(rds_url(result), {"rds_text": text})["Location"] == permalink


def test_an_uploaded_file_works_as_the_pasted_text(client: Client) -> None:
    result = stored()
    upload = SimpleUploadedFile("params.json", json.dumps(engine_defaults(result)).encode())
    response = client.post(rds_url(result), {"rds_file": upload, "rds_text": ""})
    assert response.status_code == 302, response.content[:3000]
    assert client.get(f"{response['Location']}download/rds-json").status_code == 200


@pytest.mark.parametrize(
    ("posted", "named"),
    [
        ("", "Paste the command's JSON"),
        ("{not json", "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
        ('"params.json"', "must be the JSON that aws rds describe-engine-default-parameters"),
        ('{"EngineDefaults": null}', "rds_parameters.EngineDefaults: is required"),
        (
            '{"EngineDefaults": {"DBParameterGroupFamily": "mysql8.0", "Parameters": [{"a": 1}]}}',
            "rds_parameters.EngineDefaults.Parameters[0].ParameterName",
        ),
        ('{"a": "\\u0000"}', "must not contain NUL characters"),
        (" " * (MAX_LIST_BYTES + 1), "larger than 1024 KiB"),
    ],
)
def test_a_list_that_is_not_the_commands_output_is_named_on_the_page(
    client: Client, posted: str, named: str
) -> None:
    result = stored()
    response = client.post(rds_url(result), {"rds_text": posted})
    assert response.status_code == 400
    page = response.content.decode()
    problems = page.split('id="rds-list-error"', 1)[1].split("</ul>", 1)[0]
    assert named.replace("'", "&#x27;") in problems
    assert Recommendation.objects.count() == 1


def test_a_list_of_another_family_names_the_family_to_ask_for(client: Client) -> None:
    result = stored(**MARIADB)
    page = client.get(result.permalink).content.decode()
    assert page.count(FORM) == 1  # MariaDB runs on RDS too: its family wants a list as well
    mysql_list = json.dumps(engine_defaults(result, family="mysql8.0"))
    response = client.post(rds_url(result), {"rds_text": mysql_list})
    assert response.status_code == 400
    assert "--db-parameter-group-family mariadb10.11" in response.content.decode()
    good = json.dumps(engine_defaults(result, family="mariadb10.11"))
    assert client.post(rds_url(result), {"rds_text": good}).status_code == 302


def test_a_large_upload_is_refused_before_it_is_read(client: Client) -> None:
    result = stored()
    upload = SimpleUploadedFile("params.json", b" " * (MAX_LIST_BYTES + 1))
    response = client.post(rds_url(result), {"rds_file": upload})
    assert response.status_code == 400
    assert "The uploaded file is larger than" in response.content.decode()


def test_the_form_is_csrf_protected_and_post_only(client: Client) -> None:
    result = stored()
    assert client.get(rds_url(result)).status_code == 405
    guarded = Client(enforce_csrf_checks=True)
    response = guarded.post(rds_url(result), {"rds_text": json.dumps(engine_defaults(result))})
    assert response.status_code == 403
    assert client.post("/r/0000000000000000/rds/", {"rds_text": "{}"}).status_code == 404


def test_posting_a_list_counts_against_the_page_rate(settings) -> None:
    result = stored()
    settings.PAGE_RATE = "2/minute"
    client = Client(REMOTE_ADDR="192.0.2.45")
    text = json.dumps(engine_defaults(result))
    assert [client.post(rds_url(result), {"rds_text": text}).status_code for _ in range(2)] == [
        302,
        302,
    ]
    refused = client.post(rds_url(result), {"rds_text": text})
    assert refused.status_code == 429
    assert "Retry-After" in refused


def test_no_form_where_a_list_would_not_lift_the_refusal(client: Client) -> None:
    """A server too old for any export: its RDS files are refused for its version, not a list."""
    result = refused_result()
    Recommendation.objects.create(
        id=result.id,
        profile=result.profile.raw,
        result=result_to_dict(result),
        ruleset_version=result.ruleset_version,
        calibration_version="",
    )
    page = client.get(result.permalink).content.decode()
    assert "Not written for this server" in page
    assert FORM not in page
