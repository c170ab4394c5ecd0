"""Running the calibration: users' measurements (REST API, review in the admin), fits and their
runs (the Celery task, `manage.py calibrate`), and the public calibration page."""
