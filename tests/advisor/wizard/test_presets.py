"""The presets are the seed machines (same profiles as the golden files) and a modern NVMe box."""

import pytest

from advisor.recommendations.wizard.presets import PRESETS, PRESETS_BY_SLUG
from rules.inputs.validation import parse_profile
from rules.reference.bibliography import has_source
from tests.advisor.wizard.helpers import golden_profile

GOLDEN = {
    "2-disk-sata": "seed000-2disk-sata",
    "10-disk-insert": "seed001-10disk-insert",
    "6-disk-bbu": "seed002-6disk-bbu",
    "8-disk-raid10": "seed004-8disk-raid10",
    "single-hdd": "single-hdd",
    "nvme-modern": "nvme-modern",
}


def test_the_start_page_offers_the_five_seed_machines_and_an_nvme_server():
    assert [p.slug for p in PRESETS] == list(GOLDEN)


@pytest.mark.parametrize(("slug", "golden"), GOLDEN.items())
def test_a_preset_is_the_reference_machine_of_the_golden_files(slug, golden):
    assert parse_profile(PRESETS_BY_SLUG[slug].profile) == parse_profile(golden_profile(golden))


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.slug)
def test_a_preset_cites_a_known_article(preset):
    assert preset.source is None or has_source(preset.source)
