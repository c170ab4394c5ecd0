"""Fixtures for the integration tests that boot a real, throwaway mariadbd.

The harness itself is ``mariadb_server.py`` next to this file; import it as
``tests.integration.mariadb_server`` (pyproject's ``pythonpath = ["."]`` puts the project
root on sys.path, and ``--import-mode=importlib`` does not add test directories).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.mariadb_server import (
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
