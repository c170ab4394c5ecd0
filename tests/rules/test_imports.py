"""Every module of rules/ imports on its own, first, in a fresh interpreter: no import cycle
that only the usual import order hides (rules.output.revert once failed when imported first)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import importlib, pkgutil, sys
import rules
names = sorted(m.name for m in pkgutil.walk_packages(rules.__path__, "rules."))
failed = []
for name in names:
    for loaded in [m for m in sys.modules if m == "rules" or m.startswith("rules.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as problem:
        failed.append(f"{name}: {type(problem).__name__}: {problem}")
print(len(names))
print("\\n".join(failed))
"""


def test_each_rules_module_imports_first_without_a_cycle() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    count, *failed = done.stdout.strip().split("\n")
    assert int(count) > 50
    assert [line for line in failed if line] == []
