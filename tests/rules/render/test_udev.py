import dataclasses

from rules.render.udev import NOTHING_TO_PERSIST, NR_REQUESTS_NOTE, render_udev
from tests.rules.render.fixtures import (
    UDEV_READ_AHEAD,
    UDEV_SCHEDULER,
    mariadb_result,
    mysql80_result,
    refused_result,
)


def test_it_tells_how_to_install_the_file() -> None:
    text = render_udev(mysql80_result(), base_url="https://advisor.example")
    assert text.startswith("# InnoDB IO Advisor: udev rules for the IO scheduler and read-ahead\n")
    assert "/etc/udev/rules.d/60-innodb-io-advisor.rules" in text
    assert "#   udevadm control --reload && udevadm trigger --subsystem-match=block\n" in text
    assert "# Permalink: https://advisor.example/r/7f3c0a1b2c3d4e5f/\n" in text


def test_each_rule_follows_a_comment_naming_it() -> None:
    text = render_udev(mysql80_result())
    assert text.endswith(
        "\n# io_scheduler: mq-deadline (data devices (rotational))\n"
        f"{UDEV_SCHEDULER}\n"
        "\n# read_ahead_kb: 128 (data devices (rotational))\n"
        f"{UDEV_READ_AHEAD}\n"
        f"\n# {NR_REQUESTS_NOTE}\n"
    )


def test_items_persisted_elsewhere_are_left_out() -> None:
    assert "swappiness" not in render_udev(mysql80_result())


def test_it_says_so_when_there_is_no_rule() -> None:
    text = render_udev(mariadb_result())
    assert text.endswith(f"\n# {NOTHING_TO_PERSIST}\n")
    assert all(line.startswith("#") or not line for line in text.splitlines())


def test_os_advice_is_written_even_when_server_output_is_refused() -> None:
    result = dataclasses.replace(refused_result(), os=mysql80_result().os)
    assert UDEV_SCHEDULER in render_udev(result)


def test_it_is_byte_identical_for_identical_input() -> None:
    assert render_udev(mysql80_result()) == render_udev(mysql80_result())
