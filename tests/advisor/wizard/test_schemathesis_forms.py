"""Schemathesis against the wizard's form endpoints, not only the API.

The pages have no published schema, so this test declares one from the wizard's own steps:
every step's fields (and the paste box) as form fields that take any text or one of the hostile
values the API is also tried with (400-digit numbers, numbers beyond a double, NaN, NUL), posted
as plain forms and as HTMX live checks, plus the presets and the what-if of a stored result.
The check: never a server error, and only the statuses the pages answer with.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks
from schemathesis.config import SchemathesisConfig

from advisor.recommendations.services import estimator_current
from advisor.recommendations.wizard.presets import PRESETS
from advisor.recommendations.wizard.steps import STEPS
from advisor.wsgi import application  # what gunicorn serves, the charset edge included
from rules.engine import recommend
from rules.inputs.validation import parse_profile
from tests.advisor.api.test_schemathesis import keep_test_connection

MAX_EXAMPLES = 60
# "²" and "١٢": str.isdigit() accepts them, int() refuses the first and reads the second
HOSTILE = ["9" * 400, "-" + "9" * 400, "1e309", "-1e309", "NaN", "Infinity", "\x00", "0x10"]
HOSTILE += ["²", "١٢"]
PRESET = PRESETS[-1]
STORED_ID = recommend(parse_profile(PRESET.profile), estimator=estimator_current()).id
CSRF = "a" * 32  # a cookie secret, sent back in the header as a browser's page would
PAGE_STATUSES = {"200": "the page", "302": "the next page", "400": "refused", "404": "missing",
                 "413": "too large", "429": "limited"}  # fmt: skip


def _field() -> dict[str, Any]:
    return {"anyOf": [{"type": "string", "maxLength": 80}, {"enum": HOSTILE}]}


def _form(names: list[str]) -> dict[str, Any]:
    properties = {name: _field() for name in names}
    properties["go"] = {"enum": ["next", "back", "edit", "", "x"]}
    body = {"type": "object", "properties": properties, "additionalProperties": _field()}
    return {
        "required": True,
        "content": {"application/x-www-form-urlencoded": {"schema": body}},
    }


def _post(parameters: list[dict[str, Any]], names: list[str], op: str) -> dict[str, Any]:
    responses = {code: {"description": what, "content": {"text/html": {}}}
                 for code, what in PAGE_STATUSES.items()}  # fmt: skip
    return {"post": {"operationId": op, "parameters": parameters,
                     "requestBody": _form(names), "responses": responses}}  # fmt: skip


def _path_param(name: str, values: list[str]) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"enum": values}}


FIELD_NAMES = sorted({name for step in STEPS for name in step.names})
HTMX = [
    {"name": "HX-Request", "in": "header", "required": True, "schema": {"enum": ["true"]}},
    {"name": "HX-Trigger-Name", "in": "header", "required": True, "schema": {"enum": FIELD_NAMES}},
]
STEP = _path_param("step", [step.slug for step in STEPS] + ["nope"])
FORMS_SCHEMA = {
    "openapi": "3.0.3",
    "info": {"title": "Wizard forms", "version": "1"},
    "paths": {
        "/wizard/{step}/": _post([STEP], FIELD_NAMES, "wizard_step"),
        "/wizard/{step}/check/": _post([STEP, *HTMX], FIELD_NAMES, "wizard_check"),
        "/presets/{slug}/": _post(
            [_path_param("slug", [p.slug for p in PRESETS] + ["nope"])], [], "preset"
        ),
        "/r/{recommendation_id}/what-if/": _post(
            [_path_param("recommendation_id", [STORED_ID])], ["variant"], "whatif"
        ),
    },
}
CONFIG = SchemathesisConfig.from_dict(
    {
        "generation": {"mode": "positive", "allow-x00": True},
        "phases": {"stateful": {"enabled": False}},
    }
)
schema = schemathesis.openapi.from_dict(FORMS_SCHEMA, config=CONFIG)
schema.app = application
CALLS: Counter[str] = Counter()
__all__ = ["keep_test_connection"]  # a fixture the test below uses


@pytest.fixture
def stored_result(db: None) -> None:
    from advisor.recommendations.services import recommendation_create

    assert recommendation_create(profile=parse_profile(PRESET.profile)).id == STORED_ID


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_the_wizard_forms_never_fail_on_any_input(
    case: Any, stored_result: None, keep_test_connection: None
) -> None:
    CALLS[case.operation.label] += 1
    response = case.call(headers={"X-CSRFToken": CSRF}, cookies={"csrftoken": CSRF})
    case.validate_response(
        response, checks=[checks.not_a_server_error, checks.status_code_conformance]
    )
    assert response.status_code != 403, "the CSRF token was refused: the test sends it wrong"


def test_the_form_fuzzing_reached_every_endpoint() -> None:
    """Runs after the fuzzing (same module, defined later): each operation was called."""
    assert set(CALLS) == {
        "POST /wizard/{step}/",
        "POST /wizard/{step}/check/",
        "POST /presets/{slug}/",
        "POST /r/{recommendation_id}/what-if/",
    }, CALLS
