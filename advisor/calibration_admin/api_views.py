"""Users' measurements: submitted with a token, stored for an admin to approve."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from advisor.api.errors import FieldErrors
from advisor.api.openapi import errors
from advisor.calibration_admin.serializers import MeasurementInput, MeasurementOutput
from advisor.calibration_admin.submissions import MeasurementInvalid, Submission, measurement_submit


class MeasurementCreateApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="measurement_create",
        summary="Submit a measured result or fio IOPS for a described machine",
        request=MeasurementInput,
        responses={(201, "application/json"): MeasurementOutput, **errors(400, 401, 413, 415)},
    )
    def post(self, request: Request) -> Response:
        """Stored as pending; it enters the calibration only once an admin approves it."""
        data = MeasurementInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            measurement = measurement_submit(
                submission=Submission(**data.validated_data), submitted_by=request.user
            )
        except MeasurementInvalid as problem:
            raise FieldErrors(
                "The measurement cannot be used; each problem is listed under its field.",
                problem.errors,
            ) from None
        return Response(MeasurementOutput(measurement).data, status=status.HTTP_201_CREATED)
