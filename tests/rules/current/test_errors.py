"""The error reading `current` raises."""

import pickle

from rules.current import CurrentParseError


def test_the_error_names_its_field_and_survives_pickling() -> None:
    problem = CurrentParseError("mycnf", "must be text")
    copy = pickle.loads(pickle.dumps(problem))
    assert (copy.field, str(copy)) == ("mycnf", "must be text")
    assert isinstance(copy, ValueError)
