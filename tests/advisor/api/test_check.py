"""POST /api/v1/check: what the advisor would change, the unsafe values, and `passed`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.check import check, report_to_dict
from rules.engine import recommend
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile

pytestmark = pytest.mark.django_db
URL = "/api/v1/check"
SHAPE = {"message", "errors"}
NO_CACHE = raw_profile(**{"hardware.storage.controller_cache": "none"})


def _with(current: dict[str, Any], base: dict[str, Any] = NO_CACHE) -> dict[str, Any]:
    return {**base, "current": current}


def test_an_unsafe_value_fails_the_check_naming_the_variable(post_json):
    body = _with({"mycnf": "[mysqld]\ninnodb_flush_method = O_DIRECT_NO_FSYNC\n"})
    response = post_json(URL, body)
    assert response.status_code == 200
    data = response.json()
    assert data["passed"] is False
    assert [u["variable"] for u in data["unsafe"]] == ["innodb_flush_method"]
    assert data["unsafe"][0]["current"] == "O_DIRECT_NO_FSYNC"
    flush = next(c for c in data["changes"] if c["name"] == "innodb_flush_method")
    assert flush == {**flush, "value": "O_DIRECT", "when": "restart", "change": "change"}


def test_a_safe_configuration_passes_with_the_same_report_as_the_rules(post_json):
    body = _with({"show_variables": "innodb_io_capacity\t200\ninnodb_flush_method\tO_DIRECT\n"})
    response = post_json(URL, body)
    assert response.status_code == 200
    assert response.json()["passed"] is True
    profile = parse_profile(body)
    expected = report_to_dict(check(profile, recommend(profile)))
    assert response.json() == expected | {"recommendation_id": response.json()["recommendation_id"]}
    assert {c["name"] for c in response.json()["changes"]} >= {"innodb_io_capacity"}


def test_without_the_current_configuration_it_is_a_400_naming_current(post_json):
    response = post_json(URL, raw_profile())
    assert response.status_code == 400
    assert set(response.json()) == SHAPE
    assert list(response.json()["errors"]) == ["current"]


def test_a_bad_profile_is_a_400_naming_its_fields(post_json):
    response = post_json(
        URL, _with({"mycnf": "[mysqld]\n"}, raw_profile(**{"hardware.ram_gb": -1}))
    )
    assert response.status_code == 400
    assert "hardware.ram_gb" in response.json()["errors"]


def test_the_check_is_throttled_like_the_other_posts(post_json, settings):
    settings.API_RATE_ANON = "2/minute"
    body = _with({"mycnf": "[mysqld]\ninnodb_io_capacity = 200\n"})
    assert [post_json(URL, body).status_code for _ in range(2)] == [200, 200]
    throttled = post_json(URL, body)
    assert throttled.status_code == 429
    assert set(throttled.json()) == SHAPE
    assert 1 <= int(throttled["Retry-After"]) <= 60


# Pasted text of any kind: what a CI job might send by mistake, or on purpose.
CONFIG_TEXT = st.one_of(
    st.text(max_size=2000),
    st.lists(
        st.tuples(
            st.sampled_from(
                [
                    "innodb_flush_method",
                    "innodb_doublewrite",
                    "sync_binlog",
                    "log_bin",
                    "innodb_buffer_pool_size",
                    "innodb_redo_log_capacity",
                    "innodb_flush_log_at_trx_commit",
                    "x" * 70,
                    "query_cache_type",
                ]
            ),
            st.text(max_size=40),
        ),
        max_size=8,
    ).map(lambda pairs: "[mysqld]\n" + "".join(f"{k} = {v}\n" for k, v in pairs)),
)


@given(form=st.sampled_from(["mycnf", "show_variables"]), text=CONFIG_TEXT)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_any_pasted_text_is_a_report_or_a_400_never_a_5xx(form: str, text: str) -> None:
    cache.clear()  # the throttle's counter
    client = Client()
    body = json.dumps(_with({form: text}))
    response = client.post(URL, body, content_type="application/json")
    assert response.status_code in (200, 400), response.content[:500]
    data = response.json()
    if response.status_code == 200:
        assert isinstance(data["passed"], bool)
        assert data["passed"] is (data["unsafe"] == [])
    else:
        assert set(data) == SHAPE
        assert all(path.startswith("current") for path in data["errors"]), data["errors"]
