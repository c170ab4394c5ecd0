import pytest

from rules.inputs.examples import flash, hdd
from tests.rules.engine_helpers import value_for


@pytest.mark.parametrize(
    ("storage", "expected"),
    [
        (hdd(1, "none"), 1),
        (hdd(8, "raid10", cache="write_back_bbu"), 1),
        (flash("sata_ssd"), 0),
        (flash("nvme", 2, "raid1"), 0),
    ],
)
def test_it_flushes_neighbours_only_on_spinning_disks(storage, expected) -> None:
    assert value_for("innodb_flush_neighbors", **storage) == expected
