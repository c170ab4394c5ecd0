from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from advisor.fleet.services import BatchEntry
from advisor.models import Batch, BatchItem
from rules.inputs.examples import raw_profile


@pytest.fixture
def owner(db: None) -> Any:
    return get_user_model().objects.create(username="fleet-owner")


@pytest.fixture
def make_batch(owner: Any) -> Callable[..., Batch]:
    """A recorded, not yet queued batch of `count` distinct hosts (rows only, no broker)."""

    def make(count: int = 5, profiles: list[Any] | None = None) -> Batch:
        entries = [
            BatchEntry(f"h{i}", raw_profile(**{"hardware.ram_gb": 4 + i})) for i in range(count)
        ]
        if profiles is not None:
            entries = [BatchEntry(f"h{i}", p) for i, p in enumerate(profiles)]
        batch = Batch.objects.create(owner=owner, total=len(entries))
        BatchItem.objects.bulk_create(
            BatchItem(batch=batch, position=i, name=e.name, profile=e.profile)
            for i, e in enumerate(entries)
        )
        return batch

    return make
