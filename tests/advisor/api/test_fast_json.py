"""The API's JSON comes from orjson; it must say what DRF's own renderer says."""

import json
from decimal import Decimal

from rest_framework.renderers import JSONRenderer

from advisor.api.content import FastJsonRenderer
from rules.engine import recommend
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.render.jsonout import result_to_dict


def test_a_result_renders_to_the_same_json_as_drf() -> None:
    data = result_to_dict(recommend(parse_profile(raw_profile())))
    fast = FastJsonRenderer().render(data, "application/json")
    plain = JSONRenderer().render(data, "application/json")
    assert json.loads(fast) == json.loads(plain)
    assert b": " not in fast[:200]  # compact, as DRF's COMPACT_JSON
    assert "Ω".encode() in FastJsonRenderer().render({"unit": "Ω"})  # UTF-8, not \\u escapes


def test_types_orjson_does_not_know_go_through_drf_s_encoder() -> None:
    assert json.loads(FastJsonRenderer().render({"ratio": Decimal("1.5")})) == {"ratio": 1.5}


def test_an_indent_asked_for_is_honoured() -> None:
    text = FastJsonRenderer().render({"a": [1]}, "application/json; indent=2")
    assert text == b'{\n  "a": [\n    1\n  ]\n}'


def test_the_api_answers_with_it(client) -> None:
    response = client.post(
        "/api/v1/recommendations?store=false",
        data=json.dumps(raw_profile()),
        content_type="application/json",
    )
    assert response.status_code == 200
    assert isinstance(response.accepted_renderer, FastJsonRenderer)
