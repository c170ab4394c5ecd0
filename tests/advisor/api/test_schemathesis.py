"""Schema-driven fuzzing of the whole API against its own OpenAPI schema (schemathesis).

Every operation gets the coverage phase (each property's bounds, enums, missing and wrong
types, so every profile field is exercised on its own) and a fuzzing phase of MAX_EXAMPLES
random positive and negative requests. The checks: no 5xx, every status, content type, header
and body as the schema says, and schema-invalid input refused. Not checked: that every
schema-valid profile is accepted, since cross-field rules (RAID level against device count, rpm
only for hdd) are prose in the schema, not JSON Schema.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis import checks
from schemathesis.config import SchemathesisConfig

from advisor.wsgi import application  # what gunicorn serves, the charset edge included

MAX_EXAMPLES = 100


def schemathesis_config(**phases: dict[str, bool]) -> SchemathesisConfig:
    """The run's configuration; `phases` overrides a phase (the stateful one is off)."""
    return SchemathesisConfig.from_dict(
        {
            "generation": {"mode": "all", "allow-x00": True},
            "phases": {"stateful": {"enabled": False}, **phases},
            "checks": {
                "negative_data_rejection": {
                    "expected-statuses": [400, 401, 404, 405, 406, 413, 415, 422, 429]
                }
            },
        }
    )


SCHEMA_URL = "/api/v1/schema?format=json"
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
    checks.negative_data_rejection,
]

schema = schemathesis.openapi.from_wsgi(SCHEMA_URL, application, config=schemathesis_config())


@pytest.fixture
def api_token(db: None, capsys: pytest.CaptureFixture[str]) -> str:
    call_command("create_api_token", "schemathesis")
    return capsys.readouterr().out.strip()


@pytest.fixture
def keep_test_connection() -> Iterator[None]:
    """The app runs in-process on the test's connection: keep Django from closing it after
    each request (the test client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_the_api_keeps_to_its_schema(
    case: Any, api_token: str, keep_test_connection: None, schemathesis_calls: Counter[str]
):
    schemathesis_calls[case.operation.label] += 1
    case.call_and_validate(headers={"Authorization": f"Token {api_token}"}, checks=CHECKS)
