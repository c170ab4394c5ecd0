"""POST /api/v1/recommendations with the user's RDS parameter list beside the profile
(`rds_parameters`): the RDS exports set only what the list lets a user change, the list is kept
with the stored result so its RDS export can be fetched later, and a list that is not the
command's output is a 400 naming the field."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.recommendations.services import recommendation_compute
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from tests.rules.rds_lists import NOT_LISTED, NOT_MODIFIABLE, engine_defaults

pytestmark = pytest.mark.django_db
URL = "/api/v1/recommendations"


def with_list(**overrides: Any) -> dict[str, Any]:
    profile = raw_profile(**overrides)
    result = recommendation_compute(profile=parse_profile(profile))
    return {**profile, "rds_parameters": engine_defaults(result)}


def written(document: dict[str, Any]) -> list[dict[str, str]]:
    return [p for r in document["ModifyDBParameterGroup"] for p in r["Parameters"]]


def test_the_rds_export_sets_only_what_the_list_lets_a_user_change(post_json) -> None:
    body = with_list()
    response = post_json(f"{URL}?format=rds-json&store=false", body)
    assert response.status_code == 200, response.content
    document = json.loads(response.content)
    listed = body["rds_parameters"]["EngineDefaults"]["Parameters"]
    modifiable = {p["ParameterName"] for p in listed if p["IsModifiable"]}
    names = {p["ParameterName"] for p in written(document)}
    assert names
    assert names <= modifiable
    assert {m["ParameterName"] for m in document["ManagedByRds"]} == {NOT_MODIFIABLE, NOT_LISTED}


def test_a_stored_result_keeps_its_list_for_a_later_rds_export(post_json, get) -> None:
    body = with_list()
    created = post_json(URL, body)
    assert created.status_code == 201, created.content
    rid = created.json()["id"]
    plain = post_json(URL, raw_profile()).json()["id"]
    assert rid != plain  # the same profile without the list is another result
    asked = post_json(f"{URL}?format=rds-json&store=false", body).content.decode()
    for fmt in ("rds-json", "rds-terraform"):
        later = get(f"{URL}/{rid}/{fmt}")
        assert later.status_code == 200, later.content
        if fmt == "rds-json":
            assert later.content.decode() == asked
        refused = get(f"{URL}/{plain}/{fmt}")
        assert refused.status_code == 422
        assert "describe-engine-default-parameters" in refused.json()["message"]
        assert list(refused.json()["errors"]) == ["rds_parameters"]


@pytest.mark.parametrize(
    "hostile",
    [
        "params.json",
        [],
        {"EngineDefaults": None},
        {"EngineDefaults": {"DBParameterGroupFamily": "mariadb10.11", "Parameters": []}},
        {"EngineDefaults": {"DBParameterGroupFamily": "mysql8.0", "Parameters": [{"a": 1}]}},
    ],
)
def test_a_list_that_is_not_the_commands_output_is_a_400_naming_the_field(
    post_json, hostile: Any
) -> None:
    response = post_json(f"{URL}?format=rds-json", {**raw_profile(), "rds_parameters": hostile})
    assert response.status_code == 400, response.content
    assert response.json()["errors"]
    assert all(key.startswith("rds_parameters") for key in response.json()["errors"])


def test_a_list_of_another_family_is_a_400_naming_the_family_to_ask_for(post_json) -> None:
    body = {**with_list(), **raw_profile(**{"server.flavor": "mariadb", "server.version": "10.11"})}
    response = post_json(f"{URL}?store=false", body)
    assert response.status_code == 400
    (message,) = response.json()["errors"]["rds_parameters.EngineDefaults.DBParameterGroupFamily"]
    assert "--db-parameter-group-family mariadb10.11" in message


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=12,
)
ROW = st.fixed_dictionaries(
    {},
    optional={
        "ParameterName": st.sampled_from(["innodb_io_capacity", "", "x y"]) | JSON,
        "IsModifiable": st.booleans() | JSON,
        "ApplyType": st.sampled_from(["static", "dynamic"]) | JSON,
        "AllowedValues": JSON,
    },
)
LISTS = st.builds(
    lambda rows: {"EngineDefaults": {"DBParameterGroupFamily": "mysql8.0", "Parameters": rows}},
    st.lists(ROW | JSON, min_size=1, max_size=4),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(hostile=LISTS | JSON.filter(lambda v: v is not None))
def test_any_list_answers_a_result_or_a_400_never_a_500(post_json, hostile: Any) -> None:
    body = {**raw_profile(), "rds_parameters": hostile}
    response = post_json(f"{URL}?format=rds-json&store=false", body)
    assert response.status_code in (200, 400), response.content
    if response.status_code == 400:
        assert all(key.startswith("rds_parameters") for key in response.json()["errors"])
