import pytest

from rules.inputs.examples import flash, hdd
from tests.rules.engine_helpers import setting_for, value_for


@pytest.mark.parametrize(
    ("storage", "kind", "expected"),
    [
        (hdd(1, "none"), "oltp", 56),  # seed 004: for a single HDD read-ahead may be useful
        (hdd(8, "raid10"), "oltp", 64),  # seed 004: ~15% gain with read-ahead off on RAID10
        (hdd(10, "raid0"), "read_write", 64),
        (flash("nvme"), "read_mostly", 64),
        (flash("sata_ssd"), "update_heavy", 64),
        (hdd(10, "raid0"), "bulk_insert", 56),  # Callaghan: inserts -4%..+3% without prefetch
    ],
)
def test_it_keeps_read_ahead_only_where_it_pays(storage, kind, expected) -> None:
    assert (
        value_for("innodb_read_ahead_threshold", **storage, **{"workload.kind": kind}) == expected
    )


def test_it_keeps_read_ahead_on_a_single_hdd_and_cites_seed_004() -> None:
    setting = setting_for("innodb_read_ahead_threshold", **hdd(1, "none"))
    assert "percona-2009-readahead" in {e.source for e in setting.evidence}


@pytest.mark.parametrize("storage", [hdd(1, "none"), flash("nvme")])
def test_it_keeps_random_read_ahead_off(storage) -> None:
    assert value_for("innodb_random_read_ahead", **storage) == "OFF"
