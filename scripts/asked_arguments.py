#!/usr/bin/env python3
"""Whether a slice shows the arguments a question asks for by how it reads a list: for each
development set (`benchmarks/corpus.toml`), the questions that page, sort or look for text
(`schemanav.question.grammar`: `pages`, `sorts`, `searches_text`) and whose labels hold such
arguments (paging: `first`, `after`, `last`, `before`, `offset`, `limit`, `cursor`, `skip` and
`PageInfo` fields; sorting: `sort…`, `order…`; text: `search…`, `query…`, `filter`, `term`,
`keyword`, `text`), and how many of them get every such label in their slice within each budget.

    python scripts/asked_arguments.py [--budgets 2000,4000] [--against OTHER/src]

The questions are chosen by this checkout's reading; `--against` slices the same questions with
another checkout's `src` as well (run in a process of its own), side by side: what a change to
the slicer did to them. The completeness of whole slices is `scripts/corpus_quality.py`'s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

KINDS = {
    "pages": re.compile(r"\((first|after|before|last|offset|limit|cursor|skip):\)$|^PageInfo\."),
    "sorts": re.compile(r"\((sort\w*|order\w*):\)$", re.I),
    "searches_text": re.compile(r"\((search\w*|query\w*|filter|filterTerm|keyword|term|text):\)$"),
}


def asked(budgets: list[int]) -> list[dict[str, Any]]:
    """Each set's questions that say how they read a list, with the labels that carry it."""
    import corpus_quality

    from schemanav.bench.labelled import load_labelled
    from schemanav.question import grammar

    chosen = []
    for corpus_set in corpus_quality.load_sets():
        for query in load_labelled(ROOT / corpus_set.questions):
            for kind, labels in KINDS.items():
                wanted = [c for c in query.expected_coordinates if labels.search(c)]
                if wanted and getattr(grammar, kind)(query.question):
                    item = {"set": corpus_set.name, "kind": kind, "question": query.question}
                    chosen.append({**item, "wanted": wanted, "budgets": budgets})
    return chosen


def sliced(chosen: list[dict[str, Any]]) -> list[list[bool]]:
    """For each chosen question, whether its slice within each budget holds every wanted label
    (by the `schemanav` importable here: this checkout's, or `--against`'s)."""
    import corpus_quality

    from schemanav.corpus import Format
    from schemanav.defaults import slice_rank_depth
    from schemanav.navigator import Navigator
    from schemanav.retrieval.slicing import Slicer
    from schemanav.retrieval.structural import StructuralBackend

    sets = {s.name: s for s in corpus_quality.load_sets()}
    opened: dict[str, Any] = {}
    found = []
    for item in chosen:
        if item["set"] not in opened:
            schema = sets[item["set"]].schema
            navigator = Navigator.open(str(ROOT / schema) if schema else None, max_paths=0)
            searcher = StructuralBackend(Format.DOT_PLUS_GLOSS, max_paths=0).index(navigator.corpus)
            opened[item["set"]] = (
                navigator,
                searcher,
                Slicer(navigator.slice_facts, navigator.corpus),
            )
        navigator, searcher, slicer = opened[item["set"]]
        size = len(navigator.corpus)
        ranked = list(searcher.ranking(item["question"], slice_rank_depth(16000, size)).coordinates)
        holds = []
        for budget in item["budgets"]:
            depth = slice_rank_depth(budget, size)
            shown = slicer.from_ranked(ranked[:depth], budget, item["question"]).coordinates
            holds.append(all(c in shown for c in item["wanted"]))
        found.append(holds)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", default="2000,4000")
    parser.add_argument("--against", type=Path, help="another checkout's src directory")
    parser.add_argument("--slice-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.slice_only:  # the `--against` process: questions in on stdin, answers out
        json.dump(sliced(json.load(sys.stdin)), sys.stdout)
        return 0
    budgets = [int(b) for b in args.budgets.split(",")]
    chosen = asked(budgets)
    columns = {"this checkout": sliced(chosen)}
    if args.against:
        env = {**os.environ, "PYTHONPATH": str(args.against.resolve())}
        done = subprocess.run(
            [sys.executable, __file__, "--slice-only"], input=json.dumps(chosen),
            capture_output=True, text=True, env=env, check=True,
        )  # fmt: skip
        columns["--against"] = json.loads(done.stdout)
    heads = [f"{name} ≤{b:,}" for name in columns for b in budgets]
    print("| set | asks | questions | " + " | ".join(heads) + " |")
    print("|---|---|---|" + "---|" * len(heads))
    groups: dict[tuple[str, str], list[int]] = {}
    for number, item in enumerate(chosen):
        groups.setdefault((item["set"], item["kind"]), []).append(number)
    for (name, kind), numbers in groups.items():
        cells = [
            str(sum(found[n][b] for n in numbers))
            for found in columns.values()
            for b in range(len(budgets))
        ]
        print(f"| {name} | {kind} | {len(numbers)} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
