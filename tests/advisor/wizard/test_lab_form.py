"""The result page takes the user's lab results (issue #43 item 4): a form posts the lab's JSON
lines to /r/<id>/lab/, which computes the result again with them as workload.lab_results and
sends the browser to its permalink, where the estimate says it is anchored; text that is not lab
results shows the page again with the problem named, 400."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from advisor.models import Recommendation
from advisor.recommendations.services import recommendation_create
from rules.inputs.lab_results import MAX_LAB_TEXT_BYTES
from rules.inputs.validation import parse_profile
from tests.rules.lab_runs import LAB_RUN, lab_profile

pytestmark = pytest.mark.django_db
FORM = 'id="lab-results"'


def stored(**overrides):
    return recommendation_create(profile=parse_profile(lab_profile(**overrides)))


def test_the_page_offers_the_form_and_the_posted_runs_anchor_a_new_result(client: Client) -> None:
    result = stored()
    page = client.get(result.permalink).content.decode()
    assert page.count(FORM) == 1
    form = page.split(FORM, 1)[1].split("</form>", 1)[0]
    assert 'name="lab_text"' in form
    assert "csrfmiddlewaretoken" in form
    response = client.post(f"{result.permalink}lab/", {"lab_text": LAB_RUN.read_text()})
    assert response.status_code == 302, response.content[:3000]
    permalink = response["Location"]
    assert permalink != result.permalink
    assert Recommendation.objects.count() == 2
    page = client.get(permalink).content.decode()
    assert "Anchored to 4 lab runs of 2 configurations on this host." in page
    assert "the model&#x27;s absolute figures do not describe it" in page
    row = Recommendation.objects.exclude(id=result.id).get()
    assert "mycnf" not in str(row.profile)
    assert "mycnf" not in str(row.result)


def test_an_uploaded_file_works_too_and_replaces_measured_throughput(client: Client) -> None:
    result = stored(**{"workload.measured_throughput": 300})
    upload = SimpleUploadedFile("lab.jsonl", LAB_RUN.read_bytes())
    response = client.post(f"{result.permalink}lab/", {"lab_file": upload})
    assert response.status_code == 302, response.content[:3000]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "Paste the lab"),
        ("not json", "line 1 is not one JSON record"),
        ('[{"configuration": {"password": "x"}, "throughput": 5}]', "password"),
        ('[{"configuration": {}, "throughput": 1e999}]', "throughput"),
        ("{}\n" * 65, "at most 64 runs"),
        ("x" * (MAX_LAB_TEXT_BYTES + 1), "larger than"),
    ],
)
def test_text_that_is_not_lab_results_shows_the_page_again_with_the_problem(
    client: Client, text: str, said: str
) -> None:
    result = stored()
    response = client.post(f"{result.permalink}lab/", {"lab_text": text})
    assert response.status_code == 400
    page = response.content.decode()
    assert "These lab results cannot be used" in page
    assert said in page
    assert Recommendation.objects.count() == 1
