"""Run the engine on a profile built from overrides and read one setting's value."""

from typing import Any

from rules.engine import recommend
from rules.inputs.examples import profile
from rules.output.result import Result, Setting


def result_for(**overrides: Any) -> Result:
    return recommend(profile(**overrides))


def setting_for(name: str, **overrides: Any) -> Setting:
    setting = result_for(**overrides).setting(name)
    assert setting is not None, f"{name} missing from the result"
    return setting


def value_for(name: str, **overrides: Any) -> int | float | str:
    return setting_for(name, **overrides).value
