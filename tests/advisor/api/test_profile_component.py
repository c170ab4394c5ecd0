"""The published Profile schema and the validation agree: both come from
rules.inputs.field_table.FIELDS."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.api.profile_component import OPTIONAL_SECTIONS, as_json_schema, profile_schema
from rules.inputs.errors import ProfileError
from rules.inputs.examples import network, raw_profile
from rules.inputs.field_table import FIELDS, FieldSpec, Kind
from rules.inputs.validation import parse_profile

SCHEMA = profile_schema()


def _node(path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the section's schema, the field's schema) for a dotted path."""
    section = SCHEMA
    *parents, leaf = path.split(".")
    for part in parents:
        section = section["properties"][part]
    return section, section["properties"][leaf]


def _leaf_paths(schema: dict[str, Any], prefix: str = "") -> set[str]:
    paths = set()
    for name, sub in schema.get("properties", {}).items():
        path = f"{prefix}{name}"
        if sub.get("type") == "object" and "properties" in sub and path not in _WHOLE:
            paths |= _leaf_paths(sub, f"{path}.")
        elif path != "current":
            paths.add(path)
    return paths


_WHOLE = ("current", "provenance")  # objects that are one field, not a section


def test_the_schema_has_exactly_the_fields_of_the_table():
    assert _leaf_paths(SCHEMA) == {spec.path for spec in FIELDS}


@pytest.mark.parametrize("spec", FIELDS, ids=lambda s: s.path)
def test_each_field_has_the_tables_type_range_choices_and_requiredness(spec: FieldSpec):
    section, field = _node(spec.path)
    in_optional = spec.path.rpartition(".")[0] in OPTIONAL_SECTIONS
    if spec.kind is Kind.PROVENANCE:
        entry = next(iter(field["properties"].values()))
        assert entry["properties"]["source"]["enum"] == list(spec.choices)
        assert entry["properties"]["from"]["maxLength"] == spec.max_length
        assert field["maxProperties"] == spec.max_items
    elif spec.kind is Kind.LAB_RESULTS:
        assert (field["type"], field["maxItems"]) == ("array", spec.max_items)
        plain, record = field["items"]["oneOf"]
        assert plain["required"] == ["configuration", "throughput"]
        assert record["properties"]["record"]["enum"] == ["innodb-io-advisor lab run"]
    elif spec.kind is Kind.TEXT_LIST:
        assert (field["maxItems"], field["items"]["maxLength"]) == (spec.max_items, spec.max_length)
    elif spec.kind is Kind.CHOICE:
        assert field["enum"] == list(spec.choices) + [None] * field.get("nullable", False)
    elif spec.choices:
        choices = [str(c) for c in field["enum"] if c is not None]
        assert choices == list(spec.choices)
        assert (None in field["enum"]) == field.get("nullable", False)
    elif spec.kind is Kind.TEXT:
        assert field["maxLength"] == spec.max_length
    elif spec.kind is Kind.BOOLEAN:
        assert field["type"] == "boolean"
    else:
        assert field["type"] == ("integer" if spec.kind is Kind.INTEGER else "number")
        assert (field["minimum"], field["maximum"]) == (spec.minimum, spec.maximum)
    assert (spec.name in section.get("required", [])) == (spec.required or in_optional)
    assert field.get("nullable", False) == (
        not in_optional and (spec.nullable or not spec.required)
    )
    assert field["description"].startswith(spec.help)


def test_every_section_refuses_unknown_keys_as_validation_does():
    for path in ("", "server", "hardware", "hardware.storage", "workload"):
        section = SCHEMA if not path else _node(path)[1]
        assert section["additionalProperties"] is False
        key = f"{path}.extra" if path else "extra"
        with pytest.raises(ProfileError) as refused:
            parse_profile(raw_profile(**{key: 1}))
        assert key in refused.value.errors


def _agree(raw: dict[str, Any]) -> tuple[bool, bool]:
    try:
        jsonschema.Draft4Validator(as_json_schema(SCHEMA)).validate(raw)
        schema_ok = True
    except jsonschema.ValidationError:
        schema_ok = False
    try:
        parse_profile(raw)
        valid = True
    except ProfileError:
        valid = False
    return schema_ok, valid


NULLABLE = [s for s in FIELDS if _node(s.path)[1].get("nullable")]


@pytest.mark.parametrize("spec", NULLABLE, ids=lambda s: s.path)
def test_both_accept_null_where_the_schema_says_nullable(spec: FieldSpec):
    """Validation reads null as absent; the schema must say so, enums included
    (schemathesis found `workload.durability: null` accepted while the schema refused it)."""
    base = {"hardware.storage.device_count": 1} if spec.name == "raid_level" else {}  # none's
    assert _agree(raw_profile(**base, **{spec.path: None})) == (True, True)


