"""The draft: every schema field has one step, and the draft becomes the API's JSON."""

import pytest

from advisor.recommendations.wizard.presets import PRESETS
from advisor.recommendations.wizard.steps import (
    CURRENT_TEXT,
    NON_FIELD,
    STEPS,
    draft_for_session,
    draft_from_profile,
    draft_initial,
    field_name,
    first_step_with_errors,
    raw_profile,
    validate,
)
from advisor.recommendations.wizard.summary import machine_summary
from rules.engine import recommend
from rules.inputs.errors import ProfileError
from rules.inputs.field_table import FIELDS, REPORT_PATHS
from rules.inputs.validation import parse_profile
from tests.advisor.wizard.helpers import ANSWERS, EXAMPLE_PROFILE


def answers() -> dict[str, str]:
    return {name: value for step in ANSWERS.values() for name, value in step.items()}


def api_errors(raw: dict) -> dict[str, list[str]]:
    with pytest.raises(ProfileError) as problem:
        parse_profile(raw)
    return problem.value.errors


def test_every_schema_field_belongs_to_exactly_one_step():
    """All but a probe's report about itself, which only a probe's document brings, and the lab
    results, which the result page's own form brings (advisor/recommendations/wizard/lab_form)."""
    paths = [path for step in STEPS for path in step.paths]
    elsewhere = REPORT_PATHS | {"workload.lab_results"}
    assert sorted(paths) == sorted(spec.path for spec in FIELDS if spec.path not in elsewhere)
    assert {"provenance", "undetected", "probe.version"} == REPORT_PATHS


def test_the_steps_come_in_the_order_of_the_issue():
    assert [s.slug for s in STEPS] == ["server", "hardware", "storage", "workload", "current"]


def test_the_typed_answers_become_the_contracts_example_profile():
    assert parse_profile(raw_profile(answers())) == parse_profile(EXAMPLE_PROFILE)


def test_empty_fields_are_left_out_so_the_api_names_them_as_required():
    draft = {**answers(), "ram_gb": "  "}
    _, errors = validate(draft)
    assert errors == {"ram_gb": api_errors(raw_profile(draft))["hardware.ram_gb"]}
    assert errors["ram_gb"] == ["is required (a number from 0.5 to 16384)"]


@pytest.mark.parametrize(
    ("name", "typed", "path"),
    [
        ("ram_gb", "20000", "hardware.ram_gb"),
        ("ram_gb", "lots", "hardware.ram_gb"),
        ("ram_gb", "nan", "hardware.ram_gb"),
        ("cpu_cores", "2.5", "hardware.cpu_cores"),
        ("device_count", "0", "hardware.storage.device_count"),
        ("version", "eight", "server.version"),
        ("version", "11.4", "server.version"),  # MySQL never had an 11.4
        ("kernel", "linux", "hardware.kernel"),
        ("concurrency", "9" * 200, "workload.concurrency"),
    ],
)
def test_a_bad_value_gets_the_message_the_api_gives(name, typed, path):
    draft = {**answers(), name: typed}
    _, errors = validate(draft)
    assert errors[name] == api_errors(raw_profile(draft))[path]


def test_a_raid_level_that_does_not_fit_the_count_is_reported_on_the_raid_level():
    _, errors = validate({**answers(), "raid_level": "raid5", "device_count": "2"})
    assert errors == {"raid_level": ["raid5 needs a device count of at least 3; got 2"]}


def test_rpm_is_left_out_for_flash_instead_of_being_an_error():
    draft = {**answers(), "media": "nvme", "rpm": "15000"}
    profile, errors = validate(draft)
    assert errors == {}
    assert profile is not None
    assert profile.hardware.storage.rpm is None


def test_one_measured_figure_without_the_other_is_an_error_on_the_missing_one():
    _, errors = validate({**answers(), "random_read": "2000"})
    assert errors == {"random_write": ["is required with measured_iops"]}


def test_a_measured_cpu_needs_its_threads_and_reaches_the_profile():
    _, errors = validate({**answers(), "point_select_qps": "20000"})
    assert errors == {"threads": ["is required (a whole number from 1 to 100000)"]}
    profile, errors = validate({**answers(), "point_select_qps": "20000", "threads": "16"})
    assert errors == {}
    assert profile is not None
    assert profile.hardware.measured_cpu is not None
    assert profile.hardware.measured_cpu.point_select_qps == 20000


