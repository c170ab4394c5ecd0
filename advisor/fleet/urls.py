from django.urls import URLPattern, URLResolver, path

from advisor.fleet import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.batch_upload, name="batch-upload"),
    path("<uuid:batch_id>/", views.batch_page, name="batch-page"),
    path("<uuid:batch_id>/archive", views.batch_download, name="batch-download"),
]
