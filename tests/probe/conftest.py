"""A real, throwaway MariaDB for the probe to read (tests/integration's harness), and a client
option file that points the probe's `mariadb` client at it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lab.mariadb_server import RunningServer, binaries_available, running_server


@pytest.fixture(scope="module")
def mariadb() -> Iterator[RunningServer]:
    if not binaries_available():
        pytest.fail("mariadbd and the mariadb client are not installed; `make system-deps`")
    with running_server("[mysqld]\n") as server:
        yield server


@pytest.fixture(scope="module")
def client_defaults(mariadb: RunningServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A [client] file as a DBA would write: the socket and the user (root, no password)."""
    path = tmp_path_factory.mktemp("client") / "client.cnf"
    path.write_text(f"[client]\nsocket={mariadb.socket}\nuser=root\n", encoding="utf-8")
    return path
