"""`manage.py mcp`, started and driven by the MCP SDK's own stdio client, as an agent's host
would: on a bare shell (no Django settings), one server process for the module. Its database
is a port where nothing listens: the tools compute and store nothing."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import jsonschema
import pytest
from mcp import ClientSession, types
from mcp.client.stdio import StdioServerParameters, stdio_client

from advisor.api.profile_component import as_json_schema, profile_schema
from rules.render import FORMATS
from tests.rules.profiles import raw_profile

ROOT = Path(__file__).resolve().parents[2]
NO_DATABASE = "postgres://nobody@127.0.0.1:9/no_database"  # port 9: discard, never PostgreSQL
PROFILE = raw_profile(**{"hardware.storage.controller_cache": "none"})

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def session() -> AsyncIterator[ClientSession]:
    bare = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    bare["DATABASE_URL"] = NO_DATABASE
    server = StdioServerParameters(
        command=sys.executable, args=["manage.py", "mcp"], cwd=ROOT, env=bare
    )
    with Path(os.devnull).open("w") as quiet:
        async with (
            stdio_client(server, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


def _text(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


async def test_it_lists_three_tools_whose_profile_is_the_published_schema(
    session: ClientSession,
) -> None:
    listed = await session.list_tools()
    tools = {tool.name: tool for tool in listed.tools}
    assert set(tools) == {"recommend", "check_config", "explain_setting"}
    recommend = tools["recommend"].input_schema
    assert recommend["properties"]["profile"] == as_json_schema(profile_schema())
    assert recommend["properties"]["format"]["enum"] == list(FORMATS)
    check = tools["check_config"].input_schema["properties"]["profile"]
    assert "current" in check["required"]
    jsonschema.Draft202012Validator.check_schema(recommend)
    jsonschema.Draft202012Validator(recommend).validate({"profile": PROFILE, "format": "mycnf"})


async def test_recommend_returns_the_chosen_export_and_the_settings(session: ClientSession) -> None:
    result = await session.call_tool("recommend", {"profile": PROFILE, "format": "mycnf"})
    assert not result.is_error
    text = _text(result)
    assert text.startswith("# InnoDB IO Advisor: my.cnf drop-in\n")
    assert "\n[mysqld]\n" in text
    assert "\ninnodb_io_capacity = " in text
    summary = result.structured_content
    assert summary["format"] == "mycnf"
    names = [setting["name"] for setting in summary["settings"]]
    assert "innodb_io_capacity" in names
    assert summary["estimate"]["recommended"]["unit"] == "NOTPM"


async def test_a_bad_profile_is_a_tool_error_naming_each_field(session: ClientSession) -> None:
    bad = raw_profile(**{"hardware.ram_gb": -1, "server.flavor": "oracle"})
    result = await session.call_tool("recommend", {"profile": bad})
    assert result.is_error
    body = json.loads(_text(result))
    assert set(body) == {"message", "errors"}
    assert {"hardware.ram_gb", "server.flavor"} <= set(body["errors"])
    # The server lives on after the refusal.
    again = await session.call_tool("recommend", {"profile": PROFILE})
    assert not again.is_error
    assert json.loads(_text(again))["settings"]


async def test_check_config_lists_an_unsafe_current_value(session: ClientSession) -> None:
    current = {"mycnf": "[mysqld]\ninnodb_flush_method = O_DIRECT_NO_FSYNC\n"}
    result = await session.call_tool("check_config", {"profile": {**PROFILE, "current": current}})
    assert not result.is_error
    report = json.loads(_text(result))
    assert report["passed"] is False
    assert [u["variable"] for u in report["unsafe"]] == ["innodb_flush_method"]
    assert result.structured_content == report


async def test_check_config_without_current_says_it_is_needed(session: ClientSession) -> None:
    result = await session.call_tool("check_config", {"profile": PROFILE})
    assert result.is_error
    assert json.loads(_text(result))["errors"] == {"current": ["required"]}


async def test_explain_setting_gives_the_rules_explanations_and_sources(
    session: ClientSession,
) -> None:
    result = await session.call_tool("explain_setting", {"name": "innodb_io_capacity"})
    assert not result.is_error
    known = json.loads(_text(result))
    assert known["catalog"]
    (rule,) = known["rules"]
    assert rule["setting"] == "innodb_io_capacity"
    assert all(case["explanation"] for case in rule["cases"])
    assert {s["key"] for s in known["sources"]} == set(rule["sources"])
    assert all(s["citation"] for s in known["sources"])


async def test_explain_setting_for_one_release_and_an_unknown_name(session: ClientSession) -> None:
    one = await session.call_tool(
        "explain_setting", {"name": "innodb_io_capacity", "flavor": "mariadb", "version": "10.11"}
    )
    unknown = await session.call_tool("explain_setting", {"name": "no_such_setting"})
    (row,) = json.loads(_text(one))["catalog"]
    assert row["flavor"] == "mariadb"
    assert unknown.is_error
    assert "name" in json.loads(_text(unknown))["errors"]
