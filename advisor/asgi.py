"""ASGI entry point, for an ASGI server such as uvicorn (not used by the default deployment)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")

application = get_asgi_application()
