import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest

from rules.inputs.errors import OutputRefused
from rules.output.result import Evidence, Result
from rules.reference.bibliography import source
from rules.render import CONTENT_TYPES, FILENAMES, FORMATS, filename_for, render
from rules.render.jsonout import result_from_dict, result_schema_components, result_to_dict
from tests.rules.render.fixtures import (
    ALL,
    SOURCE_A,
    SOURCE_B,
    SOURCE_C,
    mariadb_result,
    mysql80_result,
    refused_result,
)

TOP_LEVEL = [
    "headline",  # what changes for you leads (issue #42 item 6)
    "id",
    "permalink",
    "ruleset_version",
    "calibration_version",
    "inputs",
    "settings",
    "os",
    "estimate",
    "warnings",
    "output_refused",
    "sources",
    "format",
]


def test_it_has_the_contracts_fields_in_the_contracts_order() -> None:
    data = result_to_dict(mysql80_result())
    assert list(data) == TOP_LEVEL
    assert data["id"] == "7f3c0a1b2c3d4e5f"
    assert data["permalink"] == "/r/7f3c0a1b2c3d4e5f/"
    assert data["ruleset_version"] == "2026.1"
    assert data["calibration_version"] == "2026.1-118pts"
    assert data["inputs"] == mysql80_result().profile.raw
    assert data["warnings"] == list(mysql80_result().warnings)
    assert data["output_refused"] is None


def test_the_permalink_is_absolute_with_a_base_url() -> None:
    data = result_to_dict(mysql80_result(), base_url="https://advisor.example/")
    assert data["permalink"] == "https://advisor.example/r/7f3c0a1b2c3d4e5f/"


def test_a_setting_carries_its_value_as_the_server_spells_it() -> None:
    settings = {s["name"]: s for s in result_to_dict(mysql80_result())["settings"]}
    assert settings["innodb_io_capacity"] == {
        "name": "innodb_io_capacity",
        "value": "1600",
        "display": "1600",
        "scope": "mysqld",
        "kind": "number",
        "current": "200",
        "current_is_default": False,
        "change": "raise",
        "is_default": False,
        "written": True,
        "dynamic": True,
        "rule": "innodb-io-capacity",
        "reason": mysql80_result().settings[0].reason,
        "explanation": "Why innodb_io_capacity has this value on this machine.",
        "evidence": [
            {
                "source": SOURCE_A,
                "finding": "Finding behind innodb_io_capacity.",
            }
        ],
        "effect": {"low_pct": 5.0, "high_pct": 20.0},
        "effect_note": None,
    }
    pool = settings["innodb_buffer_pool_size"]
    assert (pool["value"], pool["display"], pool["kind"]) == ("51539607552", "48G", "bytes")
    assert settings["innodb_max_dirty_pages_pct"]["value"] == "90"
    assert settings["innodb_max_dirty_pages_pct_lwm"]["value"] == "12.5"
    method = settings["innodb_flush_method"]
    assert (method["value"], method["change"], method["current_is_default"]) == (
        "O_DIRECT",
        "change",
        True,
    )
    assert method["effect"] is None
    assert settings["open_files_limit"]["scope"] == "mysqld_safe"


def test_os_items_carry_commands_and_persistence() -> None:
    item = result_to_dict(mysql80_result())["os"][0]
    assert list(item) == [
        "name",
        "value",
        "devices",
        "rule",
        "reason",
        "explanation",
        "evidence",
        "commands",
        "persist",
        "persist_path",
        "current",
        "change",
    ]
    assert item["commands"] == ["echo mq-deadline > /sys/block/sdX/queue/scheduler"]
    assert item["evidence"][0] == {"source": SOURCE_C, "finding": item["evidence"][0]["finding"]}
    assert (item["current"], item["change"]) == ("cfq", "change")


