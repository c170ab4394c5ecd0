"""Frozen dataclasses as JSON, back, and as an OpenAPI 3.0 schema, from one declaration.

A dataclass's fields, in order, with their type hints and `doc(...)` metadata, are its JSON object:
`to_json` writes it, `from_json` reads it back, `schema_components` describes it. What the JSON
holds beyond the fields (a permalink, a display text) is a `Derived` entry of the `Shape`; a field
whose JSON is not its plain value (a setting's value as the server spells it) has a `Codec`.

Reading back is lenient the way stored results need: a missing key takes the field's default (or
None when its type allows None), a null takes the default of a field that cannot be None, and keys
that no field declares (derived ones included) are ignored.
"""

import dataclasses
import re
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


def doc(help: str = "", *, omit_empty: bool = False) -> dict[str, Doc]:
    """Field metadata: `x: str = field(default="", metadata=doc("What x says."))`."""
    return {_META: Doc(help, omit_empty)}


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
    # Each class's writer and read steps, worked out once (a result is written per request).
    _writers: dict[type, Callable[[Any, Any], dict[str, Any]]] = field(
        default_factory=dict, compare=False
    )
    _reads: dict[type, tuple["_Read", ...]] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class _Write:
    name: str
    derived: Derived | None
    codec: Codec | None
    omit_empty: bool
    plain: bool = False  # a str, number or bool (or None): written as it is


@dataclass(frozen=True, slots=True)
class _Read:
    name: str
    hint: Any  # without None
    nullable: bool
    has_default: bool
    codec: Codec | None


def _doc(f: dataclasses.Field[Any]) -> Doc:
    found = f.metadata.get(_META)
    return found if isinstance(found, Doc) else Doc()


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _optional(hint: Any) -> tuple[Any, bool]:
    """(the type without None, whether None is allowed)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) < len(typing.get_args(hint)):
            return (args[0] if len(args) == 1 else typing.Union[tuple(args)]), True  # noqa: UP007
    return hint, False


def _keys(cls: type, shape: Shape) -> Iterator[dataclasses.Field[Any] | Derived]:
    derived = list(shape.derived.get(cls, ()))
    for f in dataclasses.fields(cls):
        yield f
        yield from (d for d in derived if d.after == f.name)
    yield from (d for d in derived if d.after is None)


# -- writing --------------------------------------------------------------------------------------
#
# A result is written on every request, so each class's writer is compiled once: one function
# whose body builds the object's JSON and, inline, the JSON of the objects it holds (a dict
# display per object, a comprehension or a loop per list), so that nothing is called per list
# item or per value but codecs and derived keys. A class inside itself (a tree) calls its own
# writer instead of being inlined.

Writer = Callable[[Any, Any], dict[str, Any]]  # (object, context) -> JSON object


def to_json(obj: Any, shape: Shape, context: Any = None) -> dict[str, Any]:
    """The object as a JSON-ready dict, keys in declaration order."""
    return _writer(type(obj), shape)(obj, context)


def _writer(cls: type, shape: Shape) -> Writer:
    compiled = shape._writers.get(cls)
    if compiled is None:
        shape._writers[cls] = _deferred(cls, shape)  # a class that holds itself, e.g. a tree
        compiled = shape._writers[cls] = _compile_writer(cls, shape)
    return compiled


def _deferred(cls: type, shape: Shape) -> Writer:
    return lambda obj, context: shape._writers[cls](obj, context)


def _compile_writer(cls: type, shape: Shape) -> Writer:
    """`def write(obj, ctx)` that builds `cls`'s JSON object."""
    source = _Source(shape)
    built = source.object(cls, "obj", "    ", ())
    text = "\n".join(["def write(obj, ctx):", *source.lines, f"    return {built}"])
    exec(text, source.names)  # the source is built here from our own declarations
    write: Writer = source.names["write"]
    return write


def _writes(cls: type, shape: Shape) -> tuple[_Write, ...]:
    return tuple(
        _Write(key.name, key, None, False)
        if isinstance(key, Derived)
        else _Write(
            key.name,
            None,
            codec := shape.codecs.get((cls, key.name)),
            _doc(key).omit_empty,
            codec is None and _optional(_hints(cls)[key.name])[0] in _SCALARS,
        )
        for key in _keys(cls, shape)
    )


