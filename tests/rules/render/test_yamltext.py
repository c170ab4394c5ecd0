"""The YAML writer: whatever it writes, a YAML parser reads back as the same values and types."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from rules.render.yamltext import Literal, dump

# Strings a YAML parser re-types when they are left bare.
TRICKY = ["ON", "OFF", "yes", "no", "y", "~", "null", "0.9", "1e3", "0x10", "010", "O_DIRECT",
          "2:30", "- a", "a: b", "#x", "'q'", '"q"', "", " lead", "trail ", "@x", "`x", "!tag",
          "\x7f", "\x85", "\u2028", "\ufffe", "\u00d7"]  # fmt: skip
KEYS = st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True).filter(
    lambda k: k not in {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}
)
SCALARS = st.one_of(st.text(max_size=40), st.integers(), st.booleans(), st.sampled_from(TRICKY))
NODES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=4),
        st.dictionaries(KEYS, inner, min_size=1, max_size=4),
    ),
    max_leaves=12,
)


@pytest.mark.parametrize("text", TRICKY)
def test_a_string_stays_a_string(text: str) -> None:
    assert yaml.safe_load(dump({"value": text})) == {"value": text}


@given(st.dictionaries(KEYS, NODES, min_size=1, max_size=5))
def test_any_document_reads_back_as_written(document: dict) -> None:
    assert yaml.safe_load(dump(document)) == document


@given(
    st.lists(
        st.text(
            alphabet=st.characters(
                blacklist_categories=["Cc", "Cs", "Zl", "Zp"], blacklist_characters="\ufffe\uffff"
            ),
            max_size=30,
        ).map(str.strip),
        min_size=1,
        max_size=6,
    ).filter(lambda lines: lines[0] != "" and lines[-1] != "")
)
def test_a_literal_block_keeps_its_text(lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    document = {"outer": {"block": Literal(text)}}
    assert yaml.safe_load(dump(document)) == {"outer": {"block": text}}


@pytest.mark.parametrize(
    "text", ["", "no newline", "two\n\n", " leading\n", "tab\there\n", "x\u2028y\n", "\x7f\n"]
)
def test_a_literal_block_refuses_what_it_cannot_keep(text: str) -> None:
    with pytest.raises(ValueError, match="literal block"):
        dump({"block": Literal(text)})


@pytest.mark.parametrize("key", ["on", "yes", "a b", "x:y", ""])
def test_a_key_that_is_not_plain_is_refused(key: str) -> None:
    with pytest.raises(ValueError, match="not a plain YAML key"):
        dump({key: "v"})


def test_the_header_is_comments_and_cannot_break_out_of_them() -> None:
    text = dump({"a": 1}, header=["first", "second\nb: injected"])
    assert text.splitlines()[:2] == ["# first", "# second b: injected"]
    assert yaml.safe_load(text) == {"a": 1}


def test_the_same_input_writes_the_same_bytes() -> None:
    document = {"b": ["x", {"c": Literal("[mysqld]\nx = 1\n")}], "a": True}
    assert dump(document) == dump(document)
    assert dump(document).index("b:") < dump(document).index("a:")  # the order given
