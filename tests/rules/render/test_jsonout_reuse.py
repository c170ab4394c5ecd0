"""What the JSON writer keeps from one result to the next (spellings, cited sources) never
leaks into another result or between calls."""

import dataclasses

import pytest

from rules.output.result import Evidence, Result
from rules.render.jsonout import result_to_dict
from rules.render.mycnf import config_value, server_value
from tests.rules.render.fixtures import SOURCE_A, SOURCE_B, mysql80_result


def test_changing_one_answer_leaves_the_next_one_whole() -> None:
    first = result_to_dict(mysql80_result())
    first["sources"][0]["title"] = "changed"
    first["sources"].clear()
    first["inputs"]["server"]["flavor"] = "changed"
    again = result_to_dict(mysql80_result())
    assert again["sources"]
    assert again["sources"][0]["title"] != "changed"
    assert again["inputs"]["server"]["flavor"] == "mysql"


@pytest.mark.parametrize(
    ("value", "kind"),
    [(1, "number"), (1.0, "percent"), (True, "number"), (1, "bytes"), (1024, "bytes")],
)
def test_a_value_is_spelled_as_its_own_type_and_kind_say(
    value: int | float | str, kind: str
) -> None:
    result = mysql80_result()
    for earlier in (1, 1.0, True, 1024):  # spellings of equal values kept from earlier results
        result_to_dict(_with_first_value(result, earlier, kind))
    setting = _with_first_value(result, value, kind).settings[0]
    written = result_to_dict(_with_first_value(result, value, kind))["settings"][0]
    assert (written["value"], written["display"]) == (server_value(setting), config_value(setting))


def test_the_sources_follow_each_results_own_evidence() -> None:
    result = mysql80_result()
    only_b = dataclasses.replace(
        result,
        settings=tuple(
            dataclasses.replace(s, evidence=(Evidence(SOURCE_B, "b"),)) for s in result.settings
        ),
        os=(),
    )
    assert SOURCE_A in [s["key"] for s in result_to_dict(result)["sources"]]
    assert [s["key"] for s in result_to_dict(only_b)["sources"]] == [SOURCE_B]


def _with_first_value(result: Result, value: int | float | str, kind: str) -> Result:
    first = dataclasses.replace(result.settings[0], value=value, kind=kind)
    return dataclasses.replace(result, settings=(first, *result.settings[1:]))
