"""Celery tasks. Celery's autodiscovery imports `advisor.tasks`; each module registers its own."""

from advisor.tasks.calibration import calibration_fit as calibration_fit
