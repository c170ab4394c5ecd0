import json
from pathlib import Path

import pytest

from advisor.models import Recommendation
from advisor.recommendations.services import (
    recommendation_compute,
    recommendation_create,
    recommendation_get,
    recommendation_store,
)
from rules.inputs.examples import profile
from rules.inputs.validation import parse_profile
from rules.render.jsonout import result_to_dict

pytestmark = pytest.mark.django_db


def test_a_created_recommendation_reads_back_equal_from_the_database() -> None:
    created = recommendation_create(profile=profile())
    assert recommendation_get(recommendation_id=created.id) == created


def test_identical_inputs_are_stored_once() -> None:
    first = recommendation_create(profile=profile())
    second = recommendation_create(profile=profile())
    assert first.id == second.id
    assert Recommendation.objects.filter(id=first.id).count() == 1


def test_a_stored_result_is_what_the_user_saw_even_if_rules_change() -> None:
    created = recommendation_create(profile=profile())
    stored = Recommendation.objects.get(id=created.id)
    stored.result["settings"][0]["reason"] = "what the user saw then"
    stored.save()
    assert recommendation_get(recommendation_id=created.id).settings[0].reason == (
        "what the user saw then"
    )


def test_an_unknown_id_raises_does_not_exist() -> None:
    with pytest.raises(Recommendation.DoesNotExist):
        recommendation_get(recommendation_id="0" * 20)


def test_storing_is_one_insert_that_reads_nothing_back(django_assert_num_queries) -> None:
    recommendation_create(profile=profile())  # stored already: the conflict is ignored
    with django_assert_num_queries(1) as captured:
        recommendation_create(profile=profile())
    (query,) = captured.captured_queries
    assert query["sql"].startswith("INSERT")
    assert "ON CONFLICT DO NOTHING" in query["sql"]


def test_a_stored_result_leaves_out_the_sources_and_writes_them_out_again() -> None:
    created = recommendation_create(profile=profile())
    stored = Recommendation.objects.get(id=created.id)
    assert "sources" not in stored.result  # half the row, derived from the bibliography
    again = result_to_dict(recommendation_get(recommendation_id=created.id))
    assert again["sources"] == result_to_dict(created)["sources"]
    assert {s["key"] for s in again["sources"]} == {
        e.source for s in created.settings for e in s.evidence
    } | {e.source for item in created.os for e in item.evidence}


def test_json_orjson_cannot_write_is_stored_by_the_standard_library() -> None:
    """An integer beyond 64 bits: orjson refuses it, the row is still stored, value intact."""
    huge = 2**70
    Recommendation.objects.create(
        id="f" * 20, profile={"n": huge}, result={"n": huge}, ruleset_version="test"
    )
    assert Recommendation.objects.get(id="f" * 20).profile == {"n": huge}


GOLDEN = sorted((Path(__file__).parents[1] / "golden" / "profiles").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_a_row_is_the_result_s_json_less_its_sources_however_it_is_stored(path) -> None:
    result = recommendation_compute(profile=parse_profile(json.loads(path.read_text())))
    expected = result_to_dict(result)  # what a row has always held: this, less `sources`
    del expected["sources"]
    recommendation_store(result=result)
    written = Recommendation.objects.get(id=result.id).result
    Recommendation.objects.filter(id=result.id).delete()
    shown = result_to_dict(result, base_url="https://advisor.example.com")
    recommendation_store(result=result, result_json=shown)
    from_shown = Recommendation.objects.get(id=result.id).result
    assert written == from_shown == expected
    assert "sources" in shown  # the answer itself keeps them
