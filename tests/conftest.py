"""Shared test set-up. pytest-django (configured in pyproject.toml) loads advisor.settings and
creates the test database; tests that touch the database ask for the `db` fixture."""
