"""A charset other than UTF-8 in Content-Type is a 415 at the edge, through the WSGI application
gunicorn serves (Django's test client builds its own requests and would not go through it).

Each refused shape was a 500: a bytes-to-bytes codec with a query string failed the request
before any middleware ran, a UTF-16 form post failed the CSRF check's reading of the body, and
UTF-7 turned plain bytes into a lone surrogate."""

from __future__ import annotations

import encodings.aliases
import io
import json
from typing import Any
from wsgiref.util import setup_testing_defaults

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.charset import refused_charset
from advisor.wsgi import application
from rules.inputs.examples import raw_profile
from tests.advisor.api.test_schemathesis import keep_test_connection

__all__ = ["keep_test_connection"]  # the fixture the tests below use
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("keep_test_connection")]
SHAPE = {"message", "errors"}
RECOMMEND = "/api/v1/recommendations"
# Python's codecs that are not text encodings, and the text ones that make surrogates or
# turn ASCII into something else.
NOT_TEXT = ["rot13", "base64", "zlib", "hex", "uu", "bz2", "quopri", "punycode"]
NOT_UTF8 = ["utf-7", "utf-16", "UTF-16LE", "utf-32", "unicode_escape", "latin-1", "nosuch"]


def call(method: str, path: str, *, query: str = "", content_type: str = "", body: bytes = b""):
    """(status, headers, body) from the WSGI application, as gunicorn would call it."""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
    }
    setup_testing_defaults(environ)
    started: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        started.update(status=int(status.split()[0]), headers=dict(headers))

    chunks = application(environ, start_response)
    try:
        content = b"".join(chunks)
    finally:
        getattr(chunks, "close", lambda: None)()
    return started["status"], started["headers"], content


def _assert_refused_in_the_api_shape(status: int, headers: dict[str, str], body: bytes) -> None:
    assert status == 415, body[:300]
    assert headers["Content-Type"] == "application/json"
    document = json.loads(body)
    assert set(document) == SHAPE
    assert list(document["errors"]) == ["Content-Type"]


@pytest.mark.parametrize("charset", NOT_TEXT)
def test_a_codec_that_is_not_text_with_a_query_string_is_a_415_not_a_crash(charset):
    content_type = f"application/json; charset={charset}"
    _assert_refused_in_the_api_shape(
        *call("GET", RECOMMEND, query="x=1", content_type=content_type)
    )
    status, headers, body = call(
        "GET", "/", query="x=1", content_type=f"text/plain; charset={charset}"
    )
    assert status == 415
    assert headers["Content-Type"].startswith("text/html")
    assert b"reads UTF-8 only" in body
    assert "default-src" in headers["Content-Security-Policy"]  # the site's headers, as ever


@pytest.mark.parametrize("charset", NOT_UTF8)
def test_a_json_body_in_another_charset_is_a_415(charset):
    body = json.dumps(raw_profile(), ensure_ascii=False).encode("utf-8")
    content_type = f"application/json; charset={charset}"
    _assert_refused_in_the_api_shape(*call("POST", RECOMMEND, content_type=content_type, body=body))


def test_utf7_that_would_carry_a_lone_surrogate_is_a_415():
    body = b'{"workload": {"kind": "+2AA-"}}'  # UTF-7 for "\ud800"
    content_type = "application/json; charset=utf-7"
    _assert_refused_in_the_api_shape(*call("POST", RECOMMEND, content_type=content_type, body=body))


@pytest.mark.parametrize("path", ["/presets/nvme-modern/", "/wizard/server/", "/batches/"])
def test_a_utf16_form_post_is_a_415_page_without_a_csrf_token(path):
    content_type = "application/x-www-form-urlencoded; charset=utf-16"
    status, _, body = call("POST", path, content_type=content_type, body="a=b".encode("utf-16"))
    assert status == 415, body[:300]
    assert b"reads UTF-8 only" in body


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "application/json; charset=utf-8",
        "application/json; charset=UTF-8",
        'application/json; charset="Utf-8"',
        "application/json;charset=us-ascii",
        "application/json; charset=US-ASCII",
    ],
)
def test_utf8_and_us_ascii_are_accepted_in_any_case(content_type):
    body = json.dumps(raw_profile()).encode("ascii")
    status, _, content = call("POST", RECOMMEND, content_type=content_type, body=body)
    assert status == 201, content[:300]


CHARSETS = st.one_of(
    st.sampled_from(NOT_TEXT + NOT_UTF8 + ["utf-8", "us-ascii", "UTF8", ""]),
    st.sampled_from(
        sorted(set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values()))
    ),
    st.text(st.characters(codec="ascii", exclude_characters='";\\\r\n'), max_size=12),
)
PATHS = ["/", RECOMMEND, "/api/v1/check", "/api/v1/docs", "/api/v1/catalog", "/api/v1/nowhere",
         "/presets/nvme-modern/", "/wizard/server/", "/batches/", "/healthz"]  # fmt: skip


@given(
    method=st.sampled_from(["GET", "POST", "PUT", "OPTIONS", "HEAD"]),
    path=st.sampled_from(PATHS),
    charset=CHARSETS,
    media=st.sampled_from(["application/json", "application/x-www-form-urlencoded", "text/plain"]),
    query=st.sampled_from(["", "x=1", "format=json", "q=%E2%82%AC"]),
    body=st.sampled_from([b"", b"a=b", b'{"a": "+2AA-"}', "x=é".encode("utf-16")]),
)
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_charset_on_any_path_is_a_5xx(method, path, charset, media, query, body):
    content_type = f"{media}; charset={charset}"
    status, _, content = call(method, path, query=query, content_type=content_type, body=body)
    assert status < 500, (content_type, content[:300])
    if refused_charset(content_type) is not None:
        assert status == 415
        if path.startswith("/api/"):
            assert set(json.loads(content)) == SHAPE
