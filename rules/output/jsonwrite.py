"""Writing a declared dataclass (rules.output.jsonshape) as JSON: `to_json`.

Each class's keys are worked out once per Shape (`_keys`): for each key, the field it reads (or
the derived key's compute) and how its value becomes JSON (`_converter`, a function per type
hint). Writing an object is then one loop over that table.
"""

import dataclasses
import operator
import typing
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from rules.output.jsonshape import (
    SCALARS,
    Derived,
    Shape,
    field_doc,
    json_copy,
    json_keys,
    json_name,
    type_hints,
    without_none,
)

# A value to its JSON, given the context `to_json` was called with; None: the value as it is.
Converter = Callable[[Any, Any], Any] | None


@dataclass(frozen=True, slots=True)
class _Plan:
    """How to write one class, worked out once per Shape (a result is written per request).

    Most keys are a str, number or bool written as it is (a Setting has 14 of its 20), so every
    field is first copied as it is, in one dict comprehension (with the derived keys, when there
    are any, held in place by a copy of `order`); then only the other keys are visited, each
    kind in a loop of its own. Visiting every key in one loop that asked what each needed took
    twice as long."""

    fields: tuple[str, ...]  # each field's JSON key
    values: Callable[[Any], tuple[Any, ...]]  # every field's value, in one call
    order: dict[str, None] | None  # every key in order, when some are derived
    # (key, enum member or None -> its JSON): a dict lookup, where `.value` is a Python-level
    # property of the enum's (two Python calls a read)
    looked_up: tuple[tuple[str, dict[Any, Any]], ...]
    converted: tuple[tuple[str, Callable[[Any, Any], Any]], ...]  # (key, value -> JSON)
    dumped: tuple[tuple[str, Callable[[Any, Any], Any]], ...]  # (key, codec's dump(value, owner))
    derived: tuple[tuple[str, Callable[[Any, Any], Any], Converter], ...]  # (key, compute, to JSON)
    # (key, to JSON given value, owner and context, or None): left out when the value is falsy
    omitted: tuple[tuple[str, Callable[[Any, Any, Any], Any] | None], ...]


def to_json(obj: Any, shape: Shape, context: Any = None) -> dict[str, Any]:
    """The object as a JSON-ready dict, keys in declaration order."""
    plan = shape._writers.get(obj.__class__) or _plan(obj.__class__, shape)
    if plan.order is None:
        out = dict(zip(plan.fields, plan.values(obj), strict=True))
    else:
        out = plan.order.copy()
        out.update(zip(plan.fields, plan.values(obj), strict=True))
    for name, table in plan.looked_up:
        out[name] = table[out[name]]
    for name, convert in plan.converted:
        out[name] = convert(out[name], context)
    for name, dump in plan.dumped:
        out[name] = dump(out[name], obj)
    for name, compute, convert in plan.derived:
        value = compute(obj, context)
        out[name] = value if convert is None else convert(value, context)
    for name, write in plan.omitted:
        value = out[name]
        if not value:
            del out[name]
        elif write is not None:
            out[name] = write(value, obj, context)
    return out


def _plan(cls: type, shape: Shape) -> _Plan:
    attributes = tuple(f.name for f in dataclasses.fields(cls))
    fields = tuple(json_name(f) for f in dataclasses.fields(cls))
    names: list[str] = []
    looked_up, converted, dumped, derived, omitted = [], [], [], [], []
    for key in json_keys(cls, shape):
        name = json_name(key)
        names.append(name)
        if isinstance(key, Derived):
            derived.append((name, key.compute, None if key.json else _converter(key.hint, shape)))
            continue
        codec = shape.codecs.get((cls, key.name))
        hint = type_hints(cls)[key.name]
        convert = None if codec else _converter(hint, shape)
        if not codec and not field_doc(key).omit_empty and (table := _enum_values(hint)):
            looked_up.append((name, table))
        elif field_doc(key).omit_empty:
            omitted.append((name, _omitted_writer(codec.dump if codec else None, convert)))
        elif codec:
            dumped.append((name, codec.dump))
        elif convert:
            converted.append((name, convert))
    plan = shape._writers[cls] = _Plan(
        fields,
        _values(attributes),
        None if tuple(names) == fields else dict.fromkeys(names),
        tuple(looked_up),
        tuple(converted),
        tuple(dumped),
        tuple(derived),
        tuple(omitted),
    )
    return plan


def _enum_values(hint: Any) -> dict[Any, Any] | None:
    """For an enum (or an enum or None): each member's JSON, and None's; else None."""
    base, nullable = without_none(hint)
    if not (isinstance(base, type) and issubclass(base, Enum)):
        return None
    table: dict[Any, Any] = {member: member.value for member in base}
    if nullable:
        table[None] = None
    return table


