"""Check the MariaDB rows of the variable catalog against the mariadbd installed here.

Runs `mariadbd --no-defaults --verbose --help` (no server is started), resolves every MariaDB
variable of the catalog for the server's release, and prints each disagreement on existence,
default or enum values. Exit status 1 when there is any, 2 when mariadbd cannot be run.

    .venv/bin/python scripts/check_mariadb_catalog.py [--mariadbd PATH]
"""

import argparse
import subprocess
import sys

from rules.reference.catalog_check import compare_with_mariadbd, read_mariadbd_help


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mariadbd", default="mariadbd", help="server binary (default: mariadbd)")
    args = parser.parse_args(argv)
    try:
        server = read_mariadbd_help(args.mariadbd)
    except (OSError, subprocess.SubprocessError, ValueError) as error:
        print(f"cannot read {args.mariadbd} --verbose --help: {error}", file=sys.stderr)
        return 2
    disagreements = compare_with_mariadbd(server)
    for disagreement in disagreements:
        print(disagreement)
    verdict = f"{len(disagreements)} disagreement(s)" if disagreements else "catalog agrees"
    print(f"mariadbd {server.version}: {verdict}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
