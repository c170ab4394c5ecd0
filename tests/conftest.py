"""Shared test set-up. pytest-django (configured in pyproject.toml) loads advisor.settings and
creates the test database; tests that touch the database ask for the `db` fixture."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import override_settings


@pytest.fixture(autouse=True)
def _page_limits_out_of_the_way() -> Iterator[None]:
    """Page tests post far more than a person would; the limit's own tests set it back.

    override_settings, not the `settings` fixture: some tests name a parameter `settings`.
    """
    with override_settings(PAGE_RATE="1000000/minute"):
        cache.clear()
        yield


@pytest.fixture(autouse=True)
def _archives_in_a_temporary_folder(tmp_path: Path) -> Iterator[None]:
    """Batch archives a test builds are written under its own temporary folder."""
    with override_settings(BATCH_ARCHIVE_DIR=tmp_path / "archives"):
        yield
