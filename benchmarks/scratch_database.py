"""A benchmark's own PostgreSQL database on this machine's server, created when missing (the
batch and archive benchmarks migrate it and leave the suite's databases alone)."""

import subprocess


def ensure_database(name: str) -> None:
    exists = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-tAc",
         f"SELECT 1 FROM pg_database WHERE datname='{name}'"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    if not exists:
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {name}"],
            check=True,
        )
