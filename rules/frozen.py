"""A quicker `__init__` for the frozen dataclasses a recommendation builds by the dozen.

A frozen dataclass's generated `__init__` sets every field through `object.__setattr__`, about
100 ns a field. A recommendation builds 21 settings, 21 proposals and 8 OS items, 600 fields and
a sixth of its time. `quick_init` generates the same `__init__` (same parameters, order, defaults
and default factories) that sets each field through its slot's descriptor instead, two and a
half times cheaper; assignment after construction still raises FrozenInstanceError.
"""

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
Fields = tuple[dataclasses.Field[Any], ...]


class _Factory:
    """The default of a field with a default_factory: call the factory."""

    def __repr__(self) -> str:
        return "<factory>"  # as in the dataclass's own signature


_FACTORY = _Factory()


def quick_init(cls: type[T]) -> type[T]:
    """Replace the `__init__` of `cls`, a frozen dataclass with slots (apply it above
    `@dataclass`). Refuses, at import, any class whose `__init__` it could not reproduce."""
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    if not params.frozen or "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick_init needs a frozen slots dataclass, no post-init")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names: dict[str, Any] = {"_FACTORY": _FACTORY}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for f in fields:
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init needs every field in __init__")
        names[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        param, value = f.name, f.name
        if f.default is not dataclasses.MISSING:
            names[f"_default_{f.name}"] = f.default
            param = f"{f.name}=_default_{f.name}"
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_factory_{f.name}"] = f.default_factory
            param = f"{f.name}=_FACTORY"
            value = f"_factory_{f.name}() if {f.name} is _FACTORY else {f.name}"
        (keyword if f.kw_only else positional).append(param)
        body.append(f"    _set_{f.name}(self, {value})")
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    exec(f"def __init__({signature}):\n" + "\n".join(body or ["    pass"]), names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {f.name: f.type for f in fields} | {"return": None}
    _check_same_parameters(cls, fields, init)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


def _check_same_parameters(cls: type, fields: Fields, init: Any) -> None:
    """The new `__init__` takes exactly what the dataclass's own took, with the same defaults."""
    factories = {f.name for f in fields if f.default_factory is not dataclasses.MISSING}

    def shape(function: Any) -> list[tuple[str, Any, Any]]:
        return [
            (p.name, p.kind, "factory" if p.name in factories else p.default)
            for p in inspect.signature(function).parameters.values()
        ]

    if shape(init) != shape(cls.__dict__["__init__"]):
        raise TypeError(f"{cls.__name__}: quick_init would change the parameters of __init__")


def positional_new(cls: type[T]) -> Callable[..., T]:
    """A constructor of `cls` (a frozen slots dataclass) that takes every field positionally,
    in declaration order, with no defaults: for a hot path whose values already come in that
    order (keyword arguments cost a third of building a Setting)."""
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    if not params.frozen or "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: positional_new needs a frozen slots dataclass")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names: dict[str, Any] = {"_cls": cls, "_new": object.__new__}
    names |= {f"_set_{f.name}": cls.__dict__[f.name].__set__ for f in fields}
    lines = [f"def new({', '.join(f.name for f in fields)}):", "    self = _new(_cls)"]
    lines += [f"    _set_{f.name}(self, {f.name})" for f in fields]
    exec("\n".join([*lines, "    return self"]), names)
    new: Callable[..., T] = names["new"]
    new.__qualname__ = f"{cls.__qualname__}.positional_new"
    return new
