"""How a profile field is declared: the input it accepts, on the field of `rules.inputs.profile` it
fills.

`accepts(...)` is the metadata of a dataclass field that the profile's JSON sets; a field whose
type is a dataclass is a section (optional when its type allows None or it has a default). From
those declarations come the field table (`input_fields`), the sections and their keys
(`input_sections`) that validation checks, the typed profile it builds and the echo of its inputs.
"""

import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

_META = "accepts"
_TEXT_OF = "input_text_of"
_OMIT = "omit_when_absent"


class Kind(StrEnum):
    NUMBER = "number"
    INTEGER = "integer"
    CHOICE = "choice"
    TEXT = "text"
    BOOLEAN = "boolean"
    TEXT_LIST = "text_list"  # a list of at most max_items texts of at most max_length each
    # An object from a dotted field path to {"source": one of choices, "from": text of at most
    # max_length}, at most max_items entries; validation knows which paths exist.
    PROVENANCE = "provenance"
    # workload.lab_results: at most max_items measured runs (rules.inputs.lab_results).
    LAB_RESULTS = "lab_results"


@dataclass(frozen=True, slots=True)
class FieldSpec:
    path: str
    kind: Kind
    label: str
    help: str
    required: bool = True
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    default: object = None
    nullable: bool = False
    max_length: int = 0
    max_items: int = 0  # TEXT_LIST and PROVENANCE: how many entries at most
    # Left out of the echoed inputs when absent (None or empty): a field added after results
    # were stored, so that the inputs, and so the permalinks, of profiles without it stay as
    # they were.
    omit_absent: bool = False
    # The checked input to the field's value (default: the field's enum, or the input itself),
    # and the value back to the input it echoes (default: an enum's value, or the value itself).
    read: Callable[[Any], Any] | None = None
    echo: Callable[[Any], Any] | None = None

    @property
    def name(self) -> str:
        return self.path.rsplit(".", 1)[-1]

    def describe_range(self) -> str:
        if self.kind is Kind.CHOICE:
            return "one of " + ", ".join(self.choices)
        if self.kind is Kind.BOOLEAN:
            return "true or false"
        if self.kind is Kind.TEXT_LIST:
            return f"a list of at most {self.max_items} texts of 1 to {self.max_length} characters"
        if self.kind is Kind.LAB_RESULTS:
            return (
                f"a list of at most {self.max_items} entries, each a lab record (one JSON line "
                'of python3 -m lab) or {"configuration": {variable: value}, "throughput": n}'
            )
        if self.kind is Kind.PROVENANCE:
            return (
                f"an object of at most {self.max_items} field paths, each "
                '{"source": ' + " | ".join(self.choices) + f', "from": text of at most '
                f"{self.max_length} characters}}"
            )
        if self.minimum is not None and self.maximum is not None:
            noun = "a whole number" if self.kind is Kind.INTEGER else "a number"
            return f"{noun} from {_num(self.minimum)} to {_num(self.maximum)}"
        return "text"


def _num(value: float) -> str:
    return f"{value:g}" if value < 1e6 else f"{int(value)}"


def values_of(enum: type[StrEnum]) -> tuple[str, ...]:
    return tuple(member.value for member in enum)


def accepts(kind: Kind, label: str, help: str, **options: Any) -> dict[str, FieldSpec]:
    """Field metadata: the profile's JSON sets this field (see `FieldSpec` for the options)."""
    return {_META: FieldSpec("", kind, label, help, **options)}


def omit_when_absent() -> dict[str, bool]:
    """Section metadata: the echo leaves the section out when it is None (see omit_absent)."""
    return {_OMIT: True}


def input_text_of(name: str) -> dict[str, str]:
    """Field metadata: this field keeps the checked input text of its sibling `name`."""
    return {_TEXT_OF: name}


# -- reading the declaration ---------------------------------------------------------------------


