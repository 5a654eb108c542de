"""Figures for `schemanav build`, `listFields` and search dispositions (docs/build.md,
docs/agents.md, docs/dispositions.md).

Run after `bash scripts/fetch-wg-benchmark.sh --from ../shared/wg`:

    python scripts/build_listfields_dispositions.py           # prints markdown tables

1. build: for every labelled question (GitHub slice and bundled Movie DB), build one
   operation from its expected coordinates; the share that is valid and contains all of them,
   failures by cause, how many needed connecting fields, and the median build time.
2. listFields vs introspectType: o200k_base tokens of both for every object and interface
   type of each schema (median and total ratio).
3. dispositions: `Navigator.search(question, k=K)` for every question, per backend and K.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from schemanav.agent.tools import SchemaTools
from schemanav.bench.labelled import load_labelled
from schemanav.build import build_operation
from schemanav.navigator import Navigator
from schemanav.retrieval.dispositions import DISPOSITIONS
from schemanav.schema import bundled_path
from schemanav.tokens import count_tokens

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = {
    "GitHub (WG)": (ROOT / "schemas" / "github-wg.graphqls", ROOT / "benchmarks" / "github-wg.tsv"),
    "Movie DB": (bundled_path("moviedb.graphqls"), bundled_path("moviedb-sample.tsv")),
}
BACKENDS = ("structural", "bm25")
KS = (5, 10, 20)


def build_figures(name: str, navigator: Navigator, tsv: Path) -> list[str]:
    schema = navigator.loaded.schema
    questions = load_labelled(tsv)
    causes: Counter[str] = Counter()
    connected = fixes = 0
    seconds: list[float] = []
    for question in questions:
        started = time.perf_counter()
        result = build_operation(schema, list(question.expected_coordinates))
        seconds.append(time.perf_counter() - started)
        connected += bool(result.added)
        fixes += bool(result.auto_fixes)
        if not result.valid:
            causes["invalid: " + result.errors[0]] += 1
        elif missing := [c for c in question.expected_coordinates if c not in result.coordinates]:
            causes["missing: " + ", ".join(missing)] += 1
    whole = len(questions) - sum(causes.values())
    row = (
        f"| {name} | {len(questions)} | {whole} | {whole / len(questions):.3f} | "
        f"{connected} | {fixes} | {statistics.median(seconds) * 1000:.1f} |"
    )
    return [row, *(f"  - {count} × {cause}" for cause, count in causes.most_common())]


def list_fields_figures(name: str, navigator: Navigator) -> str:
    from graphql import GraphQLInterfaceType, GraphQLObjectType

    schema = navigator.loaded.schema
    tools = SchemaTools(schema, search=None)
    short: list[int] = []
    full: list[int] = []
    for type_name, named in schema.type_map.items():
        if type_name.startswith("__") or not isinstance(
            named, GraphQLObjectType | GraphQLInterfaceType
        ):
            continue
        short.append(count_tokens(tools.list_fields(type_name).text))
        full.append(count_tokens(tools.introspect_type(type_name).text))
    ratios = [f / s for f, s in zip(full, short, strict=True)]
    return (
        f"| {name} | {len(short):,} | {statistics.median(short)} | {statistics.median(full)} | "
        f"{statistics.median(ratios):.1f} | {sum(full) / sum(short):.1f} |"
    )


def disposition_figures(name: str, navigator: Navigator, tsv: Path) -> list[str]:
    questions = load_labelled(tsv)
    rows = []
    for backend in BACKENDS:
        for k in KS:
            counts = Counter(
                navigator.search(q.question, k=k, backend=backend).disposition for q in questions
            )
            cells = " | ".join(str(counts.get(d, 0)) for d in DISPOSITIONS)
            rows.append(f"| {name} | {backend} | {k} | {cells} |")
    return rows


def main() -> int:
    navigators = {}
    for name, (schema, tsv) in SCHEMAS.items():
        if not Path(schema).is_file():
            print(f"{schema} is missing: run scripts/fetch-wg-benchmark.sh first", file=sys.stderr)
            return 2
        navigators[name] = (Navigator.open(str(schema)), Path(tsv))
    print(
        "| schema | questions | valid with all expected | share | needed connecting fields "
        "| deprecation swaps | median ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, (navigator, tsv) in navigators.items():
        print("\n".join(build_figures(name, navigator, tsv)))
    print()
    print(
        "| schema | types | listFields median tokens | introspectType median tokens "
        "| median ratio | total ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name, (navigator, _) in navigators.items():
        print(list_fields_figures(name, navigator))
    print()
    print("| schema | backend | K | " + " | ".join(DISPOSITIONS) + " |")
    print("|---|---|---:|" + "---:|" * len(DISPOSITIONS))
    for name, (navigator, tsv) in navigators.items():
        print("\n".join(disposition_figures(name, navigator, tsv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
