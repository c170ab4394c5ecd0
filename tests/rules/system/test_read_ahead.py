from rules.inputs.examples import flash, hdd, profile
from rules.machine.storage import array_capability
from rules.reference.catalog import catalog_for
from rules.rule import Context
from rules.system import read_ahead
from tests.rules.engine_helpers import result_for


def read_ahead_for(**overrides):
    (item,) = [o for o in result_for(**overrides).os if o.name == "read_ahead_kb"]
    return item


def test_it_keeps_128_kib_on_the_data_devices_in_the_udev_file() -> None:
    item = read_ahead_for(**hdd(8, "raid10"))
    assert item.value == "128"
    assert item.persist_path == "/etc/udev/rules.d/60-innodb-io-advisor.rules"
    media = item.persist.splitlines()[0]
    assert media.endswith('ATTR{queue/rotational}=="1", ATTR{queue/read_ahead_kb}="128"')
    assert 'echo 128 > "$d/queue/read_ahead_kb"' in item.commands[0]


def test_nvme_namespaces_get_their_own_match() -> None:
    item = read_ahead_for(**flash("nvme"))
    assert 'KERNEL=="nvme[0-9]*n[0-9]*"' in item.persist
    assert item.devices == "NVMe namespaces, md arrays and device-mapper (LVM) volumes"


def test_it_says_o_direct_reads_skip_it_and_why_nr_requests_is_left_alone() -> None:
    item = read_ahead_for()
    assert item.rule == "read-ahead-kb-data-devices"
    assert "O_DIRECT" in item.reason
    assert "never use it" in item.explanation
    assert "nr_requests stays at the kernel's default" in item.explanation
    assert {"percona-2013-io-optimization", "ibm-readahead-oltp", "linux-kernel-queue-sysfs"} <= {
        e.source for e in item.evidence
    }


def test_buffered_data_files_get_the_small_value_for_random_reads() -> None:
    base = profile()
    ctx = Context(
        base,
        catalog_for(base.server.flavor, base.server.version),
        array_capability(base.hardware.storage),
        decided={"innodb_flush_method": "fsync"},
    )
    (proposal,) = read_ahead.compute(ctx)
    assert (proposal.case, proposal.value) == ("buffered", "128")


def test_md_and_lvm_devices_that_carry_the_file_system_get_the_value_too() -> None:
    """The file system reads ahead by the device it is mounted on: on md RAID or LVM that is
    the md or dm device, whose own read_ahead_kb the members' value does not change."""
    item = read_ahead_for(**hdd(8, "raid10"))
    stacked = 'KERNEL=="md[0-9]*|dm-[0-9]*", ENV{DEVTYPE}=="disk", ATTR{queue/read_ahead_kb}="128"'
    assert stacked in item.persist.splitlines()[1]
    assert item.persist.splitlines()[0].endswith('ATTR{queue/read_ahead_kb}="128"')
    assert any("/sys/block/md* /sys/block/dm-*" in command for command in item.commands)
    assert "md arrays and device-mapper (LVM) volumes" in item.devices
    assert "every md array and device-mapper volume (LVM among them)" in item.explanation
