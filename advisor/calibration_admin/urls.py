"""The calibration page: the data, the fit and its honesty, server-rendered."""

from django.urls import URLPattern, URLResolver, path

from advisor.calibration_admin import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.calibration_page, name="calibration"),
]
