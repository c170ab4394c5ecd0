"""Variable names: the server's spelling of an option name, and what counts as one."""

import re

MAX_NAME_CHARS = 64  # the server's own limit on a system variable name (NAME_CHAR_LEN)

NAME = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)?")


def normalise_name(name: str) -> str:
    """The server's spelling of an option name: lower case, underscores, no `loose-` prefix."""
    return _spelled(name).removeprefix("loose_")


def is_loose(name: str) -> bool:
    """Whether an option name carries the `loose-` prefix: a server that does not know the
    option warns and starts anyway (MySQL 8.4 Reference Manual, 6.2.2.4 "Program Option
    Modifiers")."""
    return _spelled(name).startswith("loose_")


def _spelled(name: str) -> str:
    text = name.strip().lower().replace("-", "_")
    if text.startswith("__"):  # a command-line spelling such as --innodb-io-capacity
        text = text[2:]
    return text


def is_name(name: str) -> bool:
    return len(name) <= MAX_NAME_CHARS and NAME.fullmatch(name) is not None


class LooseNames:
    """The names a paste gave only with `loose-`: one plain line makes a name strict again,
    since that line alone stops a server that does not know it."""

    def __init__(self) -> None:
        self._only_loose: dict[str, bool] = {}

    def record(self, name: str, loose: bool) -> None:
        if loose:
            self._only_loose.setdefault(name, True)
        elif name in self._only_loose:
            self._only_loose[name] = False

    def names(self) -> frozenset[str]:
        return frozenset(name for name, only in self._only_loose.items() if only)
