import pytest

from tests.rules.engine_helpers import result_for

EXPECTED = {"vm.swappiness": "1", "vm.dirty_background_ratio": "3", "vm.dirty_ratio": "15"}


def sysctl_items(**overrides):
    return {o.name: o for o in result_for(**overrides).os if o.name.startswith("vm.")}


def test_it_keeps_swap_and_dirty_cache_low_in_one_sysctl_d_file() -> None:
    items = sysctl_items()
    assert {name: item.value for name, item in items.items()} == EXPECTED
    for name, item in items.items():
        assert item.persist_path == "/etc/sysctl.d/60-innodb-io-advisor.conf"
        assert item.persist == f"{name} = {EXPECTED[name]}"
        assert item.commands[0] == f"sysctl -w {name}={EXPECTED[name]}"
        assert item.reason


@pytest.mark.parametrize(
    ("name", "sources"),
    [
        ("vm.swappiness", {"mariadb-kb-swappiness", "cole-2010-numa-swap-insanity"}),
        ("vm.dirty_background_ratio", {"rhel-6-vm-tuning", "linux-kernel-vm-sysctl"}),
        ("vm.dirty_ratio", {"rhel-6-vm-tuning", "rhel-6-tuned-profiles"}),
    ],
)
def test_each_value_cites_its_source(name, sources) -> None:
    assert sources <= {e.source for e in sysctl_items()[name].evidence}


def test_it_says_the_settings_are_host_wide() -> None:
    assert all("host-wide" in item.explanation for item in sysctl_items().values())
