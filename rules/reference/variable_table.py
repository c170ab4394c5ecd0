"""What settling a proposal reads of each variable, worked out once per release.

The engine settles about 20 proposals per recommendation, and the catalog row, the version's
default (computed where the server computes it), the apply notes and the value a server runs
when a paste leaves the variable out depend only on the release:
looked up once per catalog, not on every recommendation.
"""

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from rules.current.values import running_default
from rules.reference.apply import apply_note
from rules.reference.catalog import ServerCatalog, VariableSpec
from rules.reference.defaults import default_of


@dataclass(frozen=True, slots=True)
class VariableFacts:
    spec: VariableSpec
    default: int | float | str | None  # `default_of`: None when unknown
    note_now: str  # `apply_note` when the change takes effect now
    note_restart: str  # and when it waits for a restart
    # `current_value` of a variable not pasted and not derived from pasted ones (DERIVED)
    running: tuple[str | None, bool]


@functools.lru_cache(maxsize=256)  # as many as catalog_for keeps
def variable_table(catalog: ServerCatalog) -> Mapping[str, VariableFacts]:
    """Every variable of the release by name; absent (or unverified) ones are left out."""
    table: dict[str, VariableFacts] = {}
    for name in catalog.names():
        spec = catalog.get(name)
        if spec is not None:
            table[name] = VariableFacts(
                spec,
                default_of(catalog, name),
                apply_note(name, catalog, dynamic=True),
                apply_note(name, catalog, dynamic=False),
                running_default(catalog, name),
            )
    return table
