"""Ask the estimator for the recommended and current throughput, the gain between them, and each
setting's effect."""

from collections.abc import Mapping, Sequence
from typing import Any

from rules.estimate.anchor import anchored, lab_anchored, measured_anchor
from rules.estimate.config_values import configured
from rules.estimate.interface import Assessment, ConfigValue, Estimator
from rules.inputs.profile import Profile
from rules.output.result import Effect, Estimates, OsItem, SettingFields
from rules.reference.catalog import ServerCatalog

# What the estimate adds to one Setting, as its last two fields: (its effect, None), or (None,
# why there is none).
EffectFields = tuple[Effect | None, str | None]


def with_estimates(
    profile: Profile,
    settings: Sequence[SettingFields],
    os_items: Sequence[OsItem],
    catalog: ServerCatalog,
    estimator: Estimator,
) -> tuple[Estimates, dict[str, EffectFields]]:
    """The estimates, and each setting's effect fields by name (absent: neither)."""
    recommended: dict[str, ConfigValue] = {s["name"]: s["value"] for s in settings}
    recommended.update({item.name: item.value for item in os_items})
    baseline = baseline_config(profile, settings, catalog)
    measured, lab = profile.workload.measured_throughput, profile.workload.lab_results
    known = profile.current is not None or measured is not None or bool(lab)
    # Always compared: without a current configuration the baseline is the version's defaults,
    # and the gain over them is what the result leads with (rules.output.headline).
    assessed = estimator.assess(profile, baseline, recommended, compare=True)
    if not known:
        estimates = Estimates(
            assessed.recommended, defaults=assessed.current, defaults_gain=assessed.gain
        )
        return estimates, _effect_fields(assessed)
    estimates = Estimates(assessed.recommended, assessed.current, assessed.gain, measured)
    if lab:
        estimates = lab_anchored(profile, settings, baseline, estimates, estimator, catalog)
    elif measured is not None and assessed.gain is not None and assessed.current is not None:
        estimates = Estimates(
            anchored(assessed.recommended, assessed.gain, measured),
            assessed.current,
            assessed.gain,
            measured,
            measured_anchor(assessed.current, measured),
        )
    return estimates, _effect_fields(assessed)


def _effect_fields(assessed: Assessment) -> dict[str, EffectFields]:
    fields: dict[str, EffectFields] = {
        name: (None, note) for name, note in assessed.not_estimated.items()
    }
    fields.update({name: (effect, None) for name, effect in assessed.effects.items()})
    return fields


def model_view(effect: Effect | None, note: str | None) -> str:
    """The sentence that follows a published figure in an explanation: what the model expects
    of this change here, from the same effect the result gives (issue #42: one source for
    every number), in the whole percents the result page shows."""
    if effect is None:
        why = f": {note}" if note else ""
        return f" Here the model gives no estimate{why}."
    low, high = round(effect.low_pct), round(effect.high_pct)
    span = f"{low:+d}%" if low == high else f"{low:+d}% to {high:+d}%"
    because = f", because {effect.why}" if effect.why else ""
    return f" Here the model expects {span} from this change alone{because}."


def baseline_config(
    profile: Profile, settings: Sequence[Mapping[str, Any]], catalog: ServerCatalog
) -> dict[str, ConfigValue]:
    """What runs today: the pasted values, else the version's defaults (with no current
    configuration at all, every value is the default: the baseline the gain is weighed
    against)."""
    config = configured(settings, lambda setting: setting["current"], catalog)
    if profile.current is not None and "io_scheduler" in profile.current.os:
        config["io_scheduler"] = profile.current.os["io_scheduler"]
    return config
