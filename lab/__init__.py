"""The lab: sysbench on throwaway MariaDB servers, on one host standing in for many machines.

Plain Python, no Django (import-linter: advisor -> lab -> calibration -> rules), so it runs
from a checkout on the probe's host as `python3 -m lab` as well as `manage.py lab`. See
docs/lab.md.
"""
