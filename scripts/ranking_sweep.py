#!/usr/bin/env python3
"""One configuration of the structural backend and the slicer, scored on every development
schema: list MRR and top-1 (field labels of the full label set), and the share of questions
whose slice is complete (every `mustInclude` entry: the Working Group's "perfect") within
each budget. The quick loop behind benchmarks/slice-experiments.md's issue-23 section.

    python scripts/ranking_sweep.py [--structural JSON] [--slice JSON]
        [--schemas github,gitlab,moviedb] [--budgets 500,1000,2000,4000,8000,16000]

`--structural '{"literal_lookups": 0}'` moves `StructuralParams` knobs, `--slice
'{"fill": false}'` `SliceParams` options; `--extra NAME=SCHEMA,TSV` adds a schema and its
full labels (as `scripts/connection_variants.py` writes them) to those scored. Needs the files of
`bash scripts/fetch-wg-benchmark.sh --from ../shared/wg --schema NAME --labels full`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from schemanav.bench.labelled import load_labelled
from schemanav.corpus import Format
from schemanav.defaults import slice_rank_depth
from schemanav.navigator import Navigator
from schemanav.retrieval.slicing import SliceParams, Slicer
from schemanav.retrieval.structural import StructuralBackend, StructuralParams

ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "github": (ROOT / "schemas/github-wg.graphqls", ROOT / "benchmarks/github-wg-full.tsv"),
    "gitlab": (ROOT / "schemas/gitlab-wg.graphqls", ROOT / "benchmarks/gitlab-wg-full.tsv"),
    "moviedb": (None, ROOT / "src/schemanav/data/moviedb-sample.tsv"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--structural", default="{}", help="StructuralParams changes (JSON)")
    parser.add_argument("--slice", default="{}", help="SliceParams changes (JSON)")
    parser.add_argument("--schemas", default="github,gitlab,moviedb")
    parser.add_argument("--budgets", default="500,1000,2000,4000,8000,16000")
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="NAME=SCHEMA,TSV",
        help="one more schema to score (repeatable; name it in --schemas too)",
    )
    parser.add_argument(
        "--per-question", type=Path, help="write each question's complete budgets here (JSON)"
    )
    args = parser.parse_args(argv)
    structural = StructuralParams(**json.loads(args.structural))
    slice_params = SliceParams(**json.loads(args.slice))
    budgets = [int(b) for b in args.budgets.split(",")]
    sets = dict(SETS)
    for extra in args.extra:
        name, _, files = extra.partition("=")
        schema_file, _, tsv = files.partition(",")
        sets[name] = (Path(schema_file), Path(tsv))
    per_question: dict[str, dict[str, list[int]]] = {}
    for name in args.schemas.split(","):
        schema, questions = sets[name]
        navigator = Navigator.open(str(schema) if schema else None, max_paths=0)
        corpus = navigator.corpus
        searcher = StructuralBackend(Format.DOT_PLUS_GLOSS, params=structural, max_paths=0).index(
            corpus
        )
        slicer = Slicer(navigator.slice_facts, corpus, params=slice_params)
        labelled = load_labelled(questions)
        reciprocal, top, complete = 0.0, 0, dict.fromkeys(budgets, 0)
        started = time.process_time()
        answers = per_question[name] = {}
        for query in labelled:
            deepest = slice_rank_depth(max(budgets), len(corpus))
            ranking = searcher.ranking(query.question, deepest)
            ranked, reading = list(ranking.coordinates), ranking.reading
            fields = {c for c in query.expected_coordinates if "(" not in c and "." in c}
            first = next((n for n, c in enumerate(ranked, start=1) if c in fields), None)
            if first is not None:
                reciprocal += 1 / first
                top += first == 1
            for budget in budgets:
                depth = slice_rank_depth(budget, len(corpus))  # as `search --slice` reads
                piece = slicer.from_ranked(
                    ranked[:depth], budget, query.question, reading=reading
                )
                shown = piece.coordinates
                if all(c in shown for c in query.expected_coordinates):
                    complete[budget] += 1
                    answers.setdefault(query.question, []).append(budget)
        count = len(labelled)
        cells = " ".join(f"{b}:{complete[b] / count:.3f}" for b in budgets)
        print(
            f"{name:8s} MRR {reciprocal / count:.3f} top1 {top / count:.3f} | {cells}"
            f"  ({time.process_time() - started:.0f} s CPU)",
            flush=True,
        )
    if args.per_question:
        args.per_question.write_text(json.dumps(per_question, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
