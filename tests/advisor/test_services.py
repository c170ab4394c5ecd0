import pytest

from advisor.models import Recommendation
from advisor.recommendations.services import recommendation_create, recommendation_get
from tests.rules.profiles import profile

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
