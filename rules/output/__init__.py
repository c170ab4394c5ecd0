"""The result every face renders, and its JSON."""
