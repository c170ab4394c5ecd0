"""Writing a declared dataclass (rules.jsonshape) as JSON: `to_json`, through a writer compiled
once per class and Shape."""

import dataclasses
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from rules.jsonshape import (
    SCALARS,
    Codec,
    Derived,
    Shape,
    field_doc,
    json_copy,
    json_keys,
    type_hints,
    without_none,
)


@dataclass(frozen=True, slots=True)
class _Write:
    name: str
    derived: Derived | None
    codec: Codec | None
    omit_empty: bool
    plain: bool = False  # a str, number or bool (or None): written as it is


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
            field_doc(key).omit_empty,
            codec is None and without_none(type_hints(cls)[key.name])[0] in SCALARS,
        )
        for key in json_keys(cls, shape)
    )


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
        self.names: dict[str, Any] = {"shape": shape, "_dump": _dump, "json_copy": json_copy}
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
            hint = type_hints(cls)[key.name]
        return (
            self.expr(hint, read, inside)
            if indent is None
            else self.value(hint, read, indent, inside)
        )

    def value(self, hint: Any, src: str, indent: str, inside: tuple[type, ...]) -> str:
        """The JSON of `src`, of type `hint`, after statements at `indent` where an object needs
        them (one with keys left out when empty, alone, in a list or maybe None)."""
        base, nullable = without_none(hint)
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
        base, nullable = without_none(hint)
        if base in SCALARS:
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
            if without_none(item_hint)[0] in SCALARS:
                return f"list({src})"
            return f"[{self.expr(item_hint, item, inside)} for {item} in {src}]"
        if simple and (base is dict or typing.get_origin(base) is dict):
            return f"(json_copy({src}) if {src}.__class__ is dict else _dump({src}, shape, ctx))"
        return f"_dump({src}, shape, ctx)"  # a union of several types, Any: decided per value

    def display(self, cls: type, src: str, inside: tuple[type, ...]) -> str:
        """The dict display of the JSON object of `src` (a name or its attributes)."""
        inside = (*inside, cls)
        shown = [
            f"{key.name!r}: {self.field(cls, key, f'{src}.{key.name}', src, inside, None)}"
            for key in _writes(cls, self.shape)
        ]
        return "{" + ", ".join(shown) + "}"


def _dump(value: Any, shape: Shape, context: Any) -> Any:
    if type(value) in SCALARS:
        return value
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json(value, shape, context)
    if isinstance(value, tuple | list):
        return [_dump(v, shape, context) for v in value]
    if isinstance(value, dict):
        return json_copy(value)
    raise TypeError(f"no JSON for {type(value).__name__}")
