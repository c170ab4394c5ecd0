"""A probe's report (provenance, undetected, probe) is accepted as written, bounded, echoed in
the result's inputs, and never changes a recommendation."""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import recommend
from rules.inputs.errors import ProfileError
from rules.inputs.examples import parse_or_errors, raw_profile
from rules.inputs.validation import PROVENANCE_PATHS, parse_profile

FEW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
REPORT_KEYS = ("probe", "provenance", "undetected")

entries = st.fixed_dictionaries(
    {"source": st.sampled_from(["detected", "measured", "assumed"]), "from": st.text(max_size=200)}
)
reports = st.fixed_dictionaries(
    {
        "probe": st.fixed_dictionaries(
            {"version": st.text(min_size=1, max_size=40).filter(str.strip)}
        ),
        "provenance": st.dictionaries(st.sampled_from(PROVENANCE_PATHS), entries, max_size=40),
        "undetected": st.lists(st.text(min_size=1, max_size=200).filter(str.strip), max_size=100),
    }
)


@FEW
@given(reports)
def test_a_valid_report_is_echoed_and_changes_no_recommendation(report: dict[str, Any]):
    plain = recommend(parse_profile(raw_profile()))
    reported = recommend(parse_profile({**raw_profile(), **report}))
    assert reported.settings == plain.settings
    assert reported.os == plain.os
    assert reported.profile.raw["probe"] == {"version": report["probe"]["version"].strip()}
    assert set(reported.profile.raw.get("provenance", {})) == set(report["provenance"])
    assert reported.profile.raw.get("undetected", []) == [u.strip() for u in report["undetected"]]


hostile = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=300),
    st.lists(st.one_of(st.integers(), st.text(max_size=250), st.none()), max_size=120),
    st.dictionaries(
        st.text(max_size=300),
        st.one_of(
            st.integers(),
            st.text(max_size=10),
            st.dictionaries(st.text(max_size=8), st.text(max_size=250), max_size=3),
        ),
        max_size=5,
    ),
)


@FEW
@given(key=st.sampled_from(REPORT_KEYS), value=hostile)
def test_hostile_report_values_are_refused_naming_the_field_or_accepted(key: str, value: Any):
    parsed, errors = parse_or_errors({**raw_profile(), key: value})
    if parsed is None:
        assert errors
        assert all(path == key or path.startswith((f"{key}.", f"{key}[")) for path in errors)
        for path, messages in errors.items():
            assert len(path) < 120
            assert all(len(m) < 400 for m in messages)
        return
    echoed = parsed.raw.get(key)
    assert echoed is None or echoed == value or isinstance(echoed, dict | list)


def test_an_unknown_path_is_refused_with_the_path_named() -> None:
    report = {"provenance": {"hardware.storage.colour": {"source": "detected", "from": "x"}}}
    with pytest.raises(ProfileError) as refused:
        parse_profile({**raw_profile(), **report})
    assert list(refused.value.errors) == ["provenance.hardware.storage.colour"]


def test_the_bounds_are_refused() -> None:
    entry = {"source": "assumed", "from": ""}
    too_many = {"provenance": {f"p{i}": entry for i in range(201)}}
    too_long = {"undetected": ["x" * 201]}
    too_many_items = {"undetected": ["x"] * 101}
    long_from = {"provenance": {"hardware.ram_gb": {"source": "detected", "from": "y" * 201}}}
    long_version = {"probe": {"version": "1" * 41}}
    bad_source = {"provenance": {"hardware.ram_gb": {"source": "guessed"}}}
    for report, path in (
        (too_many, "provenance"),
        (too_long, "undetected[0]"),
        (too_many_items, "undetected"),
        (long_from, "provenance.hardware.ram_gb.from"),
        (long_version, "probe.version"),
        (bad_source, "provenance.hardware.ram_gb.source"),
    ):
        with pytest.raises(ProfileError) as refused:
            parse_profile({**raw_profile(), **report})
        assert path in refused.value.errors, (report, refused.value.errors)
