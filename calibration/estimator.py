"""The calibrated estimator the engine calls: an 80% interval and per-setting effects."""

import dataclasses
import math
from collections.abc import Mapping
from functools import cached_property

import numpy as np

from calibration.calibrate import Calibration
from calibration.config_rows import (
    ConfigRow,
    columns_of,
    configuration_arrays,
    profile_rows,
)
from calibration.domain import inside as inside_ranges
from calibration.effect_terms import (
    UNCHANGED,
    ceiling,
    is_small,
    moved_terms,
    small_effect_why,
    unpriced_note,
)
from calibration.features import (
    MODELLED_SETTINGS,
    UNMODELLED_WHY,
    Situation,
    as_arrays,
)
from calibration.gain_excludes import gain_exclusion, unbounded_note
from calibration.gain_spread import NO_CLASS, GainSpread, setting_class
from calibration.interval import (
    INTERVAL,
    bounds_for,
    interval_group,
    widened,
)
from calibration.kind_cpu_cost import with_kind_offset
from calibration.measured_cpu import capacity_shifts, shifted
from calibration.model import (
    REFERENCE_YEAR,
    Demand,
    predict_rows_detailed,
    predict_with_bottleneck,
)
from calibration.outside import beyond_kind, beyond_price
from calibration.points import UNITS
from calibration.server_config import ConfigValue
from rules.current.binlog import binary_log_on
from rules.estimate.interface import Assessment
from rules.inputs.profile import Profile
from rules.output.result import Effect, Estimate, GainExclusion

EFFECT_PERCENTILES = (10.0, 90.0)  # spread of one setting's effect across the refits
LARGE_EFFECT_PCT = 300.0  # beyond +300%, an effect says which bottleneck gave way
NO_TERM = "the model has no term for this setting"
_PER_CORE = "clients_per_core"  # the one column of load_beyond_price's range


