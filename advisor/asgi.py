"""ASGI entry point, for an ASGI server such as uvicorn (not used by the default deployment).

Django's own ASGI handler, with requests that keep a charset other than UTF-8 from Django
(advisor.charset), as advisor.wsgi does.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")
django.setup(set_prefix=False)  # what django.core.asgi.get_asgi_application does first

from advisor.charset import CharsetCheckedASGIHandler  # noqa: E402  (needs the apps loaded)

application = CharsetCheckedASGIHandler()
