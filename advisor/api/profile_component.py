"""The profile's OpenAPI component, built from `rules.inputs.field_table.FIELDS`, the table that
validation reads.

Nothing here is typed by hand per field: names, types, ranges, choices, defaults and help come
from FIELDS, and the section nesting from the dotted paths, so the published schema cannot drift
from what `parse_profile` accepts (tests/advisor/api/test_profile_component.py holds them together).
What the table cannot say (RAID level against device count, rpm only for hdd) is in the
descriptions; the API answers those with 400 and the field's path.
"""

from __future__ import annotations

from typing import Any

from rules.current.system import MAX_SWAPPINESS, OS_KEYS
from rules.current.text import MAX_VALUE_CHARS
from rules.current.variables import MAX_VARIABLES
from rules.inputs import lab_results as lab
from rules.inputs.field_spec import optional_sections
from rules.inputs.field_table import CURRENT_FORMS, FIELDS, MAX_TEXT_BYTES, FieldSpec, Kind
from rules.inputs.profile import Profile
from rules.inputs.validation import _KERNEL, PROVENANCE_PATHS  # as validation applies them
from rules.inputs.version import _RELEASE

Schema = dict[str, Any]

# Sections that may be left out whose fields are each optional too.
LOOSE_SECTIONS = frozenset({"options"})
# Sections that may be left out (or null); inside one, each of its fields is required.
OPTIONAL_SECTIONS = optional_sections(Profile) - LOOSE_SECTIONS - {"current"}
TEXT_PATTERNS = {"server.version": _RELEASE.pattern, "hardware.kernel": _KERNEL.pattern}
OS_INTEGERS = {"read_ahead_kb": 2**31 - 1, "swappiness": MAX_SWAPPINESS}
CROSS_FIELD_NOTES = {
    "hardware.storage.raid_level": (
        " Must fit device_count: none needs 1 device, raid1 and raid10 an even count of at "
        "least 2, raid5 at least 3, raid6 at least 4."
    ),
}


def _field_schema(spec: FieldSpec, *, inside_optional: bool) -> Schema:
    schema: Schema
    if spec.kind is Kind.CHOICE:
        schema = {"type": "string", "enum": list(spec.choices)}
    elif spec.kind is Kind.INTEGER and spec.choices:
        schema = {"type": "integer", "enum": [int(c) for c in spec.choices]}
    elif spec.kind is Kind.BOOLEAN:
        schema = {"type": "boolean"}
    elif spec.kind is Kind.TEXT_LIST:
        item = {"type": "string", "minLength": 1, "maxLength": spec.max_length}
        schema = {"type": "array", "items": item, "maxItems": spec.max_items}
    elif spec.kind is Kind.PROVENANCE:
        schema = _provenance_schema(spec)
    elif spec.kind is Kind.LAB_RESULTS:
        schema = _lab_results_schema(spec)
    elif spec.kind is Kind.TEXT:
        schema = {"type": "string", "minLength": 1, "maxLength": spec.max_length}
        if spec.path in TEXT_PATTERNS:
            schema["pattern"] = TEXT_PATTERNS[spec.path]
    else:
        schema = {"type": "integer" if spec.kind is Kind.INTEGER else "number"}
        schema |= {"minimum": spec.minimum, "maximum": spec.maximum}
    schema["description"] = spec.help + CROSS_FIELD_NOTES.get(spec.path, "")
    if spec.default is not None:
        schema["default"] = spec.default
    # A field that is not required may also be sent as null (validation reads it as absent).
    if not inside_optional and (spec.nullable or not spec.required):
        schema["nullable"] = True
        if "enum" in schema:  # an enum still binds a nullable value (OpenAPI 3.0.3, "nullable")
            schema["enum"].append(None)
    return schema


