"""The engine: run every rule for a profile and assemble the frozen Result every face renders."""

import hashlib
import json
import string
from collections.abc import Mapping
from functools import cache

from rules.current import ORIGIN_LABELS
from rules.current.audit import audit, session_buffer_warnings
from rules.current.values import DERIVED, change_between, current_value
from rules.estimate.interface import Estimator
from rules.estimate.throughput import model_view, with_estimates
from rules.inputs.enums import ControllerCache, FlashClass
from rules.inputs.profile import Profile
from rules.inputs.version import SUPPORT_REASONS, SUPPORTED_RANGE_TEXT, Support, support_of
from rules.machine.storage import array_capability
from rules.output.result import Change, Estimates, OsItem, Result, Setting, SettingFields
from rules.reference.catalog import ServerCatalog, catalog_for
from rules.reference.defaults import matches_default
from rules.reference.lifecycle import TABLE_DIGEST, lifecycle_warning
from rules.reference.variable_table import VariableFacts, variable_table
from rules.registry import OS_RULES, SETTING_RULES
from rules.rule import Context, OsProposal, OsRule, Proposal, Rule
from rules.settings.buffer_pool import cache_fit_warning

RULESET_VERSION = "2026.2"
# json.dumps(..., sort_keys=True, default=str), without building an encoder for every result.
_ID_JSON = json.JSONEncoder(sort_keys=True, default=str)


def recommend(profile: Profile, *, estimator: Estimator | None = None) -> Result:
    """Compute every setting and OS item for `profile`; pure apart from the estimator's model."""
    server = profile.server
    ctx = Context(
        profile,
        catalog_for(server.flavor, server.version),
        array_capability(profile.hardware.storage, profile.workload.data_size_gb),
    )
    warnings = _profile_warnings(profile) + audit(profile, ctx.catalog)
    settled: list[SettingFields] = []
    quoting: set[str] = set()  # settings whose explanation quotes a published figure
    table = variable_table(ctx.catalog)
    for rule in SETTING_RULES:
        for proposal in rule.compute(ctx):
            fields = _settle(rule, proposal, ctx, table, warnings)
            if fields is not None:
                settled.append(fields)
                ctx.decided[proposal.name] = fields["value"]
                if rule.cases[proposal.case].quotes_published:
                    quoting.add(proposal.name)
            warnings.extend(proposal.warnings)
    pool = ctx.decided.get("innodb_buffer_pool_size")
    warnings.extend(session_buffer_warnings(profile, int(pool) if pool is not None else None))
    os_items = tuple(_os_item(rule, p, ctx) for rule in OS_RULES for p in rule.compute(ctx))
    ended = lifecycle_warning(server.flavor, server.version)
    if ended:
        warnings.append(ended)
    refused = _output_refusal(profile)
    if refused:
        warnings.append(refused)
    calibration = estimator.calibration_version if estimator is not None else None
    estimate: Estimates | None = None
    if estimator is None:
        settings = tuple(Setting(**fields) for fields in settled)
    else:
        estimate, effects = with_estimates(profile, settled, os_items, ctx.catalog, estimator)
        built: list[Setting] = []
        for fields in settled:
            effect, note = effects.get(fields["name"], (None, None))
            if fields["name"] in quoting:
                fields["explanation"] += model_view(effect, note)
            built.append(Setting(**fields, effect=effect, effect_note=note))
        settings = tuple(built)
        warnings = _one_diagnosis(warnings, profile, pool, estimate)
    return Result(
        id=_result_id(profile, calibration),
        ruleset_version=RULESET_VERSION,
        calibration_version=calibration,
        profile=profile,
        settings=settings,
        os=os_items,
        estimate=estimate,
        warnings=tuple(dict.fromkeys(warnings)),
        output_refused=refused,
    )


def _one_diagnosis(
    warnings: list[str], profile: Profile, pool: object, estimate: Estimates
) -> list[str]:
    """The cache-fit warning said again with the estimate's bottleneck, in its place, so that it
    never says "IO-bound" beside an estimate bound by the CPU (issue #42: one diagnosis)."""
    if not isinstance(pool, int):
        return warnings
    plain = cache_fit_warning(profile, pool)
    if plain not in warnings:
        return warnings
    agreed = cache_fit_warning(profile, pool, estimate.recommended.bottleneck)
    return [agreed if warning == plain else warning for warning in warnings]


