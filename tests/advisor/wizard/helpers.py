"""What a visitor types into each step: the contract's example machine (product.md)."""

import json
from pathlib import Path

from django.test import Client

from rules.inputs.examples import EXAMPLE

ANSWERS: dict[str, dict[str, str]] = {
    "server": {"flavor": "mysql", "version": "8.0.36"},
    "hardware": {"ram_gb": "64", "cpu_cores": "16", "kernel": "5.15"},
    "storage": {
        "media": "hdd",
        "rpm": "15000",
        "device_count": "8",
        "raid_level": "raid10",
        "controller_cache": "write_back_bbu",
        "filesystem": "xfs",
        "random_read": "",
        "random_write": "",
    },
    "workload": {
        "kind": "oltp",
        "data_size_gb": "200",
        "concurrency": "64",
        "durability": "full",
        "recovery_target_minutes": "",
    },
    "current": {"current_form": "mycnf", "current_text": ""},
}

# The same machine as the JSON a client sends to the API or the CLI reads.
EXAMPLE_PROFILE = EXAMPLE

HTMX = {"HTTP_HX_REQUEST": "true"}
GOLDEN_PROFILES = Path(__file__).resolve().parents[2] / "golden" / "profiles"


def golden_profile(name: str) -> dict[str, object]:
    return json.loads((GOLDEN_PROFILES / f"{name}.json").read_text(encoding="utf-8"))


def post_step(client: Client, step: str, *, follow: bool = False, **changes: str):
    return client.post(f"/wizard/{step}/", {**ANSWERS[step], **changes}, follow=follow)


def complete_wizard(client: Client, **current: str) -> str:
    """Every step as plain form posts (no JavaScript); returns the permalink it lands on."""
    for step in ("server", "hardware", "storage", "workload"):
        response = post_step(client, step)
        assert response.status_code == 302, (step, response.content[:2000])
    response = post_step(client, "current", **current)
    assert response.status_code == 302, response.content[:2000]
    return response["Location"]
