"""Call one tool of `schemanav mcp` (stdio) through the official MCP SDK's client, print its
text, then stop the server: to try the tools by hand (not part of the product).

    python scripts/mcp_call.py TOOL 'JSON ARGUMENTS' [schemanav mcp options…]
    python scripts/mcp_call.py --list [schemanav mcp options…]

e.g. `python scripts/mcp_call.py search_schema '{"query": "drama", "kinds": ["enum_value"]}'
--schema movies.graphqls`. Exit 1 when the tool answers an error.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any


async def call(tool: str | None, arguments: dict[str, Any], options: list[str]) -> int:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "schemanav", "mcp", *options], env=dict(os.environ)
    )
    async with Client(stdio_client(params, errlog=sys.stderr)) as client:
        if tool is None:
            for listed in (await client.list_tools()).tools:
                print(f"{listed.name}: {json.dumps(listed.input_schema)}")
            return 0
        result = await client.call_tool(tool, arguments)
        for part in result.content:
            print(getattr(part, "text", part))
        return 1 if result.is_error else 0


def main() -> int:
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 2
    if args[0] == "--list":
        return asyncio.run(call(None, {}, args[1:]))
    if len(args) < 2:
        print('error: give a tool and its arguments as JSON: define \'{"coordinates": ["Query"]}\'')
        return 2
    return asyncio.run(call(args[0], json.loads(args[1]), args[2:]))


if __name__ == "__main__":
    sys.exit(main())