_SCALARS = (str, int, float, bool, type(None))
_SIMPLE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")  # a name or its attributes: cheap to reread


def _is_dataclass(hint: Any) -> bool:
    return isinstance(hint, type) and dataclasses.is_dataclass(hint)


def _homogeneous(hint: Any) -> bool:
    """tuple[X, ...] or list[X]: every item has the one type X."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) is list:
        return len(args) == 1
    return typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis


class _Source:
    """One writer's source: its lines, the values it reads by name, fresh local names."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.names: dict[str, Any] = {"shape": shape, "_dump": _dump, "_json_copy": _json_copy}
        self.lines: list[str] = []
        self.locals = 0

    def local(self) -> str:
        self.locals += 1
        return f"_{self.locals}"

    def name(self, value: Any) -> str:
        """The writer's global name for `value` (a codec, a derived key's compute, a writer)."""
        name = f"g{len(self.names)}"
        self.names[name] = value
        return name

    def inlined(self, cls: type) -> bool:
        """Whether `cls`'s object fits one dict display: no key left out when empty."""
        return not any(key.omit_empty for key in _writes(cls, self.shape))

    def object(self, cls: type, src: str, indent: str, inside: tuple[type, ...]) -> str:
        """Statements at `indent` building the JSON object of `src` (a local); its local.

        A dict display, then `del` of the plain values left out when empty; a key left out
        when empty that is not a plain value is set after the display, and so are the rest."""
        inside, out = (*inside, cls), self.local()
        shown: list[str] = []
        drops: list[str] = []
        late: list[str] = []  # the keys set after the display, in order
        for key in _writes(cls, self.shape):
            item, read = repr(key.name), f"{src}.{key.name}"
            if key.omit_empty and (late or not key.plain):
                held = self.local()
                value = self.field(cls, key, held, src, inside, None)
                late += [f"{held} = {read}", f"if {held}:", f"    {out}[{item}] = {value}"]
                continue
            value = self.field(cls, key, read, src, inside, indent)
            if late:
                late.append(f"{out}[{item}] = {value}")
                continue
            shown.append(f"{item}: {value}")
            if key.omit_empty:
                drops.append(f"if not {out}[{item}]: del {out}[{item}]")
        self.lines.append(f"{indent}{out} = {{{', '.join(shown)}}}")
        self.lines += [indent + line for line in drops + late]
        return out

    def field(
        self,
        cls: type,
        key: _Write,
        read: str,
        src: str,
        inside: tuple[type, ...],
        indent: str | None,
    ) -> str:
        """The JSON of one key of the object `src`, whose field's value `read` gives; with
        statements at `indent` first where they help, one expression when `indent` is None."""
        if key.derived:
            hint, read = key.derived.hint, f"{self.name(key.derived.compute)}({src}, ctx)"
            if key.derived.json:
                return read
        elif key.codec:
            return f"{self.name(key.codec.dump)}({read}, {src})"
        elif key.plain:
            return read
        else:
            hint = _hints(cls)[key.name]
        return (
            self.expr(hint, read, inside)
            if indent is None
            else self.value(hint, read, indent, inside)
        )

    def value(self, hint: Any, src: str, indent: str, inside: tuple[type, ...]) -> str:
        """The JSON of `src`, of type `hint`, after statements at `indent` where an object needs
        them (one with keys left out when empty, alone, in a list or maybe None)."""
        base, nullable = _optional(hint)
        args = typing.get_args(base)
        if _is_dataclass(base) and base not in inside and not self.inlined(base):
            held = self.local()
            self.lines.append(f"{indent}{held} = {src}")
            if not nullable:
                return self.object(base, held, indent, inside)
            out = self.local()
            self.lines += [
                f"{indent}if {held} is None:",
                f"{indent}    {out} = None",
                f"{indent}else:",
            ]
            built = self.object(base, held, indent + "    ", inside)
            self.lines.append(f"{indent}    {out} = {built}")
            return out
        if not nullable and _homogeneous(base) and _is_dataclass(args[0]):
            cls = args[0]
            if cls not in inside and not self.inlined(cls):
                out, item = self.local(), self.local()
                self.lines += [f"{indent}{out} = []", f"{indent}for {item} in {src}:"]
                built = self.object(cls, item, indent + "    ", inside)
                self.lines.append(f"{indent}    {out}.append({built})")
                return out
        return self.expr(hint, src, inside)

    def expr(self, hint: Any, src: str, inside: tuple[type, ...]) -> str:
        """The JSON of `src`, of type `hint`, as one expression that reads `src` once unless
        it is a name or its attributes."""
        base, nullable = _optional(hint)
        if base in _SCALARS:
            return src
        if not nullable:
            return self.present(base, src, inside)
        if _SIMPLE.fullmatch(src):
            return f"(None if {src} is None else {self.present(base, src, inside)})"
        held = self.local()
        return f"(None if ({held} := {src}) is None else {self.present(base, held, inside)})"

    def present(self, base: Any, src: str, inside: tuple[type, ...]) -> str:
        """`expr` of a value that is not None."""
        simple = _SIMPLE.fullmatch(src) is not None
        if isinstance(base, type) and issubclass(base, Enum):
            return f"{src}._value_"
        if _is_dataclass(base):
            if base in inside or not self.inlined(base) or not simple:
                return f"{self.name(_writer(base, self.shape))}({src}, ctx)"
            return self.display(base, src, inside)
        if _homogeneous(base):
            item_hint, item = typing.get_args(base)[0], self.local()
            if _optional(item_hint)[0] in _SCALARS:
                return f"list({src})"
            return f"[{self.expr(item_hint, item, inside)} for {item} in {src}]"
        if simple and (base is dict or typing.get_origin(base) is dict):
            return f"(_json_copy({src}) if {src}.__class__ is dict else _dump({src}, shape, ctx))"
        return f"_dump({src}, shape, ctx)"  # a union of several types, Any: decided per value

    def display(self, cls: type, src: str, inside: tuple[type, ...]) -> str:
        """The dict display of the JSON object of `src` (a name or its attributes)."""
        inside = (*inside, cls)
        shown = [
            f"{key.name!r}: {self.field(cls, key, f'{src}.{key.name}', src, inside, None)}"
            for key in _writes(cls, self.shape)
        ]
        return "{" + ", ".join(shown) + "}"


