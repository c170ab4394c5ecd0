"""Write one example per deploy tool to docs/examples/, from the golden profiles, so the
examples are always what the code writes today (tests/test_examples.py holds them to it).

`--check` writes nothing and exits 1 when a file would change. An export that cannot be
written (the RDS ones until a family's parameter list is vendored) is an `.refused` file
holding the reason, as the API's 422 says it.
"""

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run as `python scripts/make_examples.py` without installing

from rules.engine import recommend  # noqa: E402
from rules.inputs.errors import OutputRefused  # noqa: E402
from rules.inputs.validation import parse_profile  # noqa: E402
from rules.render import host_filename, render  # noqa: E402

EXAMPLES_DIR = ROOT / "docs" / "examples"
PROFILES_DIR = ROOT / "tests" / "golden" / "profiles"
BASE_URL = "https://advisor.example.com"
# format -> the golden profile shown: a server each tool runs (MySQL 8.4 has SET PERSIST, so
# its task list uses mode: persist; Percona 8.0 for the Percona Operator; MariaDB 11.4; MySQL
# 8.0 for Aurora MySQL 3).
EXAMPLES = {
    "ansible": "seed004-8disk-raid10",
    "ansible-tasks": "seed004-8disk-raid10",
    "k8s-percona": "seed001-10disk-insert",
    "k8s-mysql-operator": "seed004-8disk-raid10",
    "k8s-mariadb-operator": "nvme-modern",
    "rds-json": "seed000-2disk-sata",
    "rds-terraform": "seed000-2disk-sata",
    "aurora-json": "seed000-2disk-sata",
    "aurora-terraform": "seed000-2disk-sata",
}


def example_files() -> dict[Path, str]:
    files = {}
    for fmt, stem in EXAMPLES.items():
        raw = json.loads((PROFILES_DIR / f"{stem}.json").read_text(encoding="utf-8"))
        result = recommend(parse_profile(raw))
        try:
            files[EXAMPLES_DIR / host_filename(stem, fmt)] = render(result, fmt, base_url=BASE_URL)
        except OutputRefused as refused:
            files[EXAMPLES_DIR / f"{stem}-{fmt}.refused"] = f"{refused}\n"
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on a change")
    args = parser.parse_args(argv)
    EXAMPLES_DIR.mkdir(parents=True, exist_ok=True)
    changed = 0
    for target, text in example_files().items():
        old = target.read_bytes().decode("utf-8") if target.exists() else None
        if old != text:
            changed += 1
            if not args.check:
                target.write_bytes(text.encode("utf-8"))
        print(f"{'unchanged' if old == text else 'changed':9} {target.relative_to(ROOT)}")
    return 1 if changed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
