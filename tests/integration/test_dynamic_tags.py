"""The "now" / "at the next restart" tag against a real MariaDB 10.11: the catalog's `dynamic`
for every variable it knows, and every setting the engine emits, as the server itself says."""

from pathlib import Path

import pytest

from lab.mariadb_server import mariadbd_version, running_server
from rules.engine import recommend
from rules.inputs.enums import Flavor
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.inputs.version import parse_version
from rules.reference.catalog import catalog_for
from rules.render.sql import sql_literal

pytestmark = pytest.mark.mariadb


def _server_version() -> str:
    return mariadbd_version().split("-", 1)[0]  # "10.11.19"


def test_the_catalogs_dynamic_flag_matches_the_servers_read_only_flag(
    mariadb_template_datadir: Path,
) -> None:
    version = parse_version(_server_version())
    assert version is not None
    catalog = catalog_for(Flavor.MARIADB, version)
    names = [n for n in catalog.names() if catalog.get(n) is not None]
    assert len(names) >= 25
    quoted = ", ".join(f"'{n.upper()}'" for n in names)
    with running_server("[mysqld]\n", template_datadir=mariadb_template_datadir) as server:
        rows = server.query(
            "SELECT VARIABLE_NAME, READ_ONLY FROM information_schema.SYSTEM_VARIABLES "
            f"WHERE VARIABLE_NAME IN ({quoted})"
        )
    read_only = dict(line.split("\t") for line in rows.splitlines() if line)
    wrong = {
        name: (catalog.get(name).dynamic, read_only[name.upper()])  # type: ignore[union-attr]
        for name in names
        if name.upper() in read_only
        and catalog.get(name).dynamic is (read_only[name.upper()] == "YES")  # type: ignore[union-attr]
    }
    assert len(read_only) >= len(names) - 3  # the few the server does not list are session-only
    assert not wrong, f"catalog dynamic vs server READ_ONLY: {wrong}"


def test_set_global_works_exactly_for_the_settings_tagged_now(
    mariadb_template_datadir: Path,
) -> None:
    raw = raw_profile(
        **{
            "server.flavor": "mariadb",
            "server.version": _server_version(),
            "hardware.ram_gb": 4,
            "hardware.cpu_cores": 2,
        }
    )
    raw["options"] = {"include_defaults": True}
    result = recommend(parse_profile(raw))
    assert {s.dynamic for s in result.settings} == {True, False}
    outcomes, refusals = {}, []
    with running_server("[mysqld]\n", template_datadir=mariadb_template_datadir) as server:
        for setting in result.settings:
            try:
                server.query(f"SET GLOBAL {setting.name} = {sql_literal(setting)}")
                outcomes[setting.name] = True
            except RuntimeError as refused:
                refusals.append(str(refused))
                outcomes[setting.name] = False
    assert refusals
    assert all("is a read only variable" in text for text in refusals), refusals
    wrong = {s.name: s.dynamic for s in result.settings if outcomes[s.name] is not s.dynamic}
    assert not wrong, f"tagged dynamic vs SET GLOBAL worked: {wrong}"
