import pytest

from tests.rules.engine_helpers import result_for
from tests.rules.profiles import flash, hdd


def scheduler_for(**overrides):
    (item,) = [o for o in result_for(**overrides).os if o.name == "io_scheduler"]
    return item


@pytest.mark.parametrize(
    ("storage", "kernel", "expected"),
    [
        (hdd(1, "none"), "5.15", "mq-deadline"),
        (hdd(1, "none"), "4.18.0-513.el8", "deadline"),
        (hdd(8, "raid10", cache="write_back_bbu"), "6.1", "none"),
        (hdd(8, "raid10", cache="write_back_bbu"), "3.10", "noop"),
        (flash("sata_ssd"), "5.4", "none"),
        (flash("sata_ssd"), "4.9", "noop"),
        (flash("nvme"), "6.8", "none"),
        (flash("nvme"), "4.18", "none"),
        (hdd(2, "raid0"), None, "mq-deadline"),
    ],
)
def test_it_picks_the_scheduler_by_device_class_and_kernel(storage, kernel, expected) -> None:
    assert scheduler_for(**storage, **{"hardware.kernel": kernel}).value == expected


def test_it_never_recommends_cfq() -> None:
    for storage in (hdd(1, "none"), hdd(6, "raid10", cache="write_back_bbu"), flash("sata_ssd")):
        for kernel in ("3.10", "5.15"):
            assert scheduler_for(**storage, **{"hardware.kernel": kernel}).value != "cfq"


def test_it_gives_a_command_for_now_and_a_udev_rule_for_reboots() -> None:
    item = scheduler_for(**hdd(1, "none"), **{"hardware.kernel": "5.15"})
    assert 'echo mq-deadline > "$d/queue/scheduler"' in item.commands[0]
    assert 'ATTR{queue/rotational}=="1"' in item.persist
    assert item.persist.endswith('ATTR{queue/scheduler}="mq-deadline"')
    assert item.persist_path.endswith(".rules")


def test_it_says_when_it_assumed_a_modern_kernel() -> None:
    item = scheduler_for(**hdd(1, "none"), **{"hardware.kernel": None})
    assert "assumed" in item.explanation


def test_it_cites_the_scheduler_benchmarks() -> None:
    item = scheduler_for(**hdd(8, "raid10", cache="write_back_bbu"))
    assert {"percona-2009-schedulers", "percona-2008-xtradb-iobound"} <= {
        e.source for e in item.evidence
    }
