"""What an anonymous client can make the site do: limits on the pages that compute or store
(weighed by body size, GETs of the pages that compute included), a bounded session per visitor
that keeps no pasted secret, expired sessions cleared, and admin logins locked out after repeated
failures."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.template.response import TemplateResponse
from django.test import Client
from django.utils import timezone

from advisor.recommendations.services import recommendation_create
from advisor.recommendations.wizard.steps import SESSION_KEY
from advisor.tasks import sessions_clear
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from tests.advisor.wizard.helpers import ANSWERS

pytestmark = pytest.mark.django_db

LIMITED_POSTS = [
    "/presets/nvme-modern/",
    "/wizard/server/",
    "/wizard/server/check/",
    "/wizard/reset/",
    "/batches/",
]


@pytest.mark.parametrize("path", LIMITED_POSTS)
def test_posts_past_the_page_rate_get_a_429_page_with_retry_after(client, settings, path):
    settings.PAGE_RATE = "3/minute"
    statuses = [client.post(path, ANSWERS["server"]).status_code for _ in range(3)]
    assert 429 not in statuses
    refused = client.post(path, ANSWERS["server"])
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert b"Too many requests from your address" in refused.content
    assert client.get("/wizard/server/").status_code == 200  # reading is never limited


def test_the_page_limit_counts_each_address_apart(settings):
    settings.PAGE_RATE = "2/minute"
    first, second = Client(REMOTE_ADDR="192.0.2.1"), Client(REMOTE_ADDR="192.0.2.2")
    for _ in range(2):
        assert first.post("/wizard/reset/").status_code == 302
    assert first.post("/wizard/reset/").status_code == 429
    assert second.post("/wizard/reset/").status_code == 302


def test_a_forwarded_address_is_ignored_unless_proxies_are_declared(settings):
    """Otherwise a client would pick a new identity per request with X-Forwarded-For."""
    settings.PAGE_RATE = "2/minute"
    client = Client(REMOTE_ADDR="192.0.2.9")
    codes = [
        client.post("/wizard/reset/", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code
        for i in range(3)
    ]
    assert codes == [302, 302, 429]


@pytest.fixture
def permalink() -> str:
    return recommendation_create(profile=parse_profile(raw_profile())).permalink


@pytest.mark.parametrize("suffix", ["", "?whatif=ram", "download/mycnf"])
def test_gets_of_a_result_past_the_page_rate_get_a_429_page(settings, permalink, suffix):
    """One address's result-page GETs (32 connections) took another user's median from 10 ms to
    1,061 ms: they compute, so they count."""
    settings.PAGE_RATE = "3/minute"
    client = Client(REMOTE_ADDR="192.0.2.30")
    assert [client.get(permalink + suffix).status_code for _ in range(3)] == [200] * 3
    refused = client.get(permalink + suffix)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert Client(REMOTE_ADDR="192.0.2.31").get(permalink + suffix).status_code == 200


def test_a_refusal_reads_no_session_database_or_template_and_keeps_the_headers(
    settings, permalink, django_assert_num_queries
):
    """A 429 must cost far less than the page it refuses: it is answered before the session,
    the CSRF check, the database and any template (benchmarks/page_flood.sh)."""
    settings.PAGE_RATE = "1/minute"
    client = Client(REMOTE_ADDR="192.0.2.34")
    assert client.get(permalink).status_code == 200
    client.cookies.clear()
    with django_assert_num_queries(0):
        refused = client.get(permalink, {"whatif": "ram"})
    assert refused.status_code == 429
    assert not isinstance(refused, TemplateResponse)
    assert refused.templates == []  # the test client records every template rendered
    assert not refused.cookies  # no session and no CSRF cookie set
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused["Cache-Control"] == "no-store"
    assert refused["X-Frame-Options"] == "DENY"
    assert refused["X-Content-Type-Options"] == "nosniff"
    assert refused["Referrer-Policy"] == "same-origin"
    assert "script-src 'self'" in refused["Content-Security-Policy"]
    assert b"Too many requests from your address" in refused.content


def test_a_refused_get_is_counted_once(settings, permalink):
    """The early check counts; the view does not count the same request again."""
    settings.PAGE_RATE = "2/minute"
    client = Client(REMOTE_ADDR="192.0.2.35")
    assert [client.get(permalink).status_code for _ in range(3)] == [200, 200, 429]


def test_other_methods_on_a_counted_get_page_are_not_counted(settings, permalink):
    settings.PAGE_RATE = "1/minute"
    client = Client(REMOTE_ADDR="192.0.2.36")
    assert [client.head(permalink).status_code for _ in range(3)] == [405] * 3
    assert client.get(permalink).status_code == 200


def test_the_sources_page_counts_against_the_page_rate(settings):
    settings.PAGE_RATE = "1/minute"
    client = Client(REMOTE_ADDR="192.0.2.32")
    assert [client.get("/sources/").status_code for _ in range(2)] == [200, 429]


def test_a_big_paste_uses_more_of_the_page_rate_than_a_small_one(settings):
    """A POST counts one unit per started 32 KiB of body."""
    settings.PAGE_RATE = "10/minute"
    client = Client(REMOTE_ADDR="192.0.2.33")
    small = {"current_form": "mycnf", "current_text": "[mysqld]\ninnodb_io_capacity=200\n"}
    assert [client.post("/wizard/current/", small).status_code for _ in range(2)] == [302, 302]
    big = {
        **small,
        "current_text": small["current_text"] + "# padding line\n" * 8000,
    }  # 4 units (multipart)
    codes = [client.post("/wizard/current/", big).status_code for _ in range(3)]
    assert codes == [302, 302, 429]


def _session_bytes() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(sum(octet_length(session_data)), 0) FROM django_session")
        return int(cursor.fetchone()[0])


def test_cookieless_posts_of_big_pastes_keep_the_session_table_small():
    """40 posts of 950 KB, each from a new visitor, added 29 MB before."""
    paste = "[mysqld]\ninnodb_io_capacity=200\n" + "# padding line\n" * 63_000  # ~950 KB
    before = _session_bytes()
    for _ in range(40):
        response = Client().post(
            "/wizard/current/", {"current_form": "mycnf", "current_text": paste}
        )
        assert response.status_code in (200, 302)
    assert Session.objects.count() == 40
    assert _session_bytes() - before < 40 * 4096


def test_an_unreadable_paste_is_not_kept_only_its_message(client):
    paste = "mysql -uroot -pHunter2Secret\n" + "nothing the server reads\n" * 400
    response = client.post(
        "/wizard/current/", {"current_form": "mycnf", "current_text": paste}, follow=True
    )
    assert b"no server variables found" in response.content
    draft = client.session[SESSION_KEY]
    assert draft["current_text"] == ""
    assert "no server variables found" in draft["current_problem"]
    assert "Hunter2Secret" not in Session.objects.get().session_data
    again = client.get("/wizard/current/?check=1").content.decode()
    assert "no server variables found" in again
    assert "Hunter2Secret" not in again


def test_the_session_keeps_no_pasted_credential(client):
    paste = "[mysqld]\ninnodb_io_capacity=200\nwsrep_sst_auth=sst:Hunter2Secret\n"
    client.post("/wizard/current/", {"current_form": "mycnf", "current_text": paste})
    stored = Session.objects.get().session_data
    draft = client.session[SESSION_KEY]
    assert "Hunter2Secret" not in draft["current_text"]
    assert "Hunter2Secret" not in stored
    assert "innodb_io_capacity = 200" in draft["current_text"]
    assert "wsrep_sst_auth" in draft["current_text"]  # named in the note on what was dropped


def test_the_result_still_says_what_was_dropped(client):
    for step in ("server", "hardware", "storage", "workload"):
        client.post(f"/wizard/{step}/", ANSWERS[step])
    paste = "[mysqld]\ninnodb_io_capacity=200\nwsrep_sst_auth=sst:Hunter2Secret\n"
    response = client.post(
        "/wizard/current/", {"current_form": "mycnf", "current_text": paste}, follow=True
    )
    html = response.content.decode()
    assert "may hold credentials (wsrep_sst_auth)" in html
    assert "Hunter2Secret" not in html


def test_the_beat_task_deletes_expired_sessions_only(client):
    client.post("/wizard/reset/")
    live = Session.objects.get()
    Session.objects.create(
        session_key="x" * 32, session_data="", expire_date=timezone.now() - timedelta(days=1)
    )
    sessions_clear.delay()  # eager: Celery runs it in-process without a broker
    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]


def _login(client: Client, password: str) -> Any:
    return client.post("/admin/login/?next=/admin/", {"username": "root", "password": password})


def test_admin_logins_are_locked_out_after_repeated_failures(settings):
    get_user_model().objects.create_superuser("root", "root@example.com", "right-password-1")
    client = Client(REMOTE_ADDR="203.0.113.7")
    codes = [_login(client, f"wrong-{i}").status_code for i in range(settings.AXES_FAILURE_LIMIT)]
    assert codes == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    assert _login(client, "wrong-again").status_code == 429
    assert _login(client, "right-password-1").status_code == 429  # locked, even when right
    other = Client(REMOTE_ADDR="203.0.113.8")
    assert _login(other, "right-password-1").status_code == 302  # another address logs in
