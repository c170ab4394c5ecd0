"""`python manage.py mcp`: the advisor's MCP server over stdio (advisor/mcp_server.py), for an
MCP client to start as a subprocess (docs/mcp.md). It computes and stores nothing."""

from typing import Any

import anyio
from django.core.management.base import BaseCommand
from mcp.server.stdio import stdio_server

from advisor.mcp_server import build_server


class Command(BaseCommand):
    help = (
        "Serve the advisor's tools (recommend, check_config, explain_setting) to an MCP client "
        "over stdin and stdout."
    )
    requires_system_checks = ()  # reads no models; the client waits for the handshake

    def handle(self, *args: Any, **options: Any) -> None:
        anyio.run(_serve)


async def _serve() -> None:
    server = build_server()
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
