"""The engine's my.cnf for each reference machine equals its committed golden file, byte for byte.

When a change to the rules or the renderer is deliberate: `make golden`, then review the diff of
tests/golden/ and commit it with the change.
"""

from pathlib import Path

import pytest

from scripts.make_golden import PROFILES_DIR, golden_mycnf, golden_path, profile_paths

REFERENCE_MACHINES = {
    "seed000-2disk-sata",
    "seed001-10disk-insert",
    "seed002-6disk-bbu",
    "seed004-8disk-raid10",
    "single-hdd",
    "nvme-modern",
    "ebs-gp3",
    "container-memory-limit",
}


def test_every_reference_machine_has_a_profile() -> None:
    assert {p.stem for p in profile_paths()} >= REFERENCE_MACHINES, PROFILES_DIR


@pytest.mark.parametrize("profile_path", profile_paths(), ids=lambda p: p.stem)
def test_the_my_cnf_matches_its_golden_file(profile_path: Path) -> None:
    target = golden_path(profile_path)
    hint = f"run `make golden` and review the diff of {target.name} (git diff tests/golden)"
    assert target.exists(), f"{target} is missing: {hint}"
    expected = target.read_bytes().decode("utf-8")
    actual = golden_mycnf(profile_path)
    assert actual == expected, f"the my.cnf for {profile_path.stem} changed: {hint}"
