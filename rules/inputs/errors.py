"""Input errors that name the field and what it accepts."""

from collections.abc import Mapping


class ProfileError(ValueError):
    """One or more field errors, keyed by the field's dotted path in the profile."""

    def __init__(self, errors: Mapping[str, list[str]]) -> None:
        self.errors: dict[str, list[str]] = {path: list(msgs) for path, msgs in errors.items()}
        count = sum(len(m) for m in self.errors.values())
        super().__init__(f"{count} problem(s) in the profile: " + "; ".join(self.lines()))

    def lines(self) -> list[str]:
        return [
            f"{path}: {message}" for path, messages in self.errors.items() for message in messages
        ]


class OutputRefused(ValueError):
    """The profile is valid but this export cannot be written for it (e.g. an old version).
    `field`: the input that would change that, for the API's field errors."""

    def __init__(self, message: str, *, field: str = "server.version") -> None:
        super().__init__(message)
        self.field = field


class NothingToRevert(ValueError):
    """A revert was asked of a result computed without the current configuration."""


class OutdatedProfile(ValueError):
    """A stored result's inputs no longer pass today's validation (an earlier version computed
    it): its stored values can be shown, but nothing that needs the profile can be redone.
    `inputs`: the stored echo; `problems`: what validation says of it today."""

    def __init__(self, inputs: Mapping[str, object], problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.inputs = dict(inputs)
        self.problems = tuple(problems)
