"""The lean POST (advisor.api.lean) against DRF's own dispatch.

`POST /api/v1/check` still goes through DRF's dispatch with the same parser, authenticators,
throttle, exception handler and profile validation, so every refusal that happens before a
check needs the current configuration must come out of both endpoints byte for byte alike.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.test import RequestFactory
from rest_framework.authtoken.models import Token
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.content import EXPORT_RENDERERS, ExportNegotiation
from advisor.api.lean import LeanPostApi
from advisor.models import Recommendation
from advisor.recommendations.api_views import RecommendationCreateApi
from advisor.recommendations.services import recommendation_create
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile

pytestmark = pytest.mark.django_db
LEAN = "/api/v1/recommendations?store=false"
DRF = "/api/v1/check"
PROFILE = json.dumps(raw_profile())
NOT_A_PROFILE = json.dumps({"server": {"flavor": "oracle"}, "hardware": []})

# (body, content type, extra headers): each is refused before the check's own question.
HOSTILE: dict[str, tuple[str | bytes, str | None, dict[str, str]]] = {
    "not JSON": ("{not json", "application/json", {}),
    "NaN": ('{"hardware": {"ram_gb": NaN}}', "application/json", {}),
    "nested deeper than Python parses": ("[" * 100_000 + "]" * 100_000, "application/json", {}),
    "a number beyond a double": (PROFILE.replace('"ram_gb": 64', '"ram_gb": 1e309'), None, {}),
    "a 400-digit integer": (PROFILE.replace('"ram_gb": 64', '"ram_gb": ' + "9" * 400), None, {}),
    "a lone surrogate": (PROFILE.replace('"oltp"', '"oltp\\ud800"'), None, {}),
    "bytes that are not UTF-8": (b'{"server": "\xff\xfe"}', "application/json", {}),
    "a latin-1 charset": (
        '{"server": "é"}'.encode("latin-1"),
        "application/json; charset=latin-1",
        {},
    ),
    "an unknown charset": (NOT_A_PROFILE, "application/json; charset=no-such-codec", {}),
    "a list": ("[]", None, {}),
    "a profile with wrong fields": (NOT_A_PROFILE, None, {}),
    "an empty body": ("", "application/json", {}),
    "an empty form body": ("", "application/x-www-form-urlencoded", {}),
    "a form": ("ram_gb=8", "application/x-www-form-urlencoded", {}),
    "plain text": (PROFILE, "text/plain", {}),
    "no content type": (PROFILE, "", {}),
    "a token header without a token": (NOT_A_PROFILE, None, {"HTTP_AUTHORIZATION": "Token"}),
    "a token with a space": (NOT_A_PROFILE, None, {"HTTP_AUTHORIZATION": "Token a b"}),
    "an unknown token": (NOT_A_PROFILE, None, {"HTTP_AUTHORIZATION": "Token nope"}),
    "another scheme": (NOT_A_PROFILE, None, {"HTTP_AUTHORIZATION": "Bearer abc"}),
    "a lower-case keyword": (PROFILE[:-1], None, {"HTTP_AUTHORIZATION": "token nope"}),
}


def _post(client: Any, url: str, body: str | bytes, content_type: str | None, **extra: str) -> Any:
    """The body as bytes, as sent (the test client's post would re-encode it by its charset)."""
    content_type = "application/json" if content_type is None else content_type
    data = body.encode() if isinstance(body, str) else body
    return client.generic("POST", url, data, content_type=content_type, **extra)


def _answer(response: Any) -> tuple[int, Any, dict[str, str]]:
    named = ("Content-Type", "WWW-Authenticate", "Retry-After")
    return (
        response.status_code,
        json.loads(response.content),
        {h: response[h] for h in named if h in response},
    )


@pytest.mark.parametrize("case", HOSTILE)
def test_a_refusal_is_what_drf_s_own_dispatch_answers(client, case):
    body, content_type, extra = HOSTILE[case]
    lean = _post(client, LEAN, body, content_type, **extra)
    drf = _post(client, DRF, body, content_type, **extra)
    assert 400 <= lean.status_code < 500, lean.content[:300]
    assert _answer(lean) == _answer(drf)


def test_a_body_over_the_limit_is_the_same_413(client, settings):
    settings.API_MAX_BODY_BYTES = 100
    assert _answer(_post(client, LEAN, PROFILE, None)) == _answer(_post(client, DRF, PROFILE, None))
    assert _post(client, LEAN, PROFILE, None).status_code == 413


def test_an_inactive_token_user_is_the_same_401(client):
    user = User.objects.create_user("retired", is_active=False)
    key = Token.objects.create(user=user).key
    headers = {"HTTP_AUTHORIZATION": f"Token {key}"}
    lean = _post(client, LEAN, PROFILE, None, **headers)
    assert lean.status_code == 401
    assert _answer(lean) == _answer(_post(client, DRF, PROFILE, None, **headers))


def test_throttled_is_the_same_429(client, settings):
    settings.API_RATE_ANON = "1/minute"
    _post(client, LEAN, PROFILE, None)
    lean, drf = _post(client, LEAN, PROFILE, None), _post(client, DRF, PROFILE, None)
    assert lean.status_code == drf.status_code == 429
    assert json.loads(lean.content) == json.loads(drf.content)
    assert 1 <= int(lean["Retry-After"]) <= 60


def test_a_post_carries_the_allow_and_vary_headers_drf_gives_the_view(client):
    options = client.options("/api/v1/recommendations")  # DRF's dispatch
    for response in (
        _post(client, LEAN, PROFILE, None),
        _post(client, LEAN, "{bad", None),
        _post(client, "/api/v1/recommendations?format=nope", PROFILE, None),
    ):
        assert (response["Allow"], response["Vary"]) == (options["Allow"], options["Vary"])
    assert options["Allow"] == "POST, OPTIONS"


def test_the_post_runs_on_django_s_request_not_drf_s(client):
    response = _post(client, LEAN, PROFILE, None)
    assert response.status_code == 200
    request = response.renderer_context["request"]
    assert isinstance(request, HttpRequest)
    assert not isinstance(request, Request)


@pytest.mark.parametrize(
    "accept",
    [None, "*/*", "application/json", "application/json; indent=2", "text/*", "*/*; q=0.5"],
)
def test_negotiation_picks_what_drf_s_negotiator_picks(client, accept):
    factory_request = RequestFactory().post(LEAN, **({"HTTP_ACCEPT": accept} if accept else {}))
    renderers = [renderer() for renderer in EXPORT_RENDERERS]
    renderer, media_type = ExportNegotiation().select_renderer(Request(factory_request), renderers)
    response = _post(client, LEAN, PROFILE, None, **({"HTTP_ACCEPT": accept} if accept else {}))
    assert response.status_code == 200
    assert type(response.accepted_renderer) is type(renderer)
    assert response.accepted_media_type == media_type
    charset = f"; charset={renderer.charset}" if renderer.charset else ""
    assert response["Content-Type"] == renderer.media_type + charset


def test_an_indent_asked_for_in_accept_indents_the_json(client):
    response = _post(client, LEAN, PROFILE, None, HTTP_ACCEPT="application/json; indent=2")
    assert response.content.startswith(b'{\n  "')


class _Echo(LeanPostApi):
    """A lean view that answers what it parsed and who it thinks the client is."""

    def post(self, request: HttpRequest) -> Response:
        data = self.request_data(request)
        return Response({"data": data, "user": str(request.user), "is_django": True})


class _Closed(_Echo):
    permission_classes = (IsAuthenticated,)


def test_a_body_read_before_the_view_is_still_parsed():
    request = RequestFactory().post("/echo", '{"a": 1}', content_type="application/json")
    assert request.body == b'{"a": 1}'  # a middleware read it
    response = _Echo.as_view()(request)
    response.render()
    assert json.loads(response.content)["data"] == {"a": 1}


def test_a_token_names_its_user_on_the_lean_path():
    user = User.objects.create_user("ansible-lean")
    key = Token.objects.create(user=user).key
    request = RequestFactory().post(
        "/echo", "{}", content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}"
    )
    response = _Echo.as_view()(request)
    response.render()
    assert json.loads(response.content)["user"] == "ansible-lean"
    assert not isinstance(response.renderer_context["request"], Request)


