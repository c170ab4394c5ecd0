"""Ask the estimator for the recommended and current throughput and each setting's effect."""

import dataclasses
from collections.abc import Sequence

from rules.catalog import ServerCatalog
from rules.current.numbers import parse_number
from rules.estimator import ConfigValue, Estimator
from rules.profile import Profile
from rules.result import Estimates, OsItem, Setting


def with_estimates(
    profile: Profile,
    settings: Sequence[Setting],
    os_items: Sequence[OsItem],
    catalog: ServerCatalog,
    estimator: Estimator,
) -> tuple[Estimates, tuple[Setting, ...]]:
    recommended: dict[str, ConfigValue] = {s.name: s.value for s in settings}
    recommended.update({item.name: item.value for item in os_items})
    baseline = _baseline(profile, settings, catalog)
    current = estimator.estimate(profile, baseline) if profile.current is not None else None
    effects = estimator.effects(profile, baseline, recommended)
    settled = tuple(dataclasses.replace(s, effect=effects.get(s.name)) for s in settings)
    return Estimates(estimator.estimate(profile, recommended), current), settled


def _baseline(
    profile: Profile, settings: Sequence[Setting], catalog: ServerCatalog
) -> dict[str, ConfigValue]:
    """What runs today: the pasted values, else the version's defaults."""
    config: dict[str, ConfigValue] = {}
    for setting in settings:
        text = setting.current
        if text is None:
            default = catalog.default(setting.name)
            if default is not None:
                config[setting.name] = default
            continue
        number = parse_number(text) if setting.kind != "enum" else None
        config[setting.name] = number if number is not None else text
    if profile.current is not None and "io_scheduler" in profile.current.os:
        config["io_scheduler"] = profile.current.os["io_scheduler"]
    return config
