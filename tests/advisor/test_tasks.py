"""The Celery tasks keep the names they were registered under before they moved to their
features: queued messages, beat's schedule and clients sending a task by name rely on them."""

from django.conf import settings

from advisor import tasks
from advisor.celery import app

REGISTERED_NAMES = {
    "advisor.tasks.batches.batch_start": tasks.batch_start,
    "advisor.tasks.batches.batch_process_chunk": tasks.batch_process_chunk,
    "advisor.fleet.tasks.batch_archive_build": tasks.batch_archive_build,
    "advisor.tasks.calibration.calibration_fit": tasks.calibration_fit,
    "advisor.tasks.maintenance.sessions_clear": tasks.sessions_clear,
}


def test_every_task_keeps_its_registered_name():
    for name, task in REGISTERED_NAMES.items():
        assert task.name == name
        assert name in app.tasks


def test_beat_schedules_only_registered_tasks():
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks
