import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the app can query its database, 503 when it cannot."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        logger.exception("healthz: database check failed")
        return JsonResponse({"status": "error", "message": "database unavailable"}, status=503)
    return JsonResponse({"status": "ok"})
