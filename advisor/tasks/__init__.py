"""Celery tasks. Celery's autodiscovery imports `advisor.tasks`; each module registers its own."""
