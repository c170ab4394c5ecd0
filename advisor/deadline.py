"""A time budget for one piece of work, so that one slow input fails alone.

A batch chunk computes many hosts in one task; without a budget per host, one host that takes
too long runs the whole chunk into Celery's hard time limit, the chunk rolls back and is
delivered again, forever. `time_budget` interrupts the work with `OverBudget` through a real-time
interval timer (SIGALRM), which only the main thread can receive: Celery's prefork workers run
tasks there. Elsewhere (eager tasks in a threaded dev server) the work is timed and judged when
it ends instead, which bounds the damage to one host but cannot cut it short.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class OverBudget(Exception):
    """The work took longer than its budget."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"took longer than its budget of {seconds:g} s")
        self.seconds = seconds


def can_interrupt() -> bool:
    """Whether a budget can cut work short here (SIGALRM reaches only the main thread)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Raise OverBudget in the block once `seconds` of wall time have passed."""
    if not can_interrupt():
        started = time.monotonic()
        yield
        if time.monotonic() - started > seconds:
            raise OverBudget(seconds)
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise OverBudget(seconds)

    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, interrupt)
    outer_delay, outer_interval = signal.getitimer(signal.ITIMER_REAL)
    delay = min(seconds, outer_delay) if outer_delay > 0 else seconds  # an outer budget first
    # Repeats every second until the block is left: clean-up that blocks too (a rollback on a
    # connection that stopped answering) is interrupted again instead of hanging.
    signal.setitimer(signal.ITIMER_REAL, delay, min(seconds, 1.0))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_delay > 0:  # the enclosing budget goes on with what it has left
            left = max(outer_delay - (time.monotonic() - started), 0.001)
            signal.setitimer(signal.ITIMER_REAL, left, outer_interval)
