"""The wizard's pages: every step at its own URL, HTMX fragments, and the plain-form path."""

import re
from itertools import pairwise

import pytest
from django.test import Client

from advisor.models import Recommendation
from advisor.recommendations.wizard.steps import raw_profile
from advisor.recommendations.wizard.summary import machine_summary
from rules.engine import recommend
from rules.inputs.enums import Flavor
from rules.inputs.errors import ProfileError
from rules.inputs.examples import profile
from rules.inputs.validation import parse_profile
from rules.inputs.version import SUPPORTED_RANGE_TEXT
from tests.advisor.wizard.helpers import ANSWERS, HTMX, complete_wizard, post_step

pytestmark = pytest.mark.django_db

STEPS = ["server", "hardware", "storage", "workload", "current"]


def api_message(path: str, raw: dict) -> list[str]:
    with pytest.raises(ProfileError) as problem:
        parse_profile(raw)
    return problem.value.errors[path]


@pytest.mark.parametrize("step", STEPS)
def test_each_step_is_a_page_of_its_own_with_a_form_that_works_without_javascript(client, step):
    response = client.get(f"/wizard/{step}/")
    assert response.status_code == 200
    assert [t.name for t in response.templates][:2] == ["recommendations/wizard.html", "base.html"]
    html = response.content.decode()
    assert f'action="/wizard/{step}/"' in html
    assert f'hx-post="/wizard/{step}/"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert f'<a href="/wizard/{step}/" aria-current="step">' in html
    assert 'id="summary"' in html


def test_an_unknown_step_is_not_found(client):
    assert client.get("/wizard/nonsense/").status_code == 404
    assert client.post("/wizard/nonsense/check/", **HTMX).status_code == 404


@pytest.mark.parametrize(("step", "following"), list(pairwise(STEPS)))
def test_a_valid_step_sends_the_visitor_to_the_next_one(client, step, following):
    response = post_step(client, step)
    assert response.status_code == 302
    assert response["Location"] == f"/wizard/{following}/"


def test_an_invalid_step_without_javascript_redirects_to_itself_so_back_never_reposts(client):
    response = post_step(client, "hardware", ram_gb="20000")
    assert response.status_code == 302
    assert response["Location"] == "/wizard/hardware/?check=1"


