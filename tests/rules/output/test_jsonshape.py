"""The JSON writer writes each kind of field as the declarations say, and reads back."""

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.output.jsonshape import Codec, Derived, Shape, doc, from_json, schema_components
from rules.output.jsonwrite import to_json


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Leaf:
    name: str
    colour: Colour | None = None


@dataclass(frozen=True, slots=True)
class Noted:  # a key left out when empty, last
    size: int
    note: str = field(default="", metadata=doc(omit_empty=True))


@dataclass(frozen=True, slots=True)
class Item:  # keys left out when empty in the middle, plain and not, with keys after them
    name: str
    tag: str = field(default="", metadata=doc(omit_empty=True))
    leaves: tuple[Leaf, ...] = field(default=(), metadata=doc(omit_empty=True))
    noted: Noted | None = None
    notes: tuple[Noted, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    colours: tuple[Colour | None, ...] = ()
    words: tuple[str, ...] = ()
    anything: int | str = 0


@dataclass(frozen=True, slots=True)
class Node:  # a tree: a class inside itself
    label: str
    children: tuple["Node", ...] = ()
    parent_item: Item | None = None


@dataclass(frozen=True, slots=True)
class Box:
    items: tuple[Item, ...]
    maybe: Item | None
    leaf: Leaf
    tree: Node


SHAPE = Shape(
    derived={
        Box: (
            Derived("first", "items", Leaf | None, lambda b, _c: b.leaf if b.items else None),
            Derived("count", None, int, lambda b, ctx: len(b.items) + ctx),
            Derived("leaves", None, tuple[Leaf, ...], lambda b, _c: (b.leaf, b.leaf)),
            Derived("colour", None, Colour | None, lambda b, _c: b.leaf.colour),
        ),
        Leaf: (Derived("upper", "name", str, lambda leaf, _c: leaf.name.upper()),),
    },
    codecs={
        (Noted, "size"): Codec(
            dump=lambda v, _o: f"{v}B", load=lambda t, _d: int(t[:-1]), schema={}
        )
    },
)

RED, PLAIN = Leaf("r", Colour.RED), Leaf("p")
FULL = Item(
    "full",
    tag="t",
    leaves=(RED, PLAIN),
    noted=Noted(1, "n"),
    notes=(Noted(2), Noted(3, "m")),
    extra={"a": [1, {"b": (2, 3)}], "c": None},
    colours=(Colour.BLUE, None),
    words=("x", "y"),
    anything="any",
)
EMPTY = Item("empty")
BOX = Box(
    items=(FULL, EMPTY),
    maybe=None,
    leaf=RED,
    tree=Node("root", (Node("a", (Node("a1"),)), Node("b", parent_item=EMPTY))),
)

RED_JSON = {"name": "r", "upper": "R", "colour": "red"}
EMPTY_JSON = {
    "name": "empty",
    "noted": None,
    "notes": [],
    "extra": {},
    "colours": [],
    "words": [],
    "anything": 0,
}
BOX_JSON = {
    "items": [
        {
            "name": "full",
            "tag": "t",
            "leaves": [RED_JSON, {"name": "p", "upper": "P", "colour": None}],
            "noted": {"size": "1B", "note": "n"},
            "notes": [{"size": "2B"}, {"size": "3B", "note": "m"}],
            "extra": {"a": [1, {"b": (2, 3)}], "c": None},
            "colours": ["blue", None],
            "words": ["x", "y"],
            "anything": "any",
        },
        EMPTY_JSON,
    ],
    "first": RED_JSON,
    "maybe": None,
    "leaf": RED_JSON,
    "tree": {
        "label": "root",
        "children": [
            {
                "label": "a",
                "children": [{"label": "a1", "children": [], "parent_item": None}],
                "parent_item": None,
            },
            {"label": "b", "children": [], "parent_item": EMPTY_JSON},
        ],
        "parent_item": None,
    },
    "count": 12,
    "leaves": [RED_JSON, RED_JSON],
    "colour": "red",
}


def test_it_writes_every_kind_of_field_in_declaration_order() -> None:
    written = to_json(BOX, SHAPE, 10)
    assert written == BOX_JSON
    assert json.dumps(written) == json.dumps(BOX_JSON)  # the keys' order too


def test_it_leaves_out_the_empty_keys_that_ask_for_it_and_keeps_the_order_of_the_rest() -> None:
    assert list(to_json(EMPTY, SHAPE)) == list(EMPTY_JSON)
    assert list(to_json(Item("x", leaves=(PLAIN,)), SHAPE))[:3] == ["name", "leaves", "noted"]
    assert list(to_json(Item("x", tag="t"), SHAPE))[:3] == ["name", "tag", "noted"]


def test_a_class_inside_itself_is_written_to_any_depth() -> None:
    deep = Node("0")
    for level in range(1, 30):
        deep = Node(str(level), (deep,))
    written = to_json(deep, SHAPE)
    for level in range(29, 0, -1):
        assert written["label"] == str(level)
        (written,) = written["children"]
    assert written == {"label": "0", "children": [], "parent_item": None}


def test_the_output_shares_no_dict_or_list_with_the_object() -> None:
    written = to_json(FULL, SHAPE)
    written["extra"]["a"][1]["b"] = "changed"
    written["extra"]["new"] = 1
    assert FULL.extra == {"a": [1, {"b": (2, 3)}], "c": None}


def test_what_it_writes_reads_back() -> None:
    for item in (FULL, EMPTY):
        back = from_json(Item, json.loads(json.dumps(to_json(item, SHAPE))), SHAPE)
        assert back == Item(**{**vars_of(item), "extra": json.loads(json.dumps(item.extra))})


def vars_of(item: Item) -> dict[str, Any]:
    return {name: getattr(item, name) for name in Item.__dataclass_fields__}


def test_a_derived_key_that_computes_its_json_is_written_as_computed() -> None:
    written = [{"name": "kept", "upper": "as is"}]
    shape = Shape(
        derived={Leaf: (Derived("raw", None, tuple[Leaf, ...], lambda _l, _c: written, json=True),)}
    )
    assert to_json(PLAIN, shape)["raw"] is written
    schema = schema_components(Leaf, shape)["Leaf"]["properties"]["raw"]
    assert schema == {"type": "array", "items": {"$ref": "#/components/schemas/Leaf"}}


@dataclass(frozen=True, slots=True)
class Pair:  # flat: every field a str, written as it is
    key: str
    value: str


@dataclass(frozen=True, slots=True)
class Pairs:
    kept: tuple[Pair, ...]
    listed: list[Pair]


def test_flat_items_of_a_tuple_are_written_once_and_copied_out_for_each_object() -> None:
    shared = (Pair("a", "1"), Pair("b", "2"))
    first, second = to_json(Pairs(shared, []), SHAPE), to_json(Pairs(shared, []), SHAPE)
    assert (
        first["kept"] == second["kept"] == [{"key": "a", "value": "1"}, {"key": "b", "value": "2"}]
    )
    first["kept"][0]["key"] = "changed"
    assert to_json(Pairs(shared, []), SHAPE)["kept"][0] == {"key": "a", "value": "1"}


def test_flat_items_of_a_list_are_written_from_the_list_as_it_is_now() -> None:
    listed = [Pair("a", "1")]
    assert to_json(Pairs((), listed), SHAPE)["listed"] == [{"key": "a", "value": "1"}]
    listed.append(Pair("b", "2"))
    assert to_json(Pairs((), listed), SHAPE)["listed"][1] == {"key": "b", "value": "2"}
