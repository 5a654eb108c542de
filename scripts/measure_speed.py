"""Whole-process timings for the README: medians of repeated runs of real commands.

Cold runs start from an empty cache directory; warm runs reuse one. Run after
`bash scripts/fetch-wg-benchmark.sh --from ../shared/wg`:

    python scripts/measure_speed.py
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCHEMANAV = [sys.executable, "-m", "schemanav"]
GITHUB = str(ROOT / "schemas" / "github-wg.graphqls")
GITHUB_TSV = str(ROOT / "benchmarks" / "github-wg.tsv")
QUESTION = "which pull requests are open in a repository"


def timed(args: list[str], cache: Path) -> float:
    env = {**os.environ, "SCHEMANAV_CACHE_DIR": str(cache)}
    started = time.perf_counter()
    subprocess.run(SCHEMANAV + args, env=env, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - started


def median_of(args: list[str], runs: int, *, cold: bool) -> float:
    samples = []
    warm_cache = Path(tempfile.mkdtemp(prefix="schemanav-speed-"))
    if not cold:
        timed(args, warm_cache)  # fill the cache once
    for _ in range(runs):
        if cold:
            cache = Path(tempfile.mkdtemp(prefix="schemanav-speed-"))
            samples.append(timed(args, cache))
            shutil.rmtree(cache, ignore_errors=True)
        else:
            samples.append(timed(args, warm_cache))
    shutil.rmtree(warm_cache, ignore_errors=True)
    return statistics.median(samples)


def main() -> int:
    cases = [
        ("schemanav --help", ["--help"], 5, False),
        ("corpus --schema github-wg", ["corpus", "--schema", GITHUB], 3, True),
    ]
    for backend in ("bm25", "structural"):
        search = ["search", QUESTION, "--schema", GITHUB, "--backend", backend]
        cases += [
            (f"search --backend {backend} (cold)", search, 5, True),
            (f"search --backend {backend} (warm)", search, 5, False),
        ]
    grid = [
        "bench",
        "--schema",
        GITHUB,
        "--bench-file",
        GITHUB_TSV,
        "--backend",
        "bm25",
        "--format",
        "RAW,DOT_PLUS_GLOSS,GLOSS,SDL",
    ]
    default = ["bench", "--schema", GITHUB, "--bench-file", GITHUB_TSV]
    cases += [
        ("bench GitHub grid, BM25 × 4 formats (cold)", grid, 3, True),
        ("bench GitHub grid, BM25 × 4 formats (warm)", grid, 3, False),
        ("bench GitHub, default backend (cold)", default, 3, True),
        ("bench GitHub, default backend (warm)", default, 3, False),
    ]
    print("| command | runs | median wall time (s) |")
    print("|---|---|---|")
    for label, args, runs, cold in cases:
        seconds = median_of(args, runs, cold=cold)
        print(f"| `{label}` | {runs} | {seconds:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    import argparse

    # No options: --help prints what the script does.
    argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    ).parse_args()
    raise SystemExit(main())
