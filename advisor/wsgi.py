"""WSGI entry point: `gunicorn advisor.wsgi`.

Django's own WSGI handler, with requests that keep a charset other than UTF-8 from Django
(advisor.charset): such a charset could otherwise fail the request before any middleware runs.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")
django.setup(set_prefix=False)  # what django.core.wsgi.get_wsgi_application does first

from advisor.charset import CharsetCheckedWSGIHandler  # noqa: E402  (needs the apps loaded)

application = CharsetCheckedWSGIHandler()
