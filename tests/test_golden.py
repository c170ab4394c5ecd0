"""The engine's my.cnf for each reference machine equals its committed golden file, byte for byte.

When a change to the rules or the renderer is deliberate: `make golden`, then review the diff of
tests/golden/ and commit it with the change.
"""

from pathlib import Path

import pytest

from scripts.make_golden import (
    DEPLOY_DIR,
    PROFILES_DIR,
    golden_deploy,
    golden_files,
    golden_mycnf,
    golden_path,
    profile_paths,
)

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


@pytest.mark.parametrize("profile_path", profile_paths(), ids=lambda p: p.stem)
def test_each_deploy_export_matches_its_golden_file(profile_path: Path) -> None:
    hint = "run `make golden` and review the diff (git diff tests/golden/deploy)"
    files = golden_deploy(profile_path)
    assert len(files) == 9
    for target, text in files.items():
        assert target.exists(), f"{target} is missing: {hint}"
        assert target.read_bytes().decode("utf-8") == text, f"{target.name} changed: {hint}"


def test_no_golden_deploy_file_is_stale() -> None:
    assert set(DEPLOY_DIR.iterdir()) == {p for p in golden_files() if p.parent == DEPLOY_DIR}
