"""The wizard's steps and its draft: what the visitor typed, kept as strings in the session.

Every profile field of `rules.inputs.field_table.FIELDS` belongs to exactly one step; the draft is
keyed by the field's short name (`ram_gb`, `raid_level`, ...). Validation never happens here:
the draft is turned into the same raw JSON the API receives and
`rules.inputs.validation.parse_profile`
judges it, so the wizard and the API accept the same values and answer with the same messages.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.sessions.backends.base import SessionBase

from rules.current import CurrentParseError, parse_current
from rules.current.kept import ECHO_META_KEYS, keep_read_variables
from rules.current.reduce import paste_text
from rules.inputs.enums import Flavor
from rules.inputs.errors import ProfileError
from rules.inputs.field_table import FIELDS, REPORT_PATHS, FieldSpec, Kind
from rules.inputs.profile import Profile
from rules.inputs.validation import parse_profile
from rules.inputs.version import (
    FLAVOR_NAMES,
    SUPPORT_REASONS,
    SUPPORTED_RANGE_TEXT,
    Support,
    parse_version,
    support_of,
)
from rules.reference.catalog import known_names
from rules.units import number_from_text

SESSION_KEY = "wizard_draft"
# The paste box: which `current` form the text is (the API also takes a JSON `variables` object,
# which nobody pastes).
CURRENT_FORM, CURRENT_TEXT = "current_form", "current_text"
PASTE_FORMS = ("mycnf", "show_variables")
NON_FIELD = "__all__"
# What a session keeps of a draft (anonymous visitors each have one, kept for a week): a field's
# text, and of a paste only the variables the advisor reads; of a paste that cannot be read,
# nothing but why (it may be anything, a password included).
DRAFT_FIELD_CHARS = 200
PASTE_PROBLEM = "current_problem"  # why the last paste could not be read
FLAVOR_VALUES = frozenset(flavor.value for flavor in Flavor)


@dataclass(frozen=True, slots=True)
class Step:
    slug: str
    title: str
    intro: str
    paths: tuple[str, ...]  # schema paths of its fields, in display order

    @property
    def specs(self) -> tuple[FieldSpec, ...]:
        return tuple(WIZARD_BY_PATH[path] for path in self.paths)

    @property
    def names(self) -> tuple[str, ...]:
        if self.slug == "current":
            return (CURRENT_FORM, CURRENT_TEXT)
        return tuple(spec.name for spec in self.specs)


_STORAGE = "hardware.storage."


def _step_of(path: str) -> str:
    """Which step asks for a schema field: a new field of the schema finds its step by itself."""
    if path.startswith(_STORAGE) or path == "hardware.filesystem":
        return "storage"
    if path.startswith("options."):  # how the result is written: asked with the workload
        return "workload"
    return path.split(".", 1)[0]


# The fields the steps ask for: every field of the schema but a probe's report about itself
# (probe, provenance, undetected), which only a probe's document brings (see `probe_report`).
# Lab results come from the result page's own form (wizard/lab_form.py), not from a step.
WIZARD_FIELDS: tuple[FieldSpec, ...] = tuple(
    s for s in FIELDS if s.path not in REPORT_PATHS and s.kind is not Kind.LAB_RESULTS
)
WIZARD_BY_PATH: dict[str, FieldSpec] = {spec.path: spec for spec in WIZARD_FIELDS}


def _paths(slug: str) -> tuple[str, ...]:
    return tuple(spec.path for spec in WIZARD_FIELDS if _step_of(spec.path) == slug)


STEPS: tuple[Step, ...] = (
    Step("server", "Server", "Which database server, and which release?", _paths("server")),
    Step("hardware", "Hardware", "The machine the server runs on.", _paths("hardware")),
    Step("storage", "Storage", "The devices that hold the InnoDB data files.", _paths("storage")),
    Step("workload", "Workload", "What the server spends its time doing.", _paths("workload")),
    Step(
        "current",
        "Current configuration",
        "Optional: paste what the server runs today, and every setting shows its change.",
        (),
    ),
)
# Fields that apply to some media only; the draft leaves them out for the others (and the
# stylesheet hides them), so a value chosen before the media changed is not an error.
MEDIA_ONLY: dict[str, frozenset[str]] = {
    "rpm": frozenset({"hdd"}),
    "flash_class": frozenset({"sata_ssd", "nvme"}),
    "volume_type": frozenset({"network_ssd"}),
    "provisioned_iops": frozenset({"network_ssd"}),
    "provisioned_mbps": frozenset({"network_ssd"}),
    "volume_size_gb": frozenset({"network_ssd"}),
}
STEPS_BY_SLUG: dict[str, Step] = {step.slug: step for step in STEPS}


def neighbours(step: Step) -> tuple[Step | None, Step | None]:
    index = STEPS.index(step)
    previous = STEPS[index - 1] if index else None
    following = STEPS[index + 1] if index + 1 < len(STEPS) else None
    return previous, following


# -- the draft in the session ---------------------------------------------------------------


def draft_load(session: SessionBase) -> dict[str, str]:
    """The visitor's draft over a fresh one, so every field has a value to show."""
    draft = draft_initial()
    stored = session.get(SESSION_KEY)
    if isinstance(stored, dict):
        draft.update({str(k): v for k, v in stored.items() if isinstance(v, str)})
    return draft


