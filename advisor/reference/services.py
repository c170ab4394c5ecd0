"""What the advisor knows about a setting, as plain data: its catalog rows, the rules that
decide it and the sources they cite. The REST API (`/api/v1/catalog`, `/rules`, `/sources`) and
the MCP server's `explain_setting` both answer from these functions."""

from __future__ import annotations

import functools
from typing import Any

from rules.inputs.enums import Flavor
from rules.inputs.version import ServerVersion
from rules.reference.bibliography import all_sources, source
from rules.reference.catalog import VariableSpec, all_rows, catalog_for
from rules.registry import all_rules
from rules.rule import OsRule


def variable_data(spec: VariableSpec) -> dict[str, Any]:
    """One catalog row as the catalog endpoint publishes it."""
    keys = ("name", "type", "default", "default_text", "minimum", "maximum", "dynamic", "unit")
    return {
        **{key: getattr(spec, key) for key in keys},
        "values": list(spec.values),
        "block_size": spec.block_size,
        "deprecated": spec.deprecated,
        "since": spec.since,
        "until": spec.until,
        "sources": list(spec.sources),
        "notes": spec.notes,
    }


@functools.cache
def rule_list() -> list[dict[str, Any]]:
    """Every rule: the setting it decides, its cases' explanation templates and evidence."""
    return [
        {
            "id": rule.id,
            "setting": rule.setting,
            "scope": "os" if isinstance(rule, OsRule) else "mysqld",
            "kind": None if isinstance(rule, OsRule) else rule.kind,
            "sources": list(rule.sources),
            "cases": [
                {
                    "name": name,
                    "reason": case.reason,
                    "explanation": case.explanation,
                    "evidence": [{"source": e.source, "finding": e.finding} for e in case.evidence],
                }
                for name, case in rule.cases.items()
            ],
        }
        for rule in all_rules()
    ]


@functools.cache
def source_list() -> list[dict[str, Any]]:
    """The bibliography every explanation cites."""
    return [source_data(s.key) for s in all_sources()]


def source_data(key: str) -> dict[str, Any]:
    """One bibliography entry by key (raises KeyError for an unknown key)."""
    s = source(key)
    return {
        "key": s.key,
        "author": s.author,
        "title": s.title,
        "date": s.date,
        "published": s.published,
        "kind": s.kind,
        "citation": s.citation(),
        "findings": list(s.findings),
    }


def setting_explain(
    *, name: str, flavor: Flavor | None = None, version: ServerVersion | None = None
) -> dict[str, Any] | None:
    """What the advisor knows about `name`, or None when it knows nothing.

    With a flavor and a version the catalog answers for that release only (its row, or none
    when the release lacks the variable); otherwise every row, each with its since/until."""
    rules = [rule for rule in rule_list() if rule["setting"] == name]
    rows = [spec for spec in all_rows() if spec.name == name]
    if not rules and not rows:
        return None
    if flavor is not None and version is not None:
        spec = catalog_for(flavor, version).get(name)
        rows = [] if spec is None else [spec]
    cited = dict.fromkeys(key for rule in rules for key in rule["sources"])
    return {
        "name": name,
        "catalog": [variable_data(spec) | {"flavor": spec.flavor} for spec in rows],
        "rules": rules,
        "sources": [source_data(key) for key in cited],
    }
