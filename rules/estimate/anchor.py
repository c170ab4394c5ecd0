"""Anchoring the estimates on this host's own measurements (issue #42 item 5, issue #43 item 4).

A measured rate (workload.measured_throughput) or lab runs (workload.lab_results) say how far this
host lies from what the model expects for its machine: the host factor, measured over modelled
(the geometric centre of the model's interval) for each measured configuration, combined in log
space. The model's absolute figure may be far off for one host (a cache, a slow hypervisor, a
workload unlike the benchmark) while its gain between two configurations still holds, so:

- a configuration that was measured is estimated as the range of its runs;
- the recommended one, when the current one was measured, as that measurement times the gain;
- any other as the model's interval times the host factor (the model's width: measure it to
  narrow it).
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rules.current.server_numbers import parse_number
from rules.estimate.config_values import configured
from rules.estimate.interface import ConfigValue, Estimator
from rules.inputs.lab_results import LabRun
from rules.inputs.profile import Profile
from rules.output.result import Anchor, Estimate, Estimates, SettingFields
from rules.reference.catalog import ServerCatalog

_SWITCHES = {"ON": 1.0, "TRUE": 1.0, "OFF": 0.0, "FALSE": 0.0}
CURRENT, RECOMMENDED = "current", "recommended"
# Past this ratio between the host factors of two measured configurations, the model's gain
# between them missed by more than its own gain intervals are wide (x1.5 to x2.7 for the
# published pairs, calibration.gain_spread): the note says the gain does not hold here either.
GAIN_MISSED = 2.0


@dataclass(frozen=True, slots=True)
class Measured:
    """The runs of one configuration and the model's interval for it."""

    config: dict[str, ConfigValue]
    rates: tuple[float, ...]
    modelled: Estimate

    @property
    def centre(self) -> float:
        return _geomean(self.rates)

    @property
    def factor(self) -> float:
        return self.centre / centre(self.modelled)

    @property
    def outside(self) -> bool:
        return not self.modelled.low <= self.centre <= self.modelled.high

    def as_estimate(self) -> Estimate:
        """The runs' range; `interval` the share of further runs it is expected to hold."""
        n = len(self.rates)
        return replace(
            self.modelled,
            low=significant(min(self.rates)),
            high=significant(max(self.rates)),
            interval=round((n - 1) / (n + 1), 2),
            in_domain=True,
            outside=(),
        )


def measured_anchor(current: Estimate, measured: float) -> Anchor:
    """What today's measured rate says against the model's interval for the current
    configuration (workload.measured_throughput)."""
    factor = measured / centre(current)
    outside = not current.low <= measured <= current.high
    return Anchor(
        source="measured_throughput",
        runs=1,
        configurations=1,
        host_factor=significant(factor),
        outside_model=outside,
        note=_factor_sentence(factor, outside, "Your server"),
    )


def lab_anchored(
    profile: Profile,
    settings: Sequence[SettingFields],
    baseline: Mapping[str, ConfigValue],
    estimates: Estimates,
    estimator: Estimator,
    catalog: ServerCatalog,
) -> Estimates:
    """`estimates` (the model's, with the current one and the gain) anchored on the lab runs."""
    names = [s["name"] for s in settings]
    groups = _measured(profile, settings, baseline, estimator, catalog)
    factor = math.exp(sum(math.log(g.factor) for g in groups.values()) / len(groups))
    today = _matching(groups, _key(baseline, names))
    ours = _matching(groups, _key({s["name"]: s["value"] for s in settings}, names))
    current, recommended, gain = estimates.current, estimates.recommended, estimates.gain
    measured: list[str] = []
    if today is not None:
        current = today.as_estimate()
        measured.append(CURRENT)
    elif current is not None:
        current = scaled(current, factor)
    if ours is not None:
        recommended = ours.as_estimate()
        measured.append(RECOMMENDED)
    elif today is not None and gain is not None:
        recommended = anchored(recommended, gain, today.centre)
    else:
        recommended = scaled(recommended, factor)
    outside = any(g.outside for g in groups.values())
    runs = sum(len(g.rates) for g in groups.values())
    factors = [g.factor for g in groups.values()]
    anchor = Anchor(
        source="lab_results",
        runs=runs,
        configurations=len(groups),
        host_factor=significant(factor),
        outside_model=outside,
        measured=tuple(measured),
        host_factor_low=significant(min(factors)),
        host_factor_high=significant(max(factors)),
        note=_lab_note(runs, factor, outside, measured, factors),
    )
    return replace(estimates, recommended=recommended, current=current, anchor=anchor)


