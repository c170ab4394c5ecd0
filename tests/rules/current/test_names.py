"""Option names in the server's spelling."""

import pytest

from rules.current import normalise_name


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("innodb_io_capacity", "innodb_io_capacity"),
        ("Innodb-IO-Capacity", "innodb_io_capacity"),
        ("innodb-io_capacity", "innodb_io_capacity"),
        ("  innodb_io_capacity ", "innodb_io_capacity"),
        ("loose-innodb-io-capacity", "innodb_io_capacity"),
        ("loose_innodb_io_capacity", "innodb_io_capacity"),
        ("LOOSE-innodb_io_capacity", "innodb_io_capacity"),
        ("--innodb-io-capacity", "innodb_io_capacity"),
        ("skip-innodb-doublewrite", "skip_innodb_doublewrite"),
    ],
)
def test_it_normalises_names_to_the_servers_spelling(name: str, expected: str) -> None:
    assert normalise_name(name) == expected
