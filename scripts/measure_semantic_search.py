"""`__search` in process on GitHub with five hit kinds, against fields alone (medians; not a test).

    bash scripts/fetch-wg-benchmark.sh --from ../shared/wg
    python scripts/measure_semantic_search.py [--json PATH]

Warm (index built, 20 questions of warm-up), the 200 working-group questions once each, the
two calls interleaved question by question, each timed with `first: 10`:
- `five kinds`: today's `__search` (types, fields, arguments, enum values, directives) through
  the endpoint's whole GraphQL path (parse, validate, execute);
- `fields only, the resolver before`: the same GraphQL path with the `__search` resolver as it
  was before hits of other kinds (the backend's first 10 hits, no cursors);
- `five kinds, in the worker thread`: the first call's work alone, as the worker thread runs
  it (`_answer_here`): without the hop to the thread and back, which on a busy machine waits
  for the scheduler twice;
- `search alone`: `searcher.search(question, 10)`, the field ranking both are built on.
It also checks, for every question, that the fields among the first 150 results are exactly
the field ranking (same order, same scores, same paths), and counts the hits of each kind.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from measure_servers import GITHUB, SEARCH, questions, summary


def fields_only_endpoint() -> type:
    """The endpoint with the `__search` resolver as it was before hits of other kinds: the
    backend's first hits, scores over the best one (the same GraphQL path around it)."""
    from schemanav.servers.graphql_endpoint import SemanticEndpoint

    class Before(SemanticEndpoint):
        def _resolve_search(self, _root: Any, _info: Any, **args: Any) -> list[Any]:
            hits = self.navigator.searcher().search(args["query"], args["first"])
            top = max((hit.score for hit in hits), default=0.0)
            return [
                {
                    "coordinate": hit.coordinate,
                    "score": round(min(max(hit.score / top, 0.0), 1.0) if top > 0 else 0.0, 6),
                    "pathsToRoot": [list(path) for path in hit.paths_to_root],
                    "definition": lambda _info, c=hit.coordinate: self._item(c),
                }
                for hit in hits
            ]

    return Before


def kinds_of(navigator: Any, asked: list[str]) -> tuple[Counter[str], int]:
    """The hits of each kind among the first 10 of every question, and how many questions'
    fields among the first 150 are not exactly the field ranking (docs/serving.md's figures)."""
    from schemanav.retrieval.members import FIELD

    searcher = navigator.searcher()
    kinds: Counter[str] = Counter()
    mismatched = 0
    for question in asked:
        page = navigator.members.page(question, count=150)
        kinds.update(hit.kind for hit in page.hits[:10])
        fields = [hit for hit in page.hits if hit.kind == FIELD]
        ranked = searcher.search(question, len(fields))
        mismatched += [(h.coordinate, h.score, h.paths_to_root) for h in fields] != [
            (h.coordinate, h.score, h.paths_to_root) for h in ranked
        ]
    return kinds, mismatched


def kinds_sentence(navigator: Any, asked: list[str]) -> str:
    """`kinds_of` as the sentence docs/serving.md quotes."""
    kinds, mismatched = kinds_of(navigator, asked)
    return (
        f"{len(asked)} questions, first 10 hits: {kinds['field']:,} fields, {kinds['type']:,} "
        f"types, {kinds['argument']:,} arguments, {kinds['enum_value']:,} enum values, "
        f"{kinds['directive']:,} directives; {mismatched} questions whose fields differ from "
        "the field ranking"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--kinds", action="store_true", help="only the hits of each kind, as a sentence (no timing)"
    )
    args = parser.parse_args()
    from schemanav.navigator import Navigator
    from schemanav.servers.graphql_endpoint import SemanticEndpoint

    navigator = Navigator.open(str(GITHUB))
    endpoint = SemanticEndpoint(navigator)
    before = fields_only_endpoint()(navigator)
    searcher = navigator.searcher()
    asked = questions()
    loop = asyncio.new_event_loop()

    def through(served: SemanticEndpoint) -> Callable[[str], None]:
        def ask(question: str) -> None:
            answer = loop.run_until_complete(served.answer(SEARCH, {"q": question}, None))
            assert "errors" not in answer, answer

        return ask

    if args.kinds:
        print(kinds_sentence(navigator, asked))
        return
    calls = {
        "five kinds": through(endpoint),
        "five kinds, in the worker thread": lambda question: endpoint._answer_here(
            SEARCH, {"q": question}, None
        ),
        "fields only, the resolver before": through(before),
        "search alone": lambda question: searcher.search(question, 10),
    }
    for question in asked[:20]:
        for call in calls.values():
            call(question)
    # Interleaved, question by question, so a busy machine slows both alike.
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for question in asked:
        for name, call in calls.items():
            started = time.perf_counter()
            call(question)
            samples[name].append(time.perf_counter() - started)
    figures: dict[str, Any] = {name: summary(times) for name, times in samples.items()}
    kinds, mismatched = kinds_of(navigator, asked)
    figures["kinds in the first 10, 200 questions"] = dict(kinds)
    figures["questions whose fields differ from the field ranking"] = mismatched
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
