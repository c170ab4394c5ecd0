"""Every export of a result: JSON, my.cnf, SQL, udev rules and sysctl.d, all from one `Result`."""

import json
from collections.abc import Callable

from rules.render.jsonout import result_from_dict, result_to_dict
from rules.render.mycnf import render_mycnf
from rules.render.sql import render_sql
from rules.render.sysctl import render_sysctl
from rules.render.udev import render_udev
from rules.result import Result
from rules.revert import revert

__all__ = [
    "CONTENT_TYPES",
    "FILENAMES",
    "FORMATS",
    "filename_for",
    "render",
    "render_json",
    "render_mycnf",
    "render_revert",
    "render_sql",
    "render_sysctl",
    "render_udev",
    "result_from_dict",
    "result_to_dict",
    "revert_filename_for",
]

FORMATS: tuple[str, ...] = ("json", "mycnf", "sql", "udev", "sysctl")

CONTENT_TYPES: dict[str, str] = {
    "json": "application/json",
    "mycnf": "text/plain; charset=utf-8",
    "sql": "application/sql; charset=utf-8",
    "udev": "text/plain; charset=utf-8",
    "sysctl": "text/plain; charset=utf-8",
}

# `{id}` is the result's id; the udev and sysctl files keep the names they must have where they go.
FILENAMES: dict[str, str] = {
    "json": "innodb-io-advisor-{id}.json",
    "mycnf": "innodb-io-advisor-{id}.cnf",
    "sql": "innodb-io-advisor-{id}.sql",
    "udev": "60-innodb-io-advisor.rules",
    "sysctl": "60-innodb-io-advisor.conf",
}


def render_json(result: Result, *, base_url: str = "") -> str:
    data = result_to_dict(result, base_url=base_url)
    return json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


_RENDERERS: dict[str, Callable[..., str]] = {
    "json": render_json,
    "mycnf": render_mycnf,
    "sql": render_sql,
    "udev": render_udev,
    "sysctl": render_sysctl,
}


def render(result: Result, fmt: str, *, base_url: str = "") -> str:
    """The export `fmt` (one of FORMATS); raises OutputRefused for my.cnf/SQL when refused."""
    renderer = _RENDERERS.get(fmt)
    if renderer is None:
        raise ValueError(f"unknown format {fmt!r}; expected one of: {', '.join(FORMATS)}")
    return renderer(result, base_url=base_url)


def filename_for(result: Result, fmt: str) -> str:
    """The download file name of export `fmt` for `result`."""
    return FILENAMES[fmt].format(id=result.id)


def render_revert(result: Result, fmt: str, *, base_url: str = "") -> str:
    """The revert twin of export `fmt`: the same renderer, given `rules.revert.revert(result)`;
    raises NothingToRevert when the result carries no current configuration."""
    return render(revert(result), fmt, base_url=base_url)


def revert_filename_for(result: Result, fmt: str) -> str:
    """The twin's download name: `-revert` before the extension (`...-revert.cnf`)."""
    stem, dot, extension = filename_for(result, fmt).rpartition(".")
    return f"{stem}-revert{dot}{extension}" if dot else f"{extension}-revert"
