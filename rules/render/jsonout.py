"""The contract's JSON result (product.md, "Output: the result") and its inverse.

`result_to_dict` is what the API returns and what is stored with a recommendation;
`result_from_dict` turns a stored one back into a `Result` so every face can render it again.
"""

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from rules.bibliography import source
from rules.render.mycnf import config_value, permalink_url, server_value
from rules.result import Change, Effect, Estimate, Estimates, Evidence, OsItem, Result, Setting


def result_to_dict(result: Result, *, base_url: str = "") -> dict[str, Any]:
    return {
        "id": result.id,
        "permalink": permalink_url(result, base_url),
        "ruleset_version": result.ruleset_version,
        "calibration_version": result.calibration_version,
        "inputs": copy.deepcopy(result.inputs),
        "settings": [_setting_to_dict(s) for s in result.settings],
        "os": [_os_to_dict(item) for item in result.os],
        "estimate": _estimates_to_dict(result.estimate),
        "warnings": list(result.warnings),
        "output_refused": result.output_refused,
        "sources": _sources(result),
    }


def _setting_to_dict(setting: Setting) -> dict[str, Any]:
    return {
        "name": setting.name,
        "value": server_value(setting),
        "display": config_value(setting),
        "scope": setting.scope,
        "kind": setting.kind,
        "current": setting.current,
        "current_is_default": setting.current_is_default,
        "change": None if setting.change is None else setting.change.value,
        "dynamic": setting.dynamic,
        "rule": setting.rule,
        "reason": setting.reason,
        "explanation": setting.explanation,
        "evidence": [_evidence_to_dict(e) for e in setting.evidence],
        "effect": _effect_to_dict(setting.effect),
    }


def _effect_to_dict(effect: Effect | None) -> dict[str, Any] | None:
    return None if effect is None else {"low_pct": effect.low_pct, "high_pct": effect.high_pct}


def _os_to_dict(item: OsItem) -> dict[str, Any]:
    return {
        "name": item.name,
        "value": item.value,
        "devices": item.devices,
        "rule": item.rule,
        "explanation": item.explanation,
        "evidence": [_evidence_to_dict(e) for e in item.evidence],
        "commands": list(item.commands),
        "persist": item.persist,
        "persist_path": item.persist_path,
        "current": item.current,
        "change": None if item.change is None else item.change.value,
    }


def _evidence_to_dict(evidence: Evidence) -> dict[str, Any]:
    return {"source": evidence.source, "finding": evidence.finding, "citation": _citation(evidence)}


def _citation(evidence: Evidence) -> str | None:
    """None only for a stored result citing a source the bibliography no longer has."""
    try:
        return source(evidence.source).citation()
    except LookupError:
        return None


def _estimates_to_dict(estimates: Estimates | None) -> dict[str, Any] | None:
    if estimates is None:
        return None
    current = estimates.current
    gain = estimates.gain
    return {
        "recommended": _estimate_to_dict(estimates.recommended),
        "current": None if current is None else _estimate_to_dict(current),
        "gain": None if gain is None else _estimate_to_dict(gain),
        "measured": estimates.measured,
    }


def _estimate_to_dict(estimate: Estimate) -> dict[str, Any]:
    return {
        "unit": estimate.unit,
        "low": estimate.low,
        "high": estimate.high,
        "interval": estimate.interval,
        "bottleneck": estimate.bottleneck,
        "in_domain": estimate.in_domain,
    }


def _sources(result: Result) -> list[dict[str, Any]]:
    """Every bibliography entry the result cites, once each, sorted by key."""
    keys = {e.source for s in result.settings for e in s.evidence}
    keys |= {e.source for item in result.os for e in item.evidence}
    entries = []
    for key in sorted(keys):
        try:
            entry = source(key)
        except LookupError:
            continue
        entries.append(
            {
                "key": entry.key,
                "author": entry.author,
                "title": entry.title,
                "date": _text(entry.date),
                "published": _text(entry.published),
                "citation": entry.citation(),
            }
        )
    return entries


def _text(value: object) -> str | None:
    return None if value is None else str(value)


# -- the inverse --------------------------------------------------------------------------------


def result_from_dict(data: Mapping[str, Any]) -> Result:
    """Rebuild a `Result` from `result_to_dict` output (e.g. a stored result); derived fields
    (permalink, display, citations, sources) are ignored. Raises ValueError on a malformed one."""
    try:
        return Result(
            id=str(data["id"]),
            ruleset_version=str(data["ruleset_version"]),
            calibration_version=_optional_text(data.get("calibration_version")),
            inputs=copy.deepcopy(dict(data["inputs"])),
            settings=tuple(_setting_from_dict(s) for s in data["settings"]),
            os=tuple(_os_from_dict(item) for item in data["os"]),
            estimate=_estimates_from_dict(data.get("estimate")),
            warnings=tuple(str(w) for w in data.get("warnings") or ()),
            output_refused=_optional_text(data.get("output_refused")),
        )
    except (KeyError, TypeError, AttributeError) as problem:
        raise ValueError(f"not a stored result: {problem!r}") from problem


def _setting_from_dict(data: Mapping[str, Any]) -> Setting:
    kind = str(data["kind"])
    effect = data.get("effect")
    return Setting(
        name=str(data["name"]),
        value=_value_from_text(str(data["value"]), kind),
        rule=str(data["rule"]),
        reason=str(data["reason"]),
        explanation=str(data["explanation"]),
        evidence=_evidence_from_list(data["evidence"]),
        dynamic=bool(data["dynamic"]),
        scope=str(data["scope"]),
        kind=kind,
        current=_optional_text(data.get("current")),
        current_is_default=bool(data.get("current_is_default", False)),
        change=_change(data.get("change")),
        effect=None if effect is None else Effect(effect["low_pct"], effect["high_pct"]),
    )


def _value_from_text(text: str, kind: str) -> int | float | str:
    """Invert `server_value`: byte counts and numbers back to int (or float), percent to float."""
    if kind == "enum":
        return text
    if kind == "percent":
        return float(text)
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def _os_from_dict(data: Mapping[str, Any]) -> OsItem:
    return OsItem(
        name=str(data["name"]),
        value=str(data["value"]),
        devices=str(data["devices"]),
        rule=str(data["rule"]),
        explanation=str(data["explanation"]),
        evidence=_evidence_from_list(data["evidence"]),
        commands=tuple(str(c) for c in data["commands"]),
        persist=str(data["persist"]),
        persist_path=str(data["persist_path"]),
        current=_optional_text(data.get("current")),
        change=_change(data.get("change")),
    )


def _evidence_from_list(items: Sequence[Mapping[str, Any]]) -> tuple[Evidence, ...]:
    return tuple(Evidence(str(e["source"]), str(e["finding"])) for e in items)


def _estimates_from_dict(data: Mapping[str, Any] | None) -> Estimates | None:
    if data is None:
        return None
    current, gain = data.get("current"), data.get("gain")
    return Estimates(
        recommended=_estimate_from_dict(data["recommended"]),
        current=None if current is None else _estimate_from_dict(current),
        gain=None if gain is None else _estimate_from_dict(gain),
        measured=data.get("measured"),
    )


def _estimate_from_dict(data: Mapping[str, Any]) -> Estimate:
    return Estimate(
        unit=str(data["unit"]),
        low=data["low"],
        high=data["high"],
        interval=data["interval"],
        bottleneck=str(data["bottleneck"]),
        in_domain=bool(data["in_domain"]),
    )


def _change(value: object) -> Change | None:
    return None if value is None else Change(str(value))


def _optional_text(value: object) -> str | None:
    return None if value is None else str(value)
