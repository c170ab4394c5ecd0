"""How the API reads bodies and picks what to answer with.

`JsonParser` refuses bodies over the view's `max_body_bytes` with 413 before reading them whole
(DRF reads the stream itself, so Django's DATA_UPLOAD_MAX_MEMORY_SIZE does not apply), and reads
the body as UTF-8 whatever charset the request names: JSON has no other encoding, and a UTF-7 or
UTF-16 taken at its word makes lone surrogates out of plain bytes (advisor.charset refuses such
requests before they get here; this holds where a request comes in another way). The
export renderers (one per entry of `rules.render.REGISTRY`) and `ExportNegotiation` let `?format=`
or `Accept` pick an export, with an unknown `?format=` answered 400 naming the field, not DRF's
bare 404.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from django.conf import settings
from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.utils import encoders

from advisor.api.errors import FieldErrors, PayloadTooLarge
from advisor.unstorable import UNSTORABLE_MESSAGE, unstorable_path
from rules.render import CONTENT_TYPES, FORMATS
from rules.units import ascii_digits


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    """A JSON number as a float; one beyond a double (1e309) would become Infinity, which
    PostgreSQL refuses to store and no field accepts."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is not finite (beyond a double)")
    return value


def _size(limit: int) -> str:
    mib = limit / (1024 * 1024)
    return f"{mib:g} MiB" if mib >= 1 else f"{limit} bytes"


class JsonParser(BaseParser):
    media_type = "application/json"

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        context = parser_context or {}
        view, request = context.get("view"), context.get("request")
        limit = getattr(view, "max_body_bytes", settings.API_MAX_BODY_BYTES)
        hint = getattr(view, "body_limit_hint", "")
        too_large = PayloadTooLarge(
            f"The request body is larger than {_size(limit)}, the most this endpoint accepts."
            + (f" {hint}" if hint else "")
        )
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and ascii_digits(declared) and int(declared) > limit:
            raise too_large
        data = stream.read(limit + 1) if stream is not None else b""
        if len(data) > limit:
            raise too_large
        try:
            text = data.decode("utf-8")  # JSON's only encoding (RFC 8259 section 8.1)
            document = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
        except (ValueError, RecursionError) as exc:
            raise exceptions.ParseError(f"The request body is not valid JSON: {exc}") from None
        bad = unstorable_path(document) if "\\u" in text else None  # only escapes make them
        if bad is not None:
            raise FieldErrors(
                "The request holds text that cannot be stored.", {bad: [UNSTORABLE_MESSAGE]}
            )
        return document


class _TextRenderer(BaseRenderer):
    """Renders the export text the view already made; the media type matches CONTENT_TYPES."""

    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        return str(data).encode(self.charset)


def _text_renderer(fmt: str) -> type[_TextRenderer]:
    media_type = CONTENT_TYPES[fmt].split(";", 1)[0]
    name = "".join(part.title() for part in fmt.split("-"))
    return type(f"{name}Renderer", (_TextRenderer,), {"media_type": media_type, "format": fmt})


class FastJsonRenderer(JSONRenderer):
    """DRF's JSON, written by orjson: the same compact UTF-8 text several times faster (a
    result is ~36 KB). An `indent` asked for in the Accept header goes to DRF's own encoder.
    Types orjson does not know (Decimal, lazy strings) go through DRF's encoder's default."""

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if self.get_indent(accepted_media_type or "", renderer_context or {}):
            return super().render(data, accepted_media_type, renderer_context)
        return orjson.dumps(data, default=_DRF_ENCODER.default)


_DRF_ENCODER = encoders.JSONEncoder()
# One renderer per export; JSON first, so an Accept header we cannot meet gets the result JSON.
TEXT_RENDERERS: dict[str, type[_TextRenderer]] = {
    fmt: _text_renderer(fmt) for fmt in FORMATS if fmt != "json"
}
EXPORT_RENDERERS: tuple[type[BaseRenderer], ...] = (FastJsonRenderer, *TEXT_RENDERERS.values())


class ExportNegotiation(DefaultContentNegotiation):
    """`?format=` wins, then `Accept`; an Accept we cannot meet gets the first renderer (JSON)."""

    def select_renderer(
        self, request: Request, renderers: Sequence[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        fmt = request.query_params.get("format")
        if fmt is not None:
            for renderer in renderers:
                if renderer.format == fmt:
                    return renderer, str(renderer.media_type)
            choices = [r.format for r in renderers if r.format in FORMATS]
            raise FieldErrors(
                f"Unknown format {fmt!r}.", {"format": ["must be one of " + ", ".join(choices)]}
            )
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except exceptions.NotAcceptable:
            return renderers[0], str(renderers[0].media_type)


def base_url(request: Request) -> str:
    """This site's address as the client reached it, for the links an export carries."""
    return request.build_absolute_uri("/").rstrip("/")


class ArchiveNegotiation(DefaultContentNegotiation):
    """For the zip archive, `?format=` picks each host's export, not the response's renderer."""

    def select_renderer(
        self, request: Request, renderers: Sequence[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        return renderers[0], str(renderers[0].media_type)


def archive_format(request: Request) -> str:
    """`?format=` of a fleet archive: the export written for each host (default: mycnf)."""
    fmt = request.query_params.get("format", "mycnf")
    if fmt not in FORMATS:
        raise FieldErrors(
            f"Unknown format {fmt[:40]!r}.", {"format": ["must be one of " + ", ".join(FORMATS)]}
        )
    return str(fmt)