def _settle(
    rule: Rule,
    proposal: Proposal,
    ctx: Context,
    table: Mapping[str, VariableFacts],
    warnings: list[str],
) -> SettingFields | None:
    """Check the proposal against the version's catalog and gather the setting's text and
    current value (the estimate comes later; the engine then builds the Setting)."""
    name = proposal.name
    variable = table.get(name)
    if variable is None:
        warnings.append(
            f"{name} does not exist in {_server_text(ctx.catalog)}; rule {rule.id} left it out."
        )
        return None
    value = proposal.value
    if not isinstance(value, str):
        clamped, changed = ctx.catalog.clamp(name, value)
        if changed:
            warnings.append(
                f"{name} {value} was outside what "
                f"{_server_text(ctx.catalog)} accepts; it was set to {clamped}."
            )
        value = clamped
    case = rule.cases[proposal.case]
    facts = proposal.facts
    current: str | None = None
    current_is_default = False
    change: Change | None = None
    pasted = ctx.profile.current
    if pasted is not None:
        # current_value, with its commonest answers (pasted; the release's default) inline
        if name in pasted.variables:
            current = pasted.variables[name]
        elif name in DERIVED:
            current, current_is_default = current_value(pasted, variable.spec, ctx.catalog)
        else:
            current, current_is_default = variable.running
        change = change_between(current, value, rule.kind)
    if proposal.default is not None:
        version_default = change_between(str(proposal.default), value, rule.kind) is Change.KEEP
    else:
        version_default = matches_default(variable.default, value)
    needed = current is not None and change is not Change.KEEP
    dynamic = variable.spec.dynamic and not proposal.restart
    return SettingFields(
        name=name,
        value=value,
        kind=rule.kind,
        current=current,
        current_is_default=current_is_default,
        change=change,
        is_default=version_default,
        written=not version_default or needed or ctx.profile.options.include_defaults,
        dynamic=dynamic,
        apply_note=variable.note_now if dynamic else variable.note_restart,
        rule=rule.id,
        reason=_fill(case.reason, facts),
        explanation=_fill(case.explanation, facts),
        evidence=case.evidence,
    )


def _os_item(rule: OsRule, proposal: OsProposal, ctx: Context) -> OsItem:
    case = rule.cases[proposal.case]
    pasted = ctx.profile.current
    current = pasted.os.get(proposal.name) if pasted else None
    return OsItem(
        name=proposal.name,
        value=proposal.value,
        devices=proposal.devices,
        rule=rule.id,
        explanation=_fill(case.explanation, proposal.facts),
        evidence=case.evidence,
        commands=proposal.commands,
        persist=proposal.persist,
        persist_path=proposal.persist_path,
        current=current,
        change=None if current is None else change_between(current, proposal.value, "enum"),
        reason=_fill(case.reason, proposal.facts),
    )


def _fill(template: str, facts: Mapping[str, object]) -> str:
    """`template.format_map(facts)`, from the template's pieces split once (`_pieces`): a
    recommendation fills ~55 texts, and str.format scans each of their characters on every
    call."""
    pieces = _pieces(template)
    if pieces is None:
        return template.format_map(facts)
    texts, names = pieces
    if not names:
        return texts[0]
    filled = [texts[0]]
    for name, text in zip(names, texts[1:], strict=True):
        filled.append(format(facts[name]))  # what str.format writes for a plain {name}
        filled.append(text)
    return "".join(filled)


@cache  # keyed by the rules' templates, a fixed set
def _pieces(template: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The fixed texts of `template` and the facts between them (one text more than facts), or
    None when a field is more than {name} (a format spec, a conversion, an index)."""
    texts, names = [""], []
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:  # malformed: str.format_map raises its own error
        return None
    for text, name, spec, conversion in parsed:
        texts[-1] += text
        if name is None:
            continue
        if spec or conversion or not name.isidentifier():
            return None
        names.append(name)
        texts.append("")
    return tuple(texts), tuple(names)


def _profile_warnings(profile: Profile) -> list[str]:
    storage = profile.hardware.storage
    warnings: list[str] = []
    if storage.controller_cache is ControllerCache.WRITE_BACK_UNPROTECTED:
        warnings.append(
            "A write-back cache without battery or flash backing loses acknowledged "
            "writes on power loss; it is treated as no cache here. Add a battery or "
            "switch it to write-through."
        )
    if storage.flash_class is FlashClass.CONSUMER:
        warnings.append(
            "Consumer flash has no power-loss protection: every commit's sync must reach the "
            "flash itself (a few hundred per second), and a power cut can lose writes the drive "
            "had acknowledged. Prefer enterprise drives for a database that must keep commits."
        )
    if profile.current is not None:
        origin = ORIGIN_LABELS[profile.current.origin]
        warnings.extend(f"Reading the {origin}: {note}." for note in profile.current.notes)
    if storage.has_protected_write_cache:
        warnings.append(
            "Battery-backed caches switch to write-through during battery learning "
            "cycles and when the battery fails; schedule the cycles and monitor the "
            "battery, or commits slow down sharply."
        )
    return warnings


def _output_refusal(profile: Profile) -> str | None:
    server = profile.server
    support = support_of(server.flavor, server.version)
    if support is Support.SUPPORTED:
        return None
    why = SUPPORT_REASONS[support]
    return (
        f"{server.flavor.value} {server.version_text} {why} "
        f"(supported range: {SUPPORTED_RANGE_TEXT[server.flavor]}): my.cnf and SQL are not "
        "written for it; "
        "the JSON result is for estimates and reference only."
    )


def _server_text(catalog: ServerCatalog) -> str:
    return f"{catalog.flavor.value} {catalog.version}"


def _result_id(profile: Profile, calibration: str | None) -> str:
    """A content hash: identical inputs under the same rules give the same id and permalink.

    The notes on reading a pasted configuration are hashed too: they describe the paste (its
    skipped lines, its sections), not only the variables kept, and the first stored copy of an
    id is the one every later client is served, so two pastes that differ in a note must never
    share an id. The lifecycle table is hashed for the same reason: its end-of-life warnings
    are judged against the table's own date, so a result computed under an older table (without
    a warning that is due now) must not be served again."""
    notes = list(profile.current.notes) if profile.current is not None else []
    payload = _ID_JSON.encode(
        [profile.raw, RULESET_VERSION, TABLE_DIGEST, calibration, *([notes] if notes else [])]
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:20]
