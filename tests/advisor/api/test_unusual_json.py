"""JSON that is valid but unusual: huge integers, numbers beyond a double, lone surrogates.

Each was a 500 (an OverflowError in the number check, Infinity stored and refused by
PostgreSQL, an error handler that could not encode its own message); each is a 400 now.
"""

from __future__ import annotations

import json

import pytest

from rules.inputs.examples import raw_profile

pytestmark = pytest.mark.django_db
SHAPE = {"message", "errors"}
RECOMMEND = "/api/v1/recommendations"


def _profile_text(**overrides: object) -> str:
    return json.dumps(raw_profile(**overrides))


CASES = {
    "a 400-digit integer": _profile_text().replace('"ram_gb": 64', '"ram_gb": ' + "9" * 400),
    "a negative 400-digit integer": _profile_text().replace(
        '"concurrency": 64', '"concurrency": -' + "9" * 400
    ),
    "1e309": _profile_text().replace('"ram_gb": 64', '"ram_gb": 1e309'),
    "-1e309 deep inside": _profile_text(current={"variables": {"innodb_io_capacity": 1}}).replace(
        '"innodb_io_capacity": 1', '"innodb_io_capacity": -1e309'
    ),
    "a 400-digit current value": _profile_text(current={"variables": {"x": 1}}).replace(
        '"x": 1', '"innodb_io_capacity": ' + "7" * 400
    ),
    "a lone surrogate in a top-level key": '{"\\ud800": 1}',
    "a lone surrogate in a nested key": _profile_text().replace('"ram_gb"', '"ram_gb\\udfff"'),
    "a lone surrogate in a value": _profile_text().replace('"oltp"', '"oltp\\ud800"'),
    "a lone surrogate in a variable name": _profile_text(current={"variables": {"x": 1}}).replace(
        '"x"', '"\\udc00x"'
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_unusual_json_is_a_400_in_the_error_shape(client, case):
    response = client.post(RECOMMEND, CASES[case], content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == SHAPE
    assert body["message"]


@pytest.mark.parametrize("case", CASES)
def test_unusual_json_in_a_batch_is_refused_before_anything_is_stored(client, token, case):
    profile = CASES[case]
    body = '{"profiles": [{"name": "db1", "profile": ' + profile + "}]}"
    response = client.post(
        "/api/v1/batches",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token}",
    )
    # A batch validates its profiles in the background; what cannot be stored is refused now,
    # and the rest is accepted (its field errors come with the item).
    assert response.status_code in (202, 400), response.content[:300]
    assert set(response.json()) >= ({"id"} if response.status_code == 202 else SHAPE)


def test_a_huge_integer_is_named_under_its_field(client):
    response = client.post(RECOMMEND, CASES["a 400-digit integer"], content_type="application/json")
    assert "hardware.ram_gb" in response.json()["errors"]


def test_a_number_beyond_a_double_is_named_as_not_finite(client):
    response = client.post(RECOMMEND, CASES["1e309"], content_type="application/json")
    assert "finite" in response.json()["message"]


@pytest.mark.parametrize(
    ("charset", "body"),
    [
        ("utf-7", b'{"workload": {"kind": "+2AA-"}}'),
        ("unicode_escape", b'{"workload": {"kind": "\\ud800"}}'),
    ],
)
def test_a_body_is_read_as_utf8_whatever_charset_it_names(client, charset, body):
    """UTF-7's "+2AA-" and unicode_escape's "\\ud800" would be lone surrogates if the parser
    took the charset at its word. The site refuses such a charset at its edge
    (tests/advisor/test_charset.py); the test client goes around it, as another way in would."""
    response = client.post(RECOMMEND, body, content_type=f"application/json; charset={charset}")
    assert response.status_code == 400, response.content[:300]
    assert set(response.json()) == SHAPE
    assert "workload.kind" in response.json()["errors"]