def test_a_view_that_is_not_open_goes_through_drf_s_dispatch():
    request = RequestFactory().post("/echo", "{}", content_type="application/json")
    response = _Closed.as_view()(request)
    assert response.status_code == 401  # the lean path checks no permission: it would echo


def test_the_recommendation_view_takes_the_lean_path():
    view = RecommendationCreateApi
    assert issubclass(view, LeanPostApi)
    request = RequestFactory().post(
        "/api/v1/recommendations?store=false", PROFILE, content_type="application/json"
    )
    response = view.as_view()(request)
    assert response.status_code == 200
    assert not isinstance(response.renderer_context["request"], Request)


@pytest.mark.parametrize("query", ["", "?format=mycnf", "?revert=false"])
def test_a_stored_post_keeps_the_row_the_services_keep(client, query):
    """The API stores from the JSON it answers with; the row is the one written otherwise."""
    response = _post(client, f"/api/v1/recommendations{query}", PROFILE, None)
    assert response.status_code == 201
    result_id = response["Location"].rsplit("/", 1)[1]
    from_api = Recommendation.objects.get(id=result_id).result
    Recommendation.objects.filter(id=result_id).delete()
    recommendation_create(profile=parse_profile(raw_profile()))
    assert Recommendation.objects.get(id=result_id).result == from_api
