import pytest

from advisor.models import CalibrationRun
from advisor.tasks import calibration_fit

pytestmark = pytest.mark.django_db


def test_the_task_runs_the_same_fit_and_records_it_as_a_task(artifact_dir):
    version = calibration_fit.delay().get()  # eager: no broker is configured in tests
    run = CalibrationRun.objects.get()
    assert run.version == version
    assert run.trigger == CalibrationRun.Trigger.TASK
    assert (artifact_dir / f"calibration-{version}.json").is_file()


def test_the_task_is_late_acked_retried_with_backoff_and_time_limited():
    assert calibration_fit.acks_late is True
    assert calibration_fit.retry_backoff
    assert calibration_fit.max_retries == 3
    assert 0 < calibration_fit.soft_time_limit < calibration_fit.time_limit