class CalibratedEstimator:
    """Implements rules.estimate.interface.Estimator from a fitted Calibration."""

    def __init__(self, calibration: Calibration, *, year: int = REFERENCE_YEAR) -> None:
        if calibration.gain_spread is None:
            raise ValueError(
                f"calibration {calibration.version} has no gain spread model (an artifact "
                "from before calibration.gain_spread): run `manage.py calibrate`"
            )
        self._spread: GainSpread = calibration.gain_spread
        self._calibration = calibration
        self._params = np.array(calibration.params)
        self._year = year

    @property
    def calibration_version(self) -> str:
        return self._calibration.version

    @property
    def calibration_params(self) -> list[float]:
        """The fitted parameter vector (calibration.model.LAYOUT)."""
        return self._calibration.params

    @cached_property
    def _refits(self) -> np.ndarray:
        return np.array(list(self._calibration.loso_params.values()))

    @cached_property
    def _all_params(self) -> np.ndarray:
        """The fitted vector first, then the leave-one-source-out refits: one model pass
        gives the estimates (first row) and the spread of each effect (the others)."""
        return np.vstack([self._params, self._refits])

    def _params_for(self, profile: Profile) -> np.ndarray:
        """The fitted vector and the refits; for a machine that measured its point selects,
        moved so that its CPU capacity reproduces that measurement (calibration.measured_cpu)
        and its kind's CPU per unit is the one machines that ran both show
        (calibration.kind_cpu_cost)."""
        if profile.hardware.measured_cpu is None:
            return self._all_params
        shifts = capacity_shifts(
            profile,
            self._all_params,
            year=self._year,
            corrections=self._calibration.device_corrections,
        )
        kind = profile.workload.kind.value
        offset = self._calibration.cpu_cost_offsets.get(kind, 0.0)
        return with_kind_offset(shifted(self._all_params, shifts), kind, offset)

    @cached_property
    def _percentile_rows(self) -> tuple[tuple[int, int, float], ...]:
        """EFFECT_PERCENTILES as ranks and weights among the refits: (below, above, share)."""
        last = len(self._refits) - 1
        ranks = []
        for percentile in EFFECT_PERCENTILES:
            position = percentile / 100 * last
            below = math.floor(position)
            ranks.append((below, min(below + 1, last), position - below))
        return tuple(ranks)

    @cached_property
    def _percentile_columns(self) -> np.ndarray:
        """_percentile_rows' ranks as one index array, for ndarray.take (a list index costs
        numpy a conversion per call)."""
        (b_low, a_low, _), (b_high, a_high, _) = self._percentile_rows
        return np.array([b_low, a_low, b_high, a_high], dtype=np.intp)

    def assess(
        self,
        profile: Profile,
        baseline: Mapping[str, ConfigValue],
        recommended: Mapping[str, ConfigValue],
        *,
        compare: bool,
    ) -> Assessment:
        """The estimates, the gain and every effect from one pass over the model: the baseline,
        the recommendation and each setting changed alone, stacked as configurations, under
        the fitted vector and every refit (calibration.model.predict_rows).

        A modelled setting whose value is the baseline's has no effect to compute, nor has one
        whose change moves none of the model's capacities on this profile: each is None with
        the reason (effect_terms). An effect under half a percent says what binds instead. The
        intervals stay within what their configuration's device, page cleaner and log syncs
        allow (effect_terms.ceiling)."""
        modelled = [name for name in recommended if name in MODELLED_SETTINGS]
        names = [name for name in modelled if not _same(recommended[name], baseline.get(name))]
        configs = [dict(baseline), {**baseline, **recommended}]
        configs += [{**baseline, name: recommended[name]} for name in names]
        binlog = binary_log_on(profile)
        unpriced = [n for n in names if setting_class(n, binlog=binlog) in self._spread.unpriced]
        # Each left-out change once: the gain lists it, and its effect note says the same.
        exclusions = {
            n: gain_exclusion(
                self._spread, setting_class(n, binlog=binlog), n, baseline.get(n), recommended[n]
            )
            for n in unpriced
        }
        if compare and unpriced:  # the recommendation with its unpriced changes held: the gain's
            configs.append(
                {**baseline, **{n: v for n, v in recommended.items() if n not in unpriced}}
            )
        machine, rows = profile_rows(
            profile, configs, year=self._year, corrections=self._calibration.device_corrections
        )
        logs, binding, times, demand = _model_pass(self._params_for(profile), machine, rows)
        kind = profile.workload.kind.value
        before, after = logs[:2, 0].tolist()  # the baseline's and the recommendation's logs
        domain = self._calibration.domain
        seen = self.load_beyond_price(profile)
        reasons = _outside(profile, seen, domain, kind, machine, rows[1])
        inside = not reasons
        current = gain = None
        if compare:  # only then the baseline's estimate and the gain over it
            reasons_before = _outside(profile, seen, domain, kind, machine, rows[0])
            current = _capped(
                self._interval(
                    kind,
                    before,
                    binding[0],
                    not reasons_before,
                    machine.disks,
                    outside=reasons_before,
                ),
                demand,
                0,
            )
            changes: dict[str, float] = {}
            for i, name in enumerate(names):  # each priced class's settings alone, in log
                cls = setting_class(name, binlog=machine.binlog)
                if cls != NO_CLASS and name not in unpriced:
                    changes[cls] = changes.get(cls, 0.0) + float(logs[2 + i, 0]) - before
            priced = len(configs) - 1 if unpriced else 1  # the gain's configuration
            excludes = tuple(exclusions.values())
            gain = self._gain(
                logs[priced, 0] - before,
                binding[priced],
                inside,
                changes=(changes, binding[0] == binding[priced]),
                outside=reasons,
                excludes=excludes,
            )
        low, high = self._effect_percentiles(logs[: 2 + len(names), 1:])
        not_estimated = dict.fromkeys((n for n in modelled if n not in names), UNCHANGED)
        effects: dict[str, Effect] = {}
        binds = int(times[:, 0].argmax())  # the baseline's binding term
        for i, (name, lo, hi) in enumerate(zip(names, low, high, strict=True)):
            moved = moved_terms(times[:, 0], times[:, 2 + i])
            if not moved:
                not_estimated[name] = unpriced_note(name, kind)
                continue
            if name in unpriced:  # one source for every number: the gain does not count it
                not_estimated[name] = unbounded_note(exclusions[name])
                continue
            # + 0.0: a change that rounds to nothing is 0.0, not -0.0, in the API's JSON too
            effect = Effect(round(lo, 1) + 0.0, round(hi, 1) + 0.0)
            why = small_effect_why(moved, binds) if is_small(effect) else ""
            why = why or _why_large(hi, binding[0], binding[2 + i])
            effects[name] = Effect(effect.low_pct, effect.high_pct, why)
        not_estimated.update(
            (name, UNMODELLED_WHY.get(name, NO_TERM))
            for name in recommended
            if name not in MODELLED_SETTINGS
        )
        recommended_estimate = self._interval(
            kind, after, binding[1], inside, machine.disks, outside=reasons
        )
        return Assessment(
            recommended=_capped(recommended_estimate, demand, 1),
            current=current,
            gain=gain,
            effects=effects,
            not_estimated=not_estimated,
        )

    def estimate(self, profile: Profile, config: Mapping[str, ConfigValue]) -> Estimate:
        """The 80% interval of one configuration's throughput."""
        return self.assess(profile, config, {}, compare=False).recommended

    def gain(
        self,
        profile: Profile,
        baseline: Mapping[str, ConfigValue],
        changes: Mapping[str, ConfigValue],
    ) -> Estimate:
        """The ratio of the changed configuration's throughput over the baseline's, unit "x"."""
        gain = self.assess(profile, baseline, changes, compare=True).gain
        assert gain is not None
        return gain

    def effects(
        self,
        profile: Profile,
        baseline: Mapping[str, ConfigValue],
        changes: Mapping[str, ConfigValue],
    ) -> dict[str, Effect]:
        """Throughput change of each modelled setting alone, from `baseline`, across the refits.

        Settings the model has no term for are left out: their effect is unknown, not zero.
        """
        return self.assess(profile, baseline, changes, compare=False).effects

    def estimate_situation(self, situation: Situation) -> Estimate:
        """The interval for one machine and configuration already in the model's terms."""
        return self.situation_with_centre(situation)[0]

    def situation_with_centre(self, situation: Situation) -> tuple[Estimate, float]:
        """estimate_situation's interval and the log of the centre it is built around (two
        situations' centres differ by their estimated log ratio), from one prediction."""
        x = as_arrays([situation])
        logs, binding = predict_with_bottleneck(self._params, x)
        kind = situation.kind
        ranges = self._calibration.domain.get(kind)
        why = beyond_kind(kind, ranges, {c: float(x[c][0]) for c in ranges or ()})
        centre = float(logs[0])
        interval = self._interval(kind, centre, binding[0], not why, situation.disks, outside=why)
        return interval, centre

    def gain_of_logs(
        self,
        log_ratio: float,
        bottleneck: str,
        *,
        inside: bool,
        changes: Mapping[str, float],
        same_bottleneck: bool,
    ) -> Estimate:
        """The gain interval around an estimated log ratio of two configurations of one
        machine (situation_with_centre's centres) whose priced classes change by `changes`
        (calibration.gain_spread), as assess gives it for a profile's change."""
        return self._gain(
            log_ratio, bottleneck, inside, changes=(dict(changes), same_bottleneck), outside=()
        )

    @property
    def unpriced_classes(self) -> Mapping[str, str]:
        """The classes of change a gain does not fold in, and why (calibration.gain_spread)."""
        return self._spread.unpriced

    def _interval(
        self,
        kind: str,
        centre: float,
        bottleneck: str,
        inside: bool,
        disks: bool,
        *,
        outside: tuple[str, ...] = (),
    ) -> Estimate:
        """The interval of the estimate's bottleneck within its workload kind where the
        calibration has one, else of its bottleneck, else the pooled one (the model misses by
        more where random reads bind than where the CPU does; by more on updates than on point
        selects); on spinning disks, that of disks (calibration.interval.DISKS_GROUP)."""
        group = interval_group(bottleneck, kind, disks=disks)
        low, high = bounds_for(self._calibration.bounds, group)
        if not inside:
            low, high = widened(low, high, self._calibration.out_of_domain_widening)
        return Estimate(
            unit=UNITS[kind],
            low=_round(math.exp(centre + low)),
            high=_round(math.exp(centre + high)),
            interval=INTERVAL,
            bottleneck=bottleneck,
            in_domain=inside,
            outside=outside,
        )

    def _gain(
        self,
        centre: float,
        bottleneck: str,
        inside: bool,
        *,
        changes: tuple[dict[str, float], bool],
        outside: tuple[str, ...],
        excludes: tuple[GainExclusion, ...] = (),
    ) -> Estimate:
        """The ratio interval comes from how far the held-out model's ratios sat from the
        published ones between two configurations of one machine (calibration.pairs), not from
        the two estimates' own intervals: what one machine does that the model does not know
        (its exact disks, its binaries) cancels out of a ratio. Its width is the spread model's
        for this change (calibration.gain_spread), given `changes` (each priced class's change
        alone in log, and whether the bottleneck stays): a small change to a setting the pairs
        show the model prices well gets a narrow interval. The changes it does not price are
        not in `centre` and are said in `excludes`."""
        half = self._spread.half_width(changes[0], same_bottleneck=changes[1], inside=inside)
        return Estimate(
            unit="x",
            low=_round(math.exp(centre - half)),
            high=_round(math.exp(centre + half)),
            interval=INTERVAL,
            bottleneck=bottleneck,
            in_domain=inside,
            outside=outside,
            excludes=excludes,
        )

    def _effect_percentiles(self, refits: np.ndarray) -> tuple[list[float], list[float]]:
        """EFFECT_PERCENTILES of each setting's ratio to the baseline across the refits
        (configuration x refit logs), in %, interpolated as numpy's default does (numpy's own
        percentile costs more than the whole model pass on a few dozen rows): numpy sorts,
        plain floats do the few products, as numpy would, operation for operation."""
        ratios = np.subtract(refits[2:], refits[:1])
        np.exp(ratios, out=ratios)
        np.subtract(ratios, 1, out=ratios)
        ratios.sort(axis=1)
        (_, _, s_low), (_, _, s_high) = self._percentile_rows
        picked = ratios.take(self._percentile_columns, axis=1).tolist()
        low = [(b * (1 - s_low) + a * s_low) * 100 for b, a, _, _ in picked]
        high = [(b * (1 - s_high) + a * s_high) * 100 for _, _, b, a in picked]
        return low, high

    def load_beyond_price(self, profile: Profile) -> tuple[float, float] | None:
        """For a machine that measured its point selects, whose kind takes its CPU price from
        published machines that ran both (calibration.kind_cpu_cost): the clients per core that
        price was seen at, when the measurement's threads or the workload's clients per core lie
        beyond them, with the domain's tolerance (its estimates are then outside the data).
        None when they lie within, or for any other profile."""
        machine = measured_loads(profile)
        if machine is None:
            return None
        loads = self._calibration.cpu_cost_loads.get(profile.workload.kind.value)
        if loads is None:
            return None
        ranges = {_PER_CORE: loads}
        within = all(inside_ranges(ranges, {_PER_CORE: load}) for load in machine)
        return None if within else loads


