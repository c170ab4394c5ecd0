"""The interface the engine needs from a throughput model; `calibration` implements it.

Declared here so that `rules` never imports `calibration` (the dependency points the other way).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from rules.inputs.profile import Profile
from rules.output.result import Effect, Estimate

ConfigValue = int | float | str


@dataclass(frozen=True, slots=True)
class Assessment:
    """Everything the engine asks of the model for one result, computed in one pass."""

    recommended: Estimate
    current: Estimate | None  # with `compare`: the baseline's estimate
    gain: Estimate | None  # with `compare`: recommended over baseline, unit "x"
    effects: dict[str, Effect]  # each change alone from the baseline, where the model can
    not_estimated: dict[str, str] = field(default_factory=dict)  # the others, and why not


class Estimator(Protocol):
    @property
    def calibration_version(self) -> str: ...

    def assess(
        self,
        profile: Profile,
        baseline: Mapping[str, ConfigValue],
        recommended: Mapping[str, ConfigValue],
        *,
        compare: bool,
    ) -> Assessment:
        """80% intervals of the recommended throughput and, with `compare`, of the baseline's
        and of the gain between them; the effect of each recommended value alone."""
        ...
