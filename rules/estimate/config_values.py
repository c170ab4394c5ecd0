"""A configuration as the estimator reads it: each setting's text as a number or an enum's word,
else the version's default. One reading for today's configuration and for a lab run's."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.current.server_numbers import parse_number
from rules.estimate.interface import ConfigValue
from rules.reference.catalog import ServerCatalog


def configured(
    settings: Sequence[Mapping[str, Any]],
    text_of: Callable[[Mapping[str, Any]], str | None],
    catalog: ServerCatalog,
) -> dict[str, ConfigValue]:
    """{name: value} for each recommended setting: `text_of(setting)` read as the estimator
    reads values, or the version's default where it gives none (left out with no default)."""
    config: dict[str, ConfigValue] = {}
    for setting in settings:
        name, text = setting["name"], text_of(setting)
        if text is None:
            default = catalog.default(name)
            if default is not None:
                config[name] = default
            continue
        number = parse_number(text) if setting["kind"] != "enum" else None
        config[name] = number if number is not None else text
    return config
