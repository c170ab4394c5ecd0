"""What every REST API v1 endpoint shares: parsing and content negotiation, the one error shape,
throttling, the OpenAPI document's hand-written parts, the docs page and the catch-all 404.

The endpoints live with their features (`advisor/<feature>/api_views.py`); `advisor/urls.py`
lists them under /api/v1/."""