def test_the_estimate_has_both_sides_or_is_null() -> None:
    estimate = result_to_dict(mysql80_result())["estimate"]
    assert estimate["recommended"] == {
        "unit": "NOTPM",
        "low": 5200.0,
        "high": 9100.0,
        "interval": 0.8,
        "bottleneck": "random reads",
        "in_domain": True,
        "outside": [],
    }
    assert estimate["current"]["in_domain"] is False
    assert result_to_dict(mariadb_result())["estimate"]["current"] is None
    assert result_to_dict(dataclasses.replace(mysql80_result(), estimate=None))["estimate"] is None


def test_sources_are_every_cited_entry_once_sorted_by_key() -> None:
    sources = result_to_dict(mysql80_result())["sources"]
    assert [s["key"] for s in sources] == sorted({SOURCE_A, SOURCE_B, SOURCE_C})
    for entry in sources:
        expected = source(entry["key"])
        assert list(entry) == ["key", "author", "title", "date", "published", "citation"]
        assert entry["author"] == expected.author
        assert entry["title"] == expected.title
        assert entry["citation"] == expected.citation()
    only_a = dataclasses.replace(mysql80_result(), settings=mysql80_result().settings[:1], os=())
    assert [s["key"] for s in result_to_dict(only_a)["sources"]] == [SOURCE_A]


def test_a_source_the_bibliography_no_longer_has_keeps_its_finding() -> None:
    base = mysql80_result()
    gone = dataclasses.replace(base.settings[0], evidence=(Evidence("no-such-source", "x"),))
    data = result_to_dict(dataclasses.replace(base, settings=(gone,), os=()))
    assert data["settings"][0]["evidence"] == [{"source": "no-such-source", "finding": "x"}]
    assert data["sources"] == []


@pytest.mark.parametrize("make", ALL)
def test_a_stored_result_comes_back_equal(make: Callable[[], Result]) -> None:
    result = make()
    assert result_from_dict(result_to_dict(result)) == result
    stored = json.loads(render(result, "json", base_url="https://advisor.example"))
    assert result_from_dict(stored) == result


def test_an_estimates_reasons_round_trip_and_older_results_have_none() -> None:
    """Estimate.outside is stored and read back; a result stored before it existed reads back
    with no reasons rather than failing."""
    base = mysql80_result()
    assert base.estimate is not None
    assert base.estimate.current is not None
    current = dataclasses.replace(base.estimate.current, outside=("clients: 9, where ...",))
    result = dataclasses.replace(base, estimate=dataclasses.replace(base.estimate, current=current))
    data = result_to_dict(result)
    assert data["estimate"]["current"]["outside"] == ["clients: 9, where ..."]
    assert result_from_dict(data) == result
    del data["estimate"]["current"]["outside"]
    older = result_from_dict(data).estimate
    assert older is not None
    assert older.current is not None
    assert older.current.outside == ()


def test_a_stored_result_renders_the_same_my_cnf() -> None:
    result = mysql80_result()
    again = result_from_dict(json.loads(render(result, "json")))
    for fmt in ("mycnf", "sql", "udev"):
        assert render(again, fmt) == render(result, fmt)


def test_the_dict_does_not_share_the_results_inputs() -> None:
    result = mysql80_result()
    data = result_to_dict(result)
    data["inputs"]["server"]["flavor"] = "changed"
    assert result.profile.raw["server"] == {"flavor": "mysql", "version": "8.0.36"}


def test_a_malformed_stored_result_is_a_value_error() -> None:
    data = result_to_dict(mysql80_result())
    del data["settings"][0]["rule"]
    with pytest.raises(ValueError, match="not a stored result"):
        result_from_dict(data)
    with pytest.raises(ValueError, match="not a stored result"):
        result_from_dict({"id": "x"})


def test_render_json_is_indented_utf8_with_a_final_newline() -> None:
    text = render(mysql80_result(), "json")
    assert text.endswith("}\n")
    assert text.startswith('{\n  "headline": {\n')
    assert '\n  "id": "7f3c0a1b2c3d4e5f",\n' in text
    assert "8 × 15k" in text
    assert json.loads(text) == result_to_dict(mysql80_result())
    assert text == render(mysql80_result(), "json")


