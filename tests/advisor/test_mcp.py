"""`manage.py mcp`, started and driven by the MCP SDK's own stdio client, as an agent's host
would: on a bare shell (no Django settings), one server process for the module. Its database
is a port where nothing listens: the tools compute and store nothing."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import ClientSession, types
from mcp.client.stdio import StdioServerParameters, stdio_client

from advisor.api.profile_component import as_json_schema, profile_schema
from rules.inputs.examples import raw_profile
from rules.render import FORMATS

ROOT = Path(__file__).resolve().parents[2]
NO_DATABASE = "postgres://nobody@127.0.0.1:9/no_database"  # port 9: discard, never PostgreSQL
PROFILE = raw_profile(**{"hardware.storage.controller_cache": "none"})


class Client:
    """The SDK's client on an event loop of its own, in a thread of its own, as one task that
    opens the server, answers the tests' calls and closes it (the SDK's task groups must be
    entered and left by one task). A test calls it synchronously, whatever loop another test
    or library left running in the main thread."""

    def __init__(self, server: StdioServerParameters) -> None:
        self._server = server
        self._loop = asyncio.new_event_loop()
        self._calls: asyncio.Queue[Call | None] = asyncio.Queue()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        ready: Future[None] = Future()
        self._served = asyncio.run_coroutine_threadsafe(self._serve(ready), self._loop)
        ready.result(timeout=120)

    async def _serve(self, ready: Future[None]) -> None:
        with Path(os.devnull).open("w") as quiet:
            async with (
                stdio_client(self._server, errlog=quiet) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                ready.set_result(None)
                while (call := await self._calls.get()) is not None:
                    work, answer = call
                    try:
                        answer.set_result(await work(session))
                    except Exception as problem:  # handed to the test that asked
                        answer.set_exception(problem)

    def __call__(self, work: Callable[[ClientSession], Awaitable[Any]]) -> Any:
        answer: Future[Any] = Future()
        self._loop.call_soon_threadsafe(self._calls.put_nowait, (work, answer))
        return answer.result(timeout=120)

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._calls.put_nowait, None)
        self._served.result(timeout=60)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=60)
        self._loop.close()


Call = tuple[Callable[[ClientSession], Awaitable[Any]], "Future[Any]"]


@pytest.fixture(scope="module")
def mcp() -> Iterator[Client]:
    bare = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    bare["DATABASE_URL"] = NO_DATABASE
    client = Client(
        StdioServerParameters(command=sys.executable, args=["manage.py", "mcp"], cwd=ROOT, env=bare)
    )
    yield client
    client.close()


def _call(mcp: Client, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
    result: types.CallToolResult = mcp(lambda session: session.call_tool(tool, arguments))
    return result


def _text(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


def test_it_lists_three_tools_whose_profile_is_the_published_schema(mcp: Client) -> None:
    listed = mcp(lambda session: session.list_tools())
    tools = {tool.name: tool for tool in listed.tools}
    assert set(tools) == {"recommend", "check_config", "explain_setting"}
    recommend = tools["recommend"].input_schema
    assert recommend["properties"]["profile"] == as_json_schema(profile_schema())
    assert recommend["properties"]["format"]["enum"] == list(FORMATS)
    check = tools["check_config"].input_schema["properties"]["profile"]
    assert "current" in check["required"]
    jsonschema.Draft202012Validator.check_schema(recommend)
    jsonschema.Draft202012Validator(recommend).validate({"profile": PROFILE, "format": "mycnf"})


def test_recommend_returns_the_chosen_export_and_the_settings(mcp: Client) -> None:
    result = _call(mcp, "recommend", {"profile": PROFILE, "format": "mycnf"})
    assert not result.is_error
    text = _text(result)
    assert text.startswith("# What changes for you")  # the lead, then the header
    assert "\n# InnoDB IO Advisor: my.cnf drop-in\n" in text
    assert "\n[mysqld]\n" in text
    assert "\ninnodb_io_capacity = " in text
    summary = result.structured_content
    assert summary["format"] == "mycnf"
    names = [setting["name"] for setting in summary["settings"]]
    assert "innodb_io_capacity" in names
    assert summary["estimate"]["recommended"]["unit"] == "NOTPM"


def test_a_bad_profile_is_a_tool_error_naming_each_field(mcp: Client) -> None:
    bad = raw_profile(**{"hardware.ram_gb": -1, "server.flavor": "oracle"})
    result = _call(mcp, "recommend", {"profile": bad})
    assert result.is_error
    body = json.loads(_text(result))
    assert set(body) == {"message", "errors"}
    assert {"hardware.ram_gb", "server.flavor"} <= set(body["errors"])
    # The server lives on after the refusal.
    again = _call(mcp, "recommend", {"profile": PROFILE})
    assert not again.is_error
    assert json.loads(_text(again))["settings"]


def test_check_config_lists_an_unsafe_current_value(mcp: Client) -> None:
    current = {"mycnf": "[mysqld]\ninnodb_flush_method = O_DIRECT_NO_FSYNC\n"}
    result = _call(mcp, "check_config", {"profile": {**PROFILE, "current": current}})
    assert not result.is_error
    report = json.loads(_text(result))
    assert report["passed"] is False
    assert [u["variable"] for u in report["unsafe"]] == ["innodb_flush_method"]
    assert result.structured_content == report


def test_check_config_without_current_says_it_is_needed(mcp: Client) -> None:
    result = _call(mcp, "check_config", {"profile": PROFILE})
    assert result.is_error
    assert json.loads(_text(result))["errors"] == {"current": ["required"]}


def test_explain_setting_gives_the_rules_explanations_and_sources(mcp: Client) -> None:
    result = _call(mcp, "explain_setting", {"name": "innodb_io_capacity"})
    assert not result.is_error
    known = json.loads(_text(result))
    assert known["catalog"]
    (rule,) = known["rules"]
    assert rule["setting"] == "innodb_io_capacity"
    assert all(case["explanation"] for case in rule["cases"])
    assert {s["key"] for s in known["sources"]} == set(rule["sources"])
    assert all(s["citation"] for s in known["sources"])


def test_explain_setting_for_one_release_and_an_unknown_name(mcp: Client) -> None:
    one = _call(
        mcp,
        "explain_setting",
        {"name": "innodb_io_capacity", "flavor": "mariadb", "version": "10.11"},
    )
    unknown = _call(mcp, "explain_setting", {"name": "no_such_setting"})
    (row,) = json.loads(_text(one))["catalog"]
    assert row["flavor"] == "mariadb"
    assert unknown.is_error
    assert "name" in json.loads(_text(unknown))["errors"]
