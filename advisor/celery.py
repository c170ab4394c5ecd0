"""The Celery app. Configured from Django settings (the CELERY_* names); tasks live in
`<app>/tasks.py` and are found by autodiscovery. Start a worker with `celery -A advisor worker`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")

app = Celery("advisor")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