_LEAVES = frozenset(_SCALARS)


def _json_copy(value: Any) -> Any:
    """A copy of plain JSON data (dicts, lists, scalars), so the output shares nothing with the
    object; much cheaper than `copy.deepcopy`, which would also copy what JSON cannot hold."""
    if isinstance(value, dict):
        return {
            key: item if item.__class__ in _LEAVES else _json_copy(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [item if item.__class__ in _LEAVES else _json_copy(item) for item in value]
    if isinstance(value, tuple):
        return tuple(item if item.__class__ in _LEAVES else _json_copy(item) for item in value)
    return value


def _dump(value: Any, shape: Shape, context: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json(value, shape, context)
    if isinstance(value, tuple | list):
        return [_dump(v, shape, context) for v in value]
    if isinstance(value, dict):
        return _json_copy(value)
    raise TypeError(f"no JSON for {type(value).__name__}")


# -- reading --------------------------------------------------------------------------------------


def from_json(cls: type[Any], data: Mapping[str, Any], shape: Shape) -> Any:
    """Rebuild `cls` from `to_json` output; derived and unknown keys are ignored. Raises
    KeyError, TypeError or ValueError on a malformed one."""
    kwargs: dict[str, Any] = {}
    for key in _reads(cls, shape):
        name = key.name
        value = data.get(name) if name in data or key.nullable or key.has_default else data[name]
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
        hints = _hints(cls)
        plan = shape._reads[cls] = tuple(
            _Read(
                f.name,
                *_optional(hints[f.name]),
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
        return lambda value, _shape: _json_copy(dict(value))
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
    hints = _hints(cls)
    properties: dict[str, Schema] = {}
    required: list[str] = []
    for key in _keys(cls, shape):
        if isinstance(key, Derived):
            hint, help_text, omit = key.hint, key.help, False
            codec = None
        else:
            hint, help_text, omit = hints[key.name], _doc(key).help, _doc(key).omit_empty
            codec = shape.codecs.get((cls, key.name))
        schema = dict(codec.schema) if codec else _schema(hint, shape, pending)
        if help_text:
            schema["description"] = help_text
        properties[key.name] = schema
        if not omit:
            required.append(key.name)
    return {"type": "object", "properties": properties, "required": sorted(required)}


def _schema(hint: Any, shape: Shape, pending: list[type]) -> Schema:
    hint, nullable = _optional(hint)
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