def draft_save(session: SessionBase, draft: Mapping[str, str]) -> dict[str, str]:
    """Keep the draft in the session, bounded: see `draft_for_session`."""
    session[SESSION_KEY] = draft_for_session(draft)
    return dict(draft)


def draft_update(session: SessionBase, step: Step, data: Mapping[str, Any]) -> dict[str, str]:
    """Store what was posted for `step`'s fields; other steps' answers stay as they were.

    Returns the draft as posted, for this request to judge; the session keeps the bounded one.
    """
    draft = draft_load(session)
    for name in step.names:
        value = data.get(name)
        if isinstance(value, str):
            draft[name] = value
            if name == CURRENT_TEXT:
                draft.pop(PASTE_PROBLEM, None)  # judged afresh
    return draft_save(session, draft)


def draft_for_session(draft: Mapping[str, str]) -> dict[str, str]:
    """What a session may keep of a draft: short fields, and of a paste only the variables the
    advisor reads (in the form it was pasted in, credentials and everything else dropped), or,
    when the paste cannot be read, why. The request that posted it still shows the visitor the
    text as posted, to correct there."""
    kept = {name: value[:DRAFT_FIELD_CHARS] for name, value in draft.items()}
    text = draft.get(CURRENT_TEXT, "")
    kept[CURRENT_TEXT] = text
    if not text.strip() or PASTE_PROBLEM in draft:  # empty, or already cut
        return kept
    form = draft.get(CURRENT_FORM, "")
    try:
        current = parse_current({form if form in PASTE_FORMS else PASTE_FORMS[0]: text})
    except CurrentParseError as problem:  # nothing the advisor reads: nothing of it is kept
        kept[CURRENT_TEXT] = ""
        kept[PASTE_PROBLEM] = f"{str(problem)[:DRAFT_FIELD_CHARS]} (the text was not kept)"
        return kept
    variables, notes = keep_read_variables(current.variables, known_names())
    form = current.origin if variables else "mycnf"  # nothing kept: the notes say why
    kept[CURRENT_FORM] = form  # a pasted SHOW GLOBAL VARIABLES stays one
    kept[CURRENT_TEXT] = paste_text(form, variables, notes, loose=current.loose)
    return kept


def draft_initial() -> dict[str, str]:
    """A fresh draft: the first choice of every required list, the schema's defaults."""
    draft = {CURRENT_FORM: PASTE_FORMS[0]}
    for spec in WIZARD_FIELDS:
        if spec.default is not None:
            draft[spec.name] = _text(spec.default)
        elif spec.kind is Kind.CHOICE and spec.required:
            draft[spec.name] = spec.choices[0]
    draft["rpm"] = "7200"
    return draft


def draft_from_profile(raw: Mapping[str, Any]) -> dict[str, str]:
    """The draft that reproduces a raw (or echoed) profile: presets and "change the inputs"."""
    draft = draft_initial()
    for spec in WIZARD_FIELDS:
        value = value_at(raw, spec.path)
        draft[spec.name] = "" if value is None else _text(value)
    current = raw.get("current")
    if isinstance(current, Mapping):
        form = next((f for f in PASTE_FORMS if isinstance(current.get(f), str)), None)
        if form is not None:
            draft[CURRENT_FORM], draft[CURRENT_TEXT] = form, current[form]
        else:  # an echoed result: {"origin": ..., name: value, ...}
            names = {str(k): str(v) for k, v in current.items() if k not in ECHO_META_KEYS}
            origin = current.get("origin")
            form = origin if origin in PASTE_FORMS else "mycnf"
            draft[CURRENT_FORM], draft[CURRENT_TEXT] = form, paste_text(form, names)
    return draft


