"""Rows stored before pastes were reduced are reduced by migration 0005, as new ones are."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from rules.inputs.examples import raw_profile

SECRET = "Hunter2Secret"
PASTE = f"[mysqld]\ninnodb_io_capacity=400\nwsrep_sst_auth=sst:{SECRET}\n"
BEFORE, AFTER = [("advisor", "0004_kept_json_text")], [("advisor", "0005_kept_pastes")]


@pytest.fixture
def migrated_back() -> Iterator[MigrationExecutor]:
    """An executor at BEFORE; the database is migrated to the latest again afterwards, for the
    tests that follow."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    yield executor
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_stored_pastes_are_reduced_by_the_migration(migrated_back: MigrationExecutor) -> None:
    executor = migrated_back
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.create(username="fleet-owner")
    batch = old.get_model("advisor", "Batch").objects.create(owner=user, total=2)
    items = old.get_model("advisor", "BatchItem").objects
    items.create(batch=batch, position=0, name="a", profile=raw_profile(current={"mycnf": PASTE}))
    unreadable = raw_profile(current={"mycnf": f"mysql -p{SECRET}\n"})
    items.create(batch=batch, position=1, name="b", profile=unreadable)
    old.get_model("advisor", "Measurement").objects.create(
        kind="fio",
        profile=raw_profile(current={"mycnf": PASTE}),
        server_settings={"innodb_flush_log_at_trx_commit": 1, "ssl_key": f"/{SECRET}.pem"},
    )

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    kept, failed = new.get_model("advisor", "BatchItem").objects.order_by("position")
    measurement = new.get_model("advisor", "Measurement").objects.get()
    assert kept.profile["current"] == {"mycnf": "[mysqld]\ninnodb_io_capacity = 400"}
    assert "current" not in failed.profile
    assert (failed.status, list(failed.errors)) == ("failed", ["current.mycnf"])
    assert measurement.server_settings == {"innodb_flush_log_at_trx_commit": 1}
    stored = [kept.profile, failed.profile, measurement.profile, measurement.server_settings]
    assert SECRET not in str(stored)