def _provenance_schema(spec: FieldSpec) -> Schema:
    """Each field path the profile has, as an optional key (validation refuses any other)."""
    entry = {
        "type": "object",
        "properties": {
            "source": {"type": "string", "enum": list(spec.choices)},
            "from": {"type": "string", "maxLength": spec.max_length},
        },
        "required": ["source"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": dict.fromkeys(PROVENANCE_PATHS, entry),
        "additionalProperties": False,
        "maxProperties": spec.max_items,
    }


def _lab_results_schema(spec: FieldSpec) -> Schema:
    """A list of runs, each the plain form or a lab record (format 1), which validation reduces
    to the plain form (rules.inputs.lab_validation) before it is stored."""
    plain = {
        "type": "object",
        "properties": {
            "configuration": {
                "type": "object",
                "maxProperties": lab.MAX_VARIABLES,
                "additionalProperties": {
                    "oneOf": [
                        {"type": "string", "maxLength": lab.MAX_VALUE_CHARS},
                        {"type": "number"},
                        {"type": "boolean"},
                    ]
                },
                "description": "Server variables the advisor reads, to their values.",
            },
            "throughput": {
                "type": "number",
                "minimum": lab.MIN_THROUGHPUT,
                "maximum": lab.MAX_THROUGHPUT,
            },
            "label": {"type": "string", "maxLength": lab.MAX_LABEL_CHARS},
            "kind": {"type": "string", "enum": list(lab.WORKLOAD_KINDS)},
        },
        "required": ["configuration", "throughput"],
        "additionalProperties": False,
    }
    record = {
        "type": "object",
        "properties": {
            "record": {"type": "string", "enum": [lab.LAB_RECORD]},
            "format": {"type": "integer", "enum": [lab.LAB_FORMAT]},
        },
        "required": ["record", "format", "run", "server", "result"],
        "description": "One JSON line of python3 -m lab (docs/lab.md).",
    }
    return {
        "type": "array",
        "items": {"oneOf": [plain, record]},
        "minItems": 1,
        "maxItems": spec.max_items,
    }


def _is_required(spec: FieldSpec, *, inside_optional: bool) -> bool:
    return spec.required or inside_optional


def _section(path: str, fields: list[FieldSpec], sections: dict[str, Schema]) -> Schema:
    inside_optional = path in OPTIONAL_SECTIONS
    properties: dict[str, Schema] = {}
    required: list[str] = []
    for spec in fields:
        properties[spec.name] = _field_schema(spec, inside_optional=inside_optional)
        if _is_required(spec, inside_optional=inside_optional):
            required.append(spec.name)
    for child, child_schema in sections.items():
        parent, _, name = child.rpartition(".")
        if parent == path:
            properties[name] = child_schema
            if child not in OPTIONAL_SECTIONS | LOOSE_SECTIONS:
                required.append(name)
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    if inside_optional or path in LOOSE_SECTIONS:  # validation reads a null section as absent
        schema["nullable"] = True
    return schema


def _sections() -> dict[str, Schema]:
    """Every section of FIELDS, innermost first, keyed by its dotted path."""
    by_section: dict[str, list[FieldSpec]] = {}
    for spec in FIELDS:
        by_section.setdefault(spec.path.rpartition(".")[0], []).append(spec)
    paths: dict[str, None] = {}  # in the order FIELDS first names them
    for path in by_section:
        while path:
            paths.setdefault(path)
            path = path.rpartition(".")[0]
    built: dict[str, Schema] = {}
    for path in [*sorted(paths, key=lambda p: -p.count(".")), ""]:
        built[path] = _section(path, by_section.get(path, []), built)
    return built


def current_schema() -> Schema:
    """`current`: exactly one of the three forms, plus optional OS settings."""
    text = {"type": "string", "minLength": 1}
    value = {
        "oneOf": [
            {"type": "string", "maxLength": MAX_VALUE_CHARS},
            {"type": "number"},
            {"type": "boolean"},
        ]
    }
    os_properties: dict[str, Schema] = {"io_scheduler": {"type": "string", "maxLength": 200}}
    for key, maximum in OS_INTEGERS.items():
        os_properties[key] = {
            "oneOf": [
                {"type": "integer", "minimum": 0, "maximum": maximum},
                {"type": "string", "pattern": r"^\s*[0-9]{1,12}\s*$"},
            ]
        }
    assert set(os_properties) == set(OS_KEYS)
    return {
        "type": "object",
        "nullable": True,
        "description": (
            "What the server runs today, in one of three forms; every setting then shows its "
            "change."
        ),
        "properties": {
            "variables": {
                "type": "object",
                "additionalProperties": value,
                "maxProperties": MAX_VARIABLES,
                "description": 'Names to values, e.g. {"innodb_io_capacity": "200"}.',
            },
            "mycnf": text
            | {"maxLength": MAX_TEXT_BYTES["mycnf"], "description": "The text of a my.cnf."},
            "show_variables": text
            | {
                "maxLength": MAX_TEXT_BYTES["show_variables"],
                "description": "Output of SHOW GLOBAL VARIABLES.",
            },
            "os": {
                "type": "object",
                "nullable": True,
                "properties": os_properties,
                "additionalProperties": False,
            },
        },
        "additionalProperties": False,
        "oneOf": [{"required": [form]} for form in CURRENT_FORMS],
    }


def profile_schema() -> Schema:
    """The whole profile as one OpenAPI 3.0 schema object."""
    root = _sections()[""]
    root["properties"]["current"] = current_schema()
    root["description"] = "A server, its hardware and its workload (the product contract)."
    return root


def as_json_schema(schema: Any) -> Any:
    """An OpenAPI 3.0 schema as plain JSON Schema: `nullable: true` becomes "or null", the one
    keyword of this schema that JSON Schema lacks (the MCP tools and jsonschema need it so),
    except where an `enum` leaves null out, since the enum still binds (OpenAPI 3.0.3,
    "nullable"; schemathesis reads request schemas so)."""
    if isinstance(schema, list):
        return [as_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: as_json_schema(v) for k, v in schema.items() if k != "nullable"}
    if schema.get("nullable") and None in out.get("enum", [None]):
        return {"anyOf": [out, {"type": "null"}]}
    return out
