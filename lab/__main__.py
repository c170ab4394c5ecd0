"""`python3 -m lab`: the lab without Django, e.g. on the probe's host (docs/lab.md)."""

import sys

from lab.cli import entry

sys.exit(entry())
