"""Reference tables the rules read: the variable catalog, the bibliography, lifecycles."""
