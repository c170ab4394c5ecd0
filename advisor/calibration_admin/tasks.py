"""The background fit: the same service as `manage.py calibrate`, started from the admin."""

from celery import shared_task
from django.db import DatabaseError

from advisor.calibration_admin.runs import calibration_run_create
from advisor.models import CalibrationRun

# A fit takes about a second per hundred points (leave-one-source-out refits included); these
# limits leave room for a data set ten times larger and stop a stuck worker.
SOFT_TIME_LIMIT_S = 300
TIME_LIMIT_S = 360


@shared_task(
    name="advisor.tasks.calibration.calibration_fit",
    acks_late=True,
    # Transient failures only: the database (a version taken by a concurrent fit, a dropped
    # connection) or the artifact volume. A bug in the fit fails at once instead.
    autoretry_for=(DatabaseError, OSError),
    retry_backoff=10,
    retry_backoff_max=300,
    retry_jitter=True,
    max_retries=3,
    soft_time_limit=SOFT_TIME_LIMIT_S,
    time_limit=TIME_LIMIT_S,
)
def calibration_fit() -> str:
    """Fit, write the artifact and record the run; returns the new calibration version."""
    trigger = CalibrationRun.Trigger.TASK
    return calibration_run_create(trigger=trigger).version  # type: ignore[arg-type]  # a str at runtime
