"""The calibration page: the data, the fit and its honesty, server-rendered."""
