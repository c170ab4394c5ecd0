"""The browser wizard: steps, result page, what-if comparison, sources page."""
