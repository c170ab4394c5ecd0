"""Schemathesis beyond the schema's happy types: each body schemathesis generates for a POST
operation gets one hostile JSON literal planted at a random place (a value or a key): a
400-digit integer, a number beyond a double, a lone surrogate, NaN. JSON serialisers never write
these, so they are spliced into the text. The check: a 4xx in the one error shape, never a 5xx.
"""

from __future__ import annotations

import json
from typing import Any

import schemathesis
from django.test import Client
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from advisor.wsgi import application
from tests.advisor.api.test_schemathesis import (
    SCHEMA_URL,
    api_token,
    keep_test_connection,
    schemathesis_config,
)

__all__ = ["api_token", "keep_test_connection"]  # fixtures used by the test below

# `schema.given` cannot be combined with the schema's request examples; the main schemathesis
# test sends those, this one plants literals in generated bodies only.
schema = schemathesis.openapi.from_wsgi(
    SCHEMA_URL, application, config=schemathesis_config(examples={"enabled": False})
)

MAX_EXAMPLES = 60
MARK = "__hostile_literal__"
VALUES = ["9" * 400, "-" + "9" * 400, "1e309", "-1e309", "NaN", "-Infinity", '"\\ud800"']
KEYS = ['"\\udfff"', '"a\\ud800b"', '"\\u0000"']


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a decoded body: each value, and each object (for a new key)."""
    places = [path]
    if isinstance(node, dict):
        places += [p for key, child in node.items() for p in _places(child, (*path, key))]
    elif isinstance(node, list):
        places += [p for i, child in enumerate(node) for p in _places(child, (*path, i))]
    return places


def _planted(body: Any, place: tuple[Any, ...], literal: str, as_key: bool) -> str:
    """`body` as JSON text with `literal` at `place` (as a new key there when `as_key`)."""
    if not place:
        return literal if not as_key else "{" + literal + ": 1}"
    parent = body
    for step in place[:-1]:
        parent = parent[step]
    if as_key and isinstance(parent, dict):
        parent[MARK] = 1
        return json.dumps(body).replace(f'"{MARK}"', literal)
    parent[place[-1]] = MARK
    return json.dumps(body).replace(f'"{MARK}"', literal)


@schema.include(method="POST").parametrize()
@schema.given(data=st.data())
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_a_hostile_literal_anywhere_in_a_body_is_a_4xx_in_the_shape(
    case: Any, data: st.DataObject, api_token: str, keep_test_connection: None
) -> None:
    body = case.body if isinstance(case.body, dict | list) else {}
    as_key = data.draw(st.booleans())
    literal = data.draw(st.sampled_from(KEYS if as_key else VALUES))
    place = data.draw(st.sampled_from(_places(body)))
    text = _planted(json.loads(json.dumps(body)), place, literal, as_key)
    response = Client().post(
        case.formatted_path,
        text,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {api_token}",
    )
    assert response.status_code < 500, (text[:300], response.content[:300])
    if response.status_code >= 400:
        assert set(response.json()) == {"message", "errors"}
