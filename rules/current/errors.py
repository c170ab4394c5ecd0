"""The one exception that reading `current` raises, whatever the input."""


class CurrentParseError(ValueError):
    """`current` cannot be read; `field` is the key under `current` at fault."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message

    def __reduce__(self) -> tuple[type["CurrentParseError"], tuple[str, str]]:
        return type(self), (self.field, self.message)