def _values(fields: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The fields' values as a tuple: an attrgetter of several names, one C call (with
    dict(zip(...)), a Setting's 17 fields were read about 15% quicker than by a dict
    comprehension of getattr calls, timeit); of one name it returns the value alone."""
    if not fields:
        return lambda _obj: ()
    if len(fields) == 1:
        get_one = operator.attrgetter(fields[0])
        return lambda obj: (get_one(obj),)
    return operator.attrgetter(*fields)


def _omitted_writer(
    dump: Callable[[Any, Any], Any] | None, convert: Converter
) -> Callable[[Any, Any, Any], Any] | None:
    if dump is not None:
        return lambda value, owner, _context: dump(value, owner)
    if convert is not None:
        return lambda value, _owner, context: convert(value, context)
    return None


def _converter(hint: Any, shape: Shape) -> Converter:
    """How a value of type `hint` becomes JSON: scalars as they are, enums as their values,
    dataclasses as objects, lists and tuples of one type as lists, dicts as copies; anything
    else (a union of several types, Any) is decided per value."""
    base, nullable = without_none(hint)
    if base in SCALARS:
        return None
    if nullable and isinstance(base, type) and issubclass(base, Enum):  # one call, not two
        return lambda value, _context: None if value is None else value.value
    if nullable and isinstance(base, type) and dataclasses.is_dataclass(base):
        return lambda value, context: None if value is None else to_json(value, shape, context)
    convert = _present_converter(base, shape)
    if not nullable:
        return convert
    return lambda value, context: None if value is None else convert(value, context)


def _present_converter(base: Any, shape: Shape) -> Callable[[Any, Any], Any]:
    """`_converter` of a value that is not None."""
    if isinstance(base, type) and issubclass(base, Enum):
        return lambda value, _context: value.value
    if isinstance(base, type) and dataclasses.is_dataclass(base):
        return lambda value, context: to_json(value, shape, context)
    if _homogeneous(base):
        item_hint = typing.get_args(base)[0]
        if _flat(item_hint, shape):  # a result's ~75 evidence items
            return _flat_items(item_hint)
        if isinstance(item_hint, type) and dataclasses.is_dataclass(item_hint):
            return lambda value, context: [to_json(v, shape, context) for v in value]
        item = _converter(item_hint, shape)
        if item is None:
            return lambda value, _context: list(value)
        return lambda value, context: [item(v, context) for v in value]
    if base is dict or typing.get_origin(base) is dict:
        return lambda value, context: (
            json_copy(value) if value.__class__ is dict else _dump(value, shape, context)
        )
    return lambda value, context: _dump(value, shape, context)


_FLAT_KEPT = 1024  # tuples of flat items whose JSON is kept; then all forgotten at once


def _flat_items(cls: type) -> Callable[[Any, Any], list[dict[str, Any]]]:
    """The JSON of a list or tuple of `cls` (a flat dataclass, see `_flat`): a dict per item.

    A tuple of frozen items cannot change, and a rule case's evidence is one such tuple, shared
    by every setting that case decides: its dicts are written once (kept by the tuple's id, with
    the tuple, so that the id stays its own) and copied out for each result, about 20 times
    cheaper than writing them (3.5k instructions an item, in a comprehension per item; the ~75
    of a result were 0.25 M of its 6.6 M, callgrind)."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    kept: dict[int, tuple[Any, tuple[dict[str, Any], ...]]] = {}

    def write(value: Any, _context: Any) -> list[dict[str, Any]]:
        if not frozen or value.__class__ is not tuple:
            return [{n: getattr(v, n) for n in names} for v in value]
        found = kept.get(id(value))
        if found is None or found[0] is not value:
            if len(kept) >= _FLAT_KEPT:
                kept.clear()
            found = kept[id(value)] = (
                value,
                tuple({n: getattr(v, n) for n in names} for v in value),
            )
        return list(map(dict.copy, found[1]))

    return write


def _flat(hint: Any, shape: Shape) -> bool:
    """Whether `hint` is a dataclass whose JSON is its fields' values as they are: no derived
    key, codec or key left out when empty, every field a str, number or bool (or None)."""
    if not (isinstance(hint, type) and dataclasses.is_dataclass(hint)) or hint in shape.derived:
        return False
    return not any(
        (hint, f.name) in shape.codecs
        or field_doc(f).omit_empty
        or field_doc(f).key is not None
        or without_none(type_hints(hint)[f.name])[0] not in SCALARS
        for f in dataclasses.fields(hint)
    )


def _homogeneous(hint: Any) -> bool:
    """tuple[X, ...] or list[X]: every item has the one type X."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) is list:
        return len(args) == 1
    return typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis


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