def test_a_paste_becomes_the_current_form_chosen():
    draft = {**answers(), "current_form": "show_variables", CURRENT_TEXT: "x\t1"}
    assert raw_profile(draft)["current"] == {"show_variables": "x\t1"}
    forged = {**answers(), "current_form": "variables", CURRENT_TEXT: "[mysqld]\n"}
    assert raw_profile(forged)["current"] == {"mycnf": "[mysqld]\n"}


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("hardware.ram_gb", "ram_gb"),
        ("current", CURRENT_TEXT),
        ("current.mycnf", CURRENT_TEXT),
        ("hardware.storage.measured_iops", "random_read"),
        ("", NON_FIELD),
        ("bogus.path", NON_FIELD),
    ],
)
def test_every_error_path_lands_on_a_field(path, name):
    assert field_name(path) == name


def test_the_first_step_with_an_error_is_where_the_visitor_is_sent():
    _, errors = validate({**answers(), "kind": "", "ram_gb": ""})
    assert first_step_with_errors(errors).slug == "hardware"
    assert first_step_with_errors({}) is None
    assert first_step_with_errors({NON_FIELD: ["the profile must be an object"]}).slug == "server"


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.slug)
def test_a_preset_loaded_into_the_draft_gives_back_the_same_profile(preset):
    draft = draft_from_profile(preset.profile)
    assert parse_profile(raw_profile(draft)) == parse_profile(preset.profile)


def test_an_echoed_current_config_comes_back_as_a_my_cnf_paste():
    echo = parse_profile({**EXAMPLE_PROFILE, "current": {"mycnf": "[mysqld]\nsync_binlog=0\n"}}).raw
    draft = draft_from_profile(echo)
    assert draft["current_form"] == "mycnf"
    assert "sync_binlog = 0" in draft[CURRENT_TEXT]
    assert parse_profile(raw_profile(draft)).current.variables["sync_binlog"] == "0"


def test_a_pasted_show_variables_keeps_its_origin_in_the_session_and_the_result():
    pasted = "Variable_name\tValue\ninnodb_io_capacity\t200\nwsrep_sst_auth\tu:secret\n"
    kept = draft_for_session({**answers(), "current_form": "show_variables", CURRENT_TEXT: pasted})
    assert kept["current_form"] == "show_variables"
    assert kept[CURRENT_TEXT] == "innodb_io_capacity\t200"
    profile = parse_profile(raw_profile(kept))
    assert profile.current.origin == "show_variables"
    warnings = recommend(profile).warnings
    assert not [w for w in warnings if "my.cnf" in w]


def test_an_echoed_show_variables_comes_back_as_one():
    echo = parse_profile(
        {**EXAMPLE_PROFILE, "current": {"show_variables": "innodb_io_capacity\t200\n"}}
    ).raw
    draft = draft_from_profile(echo)
    assert (draft["current_form"], draft[CURRENT_TEXT]) == (
        "show_variables",
        "innodb_io_capacity\t200",
    )


def test_a_fresh_draft_holds_the_schemas_defaults():
    draft = draft_initial()
    assert draft["raid_level"] == "none"
    assert draft["durability"] == "full"
    assert draft["flavor"] == "mysql"
    assert draft.get("ram_gb", "") == ""


def test_the_summary_describes_the_machine_in_one_line_per_step():
    lines = {line.step: line.text for line in machine_summary(answers())}
    assert lines["server"] == "MySQL 8.0.36"
    assert lines["hardware"] == "64 GB RAM · 16 cores · Linux 5.15"
    assert lines["storage"] == "8 × 15,000 rpm HDD in RAID10, battery-backed write-back cache, XFS"
    assert lines["workload"] == "OLTP · 200 GB of data · 64 connections · full durability"
    assert lines["current"] == ""


def test_the_summary_leaves_out_rpm_for_flash_and_shortens_long_text():
    lines = {
        x.step: x.text for x in machine_summary({**answers(), "media": "nvme", "version": "9" * 99})
    }
    assert "rpm" not in lines["storage"]
    assert lines["server"].endswith("…")
    assert len(lines["server"]) < 50
