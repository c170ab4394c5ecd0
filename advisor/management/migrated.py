"""Commands a user runs on a fresh install say the database needs migrating, not a traceback."""

from django.core.management.base import CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor


def require_migrated(database: str = DEFAULT_DB_ALIAS) -> None:
    """Raise a CommandError naming the fix when migrations are not applied yet (a dev install
    before `make run`, or a deploy that skipped `migrate`)."""
    executor = MigrationExecutor(connections[database])
    pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if pending:
        raise CommandError(
            f"the database has {len(pending)} unapplied migrations: run "
            "`python manage.py migrate` first (`make run` does it on a dev install)"
        )