def _measured(
    profile: Profile,
    settings: Sequence[SettingFields],
    baseline: Mapping[str, ConfigValue],
    estimator: Estimator,
    catalog: ServerCatalog,
) -> dict[tuple[object, ...], Measured]:
    """The lab runs grouped by configuration (as the model reads it), each with the model's
    interval: one model pass per configuration."""
    names = [s["name"] for s in settings]
    rates: dict[tuple[object, ...], list[float]] = {}
    configs: dict[tuple[object, ...], dict[str, ConfigValue]] = {}
    for run in profile.workload.lab_results:
        config = lab_config(run, settings, baseline, catalog)
        key = _key(config, names)
        configs.setdefault(key, config)
        rates.setdefault(key, []).append(run.throughput)
    return {
        key: Measured(
            configs[key],
            tuple(rates[key]),
            estimator.assess(profile, configs[key], configs[key], compare=False).recommended,
        )
        for key in configs
    }


def lab_config(
    run: LabRun,
    settings: Sequence[SettingFields],
    baseline: Mapping[str, ConfigValue],
    catalog: ServerCatalog,
) -> dict[str, ConfigValue]:
    """A run's configuration as the estimator reads one: each recommended setting's value in
    the run, else the version's default; the OS settings as today's."""
    config: dict[str, ConfigValue] = {
        name: value for name, value in baseline.items() if name not in run.configuration
    }
    config.update(
        configured(settings, lambda setting: run.configuration.get(setting["name"]), catalog)
    )
    return config


def _matching(
    groups: Mapping[tuple[object, ...], Measured], key: tuple[object, ...]
) -> Measured | None:
    """The measured configuration equal to `key`, a value unknown on either side (a default
    that depends on another setting) matching any."""
    for measured_key, measured in groups.items():
        if all(a is None or b is None or a == b for a, b in zip(key, measured_key, strict=True)):
            return measured
    return None


def _key(config: Mapping[str, ConfigValue], names: Sequence[str]) -> tuple[object, ...]:
    """The configuration as compared: numbers as numbers, ON/OFF as 1/0, text in capitals."""
    return tuple(_same_form(config.get(name)) for name in names)


def _same_form(value: ConfigValue | None) -> object:
    if value is None or isinstance(value, (int, float)):
        return None if value is None else round(float(value), 6)
    text = value.strip().upper()
    if text in _SWITCHES:
        return _SWITCHES[text]
    number = parse_number(text)
    return text if number is None else round(float(number), 6)


def scaled(estimate: Estimate, factor: float) -> Estimate:
    return replace(
        estimate, low=significant(estimate.low * factor), high=significant(estimate.high * factor)
    )


def anchored(modelled: Estimate, gain: Estimate, measured: float) -> Estimate:
    """The recommended estimate as today's measured rate times the gain interval."""
    return replace(
        modelled,
        low=significant(measured * gain.low),
        high=significant(measured * gain.high),
    )


def centre(estimate: Estimate) -> float:
    """The interval's geometric centre: the model's figure for it."""
    return math.sqrt(max(estimate.low, 1e-9) * max(estimate.high, 1e-9))


def significant(value: float, digits: int = 3) -> float:
    """`value` to three significant figures: an estimate is not more precise than that."""
    if value <= 0 or not math.isfinite(value):
        return 0.0
    return round(value, digits - 1 - math.floor(math.log10(value)))


def _geomean(values: Sequence[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def times(factor: float) -> str:
    """3.2x, 0.31x: two significant figures."""
    return f"{significant(factor, 2):g}x"


def _factor_sentence(factor: float, outside: bool, who: str, *, gain_holds: bool = True) -> str:
    said = f"{who} does {times(factor)} what the model expects for this machine"
    if outside and gain_holds:
        return f"{said}: the model's absolute figures do not describe it; the gain still does."
    if outside:
        return f"{said}: the model's absolute figures do not describe it."
    return f"{said}, inside the model's interval for that configuration."


def _lab_note(
    runs: int, factor: float, outside: bool, measured: Sequence[str], factors: Sequence[float]
) -> str:
    count = len(factors)
    gain_holds = max(factors) / min(factors) <= GAIN_MISSED
    note = (
        f"Anchored to {runs} lab run{'s' if runs != 1 else ''} of {count} "
        f"configuration{'s' if count != 1 else ''} on this host. "
        + _factor_sentence(factor, outside, "It", gain_holds=gain_holds)
    )
    if not gain_holds:
        note += (
            f" Nor does the model's gain between the measured configurations: it does "
            f"{times(min(factors))} to {times(max(factors))} of the model's figure across them, "
            "so the estimates of configurations not measured are rough; measure them."
        )
    if measured:
        which = " and the ".join(measured)
        verb = "estimates are" if len(measured) > 1 else "estimate is"
        note += f" The {which} {verb} measured: the range of its runs."
    return note
