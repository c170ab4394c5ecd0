"""API views, one module per resource; each is a `<Noun><Verb>Api` DRF view."""
