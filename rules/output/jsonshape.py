"""Frozen dataclasses as JSON, back, and as an OpenAPI 3.0 schema, from one declaration.

A dataclass's fields, in order, with their type hints and `doc(...)` metadata, are its JSON object:
`rules.output.jsonwrite.to_json` writes it, `from_json` reads it back, `schema_components`
describes it.
What the JSON holds beyond the fields (a permalink, a display text) is a `Derived` entry of the
`Shape`; a field whose JSON is not its plain value (a setting's value as the server spells it) has
a `Codec`.

Reading back is lenient the way stored results need: a missing key takes the field's default (or
None when its type allows None), a null takes the default of a field that cannot be None, and keys
that no field declares (derived ones included) are ignored.
"""

import dataclasses
import types
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Any

Schema = dict[str, Any]
_META = "jsonshape"


@dataclass(frozen=True, slots=True)
class Doc:
    help: str = ""
    omit_empty: bool = False  # left out of the JSON when falsy (and not required in the schema)
    # The field's JSON key when it is not the field's name: a result's typed `profile` is the
    # contract's `inputs` key (written and read by its Codec).
    key: str | None = None


def doc(help: str = "", *, omit_empty: bool = False, key: str | None = None) -> dict[str, Doc]:
    """Field metadata: `x: str = field(default="", metadata=doc("What x says."))`."""
    return {_META: Doc(help, omit_empty, key)}


@dataclass(frozen=True, slots=True)
class Codec:
    """A field written as something other than its value: `dump(value, owner)` writes it,
    `load(json_value, owner_json)` reads it back, `schema` describes the JSON."""

    dump: Callable[[Any, Any], Any]
    load: Callable[[Any, Mapping[str, Any]], Any]
    schema: Schema


@dataclass(frozen=True, slots=True)
class Derived:
    """A JSON key computed from the object (and the context `to_json` is given), not read back."""

    name: str
    after: str | None  # the key it follows; None: after every field
    hint: Any  # its type, for the schema
    compute: Callable[[Any, Any], Any]  # (object, context) -> value
    help: str = ""
    # compute returns the key's JSON itself, in new objects each time (e.g. copies of JSON it
    # keeps); `hint` then only describes it
    json: bool = False


@dataclass(frozen=True, slots=True)
class Shape:
    """What the fields cannot say, per class: keys they derive, fields with their own codec."""

    derived: Mapping[type, Sequence[Derived]] = field(default_factory=dict)
    codecs: Mapping[tuple[type, str], Codec] = field(default_factory=dict)
    component_suffix: str = ""  # "Output": SettingOutput, as the API has always named them
    # Each class's plan to write (rules.output.jsonwrite) and read steps, worked out once (a result
    # is
    # written per request).
    _writers: dict[type, Any] = field(default_factory=dict, compare=False)
    _reads: dict[type, tuple["_Read", ...]] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class _Read:
    name: str
    key: str  # its JSON key
    hint: Any  # without None
    nullable: bool
    has_default: bool
    codec: Codec | None


def field_doc(f: dataclasses.Field[Any]) -> Doc:
    found = f.metadata.get(_META)
    return found if isinstance(found, Doc) else Doc()


def json_name(key: dataclasses.Field[Any] | Derived) -> str:
    """The JSON key of a field (its `doc(key=...)`, else its name) or of a derived key."""
    if isinstance(key, Derived):
        return key.name
    return field_doc(key).key or key.name


