from django.contrib import admin
from django.urls import include, path

from advisor import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("advisor.api.urls")),
    path("calibration/", include("advisor.calibration_ui.urls")),
    path("batches/", include("advisor.batches_ui.urls")),
    path("", include("advisor.wizard.urls")),
]

# A database that is down or stuck is a 503, any other uncaught error a 500, in each face's form.
handler500 = "advisor.unavailable.server_error"