def _model_pass(
    params: np.ndarray, machine: Situation, rows: list[ConfigRow]
) -> tuple[np.ndarray, list[str], np.ndarray, Demand]:
    """calibration.model.predict_rows for one machine's configurations, transposed: a row per
    configuration, a column per parameter vector, and the binding capacity per configuration
    under the first vector. A configuration given twice is computed once (a setting whose
    value changes nothing the model reads gives the baseline's row: two or three of a
    recommendation's). Then the first vector's time per unit on each term (term x
    configuration) and its Demand, in the configurations' order."""
    first: dict[ConfigRow, int] = {}
    index = [first.setdefault(row, len(first)) for row in rows]
    x = configuration_arrays(machine, list(first))
    logs, binding, times, demand = predict_rows_detailed(params, x)
    if len(first) == len(rows):
        return logs.T, binding, times, demand
    return logs.T[index], [binding[i] for i in index], times[:, index], _rows_of(demand, index)


def _rows_of(demand: Demand, index: list[int]) -> Demand:
    """`demand` with its configurations in `index`'s order (each field one value a row)."""
    fields = (getattr(demand, f.name)[index] for f in dataclasses.fields(demand))
    return Demand(*fields)


def _capped(estimate: Estimate, demand: Demand, row: int) -> Estimate:
    """The interval cut to the most throughput its configuration's device, page cleaner and
    log syncs allow (effect_terms.ceiling): the model's centre is below that ceiling, but an
    interval as wide as the published points' misses reaches past it, to rates the device
    the same result describes cannot serve. Said in `capped` when it applies."""
    top, said = ceiling(demand, row)
    if not math.isfinite(top) or estimate.high <= top:
        return estimate
    limit = _round(top)
    return dataclasses.replace(
        estimate,
        low=min(estimate.low, limit),
        high=limit,
        capped=f"capped at {limit:,.0f} {estimate.unit}: at that rate {said}",
    )


