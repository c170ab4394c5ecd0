"""Shared test set-up. pytest-django (configured in pyproject.toml) loads advisor.settings and
creates the test database; tests that touch the database ask for the `db` fixture."""

from typing import Any

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _page_limits_out_of_the_way(settings: Any) -> None:
    """Page tests post far more than a person would; the limit's own tests set it back."""
    settings.PAGE_RATE = "1000000/minute"
    cache.clear()
