"""Front ends that serve a `Navigator` to agents: MCP tools and a GraphQL endpoint.

- `tools`: the four agent tools (search_schema, define, validate, execute) with their JSON
  schemas, argument checks and token-stamped results; no protocol in it.
- `mcp_server`: those tools over the Model Context Protocol (stdio or streamable HTTP),
  with the official `mcp` SDK (extra `schemanav[mcp]`).
- `graphql_endpoint`: the user's schema plus `__search` / `__definitions` on the query root,
  served over HTTP with Starlette and uvicorn (extra `schemanav[serve]`); other operations are
  validated locally and forwarded upstream.

Both build the index once at start-up; a request never re-parses the schema.
"""
