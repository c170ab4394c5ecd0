"""A lean POST for the open endpoints that compute: DRF's steps, in DRF's order, on Django's own
request instead of DRF's wrapper.

`POST /api/v1/recommendations` is the API's hot path, and DRF's wrapper, its lazy
authentication and its negotiation of an absent Accept header cost more per request than the
validation of the profile. `LeanPostApi.dispatch` runs the same steps itself, each through DRF's
own parts where they take Django's request as it is: the view's negotiator (skipped only for
the answer it always gives to no Accept header and no `?format=`), the view's authenticators
(only when an Authorization header is sent: the API authenticates by token alone), the view's
throttles, its parsers for the body, its exception handler and `finalize_response` (the `Allow`
and `Vary` headers and the renderer of a `Response`). Other methods, and a view that is not
open or not token-authenticated, go through DRF's `dispatch` unchanged.
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponseBase, QueryDict
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import UnsupportedMediaType
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request, is_form_media_type
from rest_framework.utils.mediatypes import media_type_matches
from rest_framework.views import APIView

# What DRF answers when the client accepts anything: the view's first renderer, under its own
# media type (DefaultContentNegotiation gives the more specific of the two types).
ANY_MEDIA_TYPE = "*/*"


def _lean_allowed(view: type[APIView]) -> bool:
    """Open to anyone, and authenticated only by a header: what the lean path assumes."""
    return all(issubclass(p, AllowAny) for p in view.permission_classes) and all(
        issubclass(a, TokenAuthentication) for a in view.authentication_classes
    )


class LeanPostApi(APIView):
    """An APIView whose POST skips DRF's request wrapper; `post` reads the body through
    `request_data(request)` rather than `request.data`."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method != "POST" or not _lean_allowed(type(self)):
            return super().dispatch(request, *args, **kwargs)
        self.args, self.kwargs, self.request = args, kwargs, request
        self.headers = self.default_response_headers
        try:
            self.format_kwarg = self.get_format_suffix(**kwargs)
            request.accepted_renderer, request.accepted_media_type = self._negotiate(request)
            self._authenticate(request)
            self.check_throttles(request)
            response = self.post(request, *args, **kwargs)
        except Exception as exc:
            response = self.handle_exception(exc)
        self.response = self.finalize_response(request, response, *args, **kwargs)
        return self.response

    def _negotiate(self, request: HttpRequest) -> tuple[BaseRenderer, str]:
        renderers = self.get_renderers()
        accept = request.META.get("HTTP_ACCEPT", ANY_MEDIA_TYPE)
        if accept == ANY_MEDIA_TYPE and "format" not in request.GET and not self.format_kwarg:
            return renderers[0], str(renderers[0].media_type)
        negotiator = self.get_content_negotiator()
        return negotiator.select_renderer(Request(request), renderers, self.format_kwarg)

    def _authenticate(self, request: HttpRequest) -> None:
        """DRF's Request._authenticate on Django's request; anonymous until a token says who."""
        request.user, request.auth = AnonymousUser(), None
        if "HTTP_AUTHORIZATION" not in request.META:
            return
        for authenticator in self.get_authenticators():
            found = authenticator.authenticate(request)
            if found is not None:
                request.user, request.auth = found
                return

    def request_data(self, request: HttpRequest) -> Any:
        """The parsed body, as DRF's `request.data` gives it: an empty body is `{}` (an empty
        QueryDict for a form type), a media type no parser takes is 415."""
        meta = request.META
        try:
            length = int(meta.get("CONTENT_LENGTH", meta.get("HTTP_CONTENT_LENGTH", 0)))
        except (ValueError, TypeError):
            length = 0
        media_type = meta.get("CONTENT_TYPE", meta.get("HTTP_CONTENT_TYPE", ""))
        if length == 0:
            if media_type and is_form_media_type(media_type):
                return QueryDict("", encoding=request.encoding)
            return {}
        parser = next(
            (p for p in self.get_parsers() if media_type_matches(p.media_type, media_type)), None
        )
        if parser is None:
            raise UnsupportedMediaType(media_type)
        stream = io.BytesIO(request.body) if request._read_started else request
        context = {
            **self.get_parser_context(request),
            "request": request,
            "encoding": request.encoding or settings.DEFAULT_CHARSET,
        }
        return parser.parse(stream, media_type, context)

    def raise_uncaught_exception(self, exc: Exception) -> None:
        """DRF's asks its own request for plain-text tracebacks in DEBUG; Django's has no such
        switch (and Django's debug page picks its form from Accept anyway)."""
        if isinstance(self.request, Request):
            super().raise_uncaught_exception(exc)
        raise exc
