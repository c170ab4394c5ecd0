import pytest

from tests.rules.engine_helpers import result_for


def mount_for(**overrides):
    (item,) = [o for o in result_for(**overrides).os if o.name == "mount_options"]
    return item


@pytest.mark.parametrize(
    ("filesystem", "source"),
    [("xfs", "linux-kernel-xfs"), ("ext4", "linux-kernel-ext4"), (None, "linux-kernel-xfs")],
)
def test_it_asks_for_noatime_and_never_nobarrier(filesystem, source) -> None:
    item = mount_for(**{"hardware.filesystem": filesystem})
    assert item.value == "noatime"
    assert item.persist_path == "/etc/fstab"
    assert all(line.startswith("#") for line in item.persist.splitlines())  # a comment block
    assert "defaults,noatime" in item.persist
    assert "Never add nobarrier" in item.persist
    assert "Never add nobarrier" in item.explanation
    assert {"mysql-manual-disk-io", source} <= {e.source for e in item.evidence}


def test_no_suggested_option_disables_barriers() -> None:
    for filesystem in ("xfs", "ext4", "other", None):
        item = mount_for(**{"hardware.filesystem": filesystem})
        suggested = [line for line in item.persist.splitlines() if "defaults," in line]
        assert suggested
        assert not any("barrier" in line for line in suggested + list(item.commands))


def test_xfs_says_the_option_is_gone_since_4_19() -> None:
    assert "Linux 4.19" in mount_for(**{"hardware.filesystem": "xfs"}).explanation
