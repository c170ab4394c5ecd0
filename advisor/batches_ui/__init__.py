"""The batch page: upload a fleet (CSV or JSON), watch its progress, download its archive."""