def _outside(
    profile: Profile,
    seen: tuple[float, float] | None,
    domain: Mapping[str, Mapping[str, tuple[float, float]]],
    kind: str,
    machine: Situation,
    row: ConfigRow,
) -> tuple[str, ...]:
    """Why one configuration's estimate is outside the data (calibration.outside): each domain
    column beyond its kind's range, and a measured machine beyond its CPU price's load (`seen`:
    load_beyond_price). None: the estimate is inside, the one check that decides it."""
    ranges = domain.get(kind)
    values = columns_of(machine, row, ranges) if ranges is not None else {}
    lines = beyond_kind(kind, ranges, values)
    loads = measured_loads(profile) if seen is not None else None
    if seen is not None and loads is not None:
        lines += (beyond_price(kind, seen, loads),)
    return lines


def measured_loads(profile: Profile) -> tuple[float, float] | None:
    """Clients per core of a machine that measured its point selects: the measurement's
    threads, then the workload's clients; None without a measurement."""
    measured = profile.hardware.measured_cpu
    if measured is None:
        return None
    cores = profile.hardware.usable_cores
    return measured.threads / cores, profile.workload.concurrency / cores


def _same(value: ConfigValue, other: ConfigValue | None) -> bool:
    """One value in two spellings (8589934592 and 8589934592.0, "ON" and "on")."""
    if type(value) is type(other) and value == other:  # one spelling, the commonest case
        return True
    if other is None:
        return False
    if isinstance(value, str) or isinstance(other, str):
        return str(value).strip().lower() == str(other).strip().lower()
    return float(value) == float(other)


def _why_large(high_pct: float, before: str, after: str) -> str:
    """A gain beyond LARGE_EFFECT_PCT only comes from a bottleneck giving way: name it."""
    if high_pct <= LARGE_EFFECT_PCT:
        return ""
    if before == after:
        return f"the binding capacity is {before} before and after, each unit costing it far less"
    return f"the binding capacity is {before} before; with this value alone it becomes {after}"


def _round(value: float) -> float:
    """Three significant figures: an estimate is not more precise than that."""
    if value <= 0:
        return 0.0
    digits = 3 - math.floor(math.log10(value)) - 1
    return float(round(value, digits))