@cache
def type_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def without_none(hint: Any) -> tuple[Any, bool]:
    """(the type without None, whether None is allowed)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) < len(typing.get_args(hint)):
            return (args[0] if len(args) == 1 else typing.Union[tuple(args)]), True  # noqa: UP007
    return hint, False


def json_keys(cls: type, shape: Shape) -> Iterator[dataclasses.Field[Any] | Derived]:
    derived = list(shape.derived.get(cls, ()))
    for f in dataclasses.fields(cls):
        yield f
        yield from (d for d in derived if d.after == f.name)
    yield from (d for d in derived if d.after is None)


SCALARS = (str, int, float, bool, type(None))


_LEAVES = frozenset(SCALARS)


def json_copy(value: Any) -> Any:
    """A copy of plain JSON data (dicts, lists, scalars), so the output shares nothing with the
    object; much cheaper than `copy.deepcopy`, which would also copy what JSON cannot hold."""
    if isinstance(value, dict):
        return {
            key: item if item.__class__ in _LEAVES else json_copy(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [item if item.__class__ in _LEAVES else json_copy(item) for item in value]
    if isinstance(value, tuple):
        return tuple(item if item.__class__ in _LEAVES else json_copy(item) for item in value)
    return value


# -- reading --------------------------------------------------------------------------------------


def from_json(cls: type[Any], data: Mapping[str, Any], shape: Shape) -> Any:
    """Rebuild `cls` from `to_json` output; derived and unknown keys are ignored. Raises
    KeyError, TypeError or ValueError on a malformed one."""
    kwargs: dict[str, Any] = {}
    for key in _reads(cls, shape):
        name, at = key.name, key.key
        value = data.get(at) if at in data or key.nullable or key.has_default else data[at]
        if value is None:
            if key.has_default and not key.nullable:
                continue  # absent, or null where the field cannot be: its default
            if not key.nullable:
                raise TypeError(f"{name} is null")
            kwargs[name] = None
            continue
        kwargs[name] = key.codec.load(value, data) if key.codec else _load(key.hint, value, shape)
    return cls(**kwargs)


def _reads(cls: type, shape: Shape) -> tuple[_Read, ...]:
    plan = shape._reads.get(cls)
    if plan is None:
        hints = type_hints(cls)
        plan = shape._reads[cls] = tuple(
            _Read(
                f.name,
                json_name(f),
                *without_none(hints[f.name]),
                f.default is not dataclasses.MISSING,
                shape.codecs.get((cls, f.name)),
            )
            for f in dataclasses.fields(cls)
        )
    return plan


Loader = Callable[[Any, Shape], Any]


def _load(hint: Any, value: Any, shape: Shape) -> Any:
    return _loader(hint)(value, shape)


@cache
def _loader(hint: Any) -> Loader:
    """How to read a JSON value into `hint`, worked out once per type."""
    origin = typing.get_origin(hint)
    if origin is tuple:
        item = _loader(typing.get_args(hint)[0])
        return lambda value, shape: tuple(item(v, shape) for v in value)
    if origin is dict:
        return lambda value, _shape: json_copy(dict(value))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return lambda value, shape: from_json(hint, value, shape)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return lambda value, _shape: hint(str(value))
    if hint is str:
        return lambda value, _shape: str(value)
    if hint is bool:
        return lambda value, _shape: bool(value)
    return lambda value, _shape: value  # numbers as written, so a result reads back byte for byte


# -- describing -----------------------------------------------------------------------------------


def schema_components(root: type, shape: Shape) -> dict[str, Schema]:
    """OpenAPI 3.0 components for `root` and every dataclass it holds, keyed by component name."""
    components: dict[str, Schema] = {}
    pending = [root]
    while pending:
        cls = pending.pop(0)
        name = cls.__name__ + shape.component_suffix
        if name in components:
            continue
        components[name] = _object_schema(cls, shape, pending)
    return components


def component_ref(cls: type, shape: Shape) -> Schema:
    return {"$ref": f"#/components/schemas/{cls.__name__}{shape.component_suffix}"}


def _object_schema(cls: type, shape: Shape, pending: list[type]) -> Schema:
    hints = type_hints(cls)
    properties: dict[str, Schema] = {}
    required: list[str] = []
    for key in json_keys(cls, shape):
        if isinstance(key, Derived):
            hint, help_text, omit = key.hint, key.help, False
            codec = None
        else:
            hint, help_text, omit = hints[key.name], field_doc(key).help, field_doc(key).omit_empty
            codec = shape.codecs.get((cls, key.name))
        schema = dict(codec.schema) if codec else _schema(hint, shape, pending)
        if help_text:
            schema["description"] = help_text
        properties[json_name(key)] = schema
        if not omit:
            required.append(json_name(key))
    return {"type": "object", "properties": properties, "required": sorted(required)}


def _schema(hint: Any, shape: Shape, pending: list[type]) -> Schema:
    hint, nullable = without_none(hint)
    origin = typing.get_origin(hint)
    schema: Schema
    if origin is tuple:
        schema = {"type": "array", "items": _schema(typing.get_args(hint)[0], shape, pending)}
    elif origin is dict:
        schema = {"type": "object", "additionalProperties": {}}
    elif isinstance(hint, type) and dataclasses.is_dataclass(hint):
        pending.append(hint)
        ref = component_ref(hint, shape)
        return {"allOf": [ref], "nullable": True} if nullable else ref
    elif isinstance(hint, type) and issubclass(hint, Enum):
        choices: list[Any] = [member.value for member in hint]
        schema = {"type": "string", "enum": [*choices, None] if nullable else choices}
    else:
        schema = dict(_PLAIN[hint])
    if nullable:
        schema["nullable"] = True
    return schema


_PLAIN: dict[Any, Schema] = {
    str: {"type": "string"},
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number", "format": "double"},
}
