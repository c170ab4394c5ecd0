"""The profile a client sends: its declaration, its validation and its vocabularies."""
