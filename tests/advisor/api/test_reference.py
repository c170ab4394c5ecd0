"""The catalog, rules and sources endpoints publish exactly what the engine uses."""

from __future__ import annotations

import pytest

from rules.inputs.enums import Flavor
from rules.inputs.version import parse_version
from rules.reference.bibliography import all_sources
from rules.reference.catalog import catalog_for
from rules.registry import all_rules

pytestmark = pytest.mark.django_db


def test_the_catalog_lists_each_variable_with_its_range_and_default(get):
    response = get("/api/v1/catalog?flavor=mysql&version=8.0.36")
    assert response.status_code == 200
    body = response.json()
    catalog = catalog_for(Flavor.MYSQL, parse_version("8.0.36"))
    assert [v["name"] for v in body["variables"]] == list(catalog.names())
    capacity = next(v for v in body["variables"] if v["name"] == "innodb_io_capacity")
    spec = catalog.get("innodb_io_capacity")
    assert (capacity["minimum"], capacity["maximum"]) == (spec.minimum, spec.maximum)
    assert capacity["default"] == spec.default
    assert capacity["dynamic"] is True
    assert body["support"] == "supported"


def test_the_catalog_says_when_a_release_is_too_old_for_output(get):
    assert get("/api/v1/catalog?flavor=mysql&version=5.6").json()["support"] == "too_old"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("version=8.0", "flavor"),
        ("flavor=oracle&version=8.0", "flavor"),
        ("flavor=mysql", "version"),
    ],
)
def test_a_missing_or_unknown_parameter_is_a_400_naming_it(get, query, field):
    response = get(f"/api/v1/catalog?{query}")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [field]


def test_a_version_that_is_not_a_release_is_a_400(get):
    response = get("/api/v1/catalog?flavor=mariadb&version=latest")
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "version": ["must be a release such as 8.0.36, 8.4 or 10.11"]
    }


def test_every_rule_is_listed_with_its_setting_cases_and_sources(get):
    body = get("/api/v1/rules").json()
    assert [r["id"] for r in body] == [r.id for r in all_rules()]
    capacity = next(r for r in body if r["id"] == "io-capacity-from-array-iops")
    assert capacity["setting"] == "innodb_io_capacity"
    assert capacity["cases"][0]["explanation"]
    assert capacity["sources"]
    assert {r["scope"] for r in body} == {"mysqld", "os"}


def test_the_bibliography_is_every_source_with_its_citation(get):
    body = get("/api/v1/sources").json()
    assert [s["key"] for s in body] == [s.key for s in all_sources()]
    assert all(s["citation"] for s in body)
