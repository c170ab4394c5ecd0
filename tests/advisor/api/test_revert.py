"""`?revert=true`: the revert twin of every export of the API, and its refusal."""

from __future__ import annotations

import pytest

from advisor.recommendations.services import recommendation_get
from rules.inputs.examples import raw_profile
from rules.render import FORMATS, render_revert, revert_filename_for

pytestmark = pytest.mark.django_db
URL = "/api/v1/recommendations"
WITH_CURRENT = {
    **raw_profile(),
    "current": {"variables": {"innodb_io_capacity": "200", "innodb_flush_method": "fsync"}},
}


def test_every_stored_export_has_a_revert_twin_equal_to_the_renderers(post_json, get):
    created = post_json(URL, WITH_CURRENT).json()
    result = recommendation_get(recommendation_id=created["id"])
    for fmt in FORMATS:
        if fmt in ("json", "k8s-mariadb-operator", "rds-json", "rds-terraform"):
            # a MySQL 8.0 result: refused whichever way (tests/rules/output/test_revert.py)
            continue
        twin = get(f"{URL}/{created['id']}/{fmt}?revert=true")
        assert twin.status_code == 200, twin.content
        assert twin.content.decode() == render_revert(result, fmt, base_url="http://testserver")
        assert revert_filename_for(result, fmt) in twin["Content-Disposition"]
        forward = get(f"{URL}/{created['id']}/{fmt}")
        assert forward.content != twin.content


def test_the_revert_json_sets_the_current_values_back(post_json, get):
    created = post_json(URL, WITH_CURRENT).json()
    twin = get(f"{URL}/{created['id']}?revert=1").json()
    values = {s["name"]: s["value"] for s in twin["settings"]}
    assert values["innodb_io_capacity"] == "200"
    assert values["innodb_flush_method"] == "fsync"
    assert twin["warnings"][0].startswith(f"Revert of result {created['id']}")
    mycnf = post_json(f"{URL}?format=mycnf&revert=true", WITH_CURRENT)
    assert mycnf.status_code == 201
    assert "innodb_io_capacity = 200\n" in mycnf.content.decode()


def test_a_revert_without_the_current_configuration_is_a_422_naming_revert(post_json, get):
    created = post_json(URL, raw_profile()).json()
    for url in (f"{URL}/{created['id']}?revert=true", f"{URL}/{created['id']}/sql?revert=true"):
        response = get(url)
        assert response.status_code == 422
        assert list(response.json()["errors"]) == ["revert"]


def test_a_revert_flag_that_is_not_a_boolean_is_a_400_without_echoing_it_whole(post_json):
    response = post_json(f"{URL}?revert={'x' * 5000}", WITH_CURRENT)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["revert"]
    assert "x" * 41 not in response.content.decode()
