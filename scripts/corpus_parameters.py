#!/usr/bin/env python3
"""Numbers chosen on the corpus: the slicer's fixed sizes and the structural ranking's weights,
each at half and twice its value, by the rule a change is kept by, with the leave-one-schema-out
choice.

`schemanav.retrieval.slicing.params` holds most of the slicer's sizes (how many leaves a new type
shows, how much of the budget an entry field's arguments may take, …) and `StructuralParams`
the ranking's weights (a field's name against its owner's, the return type's, …). Each was
first tried on GitHub (and GitLab) alone; this scores every one on every set of
`benchmarks/corpus.toml` (`scripts/corpus_quality.py`'s scoring, cache and rule): a value is
chosen only if it raises the mean over the sets and loses no set more than one question within
any budget, and the leave-one-out column gives, for each held-out set, the value chosen on the
other sets alone.

    python scripts/corpus_parameters.py [--kind sizes|weights] [--names NAME,...] [--jobs N]
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
SIZES: dict[str, tuple[Any, ...]] = {
    "FILLER_LEAVES": (2, 5),
    "VALUE_FIELDS": (3, 12),
    "LABELS": (1, 3),
    "WRITE_GATE": (0, 2),
    "GATED_WRITES_FROM": (2_000, 8_000),
    "SUBJECT_HITS": (2, 4),
    "PLURAL_WAY_FIELDS": (1, 4),
    "CONNECTIVES_PER_PAIR": (1, 3),
    "TOP_ARGUMENTS": (1, 3),
    "TOP_ARGUMENTS_CAP": (8, 32),
    "ARGUMENT_ENUM_CAP": (4, 16),
    "SUBJECT_LEAVES": (8, 32),
    "SUBJECT_LEAVES_SHARE": (0.01, 0.04),
    "ENTRY_ARGUMENTS_SHARE": (0.005, 0.02),
    "ENTRY_ARGUMENTS_TOTAL": (0.02, 0.08),
    "LIST_ARGUMENTS_TOTAL": (0.005, 0.02),
    "WRITE_RESERVE_UNTIL": (2_000, 8_000),
    "SHARED_OUTCOME_SHARE": (0.3, 0.7),
    "FILL_MEMBER_CAP": (8, 32),
    "FILL_MEMBER_SHARE": (0.01, 0.04),
    "EARLY_COMPLETION_FROM": (1_000, 4_000),
    "EARLY_COMPLETION_SHARE": (0.01, 0.04),
    "ANSWER_TREE_SHARE": (0.02, 0.08),
    "LISTING_COMPLETION_SHARE": (0.04, 0.16),
    "OPERATION_ROOM_FROM": (4_000, 16_000),
    "CAPABILITY_SHARE": (0.25, 1.0),
    "TEXT_SEARCH_LIFT": (0.25, 1.0),
}
# Each structural weight (`StructuralParams`) and the values tried beside its own: half and
# twice. (Closeness, the description's weight, sibling evidence and the root's lists were
# tried so and their knobs deleted: slice-experiments.md, "Knobs deleted".)
WEIGHTS: dict[str, tuple[Any, ...]] = {
    "name_weight": (1.0, 4.0),
    "owner_weight": (0.75, 3.0),
    "return_weight": (0.35, 1.4),
    "arguments_weight": (0.3, 1.2),
    "return_detail_weight": (0.15, 0.6),
    "abstract_penalty": (0.5, 2.0),
    "other_root_cost": (1.5, 6.0),
    "plural_lookups": (0.15, 0.6),
    "singular_lookups": (0.25, 1.0),
    "time_evidence": (0.15, 0.6),
    "caller_weight": (0.25, 1.0),
    "write_object_evidence": (0.2, 0.8),
}
KINDS = {"sizes": ("c", SIZES), "weights": ("s", WEIGHTS)}


def candidate_name(name: str, value: Any) -> str:
    return f"{name} = {value}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--kind", choices=list(KINDS), default="sizes")
    parser.add_argument("--names", help="numbers to try, comma-separated (default: every one)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    change, tried = KINDS[args.kind]
    names = args.names.split(",") if args.names else list(tried)
    unknown = [n for n in names if n not in tried]
    if unknown:
        parser.error(f"unknown {args.kind}: {', '.join(unknown)}; choose from {', '.join(tried)}")
    today = current(args.kind, names)
    stale = [name for name in names if today[name] in tried[name]]
    if stale:  # a value changed in the code since its row was written: nothing to compare
        parser.error(f"the values tried include today's for {', '.join(stale)}: update them")
    for name in names:
        for value in tried[name]:
            cq.CANDIDATES[candidate_name(name, value)] = {change: {name: value}}
    sets = cq.load_sets()
    missing = [f"{s.name}: {s.fetch}" for s in sets for p in s.files() if not p.exists()]
    if missing:
        sys.exit("corpus_parameters: files missing; run:\n  " + "\n  ".join(missing))
    candidates = ["defaults"] + [candidate_name(n, v) for n in names for v in tried[n]]
    source = cq.source_digest()
    tasks = [(s, c, source) for c in candidates for s in sets]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:  # forks: sees CANDIDATES
        results = list(pool.map(cq._evaluate_cached, tasks))
    scores: dict[str, dict[str, list[dict[str, Any]]]] = {c: {} for c in candidates}
    for (corpus_set, candidate, _), records in zip(tasks, results, strict=True):
        scores[candidate][corpus_set.name] = records
    set_names = [s.name for s in sets]
    print(render(scores, names, tried, set_names, today))
    return 0


def current(kind: str, names: list[str]) -> dict[str, Any]:
    """Each number's value in the code today."""
    if kind == "sizes":
        import importlib

        modules = [importlib.import_module(m) for m in cq.SLICING_MODULES]
        return {n: getattr(next(m for m in modules if hasattr(m, n)), n) for n in names}
    from schemanav.retrieval.structural import StructuralParams

    defaults = StructuralParams()
    return {n: getattr(defaults, n) for n in names}


def render(
    scores: dict[str, dict[str, list[dict[str, Any]]]],
    names: list[str],
    tried: dict[str, tuple[Any, ...]],
    set_names: list[str],
    defaults: dict[str, Any],
) -> str:
    """One row per value: the corpus mean within each budget, the most questions it loses on
    one set (and which), and the leave-one-out choice of each size among its own values."""
    budgets = " / ".join(f"{b:,}" for b in cq.BUDGETS)
    lines = [
        f"| number = value | corpus mean, {budgets} | most lost on a set | chosen in sample | "
        "leave-one-out mean (held-out sets choosing it) |",
        "|---|---|---|---|---|",
    ]
    for name in names:
        own = ["defaults", *(candidate_name(name, v) for v in tried[name])]
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
                f"| {label} | {cells} | "
                f"{f'{lost} ({worst})' if lost > 0 else '0'} | "
                f"{'yes' if chosen == candidate else ''} | "
                f"{f'{loo_mean:.3f} ({len(takers)})' if takers else ''} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