def value_at(raw: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path of a raw profile, or None where a level is missing."""
    node: Any = raw
    for part in path.split("."):
        if not isinstance(node, Mapping):
            return None
        node = node.get(part)
    return node


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# -- from the draft to the API's JSON, and its errors back onto fields ----------------------


def raw_profile(
    draft: Mapping[str, str], report: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The JSON the API would receive for this draft (and a probe's report); empty fields are
    left out."""
    raw: dict[str, Any] = {"server": {}, "hardware": {"storage": {}}, "workload": {}}
    raw |= dict(report or {})
    for spec in WIZARD_FIELDS:
        text = draft.get(spec.name, "").strip()
        media = draft.get("media", "").strip()
        if not text or (spec.name in MEDIA_ONLY and media not in MEDIA_ONLY[spec.name]):
            continue
        node = raw
        *parents, leaf = spec.path.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = _typed(spec, text)
    text = draft.get(CURRENT_TEXT, "")
    if text.strip():
        form = draft.get(CURRENT_FORM, "")
        raw["current"] = {form if form in PASTE_FORMS else PASTE_FORMS[0]: text}
    return raw


def _typed(spec: FieldSpec, text: str) -> Any:
    """A number where the field wants one; text the validator will then name as not a number."""
    if spec.kind is Kind.BOOLEAN:
        return {"true": True, "false": False}.get(text.lower(), text)
    if spec.kind not in (Kind.NUMBER, Kind.INTEGER) or len(text) > 64:
        return text
    number = number_from_text(text)
    return text if number is None else number


def validate(
    draft: Mapping[str, str], report: Mapping[str, Any] | None = None
) -> tuple[Profile | None, dict[str, list[str]]]:
    """The profile, or every problem keyed by draft field name (NON_FIELD for the rest)."""
    errors: dict[str, list[str]] = {}
    if PASTE_PROBLEM in draft:
        errors[CURRENT_TEXT] = [draft[PASTE_PROBLEM]]
    try:
        profile = parse_profile(raw_profile(draft, report))
    except ProfileError as problem:
        for path, messages in problem.errors.items():
            if field_name(path) != CURRENT_TEXT or PASTE_PROBLEM not in draft:
                errors.setdefault(field_name(path), []).extend(messages)
        profile = None
    refusal = _unsupported(draft, errors)
    if refusal:
        errors["version"] = [refusal]
    return (None, errors) if errors or profile is None else (profile, {})


def _unsupported(draft: Mapping[str, str], errors: Mapping[str, list[str]]) -> str | None:
    """Why the server step refuses a real release the advisor writes no my.cnf for: the
    engine's own decision (`support_of`), made at the first step instead of on the result page
    five steps later. The API still answers such a release with estimates only."""
    if "flavor" in errors or "version" in errors:
        return None
    flavor, version = draft.get("flavor", "").strip(), parse_version(draft.get("version", ""))
    if version is None or flavor not in FLAVOR_VALUES:
        return None
    support = support_of(Flavor(flavor), version)
    if support is Support.SUPPORTED:
        return None
    return (
        f"{FLAVOR_NAMES[Flavor(flavor)]} {version.major}.{version.minor} "
        f"{SUPPORT_REASONS[support]}: the advisor writes my.cnf and SQL for "
        f"{SUPPORTED_RANGE_TEXT[Flavor(flavor)]} only (the API still answers it with estimates)."
    )


def field_name(path: str) -> str:
    """The draft field an error path belongs to."""
    if path in WIZARD_BY_PATH:
        return WIZARD_BY_PATH[path].name
    if path == "current" or path.startswith("current."):
        return CURRENT_TEXT
    if path == _STORAGE + "measured_iops":
        return "random_read"
    return NON_FIELD


def step_errors(errors: Mapping[str, list[str]], step: Step) -> dict[str, list[str]]:
    """The errors `step` shows; one that names no field is shown on the first step."""
    names = (*step.names, NON_FIELD) if step is STEPS[0] else step.names
    return {name: messages for name, messages in errors.items() if name in names}


def first_step_with_errors(errors: Mapping[str, list[str]]) -> Step | None:
    return next((step for step in STEPS if step_errors(errors, step)), None)
