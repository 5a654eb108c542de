#!/usr/bin/env python3
"""What incomplete slices miss, by class: for each budget, how many labelled questions are
complete, and of the labels the others miss, how many are

- `field:owner-in`: a field of a type the slice shows (it ranked too low to fit);
- `field:owner-out`: a field of a type the slice never enters;
- `arg:field-in` / `arg:field-out`: an argument of a field the slice shows / does not show.

    python scripts/slice_misses.py SCHEMA TSV [--budgets 2000,4000] [--json OUT] [--labels-first]

`--labels-first` gives the slicer the question's field labels ranked first, then the ranking's
own order: how complete the slices would be if the ranking put every labelled field on top (what
the slicer's room and selection allow, apart from the ranking).

(The TSVs of `bash scripts/fetch-wg-benchmark.sh --from ../shared/wg --schema NAME --labels
full`; `--json` writes every incomplete question with its missing labels and their ranks.)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from schemanav.bench.labelled import load_labelled
from schemanav.defaults import slice_rank_depth
from schemanav.navigator import Navigator
from schemanav.retrieval.base import ranking_of


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("schema")
    parser.add_argument("tsv", type=Path)
    parser.add_argument("--budgets", default="2000,4000")
    parser.add_argument("--json", type=Path, help="write the incomplete questions here")
    parser.add_argument(
        "--labels-first", action="store_true", help="rank the question's field labels first"
    )
    args = parser.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    navigator = Navigator.open(args.schema, max_paths=0)
    searcher, slicer = navigator.searcher(paths=False), navigator.slicer
    questions = load_labelled(args.tsv)
    classes = {budget: Counter[str]() for budget in budgets}
    complete = dict.fromkeys(budgets, 0)
    records = []
    for query in questions:
        deepest = slice_rank_depth(max(budgets), len(navigator.corpus))
        ranking = ranking_of(searcher, query.question, deepest)
        ranked, reading = list(ranking.coordinates), ranking.reading
        if args.labels_first:
            fields = [c for c in query.expected_coordinates if "." in c and "(" not in c]
            ranked = list(dict.fromkeys([*fields, *ranked]))
        rank = {coordinate: n for n, coordinate in enumerate(ranked, start=1)}
        for budget in budgets:
            depth = slice_rank_depth(budget, len(navigator.corpus))  # as `search --slice`
            if args.labels_first:
                depth = max(depth, len(query.expected_coordinates))
            within = None
            if ranking.entries is not None and not args.labels_first:
                within = ranking.entries[:depth]
            piece = slicer.from_ranked(
                ranked[:depth], budget, query.question, within, reading=reading, wide=ranking.wide
            )
            missing = [c for c in query.expected_coordinates if c not in piece.coordinates]
            if not missing:
                complete[budget] += 1
                continue
            shown = (set(piece.types), set(piece.fields))
            found = [(c, _kind(c, *shown), rank.get(c.split("(")[0])) for c in missing]
            classes[budget].update(kind for _, kind, _ in found)
            records.append({"question": query.question, "budget": budget, "missing": found})
    for budget in budgets:
        share = complete[budget] / len(questions)
        print(f"within {budget:,} tokens: complete {share:.3f}; missing {dict(classes[budget])}")
    if args.json:
        args.json.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return 0


def _kind(coordinate: str, types: set[str], fields: set[str]) -> str:
    if "(" in coordinate:
        return "arg:field-in" if coordinate.split("(")[0] in fields else "arg:field-out"
    if "." in coordinate:
        owner = coordinate.split(".")[0]
        return "field:owner-in" if owner in types else "field:owner-out"
    return "type"


if __name__ == "__main__":
    sys.exit(main())
