"""What each YAML export is as data, for the OpenAPI schema.

A client (schemathesis among them) reads an application/yaml body as the document it holds, not
as a string, so each YAML export is described by its document's shape. The keys come from the
renderers' own constants (rules.render.ansible, rules.render.k8s). The five shapes exclude one
another (a list; an object with the vars' keys; an object with only `spec`, holding a different
key per operator), so the media type they share can answer with their `oneOf`.
"""

from __future__ import annotations

from typing import Any

from rules.render.ansible import PREFIX, VARIABLES_MODULE
from rules.render.k8s import MARIADB_OPERATOR, MYSQL_OPERATOR, PERCONA, Operator

Schema = dict[str, Any]
TEXT: Schema = {"type": "string"}


def _closed(properties: Schema, description: str = "") -> Schema:
    """An object with exactly these keys."""
    schema: Schema = {
        "type": "object",
        "required": list(properties),
        "properties": properties,
        "additionalProperties": False,
    }
    if description:
        schema["description"] = description
    return schema


ANSIBLE_VARS = _closed(
    {
        f"{PREFIX}_settings": {"type": "object", "additionalProperties": TEXT},
        f"{PREFIX}_restart_required": {"type": "array", "items": TEXT},
        f"{PREFIX}_cnf_name": TEXT,
        f"{PREFIX}_cnf": TEXT,
        "mysql_config_include_files": {
            "type": "array",
            "items": _closed({"src": TEXT}),
        },
    },
    "The ansible export: the drop-in as one string, every value by name, what needs a restart.",
)
ANSIBLE_TASKS: Schema = {
    "type": "array",
    "description": f"The ansible-tasks export: {VARIABLES_MODULE} tasks.",
    "items": _closed(
        {
            "name": TEXT,
            VARIABLES_MODULE: _closed({"variable": TEXT, "value": TEXT, "mode": TEXT}),
        }
    ),
}


def operator_patch(operator: Operator) -> Schema:
    """`{"spec": {...path: the my.cnf text}}`, the merge patch `render_operator` writes."""
    block: Schema = TEXT
    for key in reversed(operator.path):
        block = _closed({key: block})
    field = "spec." + ".".join(operator.path)
    return _closed({"spec": block}, f"A {operator.kind} merge patch setting {field}.")


YAML_EXPORTS: dict[str, Schema] = {
    "ansible": ANSIBLE_VARS,
    "ansible-tasks": ANSIBLE_TASKS,
    "k8s-percona": operator_patch(PERCONA),
    "k8s-mysql-operator": operator_patch(MYSQL_OPERATOR),
    "k8s-mariadb-operator": operator_patch(MARIADB_OPERATOR),
}
