"""Every Celery task. Celery's autodiscovery imports `advisor.tasks` in each worker and in beat;
this module imports each feature's tasks (`advisor/<feature>/tasks.py`), so a worker registers
them all, and holds the one housekeeping task.

Registered names are the module paths the tasks had before issue 11 moved them to their
features (`advisor.tasks.batches.*`, `advisor.tasks.calibration.*`,
`advisor.tasks.maintenance.*`): messages already queued, beat's schedule and clients that send
a task by name keep working. tests/advisor/test_tasks.py holds them to that.
"""

from celery import shared_task
from django.core.management import call_command

from advisor.calibration_admin.tasks import calibration_fit as calibration_fit
from advisor.fleet.tasks import batch_archive_build as batch_archive_build
from advisor.fleet.tasks import batch_process_chunk as batch_process_chunk
from advisor.fleet.tasks import batch_start as batch_start
from advisor.fleet.worker import RequeueIncompleteBatches as RequeueIncompleteBatches


# Django never deletes a session row by itself; every anonymous wizard visitor leaves one, so
# beat runs this once a day (CELERY_BEAT_SCHEDULE).
@shared_task(
    name="advisor.tasks.maintenance.sessions_clear",
    acks_late=True,
    soft_time_limit=600,
    time_limit=660,
)
def sessions_clear() -> None:
    """Delete the sessions past their expiry (Django's `clearsessions`)."""
    call_command("clearsessions")
