"""Swagger's "Try it out" sends each operation's example body: every one must succeed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from advisor.api.examples import example_profile

pytestmark = pytest.mark.django_db
CONTRACT = Path(__file__).resolve().parents[3] / "docs" / "product.md"


def _schema(get) -> dict:
    response = get("/api/v1/schema?format=json")
    assert response.status_code == 200
    return json.loads(response.content)


def test_every_request_body_in_the_schema_carries_an_example_that_succeeds(get, post_json, token):
    tried = []
    for path, operations in _schema(get)["paths"].items():
        for method, operation in operations.items():
            if "requestBody" not in operation:
                continue
            assert method == "post", (path, method)
            example = operation["requestBody"]["content"]["application/json"]["example"]
            response = post_json(path, example, token=token)
            assert 200 <= response.status_code < 300, (path, response.content[:500])
            tried.append(path)
    assert sorted(tried) == [
        "/api/v1/batches",
        "/api/v1/check",
        "/api/v1/measurements",
        "/api/v1/recommendations",
    ]


def test_the_example_profile_is_the_contracts() -> None:
    block = re.search(r"```json\n(\{\n  \"server\".*?)```", CONTRACT.read_text(), re.S)
    assert block is not None
    assert json.loads(block.group(1)) == example_profile()
