"""quick_init gives a frozen dataclass the same __init__, only quicker; positional_new builds one
from its fields in order, and quick_new as its __init__ would, both through a twin class."""

import dataclasses
import inspect

import pytest

from rules.frozen import is_frozen_slots, positional_new, quick_init, quick_new
from rules.result import Change, Evidence, OsItem, Setting
from rules.rule import Proposal


@dataclasses.dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: str = "b"
    c: list[int] = dataclasses.field(default_factory=list)
    d: bool = dataclasses.field(default=False, kw_only=True)


@quick_init
@dataclasses.dataclass(frozen=True, slots=True)
class Quick:  # Plain again, with the quick __init__
    a: int
    b: str = "b"
    c: list[int] = dataclasses.field(default_factory=list)
    d: bool = dataclasses.field(default=False, kw_only=True)


def test_it_takes_the_same_parameters_as_the_dataclass_init() -> None:
    assert str(inspect.signature(Quick.__init__)) == str(inspect.signature(Plain.__init__))


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((1,), {}), ((1, "x"), {}), ((1, "x", [2]), {"d": True}), ((), {"a": 3, "c": [4]})],
)
def test_it_sets_what_the_dataclass_init_sets(
    args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    quick, plain = Quick(*args, **kwargs), Plain(*args, **kwargs)
    assert [getattr(quick, f.name) for f in dataclasses.fields(quick)] == [
        getattr(plain, f.name) for f in dataclasses.fields(plain)
    ]


def test_each_instance_gets_its_own_default_from_the_factory() -> None:
    assert Quick(1).c is not Quick(1).c


def test_the_instances_stay_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Quick(1).a = 2  # type: ignore[misc]


HELPERS = [quick_init, positional_new, quick_new]


@pytest.mark.parametrize("helper", HELPERS, ids=lambda h: h.__name__)
def test_each_helper_refuses_a_class_that_is_not_frozen(helper) -> None:
    @dataclasses.dataclass(slots=True)
    class Loose:
        a: int

    assert not is_frozen_slots(Loose)
    with pytest.raises(TypeError):
        helper(Loose)


@pytest.mark.parametrize("helper", HELPERS, ids=lambda h: h.__name__)
def test_each_helper_refuses_a_class_with_a_post_init(helper) -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    assert not is_frozen_slots(Checked)
    with pytest.raises(TypeError):
        helper(Checked)


def test_the_engine_s_classes_build_as_declared() -> None:
    evidence = (Evidence("s", "f"),)
    setting = Setting(
        name="n", value=1, dynamic=True, rule="r", reason="x", explanation="y", evidence=evidence
    )
    assert (setting.scope, setting.kind, setting.written, setting.change) == (
        "mysqld",
        "number",
        True,
        None,
    )
    item = OsItem(
        name="n",
        value="v",
        devices="d",
        rule="r",
        explanation="e",
        evidence=evidence,
        commands=(),
        persist="",
        persist_path="",
        change=Change.KEEP,
    )
    assert (item.reason, item.current, item.change) == ("", None, Change.KEEP)
    assert Proposal("n", 1, "c") == Proposal("n", 1, "c", {}, (), None, False)


def test_positional_new_builds_what_the_init_builds_from_every_field_in_order() -> None:
    new = positional_new(Quick)
    built = new(1, "x", [2], True)
    assert built == Quick(1, "x", [2], d=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.a = 2  # type: ignore[misc]


def test_quick_new_takes_what_the_init_takes_and_builds_the_same_frozen_object() -> None:
    build = quick_new(Quick)
    shape = [(p.name, p.kind) for p in inspect.signature(build).parameters.values()]
    assert shape == [(p.name, p.kind) for p in inspect.signature(Plain).parameters.values()]
    for args, kwargs in [((1,), {}), ((1, "x", [2]), {"d": True}), ((), {"a": 3, "c": [4]})]:
        built = build(*args, **kwargs)
        assert type(built) is Quick
        assert built == Quick(*args, **kwargs)
    assert build(1).c is not build(1).c
    with pytest.raises(dataclasses.FrozenInstanceError):
        build(1).a = 2  # type: ignore[misc]


def test_quick_new_refuses_a_class_with_a_base() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Base:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Derived(Base):
        b: int

    with pytest.raises(TypeError):
        quick_new(Derived)
    with pytest.raises(TypeError):
        positional_new(Derived)
