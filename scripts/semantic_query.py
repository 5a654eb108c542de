"""Answer one GraphQL request as `schemanav serve` does, in process, no server started.

    python scripts/semantic_query.py '{ __search(query: "drama", first: 3) { coordinate } }' \
        [--schema FILE]

(or the request body, `{"query": "…"}`, as `curl -d` sends it).

Prints the answer as docs/serving.md shows it: compact JSON, a list of results one item a
line. What `scripts/check_docs.py` runs for the page's `__search` examples.
"""

from __future__ import annotations

import argparse
import json

from schemanav.navigator import Navigator
from schemanav.servers.graphql_endpoint import SemanticEndpoint
from schemanav.settings import load_settings


def shown(answer: dict[str, object]) -> str:
    """`{"data":{"__search":[` then one result a line, as the page prints a long answer."""
    compact = json.dumps(answer, separators=(",", ":"), ensure_ascii=False)
    data = answer.get("data")
    if not isinstance(data, dict) or len(data) != 1:
        return compact
    ((name, items),) = data.items()
    if not isinstance(items, list) or len(items) < 2 or "errors" in answer:
        return compact
    lines = [json.dumps(item, separators=(",", ":"), ensure_ascii=False) for item in items]
    return f'{{"data":{{"{name}":[\n ' + ",\n ".join(lines) + "]}}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("query")
    parser.add_argument("--schema", default=None)
    args = parser.parse_args()
    navigator = Navigator(load_settings(schema=args.schema, quiet=True))
    query = args.query
    if query.lstrip().startswith('{"'):  # a request body, as `curl -d` sends it
        query = json.loads(query)["query"]
    answer = SemanticEndpoint(navigator)._answer_here(query, None, None)
    print(shown(answer or {"errors": [{"message": "not answered here"}]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