def test_an_out_of_range_number_gets_the_apis_message_next_to_the_field(client):
    response = post_step(client, "hardware", ram_gb="20000", follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    message = api_message("hardware.ram_gb", {"hardware": {"ram_gb": 20000}})[0]
    assert message == "must be a number from 0.5 to 16384; got 20000"
    assert f'<p class="field-error" id="id_ram_gb_error" aria-live="polite">{message}</p>' in html
    assert 'aria-invalid="true"' in html
    assert 'role="alert"' in html  # the summary of problems at the top
    assert f'<a href="#id_ram_gb">RAM (GB): {message}</a>' in html
    assert 'value="20000"' in html  # what was typed stays


def test_a_raid_level_that_does_not_fit_the_device_count_is_named_on_the_raid_level(client):
    response = post_step(client, "storage", raid_level="raid5", device_count="2", follow=True)
    html = response.content.decode()
    assert 'id="id_raid_level_error" aria-live="polite">raid5 needs a device count' in html


def test_text_in_a_number_field_is_an_error_not_a_crash(client):
    response = post_step(
        client, "workload", concurrency="sixty-four", data_size_gb="1e999", follow=True
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "must be a whole number from 1 to 100000" in html
    assert "must be a number from 0.001 to 1048576" in html


def test_rpm_does_not_apply_to_flash_and_is_ignored_there(client):
    response = post_step(client, "storage", media="nvme", rpm="15000")
    assert response.status_code == 302


def test_a_step_swapped_by_htmx_answers_with_the_next_fragment_and_its_url(client):
    response = client.post("/wizard/server/", ANSWERS["server"], **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert html.lstrip().startswith("<title>Hardware · InnoDB IO Advisor</title>")
    assert '<div id="wizard" class="wizard">' in html
    assert "autofocus" in html
    assert response["HX-Push-Url"] == "/wizard/hardware/"


def test_an_invalid_step_swapped_by_htmx_comes_back_with_its_errors(client):
    response = client.post("/wizard/hardware/", {**ANSWERS["hardware"], "cpu_cores": "0"}, **HTMX)
    html = response.content.decode()
    assert "<html" not in html
    assert "must be a whole number from 1 to 1024; got 0" in html
    assert "HX-Push-Url" not in response


def test_a_history_restore_gets_the_whole_page(client):
    response = client.get("/wizard/hardware/", HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    assert "<html" in response.content.decode()


def test_the_live_check_swaps_only_the_fields_error_and_the_summary(client):
    response = client.post(
        "/wizard/hardware/check/",
        {**ANSWERS["hardware"], "ram_gb": "0.1"},
        HTTP_HX_TRIGGER_NAME="ram_gb",
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert (
        '<p id="id_ram_gb_error" hx-swap-oob="innerHTML">'
        "must be a number from 0.5 to 16384; got 0.1</p>"
    ) in html
    assert "id_cpu_cores_error" not in html
    assert (
        '<aside id="summary" class="summary" aria-labelledby="summary-title" hx-swap-oob="true">'
        in html
    )
    assert "0.1 GB RAM" not in html  # a refused value is not summed up as a fact
    assert "<form" not in html


def test_the_live_check_of_the_device_count_rechecks_the_raid_level(client):
    data = {**ANSWERS["storage"], "raid_level": "raid6", "device_count": "3"}
    response = client.post(
        "/wizard/storage/check/", data, HTTP_HX_TRIGGER_NAME="device_count", **HTMX
    )
    html = response.content.decode()
    assert '<p id="id_device_count_error" hx-swap-oob="innerHTML"></p>' in html
    assert "raid6 needs a device count of at least 4; got 3" in html


def test_the_live_check_without_htmx_goes_back_to_the_step(client):
    response = client.post("/wizard/hardware/check/", ANSWERS["hardware"])
    assert response.status_code == 302
    assert response["Location"] == "/wizard/hardware/"


def test_what_was_typed_survives_a_reload_even_when_it_is_wrong(client):
    client.post(
        "/wizard/hardware/check/",
        {**ANSWERS["hardware"], "ram_gb": "-3"},
        HTTP_HX_TRIGGER_NAME="ram_gb",
        **HTMX,
    )
    html = client.get("/wizard/hardware/").content.decode()
    assert 'value="-3"' in html
    assert "must be a number from 0.5 to 16384; got -3" in html  # typed, so checked on load
    assert "is required" not in html  # untouched fields are not scolded on a GET


def test_back_keeps_what_was_typed_without_checking_it(client):
    response = post_step(client, "storage", device_count="many", go="back")
    assert response["Location"] == "/wizard/hardware/"
    assert 'value="many"' in client.get("/wizard/storage/").content.decode()


def test_the_summary_follows_the_answers_across_steps(client):
    post_step(client, "server")
    post_step(client, "hardware")
    html = client.get("/wizard/storage/").content.decode()
    assert "MySQL 8.0.36" in html
    assert "64 GB RAM · 16 cores · Linux 5.15" in html


def test_the_whole_wizard_works_as_plain_forms_and_ends_at_a_permalink(client):
    permalink = complete_wizard(client)
    assert re.fullmatch(r"/r/[0-9a-f]{20}/", permalink)
    response = client.get(permalink)
    assert response.status_code == 200
    assert "innodb_io_capacity" in response.content.decode()
    assert Recommendation.objects.filter(id=permalink.split("/")[2]).exists()


def test_with_htmx_the_last_step_redirects_the_browser_to_the_permalink(client):
    for step in STEPS[:-1]:
        post_step(client, step)
    response = client.post("/wizard/current/", ANSWERS["current"], **HTMX)
    assert response.status_code == 200
    assert re.fullmatch(r"/r/[0-9a-f]{20}/", response["HX-Redirect"])


def test_a_pasted_config_shows_the_change_of_every_setting(client):
    permalink = complete_wizard(client, current_text="[mysqld]\ninnodb_io_capacity = 200\n")
    html = client.get(permalink).content.decode()
    assert '<th scope="col">Current</th>' in html
    assert "↑ raise" in html


def test_a_form_submitted_twice_gives_one_result(client):
    first = complete_wizard(client)
    again = post_step(client, "current")
    assert again["Location"] == first
    assert Recommendation.objects.count() == 1


def test_a_stale_form_after_the_session_expired_sends_the_visitor_back_to_fill_in(client):
    complete_wizard(client)
    stale = Client()
    response = post_step(stale, "current")
    assert response.status_code == 302
    assert response["Location"] == "/wizard/server/?check=1"
    html = stale.get(response["Location"]).content.decode()
    assert "Version: is required (text)" in html


def test_get_recommendations_now_is_offered_once_every_step_is_valid(client):
    assert 'value="finish"' not in client.get("/wizard/hardware/").content.decode()
    for step in STEPS[:-1]:
        post_step(client, step)
    assert 'value="finish"' in client.get("/wizard/hardware/").content.decode()
    response = post_step(client, "hardware", go="finish")
    assert re.fullmatch(r"/r/[0-9a-f]{20}/", response["Location"])


def test_binary_garbage_in_the_paste_box_is_an_error_not_a_crash(client):
    garbage = bytes(range(256)).decode("latin-1") * 40
    response = post_step(client, "current", current_text=garbage, follow=True)
    assert response.status_code == 200
    assert "does not look like a my.cnf / SHOW GLOBAL VARIABLES output" in response.content.decode()


def test_a_paste_over_the_apis_limit_gets_the_apis_message(client):
    response = post_step(client, "current", current_text="# x\n" * 100_000, follow=True)  # 400 KB
    assert response.status_code == 200
    assert "is longer than the limit of 262,144 bytes" in response.content.decode()


def test_a_5_mb_paste_is_refused_without_a_traceback(client):
    response = post_step(client, "current", current_text="x" * 5_000_000)
    assert response.status_code == 400  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE, before any view


def test_a_paste_survives_a_reload(client):
    post_step(client, "current", current_text="[mysqld]\nsync_binlog = 0\n", go="back")
    html = client.get("/wizard/current/").content.decode()
    assert "sync_binlog = 0" in html
    assert "my.cnf, 2 lines" in html


def test_start_over_clears_the_draft(client):
    post_step(client, "hardware", go="back")
    response = client.post("/wizard/reset/")
    assert response["Location"] == "/wizard/server/"
    assert 'value="64"' not in client.get("/wizard/hardware/").content.decode()


@pytest.mark.parametrize(
    ("step", "name", "typed", "path"),
    [
        ("hardware", "ram_gb", "20000", "hardware.ram_gb"),
        ("hardware", "cpu_cores", "2.5", "hardware.cpu_cores"),
        ("server", "version", "eight", "server.version"),
        ("storage", "device_count", "3", "hardware.storage.raid_level"),
        ("workload", "concurrency", "lots", "workload.concurrency"),
    ],
)
def test_the_wizard_and_the_rest_api_give_the_same_message(client, step, name, typed, path):
    draft = {k: v for answers in ANSWERS.values() for k, v in answers.items()}
    draft[name] = typed
    api = client.post(
        "/api/v1/recommendations", raw_profile(draft), content_type="application/json"
    )
    assert api.status_code == 400
    wizard = client.post(f"/wizard/{step}/check/", draft, HTTP_HX_TRIGGER_NAME=name, **HTMX)
    for message in api.json()["errors"][path]:
        assert message in wizard.content.decode()


@pytest.mark.parametrize(
    ("media", "name", "typed"), [("hdd", "rpm", "²"), ("network_ssd", "provisioned_iops", "³")]
)
def test_the_live_check_shows_digits_int_cannot_read_as_typed(client, media, name, typed):
    """str.isdigit() accepts a superscript digit that int() refuses: the summary neither fails
    on it nor repeats it (the validator refused it), and read alone it keeps it as text."""
    data = {**ANSWERS["storage"], "media": media, name: typed}
    response = client.post("/wizard/storage/check/", data, HTTP_HX_TRIGGER_NAME=name, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert typed not in html[html.index('id="summary"') :]
    assert typed in machine_summary(data)[2].text


@pytest.mark.parametrize(
    ("flavor", "version", "named", "why"),
    [
        ("mariadb", "12.0", "MariaDB 12.0", "is newer than the variable catalog knows"),
        ("mysql", "26.10.0", "MySQL 26.10", "is newer than the variable catalog knows"),
        ("mysql", "5.6.51", "MySQL 5.6", "is older than the supported range"),
        ("mariadb", "10.8", "MariaDB 10.8", "is a short-term series outside the supported range"),
    ],
)
def test_a_release_the_advisor_writes_no_mycnf_for_is_refused_at_the_first_step(
    client, flavor, version, named, why
):
    """Decided at the server step with the engine's reason (support_of), not five steps later
    on the result page."""
    response = post_step(client, "server", flavor=flavor, version=version)
    assert response.status_code == 302
    assert response["Location"] == "/wizard/server/?check=1"
    html = client.get(response["Location"]).content.decode()
    assert f'id="id_version_error" aria-live="polite">{named} {why}: the advisor writes' in html
    assert f"{SUPPORTED_RANGE_TEXT[Flavor(flavor)]} only" in html
    data = {**ANSWERS["server"], "flavor": flavor, "version": version}
    fragment = client.post("/wizard/server/", data, **HTMX)
    assert fragment.status_code == 200
    assert f"{named} {why}" in fragment.content.decode()
    assert "HX-Push-Url" not in fragment  # swapped in place: it stays on the server step


def test_the_first_step_refusal_is_the_engines_decision(client):
    """Every release the wizard refuses is one the engine refuses output for, and back."""
    for flavor, version in [("mariadb", "12.0"), ("mariadb", "11.5"), ("mysql", "9.3.0")]:
        refused = recommend(profile(**{"server.flavor": flavor, "server.version": version}))
        response = post_step(client, "server", flavor=flavor, version=version)
        stays = response["Location"] == "/wizard/server/?check=1"
        assert stays == (refused.output_refused is not None), (flavor, version)


@pytest.mark.parametrize("htmx", [True, False], ids=["live-check", "plain-post"])
def test_the_summary_never_echoes_a_refused_value(client, htmx):
    """Issue #45: the sidebar read "64GB GB RAM · 16.5 cores · Linux six"."""
    data = {
        **ANSWERS["hardware"],
        "ram_gb": "64GB",
        "cpu_cores": "16.5",
        "kernel": "six",
        "numa_nodes": "1",
    }
    if htmx:
        response = client.post(
            "/wizard/hardware/check/", data, HTTP_HX_TRIGGER_NAME="ram_gb", **HTMX
        )
    else:
        response = client.post("/wizard/hardware/", {**data, "go": "next"}, follow=True)
    html = response.content.decode()
    summary = html[html.index('id="summary"') :]
    assert "64GB" not in summary
    assert "16.5 cores" not in summary
    assert "Linux six" not in summary
    assert "1 NUMA node" in summary
    assert "1 NUMA nodes" not in summary


def test_labels_and_help_texts_read_as_words_not_internal_values(client):
    html = client.get("/wizard/storage/").content.decode()
    html += client.get("/wizard/workload/").content.decode()
    html += client.get("/wizard/current/").content.decode()
    assert "(optional) (optional)" not in re.sub(r"<[^>]+>|\s+", " ", html).replace("  ", " ")
    for internal in ("write_back_bbu", "network_ssd", "true:", "false (the default)", "full: a"):
        assert internal not in re.sub(r'<option[^>]*value="[^"]*"|name="[^"]*"', "", html)
