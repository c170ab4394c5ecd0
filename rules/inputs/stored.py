"""A stored result's echoed inputs back into a typed `Profile`, once, when the result is read.

The echo (`rules.inputs.echo.inputs_echo`) is what a result's JSON and a stored row keep; every
face reads the typed profile instead. The profile keeps the stored echo as its `raw`, in the
echo's order (PostgreSQL's jsonb keeps keys in its own), so the stored result writes out byte for
byte as it was computed, and its pasted configuration keeps the origin and dropped count the echo
recorded (validation reads the variables back as a plain `variables` form).

A row an earlier version stored may no longer validate (a range narrowed, a field renamed):
`OutdatedProfile` then carries the stored echo and today's problems, for the faces to say so.
"""

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.inputs.echo import echo_ordered, profile_from_echo
from rules.inputs.errors import OutdatedProfile, ProfileError
from rules.inputs.profile import Profile
from rules.inputs.validation import parse_profile


def profile_from_stored(inputs: Mapping[str, Any]) -> Profile:
    """The typed profile behind a stored result's `inputs`; raises OutdatedProfile when they no
    longer validate."""
    ordered = echo_ordered(inputs)
    try:
        profile = parse_profile(profile_from_echo(ordered))
    except ProfileError as problem:
        raise OutdatedProfile(ordered, problem.lines()) from problem
    current, echoed = profile.current, ordered.get("current")
    if current is not None and isinstance(echoed, Mapping):
        origin = echoed.get("origin")
        dropped = echoed.get("dropped_variables")
        current = replace(
            current,
            origin=origin if isinstance(origin, str) else current.origin,
            dropped=dropped if isinstance(dropped, int) else current.dropped,
        )
    return replace(profile, current=current, raw=ordered)
