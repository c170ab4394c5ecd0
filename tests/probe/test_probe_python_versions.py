"""The probe is for whatever python3 a database host has: 3.8 and later, standard library only."""

import ast
import subprocess
import sys
from pathlib import Path

from tests.probe.run import PROBE, SYSTEM_PYTHON, run_probe

VERMIN = Path(sys.executable).with_name("vermin")


def test_vermin_finds_nothing_newer_than_python_3_8() -> None:
    proc = subprocess.run(
        [
            str(VERMIN),
            "--target=3.8-",
            "--violations",
            "--no-tips",
            "--eval-annotations",
            str(PROBE),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_it_imports_only_the_standard_library() -> None:
    tree = ast.parse(PROBE.read_text(encoding="utf-8"))
    names = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    names |= {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert names <= set(sys.stdlib_module_names) | {"__future__"}, names - set(
        sys.stdlib_module_names
    )


def test_debians_python3_runs_it() -> None:
    run = run_probe("--version", python=SYSTEM_PYTHON)
    assert run.code == 0
    assert run.stdout.startswith("advisor-probe ")
