"""Whether a change to the search path left every answer the same (not a test: two checkouts).

    bash scripts/fetch-wg-benchmark.sh --from ../shared/wg [--schema gitlab]
    git worktree add --detach /tmp/base main       # the code before the change
    python scripts/check_search_identical.py --src /tmp/base/src --write /tmp/before.json
    python scripts/check_search_identical.py --against /tmp/before.json    [--schema gitlab]

For each of the 200 working-group questions (GitHub's, or GitLab's) it records what every
layer answers: the field ranking at several depths (coordinates, scores, ranks, tokens, texts,
paths) and its ranking without hits, pages of the five-kind search (deep, filtered by kind,
past an offset, with a score floor) and `__search` through the endpoint's GraphQL path (with
cursors and the definition's type). `--against` exits 1 naming the first question whose
answers differ.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SEARCH = (
    "query($q: String!, $first: Int!, $after: String, $min: Float) {"
    " __search(query: $q, first: $first, after: $after, minScore: $min) {"
    " coordinate score pathsToRoot cursor definition { __typename } } }"
)
DEPTHS = (1, 10, 64, 150)
DEEP = 400
"""A ranking this deep walks every type at once (`_WALK_EVERYTHING_FROM`); asked of a few."""


def questions(name: str) -> list[str]:
    lines = (ROOT / "benchmarks" / f"{name}-wg.tsv").read_text(encoding="utf-8").splitlines()
    return [line.split("\t", 1)[0] for line in lines if line and not line.startswith("#")]


def answers(question: str, navigator: Any, endpoint: Any, deep: bool) -> dict[str, Any]:
    """Everything the search path answers to one question, as JSON."""
    from schemanav.retrieval.base import ranking_of

    searcher = navigator.searcher()
    found: dict[str, Any] = {}
    for depth in (*DEPTHS, DEEP) if deep else DEPTHS:
        found[f"search {depth}"] = [
            [
                hit.coordinate,
                hit.score,
                hit.rank,
                hit.tokens,
                hashlib.sha256(hit.text.encode()).hexdigest()[:16],
                hit.paths_to_root,
            ]
            for hit in searcher.search(question, depth)
        ]
        ranking = ranking_of(searcher, question, depth)
        found[f"ranking {depth}"] = [list(ranking.coordinates), list(ranking.scores)]
    pages = {
        "five kinds 150": {"count": 150},
        "types, arguments, values past 5": {
            "offset": 5,
            "count": 20,
            "kinds": ("type", "argument", "enum_value"),
        },
        "score floor": {"count": 50, "min_score": 0.5},
        "far page": {"offset": 140, "count": 100},
    }
    for name, arguments in pages.items():
        page = navigator.members.page(question, **arguments)
        found[name] = [[hit.as_dict() for hit in page.hits], page.top, page.more]
    loop = asyncio.new_event_loop()
    first = loop.run_until_complete(
        endpoint.answer(SEARCH, {"q": question, "first": 10}, None)
    )
    found["__search"] = first
    results = (first.get("data") or {}).get("__search") or []
    if results:
        after = results[-1]["cursor"]
        found["__search after"] = loop.run_until_complete(
            endpoint.answer(SEARCH, {"q": question, "first": 7, "after": after, "min": 0.2}, None)
        )
    loop.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the code to run")
    parser.add_argument("--schema", choices=("github", "gitlab"), default="github")
    parser.add_argument("--write", type=Path, help="write the answers here")
    parser.add_argument("--against", type=Path, help="compare with answers written before")
    args = parser.parse_args()
    sys.path.insert(0, str(args.src.resolve()))
    from schemanav.navigator import Navigator
    from schemanav.servers.graphql_endpoint import SemanticEndpoint

    navigator = Navigator.open(str(ROOT / "schemas" / f"{args.schema}-wg.graphqls"))
    endpoint = SemanticEndpoint(navigator)
    asked = questions(args.schema)
    # JSON both ways, so tuples and lists compare alike.
    found = {
        question: json.loads(json.dumps(answers(question, navigator, endpoint, n % 20 == 0)))
        for n, question in enumerate(asked)
    }
    if args.write:
        args.write.write_text(json.dumps(found) + "\n", encoding="utf-8")
        print(f"wrote the answers to {len(found)} questions to {args.write}")
    if args.against:
        before = json.loads(args.against.read_text(encoding="utf-8"))
        for question in asked:
            for name, value in found[question].items():
                if before.get(question, {}).get(name) != value:
                    print(f"differs: {question!r}, {name}")
                    sys.exit(1)
        print(f"identical: {len(asked)} questions, {sum(map(len, found.values()))} answers in all")


if __name__ == "__main__":
    main()
