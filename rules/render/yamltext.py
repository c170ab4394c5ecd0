"""A small deterministic YAML writer for the deploy exports (Ansible, Kubernetes).

Only what those files need: mappings (in the order given), lists, strings, integers, booleans
and literal blocks. Every string is double-quoted (JSON's escaping is valid YAML), so YAML never
re-reads a value as another type: `"ON"` stays a string, `"0.9"` is not a float, `"O_DIRECT"` is
not touched. Keys must be plain identifiers, which need no quoting.
"""

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.render.mycnf import comment

INDENT = "  "
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-/]*$")
# Keys YAML 1.1 reads as booleans or null when bare.
_RESERVED_KEYS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})


@dataclass(frozen=True, slots=True)
class Literal:
    """A multi-line string written as a `|` block: kept byte for byte, one trailing newline."""

    text: str


Node = (
    str | int | bool | Literal | Mapping[str, "Node"] | Sequence["Node"]
)  # a tuple or list is a sequence


def dump(value: Mapping[str, Node] | Sequence[Node], *, header: Sequence[str] = ()) -> str:
    """The YAML document for `value`, after `header` written as `#` comments."""
    lines = [comment("#", printable(line)) for line in header]
    lines += _block(value, 0) if value else ["{}" if isinstance(value, Mapping) else "[]"]
    return "\n".join(lines) + "\n"


def scalar(value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return _NOT_PRINTABLE.sub(_escape, json.dumps(value, ensure_ascii=False))


# What YAML 1.1 does not allow in a stream unescaped ("Character Set": printable are tab, line
# breaks, 0x20-0x7E, 0x85, 0xA0-0xD7FF, 0xE000-0xFFFD and beyond 0xFFFF), and the line breaks
# it folds to a space inside a quoted string (0x85, U+2028, U+2029); JSON has already escaped
# everything below 0x20.
_NOT_PRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def printable(text: str) -> str:
    """`text` with what YAML cannot hold unescaped (in a comment or a literal block) replaced
    by U+FFFD."""
    return _NOT_PRINTABLE.sub("\ufffd", text)


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _block(value: Node, depth: int) -> list[str]:
    pad = INDENT * depth
    if isinstance(value, Mapping):
        if not value:
            raise ValueError("an empty mapping has no block form")
        lines: list[str] = []
        for key, item in value.items():
            lines += _entry(f"{pad}{_key(key)}:", item, depth + 1)
        return lines
    if isinstance(value, Sequence) and not isinstance(value, str):
        if not value:
            raise ValueError("an empty list has no block form")
        lines = []
        for item in value:
            if isinstance(item, Mapping):
                inner = _block(item, depth + 1)
                lines.append(f"{pad}- {inner[0].lstrip()}")
                lines += inner[1:]
            else:
                lines += _entry(f"{pad}-", item, depth + 1)
        return lines
    raise TypeError(f"not a block: {value!r}")


def _entry(prefix: str, item: Node, depth: int) -> list[str]:
    if isinstance(item, Literal):
        return [f"{prefix} |", *_literal_lines(item.text, depth)]
    if isinstance(item, str | int | bool):
        return [f"{prefix} {scalar(item)}"]
    if isinstance(item, Mapping) or (isinstance(item, Sequence) and not isinstance(item, str)):
        if not item:
            return [f"{prefix} {'{}' if isinstance(item, Mapping) else '[]'}"]
        return [prefix, *_block(item, depth)]
    raise TypeError(f"cannot write {type(item).__name__} as YAML")


def _literal_lines(text: str, depth: int) -> list[str]:
    """The lines of a `|` block; refuses what a literal block would not keep byte for byte."""
    if not text.endswith("\n") or text.endswith("\n\n") or not text.strip():
        raise ValueError("a literal block needs text ending in exactly one newline")
    lines = text.removesuffix("\n").split("\n")
    if lines[0].startswith(" ") or any(line != line.rstrip() for line in lines):
        raise ValueError("a literal block cannot start with a space or end a line with one")
    if any(ch in text for ch in "\r\t\x00") or _NOT_PRINTABLE.search(text):
        raise ValueError("a literal block cannot hold control characters")
    pad = INDENT * depth
    return [f"{pad}{line}" if line else "" for line in lines]


def _key(key: str) -> str:
    if _KEY.match(key) is None or key.lower() in _RESERVED_KEYS:
        raise ValueError(f"not a plain YAML key: {key!r}")
    return key
