"""Typed readers for settings that come from the environment.

Each helper returns the parsed value or its default, and raises ImproperlyConfigured naming the
variable and what it accepts when the value cannot be used. An empty (or blank) value counts as
unset, so `FOO=` in an env file means "use the default".
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
BOOL_WORDS_HELP = "one of 1, 0, true, false, yes, no, on, off (any case)"


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return None
    return value.strip()


def _missing(name: str, accepts: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"{name} is required but not set; it accepts {accepts}.")


def _invalid(name: str, value: str, accepts: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"{name}={value!r} is not valid; it accepts {accepts}.")


def env_str(
    name: str,
    default: str | None = None,
    *,
    choices: Sequence[str] | None = None,
    accepts: str = "a non-empty string",
) -> str:
    """The variable as a string; required when `default` is None."""
    if choices:
        accepts = "one of " + ", ".join(choices)
    value = _raw(name)
    if value is None:
        if default is None:
            raise _missing(name, accepts)
        return default
    if choices and value not in choices:
        raise _invalid(name, value, accepts)
    return value


def env_bool(name: str, default: bool) -> bool:
    """1/0, true/false, yes/no, on/off in any case."""
    value = _raw(name)
    if value is None:
        return default
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise _invalid(name, value, BOOL_WORDS_HELP)


def env_int(
    name: str,
    default: int | None = None,
    *,
    min_value: int | None = None,
    max_value: int | None = None,
) -> int:
    """A base-10 integer, optionally bounded; required when `default` is None."""
    accepts = "an integer"
    if min_value is not None and max_value is not None:
        accepts += f" from {min_value} to {max_value}"
    elif min_value is not None:
        accepts += f" >= {min_value}"
    elif max_value is not None:
        accepts += f" <= {max_value}"
    value = _raw(name)
    if value is None:
        if default is None:
            raise _missing(name, accepts)
        return default
    try:
        number = int(value, 10)
    except ValueError:
        raise _invalid(name, value, accepts) from None
    if (min_value is not None and number < min_value) or (
        max_value is not None and number > max_value
    ):
        raise _invalid(name, value, accepts)
    return number


def env_float(name: str, default: float, *, min_value: float, max_value: float) -> float:
    """A finite decimal number within [min_value, max_value]."""
    accepts = f"a number from {min_value:g} to {max_value:g}"
    value = _raw(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise _invalid(name, value, accepts) from None
    if not min_value <= number <= max_value:  # also refuses nan
        raise _invalid(name, value, accepts)
    return number


def env_list(
    name: str,
    default: Sequence[str] | None = None,
    *,
    accepts: str = "a comma-separated list of non-empty items",
) -> list[str]:
    """Comma-separated items, blanks around items dropped; required when `default` is None."""
    value = _raw(name)
    if value is None:
        if default is None:
            raise _missing(name, accepts)
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(not item for item in items):
        raise _invalid(name, value, accepts)
    return items