NUMERIC = [s for s in FIELDS if s.kind in (Kind.NUMBER, Kind.INTEGER) and not s.choices]


@pytest.mark.parametrize("spec", NUMERIC, ids=lambda s: s.path)
def test_both_accept_the_bounds_and_refuse_just_outside_them(spec: FieldSpec):
    assert spec.minimum is not None
    assert spec.maximum is not None
    step = 1 if spec.kind is Kind.INTEGER else spec.minimum / 2 or 0.5
    base: dict[str, Any] = {}  # so that the field alone decides (RAID fits any count)
    if "measured_iops" in spec.path:
        base["hardware.storage.measured_iops"] = {"random_read": 100, "random_write": 100}
    if spec.path.startswith("hardware.measured_cpu."):
        base["hardware.measured_cpu"] = {"point_select_qps": 100, "threads": 1}
    if spec.path == "hardware.storage.device_count":
        base["hardware.storage.raid_level"] = "raid0"
    if spec.path.startswith("hardware.storage.provisioned_") or spec.name == "volume_size_gb":
        # only for network volumes
        base |= network()
    for value, expected in ((spec.minimum, True), (spec.maximum, True)):
        raw = raw_profile(**base, **{spec.path: value})
        assert _agree(raw) == (expected, expected), (spec.path, value)
    for value in (spec.minimum - step, spec.maximum + step):
        raw = raw_profile(**base, **{spec.path: value})
        assert _agree(raw) == (False, False), (spec.path, value)


CHOSEN = [s for s in FIELDS if s.choices and s.kind is not Kind.PROVENANCE]


@pytest.mark.parametrize("spec", CHOSEN, ids=lambda s: s.path)
def test_both_accept_every_choice_and_refuse_others(spec: FieldSpec):
    for choice in spec.choices:
        value = int(choice) if spec.kind is Kind.INTEGER else choice
        schema_ok, _ = _agree(raw_profile(**{spec.path: value}))
        assert schema_ok
    assert _agree(raw_profile(**{spec.path: "no-such-choice"})) == (False, False)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ram=st.one_of(st.floats(allow_nan=False), st.integers(), st.text(max_size=3), st.none()),
    version=st.text(max_size=12),
    kernel=st.one_of(st.none(), st.text(max_size=12)),
)
def test_whatever_the_schema_refuses_validation_refuses_too(ram, version, kernel):
    raw = raw_profile(
        **{"hardware.ram_gb": ram, "server.version": version, "hardware.kernel": kernel}
    )
    schema_ok, valid = _agree(raw)
    assert valid <= schema_ok  # valid data is always schema-valid


_ENTRY = st.fixed_dictionaries(
    {"source": st.sampled_from(["detected", "measured", "assumed", "guessed"])},
    optional={"from": st.text(max_size=210), "extra": st.integers()},
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    provenance=st.one_of(
        st.none(),
        st.text(max_size=5),
        st.dictionaries(
            st.one_of(st.sampled_from(["hardware.ram_gb", "current.os.swappiness"]), st.text()),
            _ENTRY,
            max_size=4,
        ),
    ),
    undetected=st.one_of(st.none(), st.lists(st.text(max_size=210), max_size=3), st.integers()),
    version=st.one_of(st.none(), st.text(max_size=45), st.integers()),
    media=st.sampled_from(["nvme", "network_ssd"]),
    # Integral floats (3000.0) are left out: validation reads them as integers for every integer
    # field while the schema's "integer" refuses them, a difference older than these fields.
    iops=st.one_of(
        st.none(),
        st.integers(-5, 5_000_000),
        st.floats().filter(lambda x: not x.is_integer()),
        st.text(max_size=3),
    ),
    limit=st.one_of(st.none(), st.floats(), st.integers(-1, 20_000)),
)
def test_the_probe_fields_agree_between_schema_and_validation(
    provenance, undetected, version, media, iops, limit
):
    raw = raw_profile(
        **{
            "hardware.storage": {"media": media, "device_count": 1, "raid_level": "none"},
            "hardware.memory_limit_gb": limit,
        }
    )
    raw["hardware"]["storage"]["provisioned_iops"] = iops
    raw |= {"provenance": provenance, "undetected": undetected}
    if version is not None:
        raw["probe"] = {"version": version}
    schema_ok, valid = _agree(raw)
    assert valid <= schema_ok  # what validation accepts, the published schema accepts
