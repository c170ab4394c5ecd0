"""Every URL: the pages of each feature, the admin, and the REST API v1 for provisioning tools
(each endpoint from its feature's `api_views`; what no endpoint matches answers the API's 404)."""

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path
from drf_spectacular.views import SpectacularAPIView

from advisor import health
from advisor.api import views as api
from advisor.calibration_admin import api_views as measurements
from advisor.fleet import api_views as batches
from advisor.recommendations import api_views as recommendations
from advisor.reference import api_views as reference
from advisor.reference.probe_views import probe_download

R = recommendations
api_v1: list[URLPattern | URLResolver] = [
    path("recommendations", R.RecommendationCreateApi.as_view(), name="api-recommendation-create"),
    path(
        "recommendations/<str:recommendation_id>",
        R.RecommendationDetailApi.as_view(),
        name="api-recommendation-detail",
    ),
    *(
        path(f"recommendations/<str:recommendation_id>/{fmt}", view.as_view())
        for fmt, view in R.EXPORT_VIEWS.items()
    ),
    path("check", R.CheckCreateApi.as_view(), name="api-check"),
    path("batches", batches.BatchCreateApi.as_view(), name="api-batch-create"),
    path("batches/<uuid:batch_id>", batches.BatchDetailApi.as_view(), name="api-batch-detail"),
    path("batches/<uuid:batch_id>/archive", batches.BatchArchiveApi.as_view()),
    path("catalog", reference.CatalogGetApi.as_view(), name="api-catalog"),
    path("rules", reference.RuleListApi.as_view(), name="api-rules"),
    path("sources", reference.SourceListApi.as_view(), name="api-sources"),
    path("measurements", measurements.MeasurementCreateApi.as_view(), name="api-measurements"),
    path("schema", SpectacularAPIView.as_view(throttle_classes=()), name="api-schema"),
    path("docs", api.ApiDocsApi.as_view(url_name="api-schema"), name="api-docs"),
    re_path(r"^.*$", api.ApiNotFoundApi.as_view()),
]

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("probe", probe_download, name="probe"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("calibration/", include("advisor.calibration_admin.urls")),
    path("batches/", include("advisor.fleet.urls")),
    path("", include("advisor.recommendations.wizard.urls")),
]

# A database that is down or stuck is a 503, any other uncaught error a 500, in each face's form.
handler500 = "advisor.unavailable.server_error"
