"""The advisor as an MCP server (Model Context Protocol, https://modelcontextprotocol.io), so an
AI agent can size a server as a provisioning tool does: `manage.py mcp` serves it over stdio.

Three tools, each a thin face on what the API and the CLI already call:
  recommend        profile -> settings, estimate, one export (recommendation_compute, render)
  check_config     profile with `current` -> changes and unsafe values (recommendation_check)
  explain_setting  setting name -> its catalog rows, rules and sources (setting_explain)

The input schemas of recommend and check_config are the published Profile schema
(`profile_schema`, built from rules.inputs.field_table.FIELDS) in plain JSON Schema; the profile is
still validated by `parse_profile`, and a refusal comes back as a tool error in the API's one
error shape, `{"message": ..., "errors": {"field.path": [...]}}`, so the agent can correct it.
Nothing is stored: the server needs no database.
"""

from __future__ import annotations

import json
from typing import Any

from mcp import types
from mcp.server import Server

from advisor.api.profile_component import as_json_schema, profile_schema
from advisor.recommendations.services import recommendation_check, recommendation_compute
from advisor.reference.services import setting_explain
from rules.check import NEEDS_CURRENT, report_to_dict
from rules.engine import RULESET_VERSION
from rules.inputs.enums import Flavor
from rules.inputs.errors import OutputRefused, ProfileError
from rules.inputs.profile import Profile
from rules.inputs.validation import parse_profile
from rules.inputs.version import SUPPORTED_RANGE_TEXT, parse_version
from rules.output.result import Result
from rules.render import BY_NAME, FORMATS, render, result_to_dict

NAME = "innodb-io-advisor"
Schema = dict[str, Any]


class ToolRefused(Exception):
    """A request the tool cannot answer; `errors` names the fields as the API does."""

    def __init__(self, message: str, errors: dict[str, list[str]]) -> None:
        super().__init__(message)
        self.errors = errors


def _profile_argument(*, needs_current: bool) -> Schema:
    schema: Schema = as_json_schema(profile_schema())
    if needs_current:
        schema["required"] = [*schema.get("required", []), "current"]
        schema["properties"]["current"] = schema["properties"]["current"]["anyOf"][0]
    return schema


def _tools() -> list[types.Tool]:
    formats = "; ".join(f"{name}: {BY_NAME[name].description}" for name in FORMATS)
    return [
        types.Tool(
            name="recommend",
            description=(
                "Recommend InnoDB IO settings for a MySQL, Percona Server or MariaDB server from "
                "its profile (server, hardware, workload). Returns the chosen export as text and, "
                "as structured content, each setting with its reason and the throughput estimate."
            ),
            input_schema={
                "type": "object",
                "properties": {
                    "profile": _profile_argument(needs_current=False),
                    "format": {
                        "type": "string",
                        "enum": list(FORMATS),
                        "default": "json",
                        "description": f"The export to return. {formats}.",
                    },
                },
                "required": ["profile"],
                "additionalProperties": False,
            },
            annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
        ),
        types.Tool(
            name="check_config",
            description=(
                "Check a server's current configuration (the profile's `current`: variables, a "
                "my.cnf or SHOW GLOBAL VARIABLES output) against the advisor: every unsafe value "
                "(data loss, memory beyond RAM, a removed variable) and what it would change. "
                "`passed` is false when something is unsafe."
            ),
            input_schema={
                "type": "object",
                "properties": {"profile": _profile_argument(needs_current=True)},
                "required": ["profile"],
                "additionalProperties": False,
            },
            annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
        ),
        types.Tool(
            name="explain_setting",
            description=(
                "What the advisor knows about one server variable or OS setting: its catalog "
                "rows (type, default, range, since/until per flavor), the rules that decide it "
                "with their explanations and evidence, and the sources those cite."
            ),
            input_schema={
                "type": "object",
                "properties": {
                    "name": {"type": "string", "minLength": 1, "maxLength": 64},
                    "flavor": {"type": "string", "enum": [f.value for f in Flavor]},
                    "version": {
                        "type": "string",
                        "maxLength": 40,
                        "description": "A release such as 8.0.36; with flavor, the catalog "
                        "answers for that release only.",
                    },
                },
                "required": ["name"],
                "additionalProperties": False,
            },
            annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
        ),
    ]


