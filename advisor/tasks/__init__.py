"""Celery tasks. Celery's autodiscovery imports `advisor.tasks`; each module registers its own."""

from advisor.tasks.batches import batch_process_chunk as batch_process_chunk
from advisor.tasks.batches import batch_start as batch_start
from advisor.tasks.calibration import calibration_fit as calibration_fit
from advisor.tasks.maintenance import sessions_clear as sessions_clear
