#!/usr/bin/env python3
"""Whether an embedding model earns a place in the default ranking: the structural backend
against the in-process hybrid (`hybrid-local`: MiniLM beside the structural ranking) on every
set of the development corpus, slices complete on full labels within each budget and list MRR,
with the choice a leave-one-schema-out reading would make for each set.

    python scripts/corpus_backends.py [--sets github,...] [--backends structural,hybrid-local]

Each set runs `schemanav bench --json --output list,slice` once with both backends (the model
comes from the `local` extra, offline). A backend is chosen for a held-out set when it has the
better mean completeness over the other sets and loses none of them more than one question
within any budget against the first backend named (the default), as `corpus_quality.py`
chooses parameters.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from statistics import mean
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_quality import BUDGETS, ROOT, Standing, best_candidate, leave_one_out, load_sets


def bench(schema: str | None, questions: str, backends: str) -> dict[str, dict[str, Any]]:
    command = [sys.executable, "-m", "schemanav", "bench", "-q", "--json", "--output"]
    command += ["list,slice", "--budgets", ",".join(map(str, BUDGETS)), "--backend", backends]
    command += ["--bench-file", str(ROOT / questions)]
    if schema:
        command += ["--schema", str(ROOT / schema)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"corpus_backends: {' '.join(command[3:])} failed: {done.stderr.strip()}")
    payload = json.loads(done.stdout)
    figures: dict[str, dict[str, Any]] = {}
    for row in payload["rows"]:
        name = row["backend"].split(":")[0]
        entry = figures.setdefault(name, {"questions": payload["questions"]})
        if row["output"] == "list":
            entry["mrr"] = row["mrr"]
        else:
            entry["complete"] = {b: row["budget_complete"][str(b)] for b in BUDGETS}
    return figures


def _standing(figures: dict[str, dict[str, Any]], backend: str, default: str) -> Standing:
    """A backend on one set: its mean completeness, and the questions it loses against the
    default within any budget."""
    base, row = figures[default], figures[backend]
    lost = max(
        round((base["complete"][b] - row["complete"][b]) * row["questions"]) for b in BUDGETS
    )
    return Standing(mean(row["complete"].values()), lost)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sets", help="names from benchmarks/corpus.toml (default: every set)")
    parser.add_argument("--backends", default="structural,hybrid-local")
    args = parser.parse_args(argv)
    sets = load_sets()
    if args.sets:
        sets = [s for s in sets if s.name in args.sets.split(",")]
    backends = args.backends.split(",")
    results = {s.name: bench(s.schema, s.questions, args.backends) for s in sets}
    head = " | ".join(f"≤{b:,}" for b in BUDGETS)
    print(f"| set | backend | {head} | list MRR |")
    print("|---|---|" + "---|" * len(BUDGETS) + "---|")
    for s in sets:
        for backend in backends:
            row = results[s.name][backend]
            cells = " | ".join(f"{row['complete'][b]:.3f}" for b in BUDGETS)
            print(f"| {s.title} | {backend} | {cells} | {row['mrr']:.3f} |")
    default = backends[0]
    table = {
        backend: {s.name: _standing(results[s.name], backend, default) for s in sets}
        for backend in backends
    }
    names = [s.name for s in sets]
    chosen = leave_one_out(table, names, default)
    print()
    print(f"In sample: {best_candidate(table, names, default)}.")
    print()
    print("| held-out set | backend chosen on the others |")
    print("|---|---|")
    for s in sets:
        print(f"| {s.title} | {chosen[s.name]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