def _spec(f: dataclasses.Field[Any]) -> FieldSpec | None:
    found = f.metadata.get(_META)
    return found if isinstance(found, FieldSpec) else None


def _section_type(hint: Any) -> type | None:
    """The dataclass a section field holds (`Storage`, `MeasuredIops | None`), or None."""
    for candidate in (hint, *typing.get_args(hint)):
        if isinstance(candidate, type) and dataclasses.is_dataclass(candidate):
            return candidate
    return None


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


Entry = tuple[dataclasses.Field[Any], FieldSpec | None, type | None]


@cache
def _entries(cls: type) -> tuple[Entry, ...]:
    """The fields the input names, in order: (field, its spec, or the section's class)."""
    found: list[Entry] = []
    for f in dataclasses.fields(cls):
        spec = _spec(f)
        section = None if spec else _section_type(_hints(cls)[f.name])
        if spec or section:
            found.append((f, spec, section))
    return tuple(found)


def is_optional(cls: type, name: str) -> bool:
    f = next(f for f in dataclasses.fields(cls) if f.name == name)
    hint = _hints(cls)[name]
    return (
        type(None) in typing.get_args(hint)
        or f.default is not dataclasses.MISSING
        or (f.default_factory is not dataclasses.MISSING)
    )


@cache
def input_fields(cls: type, prefix: str = "") -> tuple[FieldSpec, ...]:
    """Every input field below `cls`, in declaration order, with its dotted path."""
    found: list[FieldSpec] = []
    for f, spec, section in _entries(cls):
        if spec:
            found.append(dataclasses.replace(spec, path=prefix + f.name))
        elif section:
            found.extend(input_fields(section, f"{prefix}{f.name}."))
    return tuple(found)


def input_sections(cls: type, path: str = "") -> dict[str, tuple[str, ...]]:
    """Each section holding input fields, by dotted path ("" the root): the keys it accepts."""
    keys: list[str] = []
    inner: dict[str, tuple[str, ...]] = {}
    for f, _spec_found, section in _entries(cls):
        keys.append(f.name)
        if section and input_fields(section):
            inner |= input_sections(section, f"{path}.{f.name}" if path else f.name)
    return {path: tuple(keys), **inner}


def optional_sections(cls: type, path: str = "") -> frozenset[str]:
    """The sections that may be left out (or null)."""
    found: set[str] = set()
    for f, _spec_found, section in _entries(cls):
        if section:
            where = f"{path}.{f.name}" if path else f.name
            if is_optional(cls, f.name):
                found.add(where)
            found |= optional_sections(section, where)
    return frozenset(found)


# -- building and echoing ------------------------------------------------------------------------


def build(cls: type, values: dict[str, Any], prefix: str = "", **extra: Any) -> Any:
    """`cls` from the checked inputs by path (`extra` fills the fields no input names). An
    optional section whose inputs are all absent is None; enums come from their values.

    A field whose input is None gets its default, None when nullable; a required one refuses
    it as the class would refuse a missing argument."""
    arguments: dict[str, Any] = {}
    for step in _build_steps(cls, prefix):
        if step.name in extra:
            continue
        if step.section is not None:
            if step.inside and all(values[path] is None for path in step.inside):
                arguments[step.name] = None
            else:
                arguments[step.name] = build(step.section, values, step.path)
            continue
        value = values[step.path]
        if value is None:
            arguments[step.name] = step.absent(cls, step.name)
        else:
            arguments[step.name] = value if step.read is None else step.read(value)
    return cls(**arguments, **extra)


@dataclass(frozen=True, slots=True)
class _BuildStep:
    """How `build` fills one field: from the input at `path`, or as a section below it."""

    name: str
    path: str  # the input read; a section's prefix
    # (the class, the field) -> the field's value when its input is None
    absent: Callable[[type, str], Any]
    read: Callable[[Any], Any] | None = None  # a present input to the value; None: as it is
    section: type | None = None
    inside: tuple[str, ...] = ()  # a nullable section's inputs: None when all of them are


