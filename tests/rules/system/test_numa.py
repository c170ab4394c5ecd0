import pytest

from rules.inputs.errors import ProfileError
from rules.inputs.examples import profile
from tests.rules.engine_helpers import result_for


def numa_items(**overrides):
    return [o for o in result_for(**overrides).os if o.name == "numa_policy"]


@pytest.mark.parametrize(
    ("flavor", "version", "service"),
    [("mysql", "8.0.36", "mysqld.service"), ("mariadb", "10.11", "mariadb.service")],
)
def test_a_two_node_host_interleaves_the_server_with_a_systemd_drop_in(
    flavor, version, service
) -> None:
    overrides = {"server.flavor": flavor, "server.version": version, "hardware.numa_nodes": 2}
    (item,) = numa_items(**overrides)
    assert item.value == "interleave"
    assert item.persist == "[Service]\nNUMAPolicy=interleave\nNUMAMask=0-1"
    assert item.persist_path == (f"/etc/systemd/system/{service}.d/60-innodb-io-advisor-numa.conf")
    assert any(f"systemctl restart {service}" in command for command in item.commands)
    assert {"cole-2010-numa-swap-insanity", "rhel-8-systemd-numa"} <= {
        e.source for e in item.evidence
    }


def test_mysql_also_hears_of_innodb_numa_interleave() -> None:
    (item,) = numa_items(**{"hardware.numa_nodes": 4})
    assert "NUMAMask=0-3" in item.persist
    assert "innodb_numa_interleave=ON" in item.explanation


def test_a_single_node_host_gets_no_numa_item() -> None:
    assert numa_items(**{"hardware.numa_nodes": 1}) == []


def test_an_unknown_node_count_gets_a_check_and_no_file() -> None:
    (item,) = numa_items(**{"hardware.numa_nodes": None})
    assert (item.value, item.persist, item.persist_path) == ("check", "", "")
    assert item.commands[0] == "lscpu | grep -i '^NUMA node(s)'"
    assert "hardware.numa_nodes" in item.explanation


@pytest.mark.parametrize("nodes", [0, 65, 1.5, "2"])
def test_the_node_count_is_a_whole_number_from_1_to_64(nodes) -> None:
    with pytest.raises(ProfileError) as raised:
        profile(**{"hardware.numa_nodes": nodes})
    assert "hardware.numa_nodes" in raised.value.errors
