#!/usr/bin/env python3
"""Every development set side by side, and what transfers: the leave-one-schema-out figures.

For each labelled set of `benchmarks/corpus.toml` it scores the structural ranking and the
slicer as `search` and `search --slice` run them: list MRR (the rank of the first field label),
and the share of questions whose slice is complete (every label: field, argument and type,
the Working Group's "perfect") within each budget of o200k_base tokens; write questions (those
labelled with a field of the mutation root) are also pooled over the corpus in a row of their own.
`mono` counts questions complete within a budget and not within a larger one (the target is 0).

Parameters are chosen on the corpus, never on one schema: each candidate of `CANDIDATES`
(the defaults, and one change each to the numbers a held-out set may still choose) is scored
on every set; the in-sample row takes the candidate with the best mean objective (the mean of
the six completeness shares) over all sets among those that lose at most one question on
every set within any budget (against the defaults), and the leave-one-out row gives each set
its figures under the candidate chosen so on the other sets alone: the honest estimate of
what a schema nobody tuned on gets.

    python scripts/corpus_quality.py [--sets github,gitlab,...] [--candidates all|defaults]
        [--jobs N] [--json FILE]

Results are cached per candidate, set files and source tree under `.corpus-cache/`, so a rerun
after a change scores only what the change touched. Files not committed (the WG's) come from the
`fetch` command the corpus file names.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import json
import os
import sys
import tomllib
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from statistics import mean
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS_FILE = ROOT / "benchmarks/corpus.toml"
CACHE = ROOT / ".corpus-cache"
BUDGETS = (500, 1000, 2000, 4000, 8000, 16000)

# Each candidate: a name and its changes to StructuralParams ("s"), SliceParams ("l") and the
# slicer's fixed sizes ("c": `schemanav.retrieval.slicing.params`, `scripts/corpus_parameters.py`).
# One change at a time from the defaults. The knobs no held-out set chose another value of
# (closeness, description weight, sibling evidence, the root's lists, the reserve, short
# forms and path expansion off) were deleted and their values built in
# (benchmarks/slice-experiments.md, "Knobs deleted").
CANDIDATES: dict[str, dict[str, dict[str, Any]]] = {
    "defaults": {},
    "write_weight=0": {"s": {"write_weight": 0.0}},
    "write_weight=0.5": {"s": {"write_weight": 0.5}},
    "write_weight=2.0": {"s": {"write_weight": 2.0}},
    "WRITE_RESERVE=0.2": {"c": {"WRITE_RESERVE": 0.2}},  # as any question's (`RESERVE`)
    "WRITE_RESERVE=0.3": {"c": {"WRITE_RESERVE": 0.3}},
    "WRITE_RESERVE=0.5": {"c": {"WRITE_RESERVE": 0.5}},
    "WRITE_ANSWER_SHARE=0.04": {"c": {"WRITE_ANSWER_SHARE": 0.04}},  # as any question's
    "WRITE_ANSWER_SHARE=0.2": {"c": {"WRITE_ANSWER_SHARE": 0.2}},
    "WRITE_ANSWER_SHARE=0.4": {"c": {"WRITE_ANSWER_SHARE": 0.4}},
    "WIDE_WRITE_WEIGHT=0": {"c": {"WIDE_WRITE_WEIGHT": 0.0}},  # no wide ranking
    "WIDE_WRITE_WEIGHT=2.5": {"c": {"WIDE_WRITE_WEIGHT": 2.5}},
    "WIDE_WRITE_WEIGHT=10": {"c": {"WIDE_WRITE_WEIGHT": 10.0}},
    "WIDE_WRITES_FROM=4000": {"c": {"WIDE_WRITES_FROM": 4000}},
    "WIDE_WRITES_FROM=8000": {"c": {"WIDE_WRITES_FROM": 8000}},
}


@dataclass(frozen=True)
class CorpusSet:
    name: str
    title: str
    schema: str | None
    questions: str
    fetch: str | None

    def files(self) -> list[Path]:
        return [ROOT / p for p in (self.schema, self.questions) if p]


def load_sets(path: Path = CORPUS_FILE) -> list[CorpusSet]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [
        CorpusSet(s["name"], s["title"], s.get("schema"), s["questions"], s.get("fetch"))
        for s in data["set"]
    ]


def source_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted((ROOT / "src/schemanav").rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_key(corpus_set: CorpusSet, candidate: str, source: str) -> str:
    digest = hashlib.sha256(source.encode())
    digest.update(json.dumps(CANDIDATES[candidate], sort_keys=True).encode())
    for path in corpus_set.files():
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


SLICING_MODULES = (
    *(
        f"schemanav.retrieval.slicing.{name}"
        for name in (
            *("params", "arguments", "build", "completion", "closure", "connections", "growth"),
            *("conventions", "outcomes", "subtyping", "tables", "ladder", "slicer"),
        )
    ),
    "schemanav.retrieval.structural",  # the wide ranking's weight
    "schemanav.corpus.outcomes",  # the shared outcome's numbers
)


@contextlib.contextmanager
def slicer_constants(changes: dict[str, Any]) -> Iterator[None]:
    """The slicer's fixed sizes set to `changes` while the block runs, in every slicing module
    that holds them (each imports them by name), and restored after: an experiment's values,
    never the product's."""
    saved: list[tuple[Any, str, Any]] = []
    modules = [importlib.import_module(m) for m in SLICING_MODULES] if changes else []
    try:
        for name, value in changes.items():
            holders = [m for m in modules if hasattr(m, name)]
            if not holders:
                raise KeyError(f"no slicing module has a constant {name}")
            for module in holders:
                saved.append((module, name, getattr(module, name)))
                setattr(module, name, value)
        yield
    finally:
        for module, name, value in reversed(saved):
            setattr(module, name, value)


