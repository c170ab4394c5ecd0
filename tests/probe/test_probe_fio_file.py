"""`sudo advisor-probe --fio` makes its test file in the datadir, which another user (mysql) owns
and may write: that user can put a symlink where the file was, and root must never write
through it. The swap is made deterministic by a stand-in `fio` on PATH that, as the datadir's
owner could at any moment, replaces the test file's name with a symlink to a file of root's and
then runs the real fio with the same arguments. These tests run as root, as the probe is run."""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.probe.run import load_probe, run_probe

OWNER = 65534  # nobody: the datadir's owner here, as mysql is on a database host
PROBE_MODULE = load_probe()
SWAPPING_FIO = """#!/usr/bin/python3
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "plan.json")) as handle:
    plan = json.load(handle)
for name in os.listdir(plan["datadir"]):
    path = os.path.join(plan["datadir"], name)
    ours = name.startswith(".advisor-probe-fio-") and not name.endswith(".moved")
    if ours and not os.path.islink(path):
        os.rename(path, path + ".moved")
        os.symlink(plan["victim"], path)
note = {"argv": sys.argv, "uid": os.getuid()}
with open(os.path.join(plan["notes"], str(os.getpid())), "w") as handle:
    json.dump(note, handle)
os.execv(plan["fio"], [plan["fio"], *sys.argv[1:]])
"""


@pytest.fixture
def scene() -> Iterator[Path]:
    """A directory every user may enter (pytest's tmp_path is root's alone), removed after."""
    if os.geteuid() != 0:
        pytest.fail("these tests reproduce `sudo advisor-probe --fio`: run them as root")
    place = Path(tempfile.mkdtemp(prefix="probe-fio-", dir="/tmp"))
    place.chmod(0o755)
    yield place
    shutil.rmtree(place)


def _swapping_fio(scene: Path, datadir: Path, victim: Path) -> tuple[Path, Path]:
    """(a bin directory holding the swapping stand-in, the directory of its notes)."""
    real_fio = shutil.which("fio")
    if real_fio is None:
        pytest.fail("fio is not installed; `apt-get install fio`")
    tools, notes = scene / "bin", scene / "notes"
    tools.mkdir(mode=0o755)
    notes.mkdir(mode=0o777)
    notes.chmod(0o777)  # written by the stand-in as whichever user the probe runs it as
    plan = {"datadir": str(datadir), "victim": str(victim), "notes": str(notes), "fio": real_fio}
    (tools / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    stand_in = tools / "fio"
    stand_in.write_text(SWAPPING_FIO, encoding="utf-8")
    stand_in.chmod(0o755)
    return tools, notes


def _fio(datadir: Path, tools: str = "/usr/bin:/bin") -> dict:
    run = run_probe(
        "--fio",
        "--fio-seconds",
        "4",
        "--fio-size",
        "16M",
        "--datadir",
        str(datadir),
        "--variables-file",
        "/dev/null",  # no server here: these tests are about the file
        "--quiet",
        path=tools,
    )
    run.no_traceback()
    return run.profile


def test_a_test_file_swapped_for_a_symlink_is_not_written_through(scene: Path) -> None:
    datadir = scene / "data"
    datadir.mkdir(mode=0o750)
    os.chown(datadir, OWNER, OWNER)
    victim = scene / "root-only"
    secret = os.urandom(1024 * 1024)
    victim.write_bytes(secret)
    victim.chmod(0o600)
    tools, notes = _swapping_fio(scene, datadir, victim)

    profile = _fio(datadir, f"{tools}:/usr/bin:/bin")

    assert victim.read_bytes() == secret
    assert profile["hardware"]["storage"]["measured_iops"]["random_write"] >= 1
    runs = [json.loads(note.read_text(encoding="utf-8")) for note in notes.iterdir()]
    assert len(runs) == 2  # reads, then writes
    for ran in runs:
        assert ran["uid"] == OWNER  # fio ran as the datadir's owner, not as root
        assert any(arg.startswith("--filename=/proc/self/fd/") for arg in ran["argv"]), ran
    moved = [path for path in datadir.iterdir() if path.name.endswith(".moved")]
    assert [path.stat().st_size for path in moved] == [0]  # emptied through its descriptor
    assert all(path.is_symlink() for path in datadir.iterdir() if path not in moved)


def test_a_root_directory_others_may_write_is_refused(scene: Path) -> None:
    shared = scene / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # no sticky bit: anyone may rename anyone's file

    profile = _fio(shared)

    assert "measured_iops" not in profile["hardware"].get("storage", {})
    refusal = next(line for line in profile["undetected"] if "measured_iops" in line)
    assert "fio refused" in refusal
    assert "mode 777" in refusal
    assert list(shared.iterdir()) == []


def test_root_becomes_the_owner_of_the_directory_and_keeps_its_own_otherwise(
    scene: Path,
) -> None:
    p = PROBE_MODULE
    owned = scene / "owned"
    owned.mkdir()
    os.chown(owned, OWNER, OWNER)
    sticky = scene / "sticky"
    sticky.mkdir()
    sticky.chmod(0o1777)

    assert p.fio_user(owned.stat(), 0, str(owned)) == (OWNER, OWNER)
    assert p.fio_user(sticky.stat(), 0, str(sticky)) is None
    assert p.fio_user(scene.stat(), 0, str(scene)) is None  # root's, 0755
    assert p.fio_user(owned.stat(), OWNER, str(owned)) is None  # not root: nothing to drop


def test_a_directory_reached_through_a_symlink_is_not_opened(scene: Path) -> None:
    p = PROBE_MODULE
    real = scene / "real"
    (real / "data").mkdir(parents=True)
    (scene / "link").symlink_to(real)

    handle = p.open_directory(str(real / "data"))
    os.close(handle)
    for through in (scene / "link", scene / "link" / "data"):
        with pytest.raises(NotADirectoryError):  # O_DIRECTORY|O_NOFOLLOW on a symlink
            p.open_directory(str(through))


def test_the_test_file_is_made_new_and_plain_and_removed_through_descriptors(
    scene: Path,
) -> None:
    p = PROBE_MODULE
    directory = p.open_directory(str(scene))
    try:
        handle, name = p.create_test_file(directory, str(scene))
        made = os.fstat(handle)
        assert stat.S_ISREG(made.st_mode)
        assert stat.S_IMODE(made.st_mode) == 0o600
        assert (scene / name).exists()
        p.discard_test_file(directory, name, handle)
        assert not (scene / name).exists()
    finally:
        os.close(directory)
