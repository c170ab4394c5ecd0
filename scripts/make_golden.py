"""Regenerate the golden files: tests/golden/<name>.cnf for each profiles/<name>.json, and each
deploy-tool export in tests/golden/deploy/ (`<name>.yml`, `<name>-percona.yaml`, ...; an export
that is refused for that server is `<name>-<format>.refused`, holding the reason).

Run by `make golden` after a deliberate change to the rules or the my.cnf renderer; review the
result as a diff (`git diff tests/golden`) before committing. `--check` writes nothing and exits 1
when a file would change. The files come from the rule engine alone (no calibrated estimator), so
the header says "calibration none" and they change only when the rules or the renderer do.
"""

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run as `python scripts/make_golden.py` without installing

from rules.engine import recommend  # noqa: E402
from rules.inputs.errors import OutputRefused  # noqa: E402
from rules.inputs.validation import parse_profile  # noqa: E402
from rules.render import REGISTRY, host_filename, render  # noqa: E402
from rules.render.mycnf import render_mycnf  # noqa: E402

GOLDEN_DIR = ROOT / "tests" / "golden"
PROFILES_DIR = GOLDEN_DIR / "profiles"
DEPLOY_DIR = GOLDEN_DIR / "deploy"
DEPLOY_FORMATS = tuple(f.name for f in REGISTRY if f.group == "deploy")


def profile_paths() -> list[Path]:
    return sorted(PROFILES_DIR.glob("*.json"))


def golden_path(profile_path: Path) -> Path:
    return GOLDEN_DIR / f"{profile_path.stem}.cnf"


def golden_mycnf(profile_path: Path) -> str:
    """The my.cnf the engine writes today for the profile in `profile_path`."""
    raw = json.loads(profile_path.read_text(encoding="utf-8"))
    return render_mycnf(recommend(parse_profile(raw)))


def golden_deploy(profile_path: Path) -> dict[Path, str]:
    """Every deploy export of the profile in `profile_path`: file -> text (or refusal)."""
    raw = json.loads(profile_path.read_text(encoding="utf-8"))
    result = recommend(parse_profile(raw))
    files = {}
    for fmt in DEPLOY_FORMATS:
        try:
            files[DEPLOY_DIR / host_filename(profile_path.stem, fmt)] = render(result, fmt)
        except OutputRefused as refused:
            files[DEPLOY_DIR / f"{profile_path.stem}-{fmt}.refused"] = f"{refused}\n"
    return files


def golden_files() -> dict[Path, str]:
    """Every golden file and the text the engine writes for it today."""
    files = {}
    for profile_path in profile_paths():
        files[golden_path(profile_path)] = golden_mycnf(profile_path)
        files |= golden_deploy(profile_path)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on a change")
    args = parser.parse_args(argv)
    changed = 0
    DEPLOY_DIR.mkdir(exist_ok=True)
    files = golden_files()
    for target, text in files.items():
        old = target.read_bytes().decode("utf-8") if target.exists() else None
        status = "new" if old is None else "unchanged" if old == text else "changed"
        if status != "unchanged":
            changed += 1
            if not args.check:
                target.write_bytes(text.encode("utf-8"))
        print(f"{status:9} {target.relative_to(ROOT)}")
    profiles = {p.stem for p in profile_paths()}
    for stale in sorted(GOLDEN_DIR.glob("*.cnf")):
        if stale.stem not in profiles:
            print(f"stale     {stale.relative_to(ROOT)} (no profile; delete it)")
    for stale in sorted(DEPLOY_DIR.iterdir()):
        if stale not in files:
            print(f"stale     {stale.relative_to(ROOT)} (no longer written; delete it)")
    if changed:
        verb = "would change" if args.check else "changed"
        print(
            f"{changed} golden file(s) {verb}; review with: git diff {GOLDEN_DIR.relative_to(ROOT)}"
        )
    return 1 if changed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
