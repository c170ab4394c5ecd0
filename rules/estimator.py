"""The interface the engine needs from a throughput model; `calibration` implements it.

Declared here so that `rules` never imports `calibration` (the dependency points the other way).
"""

from collections.abc import Mapping
from typing import Protocol

from rules.profile import Profile
from rules.result import Effect, Estimate

ConfigValue = int | float | str


class Estimator(Protocol):
    @property
    def calibration_version(self) -> str: ...

    def estimate(self, profile: Profile, config: Mapping[str, ConfigValue]) -> Estimate:
        """80% prediction interval of the workload's reference benchmark under `config`."""
        ...

    def gain(
        self,
        profile: Profile,
        baseline: Mapping[str, ConfigValue],
        changes: Mapping[str, ConfigValue],
    ) -> Estimate:
        """80% interval of the throughput ratio of `changes` over `baseline` (unit "x")."""
        ...

    def effects(
        self,
        profile: Profile,
        baseline: Mapping[str, ConfigValue],
        changes: Mapping[str, ConfigValue],
    ) -> dict[str, Effect]:
        """Throughput change, as a range, of applying each of `changes` alone to `baseline`."""
        ...
