"""REST API v1 for provisioning tools (included at /api/v1/)."""

from django.urls import URLPattern, URLResolver, path, re_path
from drf_spectacular.views import SpectacularAPIView

from advisor.api.views import batches, fallback, measurements, recommendations, reference

R = recommendations
urlpatterns: list[URLPattern | URLResolver] = [
    path("recommendations", R.RecommendationCreateApi.as_view(), name="api-recommendation-create"),
    path(
        "recommendations/<str:recommendation_id>",
        R.RecommendationDetailApi.as_view(),
        name="api-recommendation-detail",
    ),
    path("recommendations/<str:recommendation_id>/mycnf", R.RecommendationMyCnfApi.as_view()),
    path("recommendations/<str:recommendation_id>/sql", R.RecommendationSqlApi.as_view()),
    path("recommendations/<str:recommendation_id>/udev", R.RecommendationUdevApi.as_view()),
    path("batches", batches.BatchCreateApi.as_view(), name="api-batch-create"),
    path("batches/<uuid:batch_id>", batches.BatchDetailApi.as_view(), name="api-batch-detail"),
    path("batches/<uuid:batch_id>/archive", batches.BatchArchiveApi.as_view()),
    path("catalog", reference.CatalogGetApi.as_view(), name="api-catalog"),
    path("rules", reference.RuleListApi.as_view(), name="api-rules"),
    path("sources", reference.SourceListApi.as_view(), name="api-sources"),
    path("measurements", measurements.MeasurementCreateApi.as_view(), name="api-measurements"),
    path("schema", SpectacularAPIView.as_view(throttle_classes=()), name="api-schema"),
    path("docs", fallback.ApiDocsApi.as_view(url_name="api-schema"), name="api-docs"),
    re_path(r"^.*$", fallback.ApiNotFoundApi.as_view()),
]
