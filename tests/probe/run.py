"""Run the real advisor-probe file as a DBA would: a separate python3 process, its JSON on
stdout, its messages on stderr. No part of it is imported or replaced. (`load_probe` loads the
same file by path, for the tests of its readers and primitives: the probe is a script, not a
package.)"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

PROBE = Path(__file__).resolve().parents[2] / "probe" / "advisor_probe.py"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's python3, what a database host has
NOBODY = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]


@dataclass(frozen=True)
class ProbeRun:
    code: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def profile(self) -> dict[str, Any]:
        return json.loads(self.stdout)

    def no_traceback(self) -> None:
        assert "Traceback" not in self.stderr, self.stderr
        assert "Traceback" not in self.stdout


def run_probe(
    *args: str,
    python: str = sys.executable,
    path: str | None = None,
    prefix: list[str] | None = None,
    timeout: float = 120,
    probe_path: Path | None = PROBE,
) -> ProbeRun:
    """Run the probe (`probe_path`; None when `args` start with a copy of it) under `python`,
    with PATH set to `path` when given and the command prefixed by `prefix` (e.g. setpriv)."""
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    script = [str(probe_path)] if probe_path is not None else []
    command = [*(prefix or []), python, *script, *args]
    started = time.monotonic()
    proc = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    return ProbeRun(proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started)


def fixture_run(name: str, *args: str, tools: bool = True) -> ProbeRun:
    """The probe on a fixture tree, with its vendor tool stand-ins (when `tools`) as all there
    is on PATH: no server client, as fixture trees describe hosts, not their servers."""
    tree = FIXTURES / name
    search = str(tree / "bin") if tools else "/nonexistent"
    return run_probe("--root", str(tree), "--datadir", "/var/lib/mysql", *args, path=search)


def storage(profile: dict[str, Any]) -> dict[str, Any]:
    return profile["hardware"]["storage"]


def source(profile: dict[str, Any], field: str) -> str:
    return str(profile["provenance"][field]["source"])


def load_probe() -> ModuleType:
    """The real probe file as a module, loaded by path."""
    spec = importlib.util.spec_from_file_location("advisor_probe_under_test", PROBE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
