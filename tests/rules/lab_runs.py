"""A real lab run (tests/data/lab-run-oltp-read-write.jsonl) and the machine it ran on."""

import json
from pathlib import Path
from typing import Any

from rules.inputs.examples import raw_profile

LAB_RUN = Path(__file__).parents[1] / "data" / "lab-run-oltp-read-write.jsonl"
FIELD = "workload.lab_results"


def lab_records() -> list[dict[str, Any]]:
    """A real lab run: python3 -m lab --test oltp_read_write --threads 4 --time 15 --warmup 5
    --table-size 100000 --config A= --config B=tests/data/lab-run-config-B.cnf --rounds 2, on
    MariaDB 10.11.19 on this project's machine (docs/lab.md)."""
    return [json.loads(line) for line in LAB_RUN.read_text().splitlines()]


def lab_profile(**overrides: Any) -> dict[str, Any]:
    """The machine the lab ran on, as its probe read it."""
    return raw_profile(
        **{
            "server.flavor": "mariadb",
            "server.version": "10.11",
            "hardware.ram_gb": 23.5,
            "hardware.cpu_cores": 2,
            "hardware.storage.media": "hdd",
            "hardware.storage.device_count": 1,
            "hardware.storage.raid_level": "none",
            "hardware.storage.controller_cache": "none",
            "workload.kind": "read_write",
            "workload.data_size_gb": 0.3,
            "workload.concurrency": 4,
            **overrides,
        }
    )