def test_every_format_has_a_renderer_a_content_type_and_a_file_name() -> None:
    # The names are a contract with provisioning tools: they only ever grow.
    assert FORMATS == (
        "json",
        "mycnf",
        "sql",
        "udev",
        "sysctl",
        "ansible",
        "ansible-tasks",
        "k8s-percona",
        "k8s-mysql-operator",
        "k8s-mariadb-operator",
        "rds-json",
        "rds-terraform",
        "aurora-json",
        "aurora-terraform",
    )
    assert set(CONTENT_TYPES) == set(FILENAMES) == set(FORMATS)
    result = mysql80_result()
    refused = set()
    for fmt in FORMATS:
        try:
            assert render(result, fmt).endswith("\n")
        except OutputRefused:
            refused.add(fmt)
    # MySQL 8.0: not for the MariaDB Operator; no RDS list of modifiable parameters is vendored
    # (Aurora MySQL 3 takes a MySQL 8.0 result)
    assert refused == {"k8s-mariadb-operator", "rds-json", "rds-terraform"}
    assert filename_for(result, "mycnf") == "innodb-io-advisor-7f3c0a1b2c3d4e5f.cnf"
    assert filename_for(result, "sql") == "innodb-io-advisor-7f3c0a1b2c3d4e5f.sql"
    assert filename_for(result, "json") == "innodb-io-advisor-7f3c0a1b2c3d4e5f.json"
    assert filename_for(result, "udev") == "60-innodb-io-advisor.rules"
    assert filename_for(result, "sysctl") == "60-innodb-io-advisor.conf"


def test_an_unknown_format_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown format 'yaml'"):
        render(mysql80_result(), "yaml")


def test_json_is_written_for_a_refused_version_but_my_cnf_is_not() -> None:
    data = json.loads(render(refused_result(), "json"))
    assert data["output_refused"].startswith("my.cnf and SQL are written for")
    assert data["warnings"] == ["MySQL 5.0 is older than the supported range."]
    with pytest.raises(OutputRefused):
        render(refused_result(), "mycnf")


def _schema_keys(components: dict[str, Any], name: str, data: Any) -> None:
    """Every key of `data` is a property of component `name`, in order; every required one is
    present; nested objects are checked against their own components."""
    schema = components[name]
    assert list(data) == [k for k in schema["properties"] if k in data], name
    assert set(schema["required"]) <= set(data), name
    for key, value in data.items():
        prop = schema["properties"][key]
        ref = prop.get("$ref") or (prop.get("allOf") or [{}])[0].get("$ref")
        items = prop.get("items", {}).get("$ref")
        if ref and value is not None:
            _schema_keys(components, ref.rsplit("/", 1)[1], value)
        if items:
            for item in value:
                _schema_keys(components, items.rsplit("/", 1)[1], item)


@pytest.mark.parametrize("make", ALL)
def test_the_schema_describes_every_key_the_json_has(make: Callable[[], Result]) -> None:
    _schema_keys(result_schema_components(), "ResultOutput", result_to_dict(make()))


def test_the_schema_is_declared_by_the_result_classes() -> None:
    components = result_schema_components()
    assert set(components) == {
        "ResultOutput",
        "HeadlineOutput",
        "LeverOutput",
        "SettingOutput",
        "OsItemOutput",
        "EvidenceOutput",
        "EffectOutput",
        "EstimatesOutput",
        "AnchorOutput",
        "EstimateOutput",
        "GainExclusionOutput",
        "CitedSourceOutput",
        "RdsParameterListOutput",
        "RdsParameterOutput",
    }
    assert "rds_parameters" not in components["ResultOutput"]["required"]
    setting = components["SettingOutput"]["properties"]
    assert setting["value"] == {
        "type": "string",
        "description": "As the server reports it (bytes for sizes).",
    }
    assert setting["change"]["enum"] == ["raise", "lower", "keep", "change", None]
    assert "why" not in components["EffectOutput"]["required"]
    assert "excludes" not in components["EstimateOutput"]["required"]
