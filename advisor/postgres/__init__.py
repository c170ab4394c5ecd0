"""Django's PostgreSQL backend, with a limit on how long the app waits for the server to answer
(`advisor.postgres.base`); settings name it as the ENGINE for a postgres:// DATABASE_URL."""
