"""Every shipped source belongs to a lab, assigned by the author and address the bibliography
gives it (calibration.labs)."""

import pytest

from calibration.labs import LABS, lab_of, labs_of
from calibration.points import load_points, used_points
from rules.reference.bibliography import source as bibliography_entry

SHIPPED = sorted({p.source for p in used_points(load_points())})
# What the bibliography's entry of a lab's source shows: its author, or (Percona) its address
SIGNS = {
    "Callaghan": "Mark Callaghan",
    "Percona": "percona",
    "Schwenke": "Axel Schwenke",
    "Mäkelä": "Marko Mäkelä",
    "Dutta": "Partha Dutta",
    "InnoDB IO Advisor lab": "InnoDB IO Advisor lab",
}


@pytest.mark.parametrize("source", SHIPPED)
def test_every_shipped_source_has_a_lab_listed(source) -> None:
    assert lab_of(source) in LABS


@pytest.mark.parametrize("lab", sorted(LABS))
def test_each_labs_sources_are_its_authors_in_the_bibliography(lab) -> None:
    for source in LABS[lab]:
        entry = bibliography_entry(source)
        assert SIGNS[lab].lower() in f"{entry.author} {entry.published}".lower(), source


def test_a_source_listed_nowhere_is_its_own_lab() -> None:
    assert lab_of("submission-17") == "submission-17"
    assert labs_of(["callaghan-2009-2disk", "submission-17"]) == ("Callaghan", "submission-17")


def test_no_source_is_in_two_labs() -> None:
    listed = [source for sources in LABS.values() for source in sources]
    assert len(listed) == len(set(listed))
