"""Every slice of the development schemas, written to one JSON file to compare before and after
a change that must not change slices (a refactor, a speed-up).

For the Movie DB (bundled schema and questions), GitHub and GitLab (after
`bash scripts/fetch-wg-benchmark.sh --from ../shared/wg --schema github|gitlab`): each
question is ranked once by the default backend as `bench --output slice` ranks it, and sliced
at every budget by the navigator's slicer (SDL, tokens, fields, arguments, types, hits); a few
questions per schema also go through `Navigator.slice` and `Navigator.search` (the structural
ranking, as `search --json` prints it). `--param NAME=VALUE` (repeatable) slices with a knob
moved, to check a kept knob too.

    python scripts/slice_snapshot.py --out /tmp/before.json
    python scripts/slice_snapshot.py --out /tmp/after.json --compare /tmp/before.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

from schemanav.navigator import Navigator
from schemanav.retrieval import ranking_of
from schemanav.retrieval.slicing import SliceParams, Slicer

ROOT = Path(__file__).resolve().parents[1]
BUDGETS = (500, 2000, 4000, 8000)
SCHEMAS = {
    "moviedb": (None, ROOT / "src" / "schemanav" / "data" / "moviedb-sample.tsv"),
    "github": (ROOT / "schemas" / "github-wg.graphqls", ROOT / "benchmarks" / "github-wg.tsv"),
    "gitlab": (ROOT / "schemas" / "gitlab-wg.graphqls", ROOT / "benchmarks" / "gitlab-wg.tsv"),
}
PRODUCT_QUESTIONS = 3  # questions per schema also sliced and searched through the navigator


def questions(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.split("\t")[0] for line in lines if "\t" in line and not line.startswith("#")]


def parse_params(pairs: list[str]) -> SliceParams:
    defaults = SliceParams()
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        kind = type(getattr(defaults, name))
        changes[name] = text == "True" if kind is bool else kind(text)
    return dataclasses.replace(defaults, **changes)


def snapshot(name: str, params: SliceParams) -> dict[str, Any]:
    schema, bench_file = SCHEMAS[name]
    if schema is not None and not schema.exists():
        raise SystemExit(f"{schema} missing: run scripts/fetch-wg-benchmark.sh --schema {name}")
    navigator = Navigator.open(str(schema) if schema else None)
    slicer = Slicer(navigator.slice_facts, navigator.corpus, params=params)
    searcher = navigator.searcher(paths=False)
    depth = min(len(navigator.corpus), max(BUDGETS))
    slices: dict[str, dict[str, Any]] = {}
    asked = questions(bench_file)
    started = time.perf_counter()
    sliced = 0.0
    for question in asked:
        ranking = ranking_of(searcher, question, depth)
        begun = time.perf_counter()
        for budget in BUDGETS:
            piece = slicer.from_ranking(ranking, budget, question)
            slices[f"{budget}\t{question}"] = dataclasses.asdict(piece)
        sliced += time.perf_counter() - begun
    product = {
        question: {
            "slice": navigator.slice(question).as_dict(),
            "search": navigator.search(question, k=20).as_dict(),
        }
        for question in asked[:PRODUCT_QUESTIONS]
    }
    print(
        f"{name}: {len(asked)} questions × {len(BUDGETS)} budgets in "
        f"{time.perf_counter() - started:.1f} s ({sliced:.1f} s slicing)",
        file=sys.stderr,
    )
    return {"slices": slices, "product": product}


def compare(before: dict[str, Any], after: dict[str, Any]) -> int:
    """Print every difference (schema, kind, key); the number of differences."""
    differences = 0
    for schema in sorted(set(before) | set(after)):
        old, new = before.get(schema, {}), after.get(schema, {})
        for kind in ("slices", "product"):
            a, b = old.get(kind, {}), new.get(kind, {})
            for key in sorted(set(a) | set(b)):
                if a.get(key) != b.get(key):
                    differences += 1
                    if differences <= 20:
                        print(f"differs: {schema} {kind} {key!r}", file=sys.stderr)
    return differences


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--schemas", default=",".join(SCHEMAS), help="moviedb,github,gitlab")
    parser.add_argument("--param", action="append", default=[], help="NAME=VALUE, repeatable")
    parser.add_argument("--compare", type=Path, help="a snapshot to compare with")
    args = parser.parse_args(argv)
    params = parse_params(args.param)
    taken = {name: snapshot(name, params) for name in args.schemas.split(",")}
    text = json.dumps(taken, sort_keys=True)
    args.out.write_text(text, encoding="utf-8")
    if args.compare is None:
        return 0
    before = json.loads(args.compare.read_text(encoding="utf-8"))
    after = json.loads(text)  # tuples read back as lists, as in `before`
    differences = compare({k: v for k, v in before.items() if k in taken}, after)
    print(f"{differences} differences from {args.compare}", file=sys.stderr)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
