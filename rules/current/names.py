"""Variable names: the server's spelling of an option name, and what counts as one."""

import re

MAX_NAME_CHARS = 64  # the server's own limit on a system variable name (NAME_CHAR_LEN)

NAME = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)?")


def normalise_name(name: str) -> str:
    """The server's spelling of an option name: lower case, underscores, no `loose-` prefix."""
    text = name.strip().lower().replace("-", "_")
    if text.startswith("__"):  # a command-line spelling such as --innodb-io-capacity
        text = text[2:]
    return text.removeprefix("loose_")


def is_name(name: str) -> bool:
    return len(name) <= MAX_NAME_CHARS and NAME.fullmatch(name) is not None
