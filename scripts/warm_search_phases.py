"""Where a warm `search` spends its CPU, phase by phase, in fresh processes (not a test).

    python scripts/warm_search_phases.py [--schema PATH] [--runs 5] [--slice]

Each run is a fresh interpreter that does what `schemanav search QUESTION --schema PATH`
does, piped, timing each phase in CPU milliseconds (`time.process_time`): the imports every
command makes (typer), a search's (numpy), schemanav's own; opening the navigator (the
settings); the corpus read from its cache; the searcher (the structural index read from its
cache, the schema graph built); the search; rendering the hits; with `--slice`, the slice
facts, the slicer's tables and the slice. The cache is filled by one run first, and the
median of each phase over `--runs` runs is printed. The process's start (about 0.02 s) is not
in it: `python scripts/measure_speed.py` times whole processes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "which pull requests are open in a repository"

PHASES = r"""
import io, json, os, sys, time
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import gc
gc.disable()
clock = time.process_time
marks = [("start", clock())]
def mark(name):
    marks.append((name, clock()))
import typer
mark("import typer")
import numpy
mark("import numpy")
import schemanav.cli, schemanav.navigator, schemanav.retrieval.structural
mark("import schemanav")
from schemanav.navigator import Navigator
schema, question, as_slice = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
navigator = Navigator.open(schema)
mark("settings")
navigator.corpus
mark("corpus")
if as_slice:
    navigator.searcher(paths=False)
    mark("searcher (index, graph)")
    navigator.slice_facts
    mark("slice facts")
    navigator.slicer
    mark("slicer tables")
    navigator.slice(question)
    mark("slice")
    from schemanav.tokens import keep_counts
    keep_counts()  # as the executable does at its exit: the next run counts nothing
else:
    navigator.searcher()
    mark("searcher (index, graph)")
    result = navigator.search(question)
    mark("search")
    from schemanav.console import PlainConsole
    from schemanav.render import render_search
    out = sys.stdout
    sys.stdout = io.StringIO()
    render_search(PlainConsole(lambda: None, stderr=False), result)
    sys.stdout = out
    mark("render")
print(json.dumps([(name, 1000 * (b - a)) for (_, a), (name, b) in zip(marks, marks[1:])]))
"""


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--schema", default=str(ROOT / "schemas" / "github-wg.graphqls"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--slice", action="store_true", help="a slice instead of a search")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="schemanav-phases-") as cache:
        env = {**os.environ, "SCHEMANAV_CACHE_DIR": cache, "PYTHONPATH": str(ROOT / "src")}
        command = [sys.executable, "-c", PHASES, args.schema, QUESTION, "1" if args.slice else "0"]
        samples: dict[str, list[float]] = {}
        for _ in range(args.runs + 1):  # the first fills the cache
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            for name, milliseconds in json.loads(done.stdout.splitlines()[-1]):
                samples.setdefault(name, []).append(milliseconds)
    print(f"CPU ms, median of {args.runs} warm runs ({Path(args.schema).name})")
    total = 0.0
    for name, values in samples.items():
        median = statistics.median(values[1:])
        total += median
        print(f"  {name:<26} {median:6.1f}")
    print(f"  {'sum':<26} {total:6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
