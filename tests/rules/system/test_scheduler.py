import re

import pytest

from rules.inputs.examples import flash, hdd
from tests.rules.engine_helpers import result_for

MQ = {"none", "mq-deadline", "bfq", "kyber"}
LEGACY = {"noop", "deadline", "cfq"}
# What /sys/block/sdX/queue/scheduler lists on these kernels (sd* disks), as the kernel and
# distribution documentation give it; written out here rather than taken from the rule.
SD_SCHEDULERS = {
    "2.6.32-754.el6": LEGACY,
    "3.10.0-1160.el7": LEGACY,
    "4.9": LEGACY,
    "4.14.0-1-amd64": LEGACY,
    "4.18.0-10-generic": LEGACY,  # Ubuntu 18.10: upstream 4.18, SCSI still single-queue
    "4.18": MQ,  # read as RHEL 8 (the only 4.18 still maintained)
    "4.18.0-513.el8": MQ,
    "4.18.0-553.el8_10.x86_64": MQ,
    "4.19": MQ,
    "4.19.0-27-amd64": MQ,
    "5.4": MQ,
    "5.15": MQ,
    "6.8": MQ,
}
STORAGES = {
    "plain disk": hdd(1, "none"),
    "disks behind a BBU": hdd(8, "raid10", cache="write_back_bbu"),
    "SATA flash": flash("sata_ssd"),
    "NVMe": flash("nvme"),
}
_WRITTEN = re.compile(r'ATTR\{queue/scheduler\}="([^"]+)"')
_GUARD = re.compile(r'ATTR\{queue/scheduler\}=="\*([^*"]+)\*"')


def scheduler_for(**overrides):
    (item,) = [o for o in result_for(**overrides).os if o.name == "io_scheduler"]
    return item


@pytest.mark.parametrize(
    ("storage", "kernel", "expected"),
    [
        (hdd(1, "none"), "5.15", "mq-deadline"),
        (hdd(1, "none"), "4.18.0-513.el8", "mq-deadline"),
        (hdd(1, "none"), "4.14", "deadline"),
        (hdd(1, "none"), "3.10.0-1160.el7", "deadline"),
        (hdd(8, "raid10", cache="write_back_bbu"), "6.1", "none"),
        (hdd(8, "raid10", cache="write_back_bbu"), "4.18", "none"),
        (hdd(8, "raid10", cache="write_back_bbu"), "3.10", "noop"),
        (flash("sata_ssd"), "5.4", "none"),
        (flash("sata_ssd"), "4.19", "none"),
        (flash("sata_ssd"), "4.9", "noop"),
        (flash("nvme"), "6.8", "none"),
        (flash("nvme"), "4.18", "none"),
        (flash("nvme"), "3.10", "none"),
        (hdd(2, "raid0"), None, "mq-deadline"),
    ],
)
def test_it_picks_the_scheduler_by_device_class_and_kernel(storage, kernel, expected) -> None:
    assert scheduler_for(**storage, **{"hardware.kernel": kernel}).value == expected


@pytest.mark.parametrize("kernel", sorted(SD_SCHEDULERS))
@pytest.mark.parametrize("storage", sorted(STORAGES))
def test_no_udev_rule_names_a_scheduler_the_target_kernel_lacks(storage, kernel) -> None:
    item = scheduler_for(**STORAGES[storage], **{"hardware.kernel": kernel})
    offered = {"none"} if storage == "NVMe" else SD_SCHEDULERS[kernel]  # NVMe is always blk-mq
    written = _WRITTEN.findall(item.persist)
    assert written == [item.value]
    assert set(written) <= offered
    assert not _GUARD.findall(item.persist)


@pytest.mark.parametrize("storage", sorted(STORAGES))
def test_with_no_kernel_each_rule_applies_only_where_the_device_lists_its_name(storage) -> None:
    item = scheduler_for(**STORAGES[storage], **{"hardware.kernel": None})
    lines = item.persist.splitlines()
    if storage == "NVMe":
        assert lines == [line for line in lines if "none" in line]
        assert len(lines) == 1
        return
    by_marker = {_GUARD.search(line).group(1): _WRITTEN.search(line).group(1) for line in lines}
    assert set(by_marker) == {"none", "noop"}  # "none" only on blk-mq, "noop" only on legacy
    assert by_marker["none"] in MQ
    assert by_marker["noop"] in LEGACY
    assert lines[0].endswith(f'="{item.value}"')
    assert item.value in MQ


def test_with_no_kernel_the_command_writes_the_name_the_device_lists() -> None:
    item = scheduler_for(**hdd(1, "none"), **{"hardware.kernel": None})
    assert (
        'grep -qw none "$d/queue/scheduler" && echo mq-deadline || echo deadline'
        in (item.commands[0])
    )


def test_it_never_recommends_cfq() -> None:
    for storage in STORAGES.values():
        for kernel in ("3.10", "5.15", None):
            item = scheduler_for(**storage, **{"hardware.kernel": kernel})
            assert "cfq" not in item.persist


def test_it_gives_a_command_for_now_and_a_udev_rule_for_reboots() -> None:
    item = scheduler_for(**hdd(1, "none"), **{"hardware.kernel": "5.15"})
    assert 'echo mq-deadline > "$d/queue/scheduler"' in item.commands[0]
    assert 'ATTR{queue/rotational}=="1"' in item.persist
    assert item.persist.endswith('ATTR{queue/scheduler}="mq-deadline"')
    assert item.persist_path.endswith(".rules")


def test_it_says_when_it_assumed_a_modern_kernel() -> None:
    item = scheduler_for(**hdd(1, "none"), **{"hardware.kernel": None})
    assert "no kernel was given" in item.explanation
    assert "legacy name" in item.explanation


def test_it_says_it_read_a_bare_4_18_as_rhel_8() -> None:
    item = scheduler_for(**hdd(1, "none"), **{"hardware.kernel": "4.18"})
    assert "RHEL 8" in item.explanation


def test_it_cites_the_scheduler_benchmarks_and_the_kernel_cutoff() -> None:
    item = scheduler_for(**hdd(8, "raid10", cache="write_back_bbu"))
    assert {
        "percona-2009-schedulers",
        "percona-2008-xtradb-iobound",
        "linux-scsi-mq-default",
        "rhel-8-disk-scheduler",
    } <= {e.source for e in item.evidence}
