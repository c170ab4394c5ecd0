"""Fleet batches: services, Celery tasks and the worker's side, the REST API, the batch page
(upload a fleet as CSV or JSON, watch its progress) and the zip archive."""
