"""Every retrieval configuration we tried for issue 6, measured on both schemas we have.

Writes the measured part of benchmarks/structural-experiments.md (and prints it): the text
between its two `<!-- generated … -->` markers, so the hand-written sections after them are
kept; `--print` only prints it (what `scripts/check_docs.py` compares). Each row is one
configuration:
BM25 baselines, the structure-aware backend's chosen defaults, and its knobs moved one at
a time around the chosen values (the rows of the knobs since deleted, and of the mechanisms
switched off in turn, are kept after the generated part). Run after
`bash scripts/fetch-wg-benchmark.sh --from ../shared/wg`:

    python scripts/structural_experiments.py
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable
from pathlib import Path

from schemanav.bench import evaluate_question, load_labelled, summarise
from schemanav.corpus import Corpus, Format, build_corpus
from schemanav.retrieval import Backend
from schemanav.retrieval.bm25 import BM25Backend
from schemanav.retrieval.structural import StructuralBackend, StructuralParams
from schemanav.schema import load_schema

ROOT = Path(__file__).resolve().parents[1]
KS = (1, 5, 10, 20, 50)
BUDGETS = (125, 250, 500, 1000, 2000)
DEPTH = 400

Factory = Callable[[Format], Backend]


def structural(**changes: object) -> Factory:
    params = dataclasses.replace(StructuralParams(), **changes)  # type: ignore[arg-type]
    return lambda fmt: StructuralBackend(fmt, params=params, max_paths=0)


CONFIGURATIONS: list[tuple[str, Factory]] = [
    ("BM25 (tantivy `default` tokenizer)", lambda f: BM25Backend(f, tokenizer="default")),
    ("BM25 (`en_stem`, our BM25 default)", lambda f: BM25Backend(f, tokenizer="en_stem")),
    ("BM25 (`camel_stem`)", lambda f: BM25Backend(f, tokenizer="camel_stem")),
    ("**structural (chosen defaults)**", structural()),
    ("…paths chosen without question relevance", structural(path_relevance=0.0)),
    ("…path relevance 0.8", structural(path_relevance=0.8)),
    ("…no abstract-type penalty", structural(abstract_penalty=0.0)),
    ("…abstract-type penalty 0.5", structural(abstract_penalty=0.5)),
    ("…mutation root 1 hop behind", structural(other_root_cost=1.0)),
    ("…mutation root 20 hops behind", structural(other_root_cost=20.0)),
    ("…no argument words", structural(arguments_weight=0.0)),
    (
        "…no return-type detail (enum values, type description)",
        structural(return_detail_weight=0.0),
    ),
    ("…name weight 1.5 (half)", structural(name_weight=1.5)),
    ("…owner weight 3 (double)", structural(owner_weight=3.0)),
]


def measure(factory: Factory, corpus: Corpus, schema_path: Path, tsv: Path, fmt: Format) -> str:
    queries = load_labelled(tsv)
    backend = factory(fmt).index(corpus)
    tokens = dict(zip(corpus.coordinates, corpus.token_counts(fmt), strict=True))
    started = time.perf_counter()
    results = []
    for query in queries:
        ranked = [hit.coordinate for hit in backend.search(query.question, DEPTH)]
        results.append(
            evaluate_question(
                query.question,
                ranked,
                [tokens[c] for c in ranked],
                query.expected_coordinates,
                KS,
                BUDGETS,
            )
        )
    elapsed = time.perf_counter() - started
    summary = summarise(results, KS, BUDGETS)
    cells = [f"{summary.at('recall', k):.3f}" for k in KS]
    cells += [f"{summary.at('mrr'):.3f}", f"{summary.at('budget_recall', 500):.3f}"]
    cells += [f"{summary.at('tokens_at_50'):.0f}", f"{elapsed:.2f}"]
    return " | ".join(cells)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=ROOT / "benchmarks" / "structural-experiments.md"
    )
    parser.add_argument("--format", default="DOT_PLUS_GLOSS")
    parser.add_argument("--print", action="store_true", help="print only, write nothing")
    args = parser.parse_args()
    fmt = Format.parse(args.format)
    slices = [
        (
            "GitHub (WG, 200 q)",
            ROOT / "schemas" / "github-wg.graphqls",
            ROOT / "benchmarks" / "github-wg.tsv",
        ),
        (
            "Movie DB (26 q)",
            ROOT / "src" / "schemanav" / "data" / "moviedb.graphqls",
            ROOT / "src" / "schemanav" / "data" / "moviedb-sample.tsv",
        ),
    ]
    lines = [
        f"Made by `python scripts/structural_experiments.py` — format {fmt.value}, "
        "tokens in o200k_base, ranked lists 400 deep. Path coordinates that the structural "
        "backend adds are hits and cost their tokens in every column. `s` is the wall time "
        "of all the searches of that row (index build excluded).",
        "",
    ]
    for title, schema_path, tsv in slices:
        if not tsv.exists():
            print(
                f"skipping {title}: {tsv} missing (run scripts/fetch-wg-benchmark.sh)",
                file=sys.stderr,
            )
            continue
        corpus = build_corpus(load_schema(str(schema_path)).schema)
        lines += [
            f"## {title}",
            "",
            "| configuration | R@1 | R@5 | R@10 | R@20 | R@50 | MRR | R in 500 tok "
            "| tokens@50 | s |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for name, factory in CONFIGURATIONS:
            row = measure(factory, corpus, schema_path, tsv, fmt)
            lines.append(f"| {name} | {row} |")
            print(lines[-1], file=sys.stderr)
        lines.append("")
    text = "\n".join(lines)
    if not args.print:
        replace_generated(args.out, text)
    print(text)
    return 0


START = "<!-- generated by scripts/structural_experiments.py: edit the script, not this part -->"
END = "<!-- end of the generated part -->"


def replace_generated(path: Path, text: str) -> None:
    """Put `text` between the document's two markers; everything outside them stays."""
    document = path.read_text(encoding="utf-8") if path.exists() else f"{START}\n{END}\n"
    if START not in document or END not in document:
        raise SystemExit(f"{path}: no {START} … {END} markers; nothing written")
    head, rest = document.split(START, 1)
    _, tail = rest.split(END, 1)
    body = text.rstrip("\n")  # as check_docs.py compares it: no blank line before the end
    path.write_text(f"{head}{START}\n{body}\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
