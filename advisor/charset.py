"""Only UTF-8 (and its subset US-ASCII) comes in: any other `charset` in `Content-Type` is a 415.

Django takes a request's charset from its `Content-Type` and decodes the query string and form
bodies with whatever Python codec has that name. A text codec such as UTF-16 or UTF-7 can turn
bytes into text no form or serializer expects (lone surrogates), and a bytes-to-bytes codec
(`rot13`, `base64`, `zlib`) makes the decoding raise, as early as building the request when it
has a query string: a 500 from the web server, before any middleware could answer. So the
request classes below never hand such a charset to Django (the request stays UTF-8, Django's
default) and remember it instead; `CharsetMiddleware` then refuses the request before any view
or CSRF check reads it, as JSON in the API's error shape under /api/ and as a page elsewhere.
`advisor.wsgi` and `advisor.asgi` serve through these request classes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.handlers.asgi import ASGIHandler, ASGIRequest
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.http import parse_header_parameters

from advisor.api.errors import error_response

# RFC 9110 section 8.3.2: charset names are case-insensitive. UTF-8 and US-ASCII as the IANA
# character-set registry names them (https://www.iana.org/assignments/character-sets), and the
# spellings without a hyphen that clients also send; US-ASCII text is UTF-8 text.
ACCEPTED_CHARSETS = frozenset({"utf-8", "utf8", "us-ascii", "ascii"})
REFUSAL = "must be utf-8 (or us-ascii), or left out"


def refused_charset(content_type: str) -> str | None:
    """The charset `content_type` declares when it is not one this site reads, else None."""
    _, params = parse_header_parameters(content_type)
    charset = params.get("charset")
    if charset is None or charset.strip().lower() in ACCEPTED_CHARSETS:
        return None
    return charset


class _CharsetChecked(HttpRequest):
    """A request whose declared charset Django sees only when it is UTF-8 or US-ASCII."""

    refused_charset: str | None = None

    def _set_content_type_params(self, meta: dict[str, Any]) -> None:
        refused = refused_charset(meta.get("CONTENT_TYPE", ""))
        if refused is None:
            super()._set_content_type_params(meta)
            return
        self.refused_charset = refused
        self.content_type, self.content_params = parse_header_parameters(
            meta.get("CONTENT_TYPE", "")
        )
        del self.content_params["charset"]  # the request is decoded as UTF-8, if at all


class CharsetCheckedWSGIRequest(_CharsetChecked, WSGIRequest):
    pass


class CharsetCheckedASGIRequest(_CharsetChecked, ASGIRequest):
    pass


class CharsetCheckedWSGIHandler(WSGIHandler):
    request_class = CharsetCheckedWSGIRequest


class CharsetCheckedASGIHandler(ASGIHandler):
    request_class = CharsetCheckedASGIRequest


class CharsetMiddleware:
    """Answers 415 to a request whose charset the request class kept from Django; before the
    CSRF check (which reads the form body), so that no token is needed for the refusal."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        charset = getattr(request, "refused_charset", None)
        if charset is None:
            return self.get_response(request)
        message = f"The request's charset {charset!r} is not accepted; send UTF-8."
        if request.path.startswith("/api/"):
            return error_response(
                message, {"Content-Type": [f"charset {REFUSAL}"]}, status_code=415
            )
        html = render_to_string("415.html", {"charset": charset})
        return HttpResponse(html, status=415)
