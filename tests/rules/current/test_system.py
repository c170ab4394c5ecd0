"""The os object: scheduler, read-ahead and swappiness."""

import pytest

from rules.current import parse_current
from tests.rules.current.fixtures import error_of


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"io_scheduler": "cfq"}, {"io_scheduler": "cfq"}),
        ({"io_scheduler": " MQ-Deadline\n"}, {"io_scheduler": "mq-deadline"}),
        ({"io_scheduler": "[mq-deadline] none bfq"}, {"io_scheduler": "mq-deadline"}),
        ({"io_scheduler": "noop deadline [cfq]"}, {"io_scheduler": "cfq"}),
        ({"io_scheduler": "[none] mq-deadline kyber bfq"}, {"io_scheduler": "none"}),
        ({"read_ahead_kb": "128", "swappiness": "1"}, {"read_ahead_kb": "128", "swappiness": "1"}),
        ({"read_ahead_kb": 4096, "swappiness": 60}, {"read_ahead_kb": "4096", "swappiness": "60"}),
        ({}, {}),
        (None, {}),
    ],
)
def test_it_reads_os_settings_with_any_form(given: object, expected: dict[str, str]) -> None:
    assert parse_current({"variables": {"innodb_io_capacity": 200}, "os": given}).os == expected
    assert parse_current({"mycnf": "innodb_io_capacity=200", "os": given}).os == expected
    assert parse_current({"show_variables": "innodb_io_capacity\t200", "os": given}).os == expected


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("cfq", "must be an object"),
        (["cfq"], "must be an object"),
        ({"scheduler": "cfq"}, "allowed: io_scheduler, read_ahead_kb, swappiness"),
        ({"io_scheduler": 1}, "io_scheduler must be text"),
        ({"io_scheduler": ""}, "io_scheduler must be one scheduler name"),
        ({"io_scheduler": "none mq-deadline"}, "io_scheduler must be one scheduler name"),
        ({"io_scheduler": "echo cfq > /sys/block/sda/queue/scheduler"}, "one scheduler name"),
        ({"read_ahead_kb": "-1"}, "read_ahead_kb must be a whole number"),
        ({"read_ahead_kb": "128k"}, "read_ahead_kb must be a whole number"),
        ({"read_ahead_kb": True}, "read_ahead_kb must be a whole number"),
        ({"swappiness": 201}, "swappiness must be a whole number from 0 to 200"),
        ({"swappiness": 1.5}, "swappiness must be a whole number"),
    ],
)
def test_it_rejects_bad_os_settings(given: object, message: str) -> None:
    problem = error_of({"mycnf": "innodb_io_capacity=200", "os": given})
    assert problem.field == "os"
    assert message in str(problem)
