import pytest

from tests.rules.engine_helpers import result_for


def thp_for(**overrides):
    (item,) = [o for o in result_for(**overrides).os if o.name == "transparent_hugepage"]
    return item


@pytest.mark.parametrize("flavor", ["mysql", "percona"])
def test_it_turns_transparent_huge_pages_off_at_every_boot(flavor) -> None:
    item = thp_for(**{"server.flavor": flavor})
    assert item.value == "never"
    assert item.persist_path == "/etc/tmpfiles.d/60-innodb-io-advisor-thp.conf"
    assert item.persist.splitlines() == [
        "w /sys/kernel/mm/transparent_hugepage/enabled - - - - never",
        "w /sys/kernel/mm/transparent_hugepage/defrag - - - - never",
    ]
    assert "echo never > /sys/kernel/mm/transparent_hugepage/enabled" in item.commands
    assert "MySQL's manual says nothing" in item.explanation


def test_on_mariadb_it_says_the_server_already_disables_it_itself() -> None:
    item = thp_for(**{"server.flavor": "mariadb", "server.version": "10.11"})
    assert "10.6.17" in item.explanation
    assert {"mariadb-mdev-33279", "mariadb-kb-memory-profiling"} <= {
        e.source for e in item.evidence
    }


def test_it_warns_that_tuned_can_turn_it_back_on() -> None:
    assert "transparent_hugepages=never" in thp_for().explanation
