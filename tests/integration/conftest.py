"""Fixtures for the integration tests that boot a real, throwaway mariadbd.

The harness itself is ``lab/mariadb_server.py``, shared with the benchmarks and the lab
(``manage.py lab``), which may import nothing from tests/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lab.mariadb_server import (
    binaries_available,
    make_template_datadir,
    remove_template_datadir,
)


@pytest.fixture(scope="session")
def mariadb_template_datadir() -> Iterator[Path]:
    """A datadir made by mariadb-install-db once per session; each boot copies it."""
    if not binaries_available():
        pytest.fail(
            "MariaDB server binaries (mariadbd, mariadb-install-db) are not installed; "
            "`make test` installs them (apt-get install mariadb-server)"
        )
    datadir = make_template_datadir()
    try:
        yield datadir
    finally:
        remove_template_datadir(datadir)
