"""The revert twin of a result: the same exports, setting back what the server ran before.

`revert(result)` needs a result whose profile carried the current configuration. Each setting
the exports write goes back to its current value; one the user did not have goes back to the
version's default, and its reason says so. Operating-system items are not reverted (the result
has none, so the udev and sysctl twins persist nothing); the warnings name them. The twin is an
ordinary `Result`, so every renderer in the registry writes it unchanged (`rules.render`).
"""

from dataclasses import replace

from rules.current import parse_number
from rules.current.values import change_between
from rules.inputs.errors import NothingToRevert
from rules.output.result import Result, Setting
from rules.reference.apply import catalog_of
from rules.reference.catalog import ServerCatalog, as_number
from rules.units import bytes_for_config

NO_CURRENT = (
    "this result was computed without the current configuration, so there is nothing to "
    "revert to: give `current` (variables, my.cnf or SHOW VARIABLES) in the profile"
)
_TEXT_KINDS = frozenset({"enum"})
_BOOL_WORDS = {"1": "ON", "TRUE": "ON", "YES": "ON", "0": "OFF", "FALSE": "OFF", "NO": "OFF"}


def can_revert(result: Result) -> bool:
    return result.profile.current is not None


def revert(result: Result) -> Result:
    """The result whose exports restore the current configuration; raises NothingToRevert
    when the profile carried none."""
    if result.profile.current is None:
        raise NothingToRevert(NO_CURRENT)
    catalog = catalog_of(result.profile)
    settings: list[Setting] = []
    unknown: list[str] = []
    for setting in result.settings:
        back = _back(setting, catalog)
        if back is None:
            unknown.append(setting.name)
        else:
            settings.append(back)
    warnings = [
        f"Revert of result {result.id}: these values restore the configuration given as "
        "current before its changes; apply them only to a server that took those changes.",
    ]
    if unknown:
        warnings.append(
            f"Not reverted, the current value is unknown or not one this version accepts: "
            f"{', '.join(unknown)}; set them back by hand."
        )
    if result.os:
        names = ", ".join(dict.fromkeys(item.name for item in result.os))
        warnings.append(
            f"Operating-system items are not reverted here ({names}): remove the udev and "
            "sysctl files the result installed and set those back by hand."
        )
    return replace(
        result,
        settings=tuple(settings),
        os=(),
        estimate=None,
        warnings=tuple(warnings),
    )


def _back(setting: Setting, catalog: ServerCatalog) -> Setting | None:
    """The setting with its current value, or None when that value cannot be written."""
    if setting.current is None:
        return None
    value = _typed(setting.current, setting.kind)
    spec = catalog.get(setting.name)
    if isinstance(value, str) and spec is not None and spec.type == "bool":
        value = _BOOL_WORDS.get(value.upper(), value)
    if value is None or not catalog.accepts(setting.name, value):
        return None
    recommended = _spelled(setting)
    if setting.current_is_default:
        reason = f"not set before: back to this version's default (the advisor set {recommended})"
    else:
        reason = f"the value before the advisor's change to {recommended}"
    return replace(
        setting,
        value=value,
        current=recommended,
        current_is_default=False,
        change=change_between(recommended, value, setting.kind),
        is_default=setting.current_is_default,
        reason=reason,
        explanation=(
            f"Restores {setting.name} as the configuration given as current had it, undoing "
            f"rule {setting.rule}."
        ),
        evidence=(),
        effect=None,
        effect_note=None,
    )


def _typed(text: str, kind: str) -> int | float | str | None:
    """A current value as the type the renderers write: numbers for numeric kinds, the word
    (unquoted) for enums; None when a numeric kind holds no number."""
    word = text.strip().strip("'\"")
    if kind in _TEXT_KINDS:
        return word or None
    number = as_number(word)
    if number is None:
        number = parse_number(word)  # sizes with a suffix, e.g. 128M
    if isinstance(number, float) and number.is_integer() and kind == "bytes":
        return int(number)
    return number


def _spelled(setting: Setting) -> str:
    """The recommended value for a one-line reason: sizes as my.cnf writes them (6G)."""
    value = setting.value
    if setting.kind == "bytes" and isinstance(value, int) and not isinstance(value, bool):
        return bytes_for_config(value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