@cache  # per class and prefix: a handful; a profile is parsed on every request
def _build_steps(cls: type, prefix: str) -> tuple[_BuildStep, ...]:
    hints = _hints(cls)
    steps: list[_BuildStep] = []
    for f in dataclasses.fields(cls):
        spec, section, path = _spec(f), _section_type(hints[f.name]), prefix + f.name
        nullable = type(None) in typing.get_args(hints[f.name])
        text_of = f.metadata.get(_TEXT_OF)
        if text_of:  # the checked text of a sibling, None when absent
            steps.append(_BuildStep(f.name, prefix + str(text_of), _none))
        elif spec:
            reader = _reader(spec, hints[f.name])
            steps.append(
                _BuildStep(
                    f.name,
                    path,
                    _none if nullable else _absent(f),
                    None if reader is _as_is else reader,
                )
            )
        elif section and (inside := tuple(s.path for s in input_fields(section, path + "."))):
            steps.append(
                _BuildStep(f.name, path + ".", _none, None, section, inside if nullable else ())
            )
    return tuple(steps)


def _none(_cls: type, _name: str) -> None:
    return None


def _absent(f: dataclasses.Field[Any]) -> Callable[[type, str], Any]:
    """The value of field `f` when its input is None: its default, or a refusal."""
    default, factory = f.default, f.default_factory
    if default is not dataclasses.MISSING:
        return lambda _cls, _name: default
    if factory is not dataclasses.MISSING:
        return lambda _cls, _name: factory()
    return _required


def _required(cls: type, name: str) -> Any:
    raise TypeError(f"{cls.__name__}: the required input {name} is None")


def _reader(spec: FieldSpec, hint: Any) -> Callable[[Any], Any]:
    """How a present input value becomes the field's value: the spec's reader, the enum's
    constructor, or the value as it is."""
    if spec.read:
        return spec.read
    for candidate in (hint, *typing.get_args(hint)):
        if isinstance(candidate, type) and issubclass(candidate, StrEnum):
            # The member by value: the input was checked against the enum's values already,
            # and a dict lookup costs a fifth of calling the enum.
            return {member.value: member for member in candidate}.__getitem__
    return _as_is


def _as_is(value: Any) -> Any:
    return value


def echo(obj: Any, *, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The inputs that made `obj`, normalised, in the contract's nesting (None sections as None)."""
    out: dict[str, Any] = {}
    for name, omit_absent, text_of, spec, section in _echo_plan(obj.__class__):
        if name in skip or not (spec or section):
            continue
        value = getattr(obj, name)
        if omit_absent and not value:
            continue
        if text_of is not None:  # echoed as it was given, not as parsed
            out[name] = getattr(obj, text_of)
        elif spec is not None and spec.echo:
            out[name] = None if value is None else spec.echo(value)
        elif spec is not None:  # None stays None: it is no StrEnum
            out[name] = value.value if isinstance(value, StrEnum) else value
        else:
            out[name] = None if value is None else echo(value)
    return out


EchoStep = tuple[str, bool, str | None, FieldSpec | None, bool]


@cache
def _echo_plan(cls: type) -> tuple[EchoStep, ...]:
    """For each field `echo` may write: (its name, left out when absent, the field keeping its
    text as given, its spec, whether it is a section holding inputs); worked out once per class
    (every result echoes its profile)."""
    texts = _texts(cls)
    return tuple(
        (
            f.name,
            bool((spec and spec.omit_absent) or f.metadata.get(_OMIT)),
            texts.get(f.name),
            spec,
            bool(section and input_fields(section)),
        )
        for f, spec, section in _entries(cls)
    )


@cache
def _texts(cls: type) -> dict[str, str]:
    """Input field name -> the field that keeps its text as given (Server.version_text)."""
    return {
        str(f.metadata[_TEXT_OF]): f.name for f in dataclasses.fields(cls) if _TEXT_OF in f.metadata
    }
