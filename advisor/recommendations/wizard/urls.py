"""The browser wizard: steps, result page, what-if comparison, sources page."""

from django.urls import URLPattern, URLResolver, path, register_converter

from advisor.recommendations.wizard import result_views, views


class ResultId:
    """The shape of a result id (the engine's content hash): anything else is a 404 at once."""

    regex = "[0-9a-z]{16,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ResultId, "result_id")

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.index, name="index"),
    path("presets/<slug:slug>/", views.preset_load, name="preset"),
    path("wizard/reset/", views.wizard_reset, name="wizard-reset"),
    path("wizard/probe/", views.probe_load, name="wizard-probe"),
    path("wizard/<slug:step>/", views.wizard_step, name="wizard-step"),
    path("wizard/<slug:step>/check/", views.wizard_check, name="wizard-check"),
    path("r/<result_id:recommendation_id>/", result_views.result_page, name="result"),
    path(
        "r/<result_id:recommendation_id>/download/<slug:fmt>",
        result_views.result_download,
        name="result-download",
    ),
    path(
        "r/<result_id:recommendation_id>/download/<slug:fmt>/revert",
        result_views.result_download,
        {"revert": True},
        name="result-download-revert",
    ),
    path("r/<result_id:recommendation_id>/edit/", result_views.result_edit, name="result-edit"),
    path("r/<result_id:recommendation_id>/what-if/", result_views.whatif_save, name="whatif-save"),
    path("r/<result_id:recommendation_id>/rds/", result_views.result_rds_list, name="result-rds"),
    path("r/<result_id:recommendation_id>/lab/", result_views.result_lab, name="result-lab"),
    path("sources/", result_views.sources_page, name="sources"),
]
