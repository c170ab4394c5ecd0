import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse

from advisor.models import CalibrationRun, Measurement

pytestmark = pytest.mark.django_db
MEASUREMENTS = reverse("admin:advisor_measurement_changelist")
RUNS = reverse("admin:advisor_calibrationrun_changelist")
FIT = reverse("admin:advisor_fit_now")


@pytest.fixture(autouse=True)
def room_for_a_whole_fit(settings):
    """Without a broker the fit runs inside the admin's request; on a busy 2-core runner it can
    outlast the 20 s request budget, which tests/worker/test_database_down.py exercises."""
    settings.REQUEST_SECONDS = 300.0


@pytest.fixture
def staff(client):
    user = User.objects.create_user("reviewer", password="x", is_staff=True)
    for codename in ("view_measurement", "change_measurement", "view_calibrationrun"):
        user.user_permissions.add(Permission.objects.get(codename=codename))
    client.force_login(user)
    return user


def act(client, action, *measurements):
    selected = [str(m.pk) for m in measurements]
    return client.post(MEASUREMENTS, {"action": action, "_selected_action": selected}, follow=True)


def test_the_measurement_list_filters_by_status_and_kind(admin_client, make_measurement):
    make_measurement()
    html = admin_client.get(MEASUREMENTS).content.decode()
    assert "By status" in html
    assert "By kind" in html
    assert admin_client.get(MEASUREMENTS, {"status__exact": "pending"}).status_code == 200


def test_the_approve_action_approves_through_the_service(admin_client, make_measurement):
    one, two = make_measurement(), make_measurement()
    response = act(admin_client, "approve", one, two)
    assert "2 approved" in response.content.decode()
    assert set(Measurement.objects.values_list("status", flat=True)) == {"approved"}


def test_an_unusable_measurement_is_reported_and_left_pending(admin_client, make_measurement):
    good, bad = make_measurement(), make_measurement(metric="tpmC")
    html = act(admin_client, "approve", good, bad).content.decode()
    assert f"measurement #{bad.pk}" in html
    bad.refresh_from_db()
    good.refresh_from_db()
    assert (good.status, bad.status) == ("approved", "pending")


def test_the_reject_action_rejects(admin_client, make_measurement):
    measurement = make_measurement()
    assert "1 rejected" in act(admin_client, "reject", measurement).content.decode()
    measurement.refresh_from_db()
    assert measurement.status == Measurement.Status.REJECTED


def test_both_lists_show_the_fit_now_button(admin_client):
    for url in (MEASUREMENTS, RUNS):
        html = admin_client.get(url).content.decode()
        assert f'action="{FIT}"' in html
        assert "Fit the model now" in html


def test_fit_now_queues_the_task_which_records_a_run(admin_client):
    response = admin_client.post(FIT, follow=True)
    assert response.redirect_chain[-1][0] == RUNS
    assert "Fit queued" in response.content.decode()
    assert CalibrationRun.objects.get().trigger == CalibrationRun.Trigger.TASK


def test_fit_now_refuses_get(admin_client):
    assert admin_client.get(FIT).status_code == 405
    assert not CalibrationRun.objects.exists()


def test_fit_now_needs_the_permission_to_add_runs(client, staff):
    assert client.post(FIT).status_code == 403
    staff.user_permissions.add(Permission.objects.get(codename="add_calibrationrun"))
    assert client.post(FIT).status_code == 302


def test_calibration_runs_are_read_only(admin_client):
    run_id = admin_client.post(FIT) and CalibrationRun.objects.get().pk
    assert admin_client.get(reverse("admin:advisor_calibrationrun_add")).status_code == 403
    change = reverse("admin:advisor_calibrationrun_change", args=[run_id])
    html = admin_client.get(change).content.decode()
    assert 'name="version"' not in html  # shown, not editable


def test_fit_now_says_so_when_the_broker_is_down(admin_client, monkeypatch):
    from kombu.exceptions import OperationalError

    from advisor.calibration_admin.tasks import calibration_fit

    def unreachable():
        raise OperationalError("connection refused")

    monkeypatch.setattr(calibration_fit, "delay", unreachable)
    response = admin_client.post(FIT, follow=True)
    assert "The task queue is unreachable." in response.content.decode()
    assert not CalibrationRun.objects.exists()
