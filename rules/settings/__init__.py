"""One module per recommended setting: a rule record and its small pure compute function."""
