#!/usr/bin/env python3
"""The slicer's fixed sizes chosen on the corpus: each at half and twice its value, by the rule a
change is kept by, with the leave-one-schema-out choice.

`schemanav.retrieval.slicing.params` holds the sizes whose other values lost (how many leaves
a new type shows, how much of the budget an entry field's arguments may take, …). Each was
first tried on GitHub alone; this scores every one on every set of `benchmarks/corpus.toml`
(`scripts/corpus_quality.py`'s scoring, cache and rule): a value is chosen only if it raises
the mean over the sets and loses no set more than one question within any budget, and the
leave-one-out column gives, for each held-out set, the value chosen on the other sets alone.

    python scripts/slice_constants.py [--names FILLER_LEAVES,...] [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import mean
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_quality as cq

# Each size and the values tried beside its own: half and twice (a count at least one less
# and one more), the shares likewise.
CONSTANTS: dict[str, tuple[Any, ...]] = {
    "FILLER_LEAVES": (2, 5),
    "VALUE_FIELDS": (2, 6),
    "LABELS": (1, 3),
    "WRITE_GATE": (1, 6),
    "SUBJECT_HITS": (2, 4),
    "PLURAL_WAY_FIELDS": (2, 5),
    "CONNECTIVES_PER_PAIR": (1, 3),
    "TOP_ARGUMENTS": (1, 3),
    "TOP_ARGUMENTS_CAP": (8, 32),
    "ARGUMENT_ENUM_CAP": (4, 16),
    "SUBJECT_LEAVES": (8, 32),
    "SUBJECT_LEAVES_SHARE": (0.01, 0.04),
    "ENTRY_ARGUMENTS_SHARE": (0.0025, 0.01),
    "ENTRY_ARGUMENTS_TOTAL": (0.01, 0.04),
    "SHARED_OUTCOME_SHARE": (0.3, 0.7),
    "FILL_MEMBER_CAP": (8, 32),
    "FILL_MEMBER_SHARE": (0.01, 0.04),
}


def candidate_name(name: str, value: Any) -> str:
    return f"{name}={value}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--names", help="constants to try, comma-separated (default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    names = args.names.split(",") if args.names else list(CONSTANTS)
    unknown = [n for n in names if n not in CONSTANTS]
    if unknown:
        parser.error(f"unknown constants: {', '.join(unknown)}; choose from {', '.join(CONSTANTS)}")
    from schemanav.retrieval.slicing import params

    for name in names:
        for value in CONSTANTS[name]:
            cq.CANDIDATES[candidate_name(name, value)] = {"c": {name: value}}
    sets = cq.load_sets()
    missing = [f"{s.name}: {s.fetch}" for s in sets for p in s.files() if not p.exists()]
    if missing:
        sys.exit("slice_constants: files missing; run:\n  " + "\n  ".join(missing))
    candidates = ["defaults"] + [candidate_name(n, v) for n in names for v in CONSTANTS[n]]
    source = cq.source_digest()
    tasks = [(s, c, source) for c in candidates for s in sets]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:  # forks: sees CANDIDATES
        results = list(pool.map(cq._evaluate_cached, tasks))
    scores: dict[str, dict[str, list[dict[str, Any]]]] = {c: {} for c in candidates}
    for (corpus_set, candidate, _), records in zip(tasks, results, strict=True):
        scores[candidate][corpus_set.name] = records
    set_names = [s.name for s in sets]
    print(render(scores, names, set_names, {n: getattr(params, n) for n in names}))
    return 0


def render(
    scores: dict[str, dict[str, list[dict[str, Any]]]],
    names: list[str],
    set_names: list[str],
    defaults: dict[str, Any],
) -> str:
    """One row per value: the corpus mean within each budget, the most questions it loses on
    one set (and which), and the leave-one-out choice of each size among its own values."""
    budgets = " / ".join(f"{b:,}" for b in cq.BUDGETS)
    lines = [
        f"| size = value | corpus mean, {budgets} | most lost on a set | chosen in sample | "
        "leave-one-out mean (held-out sets choosing it) |",
        "|---|---|---|---|---|",
    ]
    for name in names:
        own = ["defaults", *(candidate_name(name, v) for v in CONSTANTS[name])]
        table = cq.standings({c: scores[c] for c in own})
        chosen = cq.best_candidate(table, set_names)
        loo = cq.leave_one_out(table, set_names)
        loo_mean = mean(mean(cq.figures(scores[loo[s]][s])["complete"].values()) for s in set_names)
        for candidate in own:
            rows = [cq.figures(scores[candidate][s]) for s in set_names]
            cells = " / ".join(f"{mean(r['complete'][b] for r in rows):.3f}" for b in cq.BUDGETS)
            worst = max(set_names, key=lambda s: table[candidate][s].lost)
            lost = table[candidate][worst].lost
            label = f"{name} = {defaults[name]} (today)" if candidate == "defaults" else candidate
            takers = [s for s in set_names if loo[s] == candidate]
            lines.append(
                f"| {label.replace('=', ' = ') if candidate != 'defaults' else label} | {cells} | "
                f"{f'{lost} ({worst})' if lost > 0 else '0'} | "
                f"{'yes' if chosen == candidate else ''} | "
                f"{f'{loo_mean:.3f} ({len(takers)})' if takers else ''} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
