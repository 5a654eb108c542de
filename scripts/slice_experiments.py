"""Complete slices (issues 10, 23): every list and slice configuration we tried, per schema.

For each schema (the GitHub and GitLab slices and the bundled Movie DB) and each output —
the structural backend's ranked list, and schema slices built from its scores with each
option the slicer keeps moved in turn — prints and writes the tables that head
benchmarks/slice-experiments.md: the share of questions complete within each token budget
(every expected coordinate shown), for field labels and for full labels (fields, arguments,
types), the median tokens at which a question first becomes complete, and the wall time of
200 slices. The record below them (what was tried, from "## Knobs deleted" on) is kept as
the document has it.
Run after
`bash scripts/fetch-wg-benchmark.sh --from ../shared/wg --schema NAME [--labels full]`
for NAME in github and gitlab:

    python scripts/slice_experiments.py [--quick] [--jobs 2]
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from schemanav.bench.labelled import shown_by_entry
from schemanav.bench.metrics import budget_complete, is_complete, mean, tokens_to_complete
from schemanav.corpus import Corpus, Format, build_corpus
from schemanav.corpus.facts import SliceFacts
from schemanav.retrieval.slicing import SchemaSlice, SliceParams, Slicer
from schemanav.retrieval.structural import StructuralBackend, StructuralParams
from schemanav.schema import load_schema

ROOT = Path(__file__).resolve().parents[1]
BUDGETS = (500, 1000, 2000, 4000, 8000, 16000)
FULL_BUDGETS = (2000, 4000, 16000)
DEPTH = 3000
_FIELD = re.compile(r"[_A-Za-z]\w*\.[_A-Za-z]\w*")

Labelled = list[tuple[str, list[str], list[str]]]  # question, field labels, full labels


def read_labels(fields_tsv: Path, full_tsv: Path | None) -> Labelled:
    """Questions with both label sets (full = field labels when no full TSV exists)."""

    def rows(path: Path) -> list[tuple[str, list[str]]]:
        result = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                question, labels = line.split("\t")
                result.append((question, [c.strip() for c in labels.split(",") if c.strip()]))
        return result

    fields = rows(fields_tsv)
    full = rows(full_tsv) if full_tsv and full_tsv.exists() else fields
    if [q for q, _ in fields] != [q for q, _ in full]:
        raise SystemExit(f"{fields_tsv} and {full_tsv} hold different questions")
    return [(q, f, [c for c in g]) for (q, f), (_, g) in zip(fields, full, strict=True)]


def slice_row(
    slicer: Slicer,
    scores: Sequence[Any],
    labelled: Labelled,
    budgets: Sequence[int],
) -> tuple[dict[int, float], dict[int, float], float | None, float]:
    """Complete shares (field, full) per budget, median tokens-to-complete, seconds/200."""
    field_done: dict[int, list[bool]] = {b: [] for b in budgets}
    full_done: dict[int, list[bool]] = {b: [] for b in budgets}
    first_complete: list[int | None] = [None] * len(labelled)
    seconds = 0.0
    for budget in budgets:
        started = time.process_time()
        built: list[SchemaSlice] = [
            slicer.from_ranked(ranked, budget, question)
            for ranked, (question, _, _) in zip(scores, labelled, strict=True)
        ]
        elapsed = time.process_time() - started
        if budget == 4000 or seconds == 0.0:
            seconds = elapsed * 200 / len(labelled)
        for number, (piece, (_, fields, full)) in enumerate(zip(built, labelled, strict=True)):
            contained = piece.coordinates
            field_done[budget].append(is_complete(contained, fields))
            full_done[budget].append(is_complete(contained, full))
            if field_done[budget][-1] and first_complete[number] is None:
                first_complete[number] = piece.tokens
    done = [t for t in first_complete if t is not None]
    return (
        {b: mean(v) for b, v in field_done.items()},
        {b: mean(v) for b, v in full_done.items()},
        statistics.median(done) if done else None,
        seconds,
    )


def list_row(
    backend: StructuralBackend,
    corpus: Corpus,
    labelled: Labelled,
    budgets: Sequence[int],
    fmt: Format,
) -> tuple[dict[int, float], dict[int, float], float | None, float]:
    """The ranked list read as a prefix: what each entry shows depends on the rendering."""
    index = {c: i for i, c in enumerate(corpus.coordinates)}
    counts = corpus.token_counts(fmt)
    field_done: dict[int, list[bool]] = {b: [] for b in budgets}
    full_done: dict[int, list[bool]] = {b: [] for b in budgets}
    needed: list[int] = []
    started = time.process_time()
    for question, fields, full in labelled:
        ranked = [hit.coordinate for hit in backend.search(question, DEPTH)]
        shown = []
        for coordinate in ranked:
            shown.append(shown_by_entry(corpus.entries[index[coordinate]], fmt))
        costs = [counts[index[c]] for c in ranked]
        for budget in budgets:
            field_done[budget].append(budget_complete(shown, costs, fields, budget))
            full_done[budget].append(budget_complete(shown, costs, full, budget))
        first = tokens_to_complete(shown, costs, fields)
        if first is not None:
            needed.append(first)
    seconds = (time.process_time() - started) * 200 / len(labelled)
    return (
        {b: mean(v) for b, v in field_done.items()},
        {b: mean(v) for b, v in full_done.items()},
        statistics.median(needed) if needed else None,
        seconds,
    )


Variant = tuple[str, dict[str, Any]]

# The knobs the slicer keeps (the others lost: see the document's "Knobs deleted").
VARIANTS: list[Variant] = [
    ("**slice (chosen defaults)**", {}),
    ("…every argument shown (exact signatures)", {"arguments": "all"}),
    ("…required arguments only", {"arguments": "required"}),
    ("…first sentence of field descriptions", {"descriptions": "first-sentence"}),
    ("…two-space indentation (as graphql-core prints)", {"indent": 2}),
    ("…no fill with cheap hits past the first that does not fit", {"fill": False}),
]
QUICK = {"**slice (chosen defaults)**", "…every argument shown (exact signatures)"}


def fmt_row(
    name: str,
    row: tuple[dict[int, float], dict[int, float], float | None, float],
    budgets: Sequence[int],
) -> str:
    fields, full, median, seconds = row
    cells = [f"{fields[b]:.3f}" for b in budgets]
    cells += [f"{full[b]:.3f}" for b in FULL_BUDGETS if b in full]
    cells += ["–" if median is None else f"{median:,.0f}", f"{seconds:.2f}"]
    return f"| {name} | " + " | ".join(cells) + " |"


RECORD = "## Knobs deleted"
"""Where the record of what was tried begins in the document (kept as it is by each run)."""

_WORK: dict[str, Any] = {}  # one schema's inputs, shared with forked workers


def _variant_row(
    variant: Variant,
) -> tuple[dict[int, float], dict[int, float], float | None, float]:
    _, changes = variant
    params = dataclasses.replace(SliceParams(), **changes)
    backend = _WORK["backend"]
    slicer = Slicer(
        _WORK["facts"], _WORK["corpus"], backend.graph, params=params, words=backend.stem
    )
    return slice_row(slicer, _WORK["scores"], _WORK["labelled"], BUDGETS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "slice-experiments.md")
    parser.add_argument("--quick", action="store_true", help="only the defaults and one knob")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--no-lists", action="store_true", help="slice rows only")
    parser.add_argument("--jobs", type=int, default=1, help="slice rows in N processes")
    parser.add_argument(
        "--from-row",
        help="slice rows from the one whose name contains this on (and the defaults' row)",
    )
    parser.add_argument(
        "--schemas",
        default="github,gitlab,moviedb",
        help="comma-separated: github, gitlab, moviedb",
    )
    args = parser.parse_args(argv)
    wanted = set(args.schemas.split(","))
    schemas = [
        (
            "GitHub (WG, 200 q)",
            ROOT / "schemas" / "github-wg.graphqls",
            ROOT / "benchmarks" / "github-wg.tsv",
            ROOT / "benchmarks" / "github-wg-full.tsv",
        ),
        (
            "GitLab (WG, 200 q)",
            ROOT / "schemas" / "gitlab-wg.graphqls",
            ROOT / "benchmarks" / "gitlab-wg.tsv",
            ROOT / "benchmarks" / "gitlab-wg-full.tsv",
        ),
        (
            "Movie DB (26 q; its labels are fields only, so full = field labels)",
            ROOT / "src" / "schemanav" / "data" / "moviedb.graphqls",
            ROOT / "src" / "schemanav" / "data" / "moviedb-sample.tsv",
            None,
        ),
    ]
    header = (
        "| output | "
        + " | ".join(f"fields ≤{b:,}" for b in BUDGETS)
        + " | "
        + " | ".join(f"full ≤{b:,}" for b in FULL_BUDGETS)
        + " | median tokens to complete | CPU s / 200 |"
    )
    rule = "|---" * (2 + len(BUDGETS) + len(FULL_BUDGETS) + 1) + "|"
    lines = [
        "# Complete slices: configurations tried (issues 10 and 23)",
        "",
        "Made by `python scripts/slice_experiments.py`. A question is *complete* within a "
        "budget when every expected coordinate is shown by an output of at most that many "
        "o200k_base tokens: `fields` counts the `Type.field` labels, `full` every `mustInclude` "
        "entry (fields, `Type.field(arg:)`, `Type`). A list shows its coordinates and their "
        "owner types (and, rendered as SDL, their arguments and return types); a slice shows "
        "what its SDL defines. Slices are rebuilt for each budget. Median tokens to complete: "
        "over the questions that complete within the largest budget (for a slice: the tokens "
        "of the first complete slice on the ladder). `CPU s / 200`: CPU time of 200 slices at "
        "4,000 tokens (scores excluded; for lists, the searches). Timings come from a shared "
        "2-CPU machine (CPU time, as wall time there varies with the load; rows run two at a "
        "time with `--jobs 2`).",
        "",
    ]
    for title, schema_path, fields_tsv, full_tsv in schemas:
        if title.split()[0].lower() not in {w.replace("moviedb", "movie") for w in wanted}:
            continue
        if not fields_tsv.exists():
            print(f"skipping {title}: {fields_tsv} missing", file=sys.stderr)
            continue
        loaded = load_schema(str(schema_path))
        corpus = build_corpus(loaded.schema)
        labelled = read_labels(fields_tsv, full_tsv)
        backend = StructuralBackend(
            Format.DOT_PLUS_GLOSS, params=StructuralParams(), max_paths=0
        ).index(corpus)
        scores = [[hit.coordinate for hit in backend.search(q, DEPTH)] for q, _, _ in labelled]
        lines += [f"## {title}", "", header, rule]
        for fmt in () if args.no_lists else (Format.DOT_PLUS_GLOSS, Format.RAW, Format.SDL):
            row = list_row(backend, corpus, labelled, BUDGETS, fmt)
            lines.append(fmt_row(f"list (structural, {fmt.value})", row, BUDGETS))
            print(lines[-1], file=sys.stderr, flush=True)
        variants = [v for v in VARIANTS if not args.quick or v[0] in QUICK]
        if args.from_row:
            (first,) = [n for n, (name, _) in enumerate(variants) if args.from_row in name]
            variants = variants[:1] + variants[first:]
        _WORK.update(facts=SliceFacts.of(loaded.schema), corpus=corpus, backend=backend)
        _WORK.update(scores=scores, labelled=labelled)
        if args.jobs > 1:
            import multiprocessing

            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                rows = pool.imap(_variant_row, variants)
                for (name, _), row in zip(variants, rows, strict=True):
                    lines.append(fmt_row(name, row, BUDGETS))
                    print(lines[-1], file=sys.stderr, flush=True)
        else:
            for variant in variants:
                lines.append(fmt_row(variant[0], _variant_row(variant), BUDGETS))
                print(lines[-1], file=sys.stderr, flush=True)
        lines.append("")
    text = "\n".join(lines) + "\n" + _record(args.out)
    if not args.no_write:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


def _record(out: Path) -> str:
    """The record below the measured tables, from `RECORD` on, kept as the document has it:
    each of its rows quotes the figures of its own step, with the command that printed them."""
    previous = out.read_text(encoding="utf-8") if out.exists() else ""
    return previous[previous.index(RECORD) :] if RECORD in previous else ""


if __name__ == "__main__":
    raise SystemExit(main())
