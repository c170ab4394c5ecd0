"""The calibrated estimator the engine calls: an 80% interval and per-setting effects."""

from collections.abc import Mapping
from functools import cached_property

import numpy as np

from calibration.calibrate import Calibration, difficulty, interval_group
from calibration.features import (
    MODELLED_SETTINGS,
    ConfigValue,
    Situation,
    as_arrays,
    situation_of_profile,
)
from calibration.fit import INTERVAL
from calibration.model import REFERENCE_YEAR, predict_log, predict_with_bottleneck
from calibration.points import UNITS
from rules.profile import Profile
from rules.result import Effect, Estimate

# Outside the data's range the model extrapolates; widen the interval by half
# (advisor-engineering-judgement) and say so with in_domain=False.
OUT_OF_DOMAIN_WIDENING = 1.5
DOMAIN_TOLERANCE = 1.25  # a feature within 25% beyond the data's range still counts as inside
EFFECT_PERCENTILES = (10.0, 90.0)  # spread of one setting's effect across the refits


class CalibratedEstimator:
    """Implements rules.estimator.Estimator from a fitted Calibration."""

    def __init__(self, calibration: Calibration, *, year: int = REFERENCE_YEAR) -> None:
        self._calibration = calibration
        self._params = np.array(calibration.params)
        self._year = year

    @property
    def calibration_version(self) -> str:
        return self._calibration.version

    @cached_property
    def _refits(self) -> np.ndarray:
        return np.array(list(self._calibration.loso_params.values()))

    @cached_property
    def _group_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for row in self._calibration.report["table"]:
            counts[row["kind"]] = counts.get(row["kind"], 0) + 1
        return counts

    def estimate(self, profile: Profile, config: Mapping[str, ConfigValue]) -> Estimate:
        situation = situation_of_profile(
            profile, config, year=self._year, corrections=self._calibration.device_corrections
        )
        return self.estimate_situation(situation)

    def estimate_situation(self, situation: Situation, *, guessed_fields: int = 0) -> Estimate:
        """The interval for one machine and configuration already in the model's terms.

        `guessed_fields` widens it for a published machine whose source left inputs unstated.
        """
        x = as_arrays([situation])
        logs, binding = predict_with_bottleneck(self._params, x)
        centre = float(logs[0])
        kind = situation.kind
        bounds = self._calibration.bounds
        low, high = bounds.get(interval_group(kind, self._group_counts), bounds["pooled"])
        low, high = low * difficulty(guessed_fields), high * difficulty(guessed_fields)
        inside = self._in_domain(kind, x)
        if not inside:
            middle, half = (low + high) / 2, (high - low) / 2 * OUT_OF_DOMAIN_WIDENING
            low, high = middle - half, middle + half  # wider around the same middle
        return Estimate(
            unit=UNITS[kind],
            low=_round(np.exp(centre + low)),
            high=_round(np.exp(centre + high)),
            interval=INTERVAL,
            bottleneck=binding[0],
            in_domain=inside,
        )

    def gain(
        self,
        profile: Profile,
        baseline: Mapping[str, ConfigValue],
        changes: Mapping[str, ConfigValue],
    ) -> Estimate:
        """The ratio of the changed configuration's throughput over the baseline's, unit "x".

        Its interval comes from how far the held-out model's ratios sat from the published ones
        between two configurations of one machine (calibration.pairs), not from the two
        estimates' own intervals: what one machine does that the model does not know (its
        exact disks, its binaries) cancels out of a ratio.
        """
        corrections = self._calibration.device_corrections
        x = as_arrays(
            [
                situation_of_profile(profile, config, year=self._year, corrections=corrections)
                for config in (baseline, {**baseline, **changes})
            ]
        )
        logs, binding = predict_with_bottleneck(self._params, x)
        centre = float(logs[1] - logs[0])
        ratios = self._calibration.ratio_bounds
        low, high = ratios.get(profile.workload.kind.value, ratios["pooled"])
        inside = self._in_domain(profile.workload.kind.value, {c: v[1:] for c, v in x.items()})
        if not inside:
            low, high = low * OUT_OF_DOMAIN_WIDENING, high * OUT_OF_DOMAIN_WIDENING
        return Estimate(
            unit="x",
            low=_round(np.exp(centre + low)),
            high=_round(np.exp(centre + high)),
            interval=INTERVAL,
            bottleneck=binding[1],
            in_domain=inside,
        )

    def effects(
        self,
        profile: Profile,
        baseline: Mapping[str, ConfigValue],
        changes: Mapping[str, ConfigValue],
    ) -> dict[str, Effect]:
        """Throughput change of each setting alone, from `baseline`, across the refits.

        Settings the model has no term for are left out: their effect is unknown, not zero.
        """
        names = [name for name in changes if name in MODELLED_SETTINGS]
        if not names:
            return {}
        configs = [dict(baseline)] + [{**baseline, name: changes[name]} for name in names]
        corrections = self._calibration.device_corrections
        x = as_arrays(
            [
                situation_of_profile(profile, c, year=self._year, corrections=corrections)
                for c in configs
            ]
        )
        logs = predict_log(self._refits, x)  # one row per refit
        ratios = np.exp(logs[:, 1:] - logs[:, :1]) - 1
        low, high = np.percentile(ratios, EFFECT_PERCENTILES, axis=0) * 100
        return {
            name: Effect(low_pct=round(float(lo), 1), high_pct=round(float(hi), 1))
            for name, lo, hi in zip(names, low, high, strict=True)
        }

    def _in_domain(self, kind: str, x: Mapping[str, np.ndarray]) -> bool:
        ranges = self._calibration.domain.get(kind)
        if ranges is None:
            return False
        values = {c: float(x[c][0]) for c in ranges}
        values["pool_to_data"] = min(values["pool_to_data"], 1.0)  # past 1 the data just fits
        return all(
            low / DOMAIN_TOLERANCE <= values[c] <= high * DOMAIN_TOLERANCE
            for c, (low, high) in ranges.items()
        )


def _round(value: float) -> float:
    """Three significant figures: an estimate is not more precise than that."""
    if value <= 0:
        return 0.0
    digits = 3 - int(np.floor(np.log10(value))) - 1
    return float(round(value, digits))
