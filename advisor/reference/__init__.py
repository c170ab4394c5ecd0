"""What the advisor knows, published on the REST API: the variable catalog, the rules, the
bibliography."""