def _profile(arguments: dict[str, Any]) -> Profile:
    raw = arguments.get("profile")
    if not isinstance(raw, dict):
        raise ToolRefused("The profile is missing.", {"profile": ["must be a JSON object"]})
    try:
        return parse_profile(raw)
    except ProfileError as refused:
        count = sum(len(messages) for messages in refused.errors.values())
        raise ToolRefused(
            f"The profile has {count} problem(s); each is listed under its field.",
            refused.errors,
        ) from None


def _summary(result: Result) -> dict[str, Any]:
    """The result JSON's settings, estimate and warnings, without explanations and sources
    (the json export has them all)."""
    data = result_to_dict(result)
    keys = ("name", "value", "display", "change", "current", "reason")
    return {
        "id": data["id"],
        "settings": [{key: s[key] for key in keys} for s in data["settings"]],
        "estimate": data["estimate"],
        "warnings": data["warnings"],
    }


def recommend_tool(arguments: dict[str, Any]) -> types.CallToolResult:
    fmt = arguments.get("format", "json")
    if fmt not in FORMATS:
        raise ToolRefused(
            f"Unknown format {fmt!r}.", {"format": [f"must be one of: {', '.join(FORMATS)}"]}
        )
    profile = _profile(arguments)
    result = recommendation_compute(profile=profile)
    try:
        text = render(result, fmt)
    except OutputRefused as refused:
        supported = SUPPORTED_RANGE_TEXT[profile.server.flavor]
        raise ToolRefused(
            f"This export cannot be written for this server: {refused}",
            {"format": [f"{refused} (supported: {supported}; format json still works)"]},
        ) from None
    return types.CallToolResult(
        content=[types.TextContent(text=text)],
        structured_content={"format": fmt, **_summary(result)},
    )


def check_config_tool(arguments: dict[str, Any]) -> types.CallToolResult:
    profile = _profile(arguments)
    if profile.current is None:
        raise ToolRefused(f"The check needs `current`: {NEEDS_CURRENT}.", {"current": ["required"]})
    data = report_to_dict(recommendation_check(profile=profile))
    return _json_result(data)


def explain_setting_tool(arguments: dict[str, Any]) -> types.CallToolResult:
    name = arguments.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ToolRefused("The setting name is missing.", {"name": ["required"]})
    flavor_text, version_text = arguments.get("flavor"), arguments.get("version")
    if (flavor_text is None) != (version_text is None):
        raise ToolRefused(
            "Give both flavor and version, or neither.",
            {"flavor" if flavor_text is None else "version": ["required with the other"]},
        )
    flavor = version = None
    if flavor_text is not None:
        if flavor_text not in {f.value for f in Flavor}:
            choices = ", ".join(f.value for f in Flavor)
            raise ToolRefused("Unknown flavor.", {"flavor": [f"must be one of: {choices}"]})
        flavor = Flavor(flavor_text)
        version = parse_version(str(version_text))
        if version is None:
            raise ToolRefused(
                f"Unknown version {version_text!r}.",
                {"version": ["must be a release such as 8.0.36, 8.4 or 10.11"]},
            )
    known = setting_explain(name=name.strip().lower(), flavor=flavor, version=version)
    if known is None:
        raise ToolRefused(
            f"The advisor knows nothing about {name!r}.",
            {"name": ["not a variable in the catalog nor a setting any rule decides"]},
        )
    return _json_result(known)


def _json_result(data: dict[str, Any]) -> types.CallToolResult:
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=data)


TOOLS = {
    "recommend": recommend_tool,
    "check_config": check_config_tool,
    "explain_setting": explain_setting_tool,
}


async def _list_tools(
    ctx: Any, params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=_tools())


async def _call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    tool = TOOLS.get(params.name)
    if tool is None:
        choices = f"must be one of: {', '.join(TOOLS)}"
        return _refusal(ToolRefused(f"Unknown tool {params.name!r}.", {"name": [choices]}))
    try:
        return tool(params.arguments or {})
    except ToolRefused as refused:
        return _refusal(refused)


def _refusal(refused: ToolRefused) -> types.CallToolResult:
    """A tool error (isError) the agent can read and correct, in the API's one error shape."""
    body = {"message": str(refused), "errors": refused.errors}
    text = json.dumps(body, indent=2, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=True)


def build_server() -> Server[Any]:
    return Server(
        NAME,
        version=RULESET_VERSION,  # what the answers depend on
        instructions=(
            "Sizes InnoDB IO settings for MySQL, Percona Server and MariaDB. Call recommend "
            "with a profile; check_config with a profile holding `current`; explain_setting "
            "for the reasons and sources behind one setting."
        ),
        on_list_tools=_list_tools,
        on_call_tool=_call_tool,
    )
