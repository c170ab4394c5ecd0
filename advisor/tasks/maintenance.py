"""Housekeeping on a schedule (celery beat): expired sessions are deleted once a day.

Django never deletes a session row by itself; every anonymous wizard visitor leaves one.
"""

from celery import shared_task
from django.core.management import call_command


@shared_task(acks_late=True, soft_time_limit=600, time_limit=660)
def sessions_clear() -> None:
    """Delete the sessions past their expiry (Django's `clearsessions`)."""
    call_command("clearsessions")