def evaluate(corpus_set: CorpusSet, candidate: str) -> list[dict[str, Any]]:
    """Each question's write flag, first field label's rank and the budgets it is complete in."""
    with slicer_constants(CANDIDATES[candidate].get("c", {})):
        return _evaluate(corpus_set, candidate)


def _evaluate(corpus_set: CorpusSet, candidate: str) -> list[dict[str, Any]]:
    from schemanav.bench.labelled import load_labelled
    from schemanav.corpus import Format
    from schemanav.defaults import slice_rank_depth
    from schemanav.navigator import Navigator
    from schemanav.retrieval.slicing import SliceParams, Slicer
    from schemanav.retrieval.structural import StructuralBackend, StructuralParams

    changes = CANDIDATES[candidate]
    schema = str(ROOT / corpus_set.schema) if corpus_set.schema else None
    navigator = Navigator.open(schema, max_paths=0)
    corpus = navigator.corpus
    searcher = StructuralBackend(
        Format.DOT_PLUS_GLOSS, params=StructuralParams(**changes.get("s", {})), max_paths=0
    ).index(corpus)
    slicer = Slicer(navigator.slice_facts, corpus, params=SliceParams(**changes.get("l", {})))
    writes = f"{corpus.mutation_root}." if corpus.mutation_root else None
    deepest = slice_rank_depth(max(BUDGETS), len(corpus))
    records = []
    for query in load_labelled(ROOT / corpus_set.questions):
        ranking = searcher.ranking(query.question, deepest)
        ranked = list(ranking.coordinates)
        fields = {c for c in query.expected_coordinates if "(" not in c and "." in c}
        first = next((n for n, c in enumerate(ranked, start=1) if c in fields), None)
        complete = []
        for budget in BUDGETS:
            depth = slice_rank_depth(budget, len(corpus))
            piece = slicer.from_ranking(ranking, budget, query.question, depth)
            shown = piece.coordinates
            if all(c in shown for c in query.expected_coordinates):
                complete.append(budget)
        records.append(
            {
                "question": query.question,
                "write": bool(writes)
                and any(c.startswith(writes) for c in query.expected_coordinates),
                "first": first,
                "complete": complete,
            }
        )
    return records


def _evaluate_cached(task: tuple[CorpusSet, str, str]) -> list[dict[str, Any]]:
    corpus_set, candidate, source = task
    path = CACHE / f"{corpus_set.name}-{cache_key(corpus_set, candidate, source)}.json"
    if path.exists():
        cached: list[dict[str, Any]] = json.loads(path.read_text())
        return cached
    records = evaluate(corpus_set, candidate)
    CACHE.mkdir(exist_ok=True)
    partial = path.with_suffix(".tmp")
    partial.write_text(json.dumps(records))
    partial.replace(path)
    return records


def _budget_pairs() -> list[tuple[int, int]]:
    return [(b, c) for b in BUDGETS for c in BUDGETS if c > b]


def figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Completeness per budget, MRR, and the questions a larger budget made incomplete."""
    count = max(len(records), 1)
    complete = {b: sum(b in r["complete"] for r in records) / count for b in BUDGETS}
    mrr = sum(1 / r["first"] for r in records if r["first"]) / count
    shrinking = sum(
        any(b in r["complete"] and c not in r["complete"] for b, c in _budget_pairs())
        for r in records
    )
    return {
        "questions": len(records),
        "writes": sum(r["write"] for r in records),
        "complete": complete,
        "mrr": mrr,
        "objective": mean(complete.values()),
        "shrinking": shrinking,
    }


@dataclass(frozen=True)
class Standing:
    """A candidate on one set: its objective, and the most questions it loses against the
    defaults within any one budget."""

    objective: float
    lost: int


def standings(
    scores: dict[str, dict[str, list[dict[str, Any]]]],
) -> dict[str, dict[str, Standing]]:
    base = {name: figures(records) for name, records in scores["defaults"].items()}
    table: dict[str, dict[str, Standing]] = {}
    for candidate, per_set in scores.items():
        table[candidate] = {}
        for name, records in per_set.items():
            row, count = figures(records), len(records)
            lost = max(
                round((base[name]["complete"][b] - row["complete"][b]) * count) for b in BUDGETS
            )
            table[candidate][name] = Standing(row["objective"], lost)
    return table


def best_candidate(
    table: dict[str, dict[str, Standing]], over: list[str], default: str = "defaults"
) -> str:
    """The candidate with the best mean objective over these sets among those that lose at
    most one question on each of them within any budget (the issue's rule for keeping a
    change); the defaults win ties and stand when no candidate qualifies."""
    admissible = [c for c in table if all(table[c][n].lost <= 1 for n in over)]
    return max(
        admissible,
        key=lambda c: (mean(table[c][n].objective for n in over), c == default),
    )


def leave_one_out(
    table: dict[str, dict[str, Standing]], names: list[str], default: str = "defaults"
) -> dict[str, str]:
    """For each set, the candidate chosen on the other sets alone."""
    return {
        held_out: best_candidate(table, [n for n in names if n != held_out] or names, default)
        for held_out in names
    }


def _cells(row: dict[str, Any]) -> str:
    return " | ".join(f"{row['complete'][b]:.3f}" for b in BUDGETS) + f" | {row['mrr']:.3f}"


def render(
    sets: list[CorpusSet],
    scores: dict[str, dict[str, list[dict[str, Any]]]],
    chosen_in_sample: str,
    loo: dict[str, str],
) -> str:
    head = " | ".join(f"≤{b:,}" for b in BUDGETS)
    lines = [
        f"| set | questions (writes) | {head} | list MRR | mono |",
        "|---|---|" + "---|" * len(BUDGETS) + "---|---|",
    ]
    in_sample = {s.name: figures(scores[chosen_in_sample][s.name]) for s in sets}
    for s in sets:
        row = in_sample[s.name]
        lines.append(
            f"| {s.title} | {row['questions']} ({row['writes']}) | {_cells(row)} | "
            f"{row['shrinking']} |"
        )
    pooled_writes = [r for s in sets for r in scores[chosen_in_sample][s.name] if r["write"]]
    mean_row = _mean_row(list(in_sample.values()))
    loo_rows = [figures(scores[loo[s.name]][s.name]) for s in sets]
    lines.append(f"| **mean of sets, in sample** | | {_cells(mean_row)} | |")
    lines.append(f"| **mean of sets, leave-one-schema-out** | | {_cells(_mean_row(loo_rows))} | |")
    if pooled_writes:
        writes = figures(pooled_writes)
        lines.append(
            f"| write questions, all sets | {writes['questions']} | {_cells(writes)} | "
            f"{writes['shrinking']} |"
        )
    lines += ["", f"In sample: candidate `{chosen_in_sample}` (best mean over every set).", ""]
    lines += ["| held-out set | candidate chosen on the others | " + head + " | list MRR |"]
    lines += ["|---|---|" + "---|" * len(BUDGETS) + "---|"]
    for s, row in zip(sets, loo_rows, strict=True):
        lines.append(f"| {s.title} | `{loo[s.name]}` | {_cells(row)} |")
    return "\n".join(lines)


def _mean_row(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "complete": {b: mean(r["complete"][b] for r in rows) for b in BUDGETS},
        "mrr": mean(r["mrr"] for r in rows),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sets", help="names from benchmarks/corpus.toml (default: every set)")
    parser.add_argument(
        "--candidates", default="all", help="all, defaults, or names, comma-separated"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", type=Path, help="write every figure as JSON")
    args = parser.parse_args(argv)
    sets = load_sets()
    if args.sets:
        wanted = args.sets.split(",")
        sets = [s for s in sets if s.name in wanted]
    missing = [f"{s.name}: {s.fetch}" for s in sets for p in s.files() if not p.exists()]
    if missing:
        sys.exit("corpus_quality: files missing; run:\n  " + "\n  ".join(missing))
    names = list(CANDIDATES) if args.candidates == "all" else args.candidates.split(",")
    source = source_digest()
    tasks = [(s, c, source) for c in names for s in sets]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(_evaluate_cached, tasks))
    scores: dict[str, dict[str, list[dict[str, Any]]]] = {c: {} for c in names}
    for (corpus_set, candidate, _), records in zip(tasks, results, strict=True):
        scores[candidate][corpus_set.name] = records
    set_names = [s.name for s in sets]
    if "defaults" not in scores:
        sys.exit("corpus_quality: the candidates must include the defaults")
    table = standings(scores)
    chosen = best_candidate(table, set_names)
    loo = leave_one_out(table, set_names)
    print(render(sets, scores, chosen, loo))
    if args.json:
        payload = {
            c: {name: figures(records) for name, records in per_set.items()}
            for c, per_set in scores.items()
        }
        args.json.write_text(json.dumps({"in_sample": chosen, "loo": loo, "figures": payload}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
