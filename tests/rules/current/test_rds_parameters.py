"""The user's RDS parameter list: read strictly (every problem a field error under the field it
came in, never a crash), kept with the result as the rows its settings need, and part of the
result's id."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.current.rds_parameters import MAX_PARAMETERS, read_engine_defaults
from rules.engine import recommend
from rules.inputs.errors import ProfileError
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.output.result import Result
from rules.render import render, result_from_dict, result_to_dict
from rules.render.rds import with_rds_parameters
from tests.rules.rds_lists import NOT_LISTED, NOT_MODIFIABLE, engine_defaults

FIELD = "rds_parameters"


def mysql80(**overrides: Any) -> Result:
    return recommend(parse_profile(raw_profile(**overrides)))


def test_a_result_keeps_the_rows_its_settings_need_and_gets_its_own_id() -> None:
    plain = mysql80()
    kept = with_rds_parameters(plain, engine_defaults(plain), field_path=FIELD)
    assert kept.id != plain.id
    assert len(kept.id) == len(plain.id)
    assert kept.rds_parameters is not None
    names = [p.name for p in kept.rds_parameters.parameters]
    assert names == [s.name for s in plain.settings if s.name != NOT_LISTED]
    assert "autocommit" not in names  # listed, but no setting of this result
    assert not kept.rds_parameters.by_name()[NOT_MODIFIABLE].modifiable
    # the same list again gives the same id; another list another one
    assert with_rds_parameters(plain, engine_defaults(plain), field_path=FIELD).id == kept.id
    other = engine_defaults(plain)
    other["EngineDefaults"]["Parameters"][0]["IsModifiable"] = False
    assert with_rds_parameters(plain, other, field_path=FIELD).id not in (kept.id, plain.id)


def test_a_stored_result_renders_the_same_rds_exports_when_read_back() -> None:
    plain = mysql80()
    kept = with_rds_parameters(plain, engine_defaults(plain), field_path=FIELD)
    stored = json.loads(json.dumps(result_to_dict(kept)))
    back = result_from_dict(stored)
    assert back == kept
    for fmt in ("rds-json", "rds-terraform"):
        assert render(back, fmt) == render(kept, fmt)
    assert FIELD not in result_to_dict(plain)  # the JSON of a result without a list is unchanged


def test_a_list_for_another_family_names_the_family_to_ask_for() -> None:
    plain = mysql80(**{"server.version": "8.4.3"})
    with pytest.raises(ProfileError) as error:
        with_rds_parameters(plain, engine_defaults(plain, "mysql8.0"), field_path=FIELD)
    (message,) = error.value.errors[f"{FIELD}.EngineDefaults.DBParameterGroupFamily"]
    assert "--db-parameter-group-family mysql8.4" in message


@pytest.mark.parametrize(
    ("hostile", "path"),
    [
        ([], FIELD),
        ({"Parameters": []}, f"{FIELD}.EngineDefaults"),
        ({"EngineDefaults": {"DBParameterGroupFamily": "mysql8.0"}}, "EngineDefaults.Parameters"),
        (
            {"EngineDefaults": {"DBParameterGroupFamily": "postgres16", "Parameters": [{}]}},
            "Family",
        ),
        ({"EngineDefaults": {"DBParameterGroupFamily": "mysql8.0", "Parameters": [7]}}, "[0]"),
        (
            {
                "EngineDefaults": {
                    "DBParameterGroupFamily": "mysql8.0",
                    "Marker": "next-page",
                    "Parameters": [
                        {"ParameterName": "a", "IsModifiable": True, "ApplyType": "static"}
                    ],
                }
            },
            "EngineDefaults.Marker",
        ),
    ],
)
def test_what_is_not_the_commands_output_is_a_field_error(hostile: Any, path: str) -> None:
    with pytest.raises(ProfileError) as error:
        read_engine_defaults(hostile, family="mysql8.0", field_path=FIELD)
    assert any(path in key for key in error.value.errors), error.value.errors
    assert all(key.startswith(FIELD) for key in error.value.errors)


def row(**fields: Any) -> dict[str, Any]:
    base = {"ParameterName": "innodb_io_capacity", "IsModifiable": True, "ApplyType": "dynamic"}
    return {**base, **fields}


@pytest.mark.parametrize(
    ("bad", "key"),
    [
        (row(ParameterName="x; DROP TABLE"), "ParameterName"),
        (row(ParameterName="a" * 65), "ParameterName"),
        (row(IsModifiable="true"), "IsModifiable"),
        (row(ApplyType="sometimes"), "ApplyType"),
        (row(AllowedValues=["0", "1"]), "AllowedValues"),
        (row(AllowedValues="x" * 5000), "AllowedValues"),
        (row(Description={"nested": 1}), "Description"),
    ],
)
def test_a_hostile_row_is_named_by_its_index_and_key(bad: dict[str, Any], key: str) -> None:
    document = {
        "EngineDefaults": {"DBParameterGroupFamily": "mysql8.0", "Parameters": [row(), bad]}
    }
    with pytest.raises(ProfileError) as error:
        read_engine_defaults(document, family="mysql8.0", field_path=FIELD)
    assert list(error.value.errors) == [f"{FIELD}.EngineDefaults.Parameters[1].{key}"]


def test_a_name_listed_twice_and_a_list_too_long_are_refused() -> None:
    twice = {"EngineDefaults": {"DBParameterGroupFamily": "mysql8.0", "Parameters": [row(), row()]}}
    with pytest.raises(ProfileError, match="listed twice"):
        read_engine_defaults(twice, family="mysql8.0")
    rows = [row(ParameterName=f"p{i}") for i in range(MAX_PARAMETERS + 1)]
    long = {"EngineDefaults": {"DBParameterGroupFamily": "mysql8.0", "Parameters": rows}}
    with pytest.raises(ProfileError, match=f"more than {MAX_PARAMETERS}"):
        read_engine_defaults(long, family="mysql8.0")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=20,
)
KEYS = st.sampled_from(
    ["ParameterName", "IsModifiable", "ApplyType", "AllowedValues", "DataType", "Description"]
)
ROWS = st.lists(st.dictionaries(KEYS, JSON, max_size=6) | JSON, max_size=5)
DOCUMENTS = (
    JSON
    | st.fixed_dictionaries({"EngineDefaults": JSON})
    | st.fixed_dictionaries(
        {
            "EngineDefaults": st.fixed_dictionaries(
                {"DBParameterGroupFamily": st.sampled_from(["mysql8.0", "mysql8.4"]) | JSON},
                optional={"Parameters": ROWS | JSON, "Marker": JSON},
            )
        }
    )
)


@settings(max_examples=300, deadline=None)
@given(DOCUMENTS)
def test_any_json_is_a_list_or_field_errors_under_the_field(document: Any) -> None:
    errors: dict[str, list[str]] = {}
    try:
        found = read_engine_defaults(document, family="mysql8.0", field_path=FIELD)
    except ProfileError as error:
        errors = error.errors
    if errors:
        assert all(key.startswith(FIELD) for key in errors)
        assert all(isinstance(m, str) and m for ms in errors.values() for m in ms)
    else:
        assert found
        assert all(p.apply_type in ("static", "dynamic") for p in found.values())
