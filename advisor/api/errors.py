"""The API's one error shape, `{"message": ..., "errors": {"field.path": ["..."]}}`, from one
exception handler (REST_FRAMEWORK["EXCEPTION_HANDLER"]).

Every refusal a client can cause ends here: validation (DRF's and the profile's own), auth,
throttling, size limits, unknown URLs and methods, and the services being down (503). Field paths
are the profile's own dotted paths, so the API names fields exactly as the wizard and the CLI do.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.http import Http404, JsonResponse
from kombu.exceptions import OperationalError as BrokerOperationalError
from rest_framework import exceptions, status
from rest_framework.settings import api_settings

from advisor.deadline import OverBudget
from advisor.unstorable import printable
from rules.inputs.errors import NothingToRevert, OutputRefused, ProfileError

logger = logging.getLogger(__name__)

Errors = dict[str, list[str]]


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "payload_too_large"


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The resource is not in a state that allows this request."
    default_code = "conflict"


class ServiceUnavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = "A service this request needs is unavailable; retry later."
    default_code = "service_unavailable"
    retry_after_seconds = 30


class FieldErrors(exceptions.APIException):
    """A 400 (or other status) naming fields by dotted path, with a message of our own."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"

    def __init__(self, message: str, errors: Mapping[str, list[str]], status_code: int = 400):
        super().__init__(message)
        self.errors: Errors = {path: list(msgs) for path, msgs in errors.items()}
        self.status_code = status_code


def flatten(detail: Any, prefix: str = "") -> Errors:
    """DRF's nested error detail as {"dotted.path": [messages]}; list indexes become path parts."""
    items: Iterable[tuple[Any, Any]]
    if isinstance(detail, Mapping):
        items = detail.items()
    elif isinstance(detail, list) and any(isinstance(d, Mapping | list) for d in detail):
        items = ((str(i), d) for i, d in enumerate(detail) if d)
    else:
        messages = detail if isinstance(detail, list) else [detail]
        return {prefix: [str(m) for m in messages]}
    flat: Errors = {}
    for key, value in items:
        name = "" if key == api_settings.NON_FIELD_ERRORS_KEY else str(key)
        path = f"{prefix}.{name}" if prefix and name else prefix or name
        for sub_path, messages in flatten(value, path).items():
            flat.setdefault(sub_path, []).extend(messages)
    return flat


def error_response(
    message: str, errors: Mapping[str, list[str]] | None = None, *, status_code: int
) -> JsonResponse:
    """The one shape; any text a client sent that UTF-8 cannot carry is written as an escape."""
    body = {
        "message": printable(message),
        "errors": {printable(p): [printable(m) for m in ms] for p, ms in (errors or {}).items()},
    }
    return JsonResponse(body, status=status_code, json_dumps_params={"ensure_ascii": False})


def _count(errors: Errors) -> int:
    return sum(len(messages) for messages in errors.values())


def _api_exception_response(exc: exceptions.APIException) -> JsonResponse:
    if isinstance(exc, FieldErrors):
        response = error_response(str(exc.detail), exc.errors, status_code=exc.status_code)
    elif isinstance(exc, exceptions.ValidationError):
        errors = flatten(exc.detail)
        message = f"The request has {_count(errors)} problem(s); each is listed under its field."
        response = error_response(message, errors, status_code=exc.status_code)
    else:
        response = error_response(str(exc.detail), status_code=exc.status_code)
    if getattr(exc, "auth_header", None):
        response["WWW-Authenticate"] = exc.auth_header
    wait = getattr(exc, "wait", None) or getattr(exc, "retry_after_seconds", None)
    if wait:
        response["Retry-After"] = str(max(1, round(wait)))
    return response


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> JsonResponse | None:
    """Turn any exception raised in an API view into the one error shape."""
    from rest_framework.views import set_rollback  # importing APIView loads our parser

    if isinstance(exc, Http404):
        exc = exceptions.NotFound("Not found: no such resource here, or not yours.")
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, ProfileError):
        exc = FieldErrors(
            f"The profile has {_count(exc.errors)} problem(s); each is listed under its field.",
            exc.errors,
        )
    elif isinstance(exc, OutputRefused):
        exc = FieldErrors(
            f"This export cannot be written for this server: {exc}",
            {exc.field: [str(exc)]},
            status_code=status.HTTP_422_UNPROCESSABLE_ENTITY,
        )
    elif isinstance(exc, NothingToRevert):
        exc = FieldErrors(
            f"There is no revert for this result: {exc}",
            {"revert": [str(exc)]},
            status_code=status.HTTP_422_UNPROCESSABLE_ENTITY,
        )
    elif isinstance(exc, exceptions.UnsupportedMediaType):
        exc.detail = f"{exc.detail} Send JSON, with the header Content-Type: application/json."
    elif isinstance(exc, BrokerOperationalError):
        logger.warning("task broker unavailable: %s", exc)
        exc = ServiceUnavailable("The task broker is unavailable; retry later.")
    elif isinstance(exc, DatabaseError | OverBudget):
        return None  # re-raised to advisor.unavailable.server_error: it drops the connection, 503
    if isinstance(exc, exceptions.APIException):
        set_rollback()
        return _api_exception_response(exc)
    logger.exception("unexpected error in %s", type(context.get("view")).__name__)
    set_rollback()
    return error_response(
        "Internal error; it has been logged.", status_code=status.HTTP_500_INTERNAL_SERVER_ERROR
    )
