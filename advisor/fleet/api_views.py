"""Batches for fleets: create (202), status with paginated items, and the zip archive."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import FileResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from advisor.api.content import ArchiveNegotiation, archive_format, base_url
from advisor.api.errors import Conflict, PayloadTooLarge, ServiceUnavailable
from advisor.api.openapi import ARCHIVE_FORMAT_PARAMETER, errors
from advisor.fleet.archive_files import RETRY_AFTER_SECONDS, archive_response
from advisor.fleet.serializers import (
    BatchCreatedOutput,
    BatchCreateInput,
    BatchDetailQuery,
    BatchOutput,
)
from advisor.fleet.services import (
    BatchTooLarge,
    BrokerUnavailable,
    batch_archive_file,
    batch_create,
    batch_nudge,
    batch_progress,
)
from advisor.models import Batch, BatchItem

BROKER_DOWN = (
    "The task broker is unavailable, so the batch was refused whole: nothing was stored and "
    "nothing will run. Retry later; single recommendations keep working meanwhile."
)

ARCHIVE_BROKER_DOWN = (
    "The task broker is unavailable, so this archive cannot be built now. Retry later."
)


class NotReady(Conflict):
    """409 with Retry-After: the batch is running, or its archive is being built."""

    retry_after_seconds = RETRY_AFTER_SECONDS


def _own_batch(request: Request, batch_id: Any) -> Batch:
    batch = Batch.objects.filter(id=batch_id, owner=request.user).first()
    if batch is None:
        raise NotFound(f"No batch {batch_id} for this token.")
    return batch


def _links(request: Request, batch: Batch) -> dict[str, str]:
    url = request.build_absolute_uri(reverse("api-batch-detail", args=[batch.id]))
    return {"url": url, "archive_url": f"{url}/archive"}


class BatchCreateApi(APIView):
    permission_classes = (IsAuthenticated,)
    max_body_bytes = settings.BATCH_MAX_BYTES
    body_limit_hint = "Split the fleet into several batches."

    @extend_schema(
        operation_id="batch_create",
        summary="Recommend settings for a fleet, in the background",
        request=BatchCreateInput,
        responses={(202, "application/json"): BatchCreatedOutput, **errors(400, 401, 413, 415)},
    )
    def post(self, request: Request) -> Response:
        """Recorded in PostgreSQL, then queued; poll `url` for progress. 503 if the broker is
        down, with nothing kept (the batch is refused whole)."""
        data = BatchCreateInput(data=request.data)
        try:
            data.is_valid(raise_exception=True)
            batch = batch_create(
                owner=request.user,
                entries=data.validated_data["entries"],
                base_url=base_url(request),
            )
        except BatchTooLarge as problem:
            raise PayloadTooLarge(str(problem)) from None
        except BrokerUnavailable:
            raise ServiceUnavailable(BROKER_DOWN) from None
        links = _links(request, batch)
        body = {
            "id": batch.id,
            "status": batch.status,
            "total": batch.total,
            "created_at": batch.created_at,
            **links,
        }
        output = BatchCreatedOutput(body).data
        return Response(output, status=status.HTTP_202_ACCEPTED, headers={"Location": links["url"]})


def _item(item: BatchItem, base: str) -> dict[str, Any]:
    result = item.recommendation.result if item.recommendation else None
    rec_id = item.recommendation_id
    return {
        "position": item.position,
        "name": item.name,
        "status": item.status,
        "recommendation_id": rec_id,
        "permalink": f"{base}/r/{rec_id}/" if rec_id else None,
        "mycnf_url": f"{base}/api/v1/recommendations/{rec_id}/mycnf" if rec_id else None,
        "settings": {s["name"]: s["display"] for s in result["settings"]} if result else None,
        "warnings": list(result["warnings"]) if result else [],
        "output_refused": result.get("output_refused") if result else None,
        "errors": item.errors,
    }


class BatchDetailApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="batch_get",
        summary="A batch's status, progress and items (paginated)",
        parameters=[BatchDetailQuery],
        responses={(200, "application/json"): BatchOutput, **errors(400, 401, 404)},
    )
    def get(self, request: Request, batch_id: Any) -> Response:
        batch = _own_batch(request, batch_id)
        batch_nudge(batch=batch)
        query = BatchDetailQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        page, size = query.validated_data["page"], query.validated_data["page_size"]
        items = batch.items.select_related("recommendation").order_by("position")
        if "status" in query.validated_data:
            items = items.filter(status=query.validated_data["status"])
        count = items.count()
        url, base = request.build_absolute_uri(), base_url(request)
        results = [_item(i, base) for i in items[(page - 1) * size : page * size]]
        body = {
            "id": batch.id,
            "status": batch.status,
            "created_at": batch.created_at,
            "queued_at": batch.queued_at,
            "finished_at": batch.finished_at,
            "progress": batch_progress(batch=batch),
            "archive_url": _links(request, batch)["archive_url"],
            "items": {
                "count": count,
                "page": page,
                "page_size": size,
                "next": replace_query_param(url, "page", page + 1) if page * size < count else None,
                "previous": replace_query_param(url, "page", page - 1) if page > 1 else None,
                "results": results,
            },
        }
        return Response(BatchOutput(body).data)


class BatchArchiveApi(APIView):
    permission_classes = (IsAuthenticated,)
    content_negotiation_class = ArchiveNegotiation

    @extend_schema(
        operation_id="batch_archive",
        summary="The finished batch as a zip: one export per host (my.cnf by default), summary.csv",
        description=(
            "A worker builds each format once: my.cnf as the batch finishes, any other format "
            "when it is first asked for. Until it is built the answer is 409 with `Retry-After`, "
            "as while the batch runs (an error, so that no client saves the message as the "
            "zip); then the zip, with a Content-Length that a complete download matches."
        ),
        parameters=[ARCHIVE_FORMAT_PARAMETER],
        responses={
            (200, "application/zip"): OpenApiTypes.BINARY,
            **errors(400, 401, 404, 409),
        },
    )
    def get(self, request: Request, batch_id: Any) -> FileResponse:
        fmt = archive_format(request)
        batch = _own_batch(request, batch_id)
        if batch.status != Batch.Status.DONE:
            progress = batch_progress(batch=batch)
            done = progress["done"] + progress["failed"]
            raise NotReady(
                f"The batch is not finished yet ({done:,} of {batch.total:,} profiles); "
                "the archive is ready once its status is done."
            )
        try:
            path = batch_archive_file(batch=batch, fmt=fmt)
        except BrokerUnavailable:
            raise ServiceUnavailable(ARCHIVE_BROKER_DOWN) from None
        if path is None:
            raise NotReady(
                f"The {fmt} archive of this batch ({batch.total:,} hosts) is being built; ask "
                f"again in {RETRY_AFTER_SECONDS} s (Retry-After)."
            )
        return archive_response(path=path, batch_id=batch.id)
