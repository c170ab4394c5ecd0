"""Thin views over `advisor.fleet.services`. The page asks for an API token (batches belong to a
token's user); the session remembers which batches this browser created, and only those are
shown to it."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET, require_http_methods
from rest_framework.authtoken.models import Token

from advisor.fleet.archive_files import RETRY_AFTER_SECONDS, archive_response
from advisor.fleet.services import (
    BatchInvalid,
    BatchTooLarge,
    BrokerUnavailable,
    batch_archive_file,
    batch_create,
    batch_entries_check,
    batch_progress,
)
from advisor.fleet.upload import CSV_COLUMNS, entries_from_upload
from advisor.models import Batch
from advisor.page_limits import page_limited
from rules.render import FORMATS, REGISTRY

SESSION_KEY = "batch_ids"
FORM_OVERHEAD_BYTES = 64 * 1024  # the token field and the multipart framing
BROKER_DOWN = (
    "The task broker is unavailable, so the batch was not started and nothing was stored. "
    "Try again in a minute; single recommendations keep working."
)


def _form(request: HttpRequest, errors: dict[str, list[str]], status: int) -> TemplateResponse:
    context = {"errors": errors, "columns": CSV_COLUMNS, "max": f"{settings.BATCH_MAX_PROFILES:,}"}
    return TemplateResponse(request, "fleet/upload.html", context, status=status)


@require_http_methods(["GET", "POST"])
@page_limited
def batch_upload(request: HttpRequest) -> TemplateResponse:
    if request.method == "GET":
        return _form(request, {}, 200)
    if (
        int(request.META.get("CONTENT_LENGTH") or 0)
        > settings.BATCH_MAX_BYTES + FORM_OVERHEAD_BYTES
    ):
        return _form(request, {"file": ["is larger than 10 MiB; split the fleet"]}, 413)
    token = Token.objects.select_related("user").filter(key=request.POST.get("token", "")).first()
    upload = request.FILES.get("file")
    if token is None or upload is None:
        missing = {"token": ["is not a valid API token"]} if token is None else {}
        return _form(request, missing | ({} if upload else {"file": ["is required"]}), 400)
    try:
        entries = batch_entries_check(entries_from_upload(upload.name or "", upload.read()))
        base = request.build_absolute_uri("/").rstrip("/")
        batch = batch_create(owner=token.user, entries=entries, base_url=base)
    except BatchInvalid as problem:
        return _form(request, problem.errors, 400)
    except BatchTooLarge as problem:
        return _form(request, {"file": [str(problem)]}, 413)
    except BrokerUnavailable:
        return _form(request, {"": [BROKER_DOWN]}, 503)
    request.session[SESSION_KEY] = [*request.session.get(SESSION_KEY, [])[-49:], str(batch.id)]
    return redirect("batch-page", batch_id=batch.id)


def _session_batch(request: HttpRequest, batch_id: uuid.UUID) -> Batch:
    if str(batch_id) not in request.session.get(SESSION_KEY, []):
        raise Http404("No such batch in this browser session.")
    return Batch.objects.get(id=batch_id)


@require_GET
def batch_page(request: HttpRequest, batch_id: uuid.UUID) -> TemplateResponse:
    """The progress page; HTMX polls its `progress` partial until the batch is done."""
    batch = _session_batch(request, batch_id)
    failed = batch.items.filter(status="failed").order_by("position")[:50]
    context = {
        "batch": batch,
        "progress": batch_progress(batch=batch),
        "failed": failed,
        "formats": [(f.name, f.label) for f in REGISTRY if f.name != "mycnf"],
    }
    template = "fleet/detail.html"
    if getattr(request, "htmx", False):
        template += "#progress"
    return TemplateResponse(request, template, context)


@require_GET
def batch_download(request: HttpRequest, batch_id: uuid.UUID) -> FileResponse | TemplateResponse:
    """The built zip; while a worker builds it, a page that asks again by itself (409, an error
    as in the API, so that nothing saves the page as the zip)."""
    batch = _session_batch(request, batch_id)
    if batch.status != Batch.Status.DONE:
        raise Http404("The archive is ready once the batch is done.")
    fmt = request.GET.get("format", "mycnf")
    if fmt not in FORMATS:
        raise Http404("No such export format.")
    try:
        path = batch_archive_file(batch=batch, fmt=fmt)
    except BrokerUnavailable:
        message = "The task broker is unavailable, so the archive cannot be built now."
        return _archive_wait(request, batch, f"{message} Try again in a minute.", 503)
    if path is None:
        message = (
            f"The archive is being built; it downloads when you try again in a few seconds "
            f"(this page does so by itself every {RETRY_AFTER_SECONDS} s)."
        )
        return _archive_wait(request, batch, message, 409)
    return archive_response(path=path, batch_id=batch.id)


def _archive_wait(
    request: HttpRequest, batch: Batch, message: str, status: int
) -> TemplateResponse:
    context = {"batch": batch, "message": message}
    response = TemplateResponse(request, "fleet/archive_wait.html", context, status=status)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    if status == 409:
        response["Refresh"] = str(RETRY_AFTER_SECONDS)  # browsers reload the page (HTML spec)
    return response
