"""The forms are built from rules.inputs.field_table.FIELDS: same fields, ranges and choices as the
API."""

import pytest

from advisor.recommendations.wizard.forms import CHOICE_LABELS, StepForm, choices_for
from advisor.recommendations.wizard.steps import STEPS, STEPS_BY_SLUG, draft_initial
from rules.inputs.field_table import FIELDS as ALL_FIELDS
from rules.inputs.field_table import MAX_CURRENT_TEXT_BYTES, REPORT_PATHS, Kind

# A probe's report (provenance, ...) comes only with a probe's document, not from a form; lab
# results from the result page's own form (test_lab_form.py).
FIELDS = [
    spec
    for spec in ALL_FIELDS
    if spec.path not in REPORT_PATHS and spec.kind is not Kind.LAB_RESULTS
]


def form_for(slug: str, **errors: list[str]) -> StepForm:
    step = STEPS_BY_SLUG[slug]
    return StepForm(step, draft_initial(), errors=errors, check_url="/check/")


def test_every_schema_field_is_a_form_field_with_its_label_and_help():
    fields = {name: field for step in STEPS for name, field in form_for(step.slug).fields.items()}
    for spec in FIELDS:
        field = fields[spec.name]
        assert field.label == spec.label
        assert field.help_text.startswith(spec.help)


@pytest.mark.parametrize("spec", [s for s in FIELDS if s.choices], ids=lambda s: s.name)
def test_a_list_offers_exactly_the_schemas_choices(spec):
    values = [value for value, _ in choices_for(spec)]
    expected = list(spec.choices)
    if spec.nullable:
        expected.insert(0, "")
    assert values == expected
    assert set(CHOICE_LABELS[spec.name]) >= set(spec.choices)


@pytest.mark.parametrize(
    "spec",
    [s for s in FIELDS if s.kind in (Kind.NUMBER, Kind.INTEGER) and not s.choices],
    ids=lambda s: s.name,
)
def test_a_number_field_states_the_schemas_range(spec):
    step = next(step for step in STEPS if spec.path in step.paths)
    field = form_for(step.slug).fields[spec.name]
    assert spec.describe_range() in field.help_text
    assert field.widget.attrs["inputmode"] in ("numeric", "decimal")


def test_every_field_is_described_by_its_help_and_its_error_slot():
    html = str(form_for("hardware")["ram_gb"])
    assert 'aria-describedby="id_ram_gb_helptext id_ram_gb_error"' in html
    assert 'hx-post="/check/"' in html
    assert 'hx-swap="none"' in html


def test_a_field_with_an_error_is_marked_invalid():
    form = form_for("hardware", ram_gb=["must be a number from 0.5 to 16384; got 0"])
    assert form["ram_gb"].errors == ["must be a number from 0.5 to 16384; got 0"]
    assert 'aria-invalid="true"' in str(form["ram_gb"])
    assert not form["cpu_cores"].errors


def test_errors_of_other_steps_are_not_shown_on_this_one():
    form = form_for("hardware", kind=["is required"], __all__=["the profile must be an object"])
    assert form.errors == {"__all__": ["the profile must be an object"]}


def test_the_paste_box_is_limited_to_what_the_api_accepts():
    form = form_for("current")
    assert form.fields["current_text"].widget.attrs["maxlength"] == str(MAX_CURRENT_TEXT_BYTES)
    assert [value for value, _ in form.fields["current_form"].widget.choices] == [
        "mycnf",
        "show_variables",
    ]


def test_the_measured_cpu_is_a_collapsible_group_of_the_hardware_step():
    groups = form_for("hardware").groups()
    assert [g.collapsible for g in groups] == [False, True]
    assert [f.name for f in groups[1].fields] == ["point_select_qps", "threads"]
    assert groups[1].open is False
    assert "threads" not in [f.name for f in groups[0].fields]


def test_the_measured_iops_are_a_collapsible_group_closed_until_used():
    groups = form_for("storage").groups()
    assert [g.collapsible for g in groups] == [False, True]
    assert [f.name for f in groups[1].fields] == ["random_read", "random_write"]
    assert groups[1].open is False
