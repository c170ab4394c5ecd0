"""How a profile field is declared: the input it accepts, on the field of `rules.profile` it fills.

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

from rules.frozen import is_frozen_slots, quick_new

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
    optional section whose inputs are all absent is None; enums come from their values."""
    return _builder(cls, prefix, tuple(extra))(values, extra)


Builder = Callable[[dict[str, Any], dict[str, Any]], Any]  # (inputs by path, extra) -> cls


@cache  # per class, prefix and extra field names: a handful
def _builder(cls: type, prefix: str, given: tuple[str, ...]) -> Builder:
    """`build` for `cls` as one generated function, worked out once (a profile is parsed on
    every request): each field an expression, the class called once with all of them (a step
    function per field filling a dict of keyword arguments took three times as long).

    A field whose input is None gets its default, None when nullable; a required one refuses
    it as the class would refuse a missing argument. A nullable section whose inputs are all
    None is None."""
    hints = _hints(cls)
    names: dict[str, Any] = {"_cls": cls, "_new": _constructor(cls), "_required": _required}
    arguments: list[str] = []
    for i, f in enumerate(dataclasses.fields(cls)):
        spec, section, path = _spec(f), _section_type(hints[f.name]), prefix + f.name
        nullable = type(None) in typing.get_args(hints[f.name])
        text_of = f.metadata.get(_TEXT_OF)
        if f.name in given:
            continue
        if text_of:
            expression = f"values[{prefix + str(text_of)!r}]"
        elif spec:
            reader = names[f"_read{i}"] = _reader(spec, hints[f.name])
            value, read = f"values[{path!r}]", "_v" if reader is _as_is else f"_read{i}(_v)"
            if nullable:
                absent = "None"
            elif f.default is not dataclasses.MISSING:
                names[f"_default{i}"] = f.default
                absent = f"_default{i}"
            elif f.default_factory is not dataclasses.MISSING:
                names[f"_factory{i}"] = f.default_factory
                absent = f"_factory{i}()"
            else:
                absent = f"_required(_cls, {f.name!r})"
            expression = f"{absent} if (_v := {value}) is None else {read}"
        elif section and (inside := tuple(s.path for s in input_fields(section, path + "."))):
            names[f"_section{i}"] = _builder(section, path + ".", ())
            expression = f"_section{i}(values, _NONE)"
            if nullable:
                empty = " and ".join(f"values[{p!r}] is None" for p in inside)
                expression = f"None if {empty} else {expression}"
        else:
            continue
        arguments.append(f"{f.name}=({expression})")
    names["_NONE"] = {}
    body = ", ".join([*arguments, "**extra"] if given else arguments)
    exec(f"def _build(values, extra):\n    return _new({body})", names)  # names: identifiers
    builder: Builder = names["_build"]
    return builder


def _constructor(cls: type) -> Callable[..., Any]:
    """The profile's classes are frozen slots dataclasses, built through quick_new (cheaper,
    rules.frozen); any other class is called."""
    return quick_new(cls) if is_frozen_slots(cls) else cls


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
    cls: type = type(obj)
    return _echoer(cls, skip)(obj)


Echoer = Callable[[Any], dict[str, Any]]


@cache  # per class and skipped names: a handful
def _echoer(cls: type, skip: frozenset[str]) -> Echoer:
    """`echo` for `cls` as one generated function, a statement per field in `_echo_plan`'s
    order, worked out once (every result echoes its profile; a loop over the plan took twice
    as long)."""
    names: dict[str, Any] = {"_StrEnum": StrEnum}
    lines = ["def _echo(obj):", "    out = {}"]
    for i, (name, omit_absent, text_of, spec, section) in enumerate(_echo_plan(cls)):
        if name in skip:
            continue
        if text_of is not None:  # echoed as it was given, not as parsed
            value = f"obj.{text_of}"
        elif spec is not None and spec.echo:
            names[f"_echo{i}"] = spec.echo
            value = f"None if _v is None else _echo{i}(_v)"
        elif spec is not None:  # None stays None: it is no StrEnum
            value = "_v._value_ if isinstance(_v, _StrEnum) else _v"  # .value (rules.enums)
        elif section:
            inner = _section_type(_hints(cls)[name])
            names[f"_echo{i}"] = echo if inner is None else _echoer(inner, frozenset())
            value = f"None if _v is None else _echo{i}(_v)"
        else:
            continue
        lines.append(f"    _v = obj.{name}")
        indent = "    "
        if omit_absent:
            lines.append("    if _v:")
            indent += "    "
        lines.append(f"{indent}out[{name!r}] = {value}")
    lines.append("    return out")
    exec("\n".join(lines), names)  # names: the dataclass's field names, identifiers
    echoer: Echoer = names["_echo"]
    return echoer


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
