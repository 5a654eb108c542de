#!/usr/bin/env python3
"""`bench --jobs N` against `--jobs 1`: wall time (median of alternating runs) and the memory
each forked worker adds.

Runs `python -m schemanav bench --output list,slice --budgets 500,…,16000 --json` on a schema
(default GitHub's working-group slice) with `--jobs 1` and with `--jobs N`, alternating, and
prints the median wall time of each and their ratio. While a run with workers goes on, it
samples each worker's memory from /proc (Linux): its private pages (`Private_Clean +
Private_Dirty`: what the worker copied or made, which it alone holds) and its share of the
pages it shares with the parent (`Pss`); the peak of each is printed. Both outputs are
compared (timing fields aside) and must be identical.

Usage: `python scripts/measure_bench_jobs.py [--runs 3] [--jobs 2] [--schema github]`
(after `bash scripts/fetch-wg-benchmark.sh --from ../shared/wg --schema NAME --labels full`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BUDGETS = "500,1000,2000,4000,8000,16000"


def _without_timing(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _without_timing(item) for key, item in value.items() if key != "seconds"}
    if isinstance(value, list):
        return [_without_timing(item) for item in value]
    return value


def _memory_kib(pid: int) -> tuple[int, int]:
    """(private KiB, PSS KiB) of one process, 0s if it is gone."""
    private = pss = 0
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0, 0
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name in ("Private_Clean", "Private_Dirty"):
            private += int(rest.split()[0])
        elif name == "Pss":
            pss = int(rest.split()[0])
    return private, pss


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(part) for part in text.split()]


def run(command: list[str], sample: bool) -> tuple[float, str, dict[str, int]]:
    peaks = {"worker_private_kib": 0, "worker_pss_kib": 0, "parent_private_kib": 0}
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.05):
            parent = _memory_kib(process.pid)[0]
            peaks["parent_private_kib"] = max(peaks["parent_private_kib"], parent)
            for child in _children(process.pid):
                private, pss = _memory_kib(child)
                peaks["worker_private_kib"] = max(peaks["worker_private_kib"], private)
                peaks["worker_pss_kib"] = max(peaks["worker_pss_kib"], pss)

    watcher = threading.Thread(target=watch, daemon=True)
    if sample:
        watcher.start()
    out, _ = process.communicate()
    elapsed = time.perf_counter() - started
    done.set()
    if process.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}")
    return elapsed, out, peaks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--schema", default="github")
    args = parser.parse_args()
    base = [sys.executable, "-m", "schemanav", "bench", "-q", "--json"]
    base += ["--schema", f"schemas/{args.schema}-wg.graphqls"]
    base += ["--bench-file", f"benchmarks/{args.schema}-wg-full.tsv"]
    base += ["--output", "list,slice", "--budgets", BUDGETS]
    run([*base, "--jobs", "1"], sample=False)  # warm the caches
    serial: list[float] = []
    forked: list[float] = []
    peaks: dict[str, int] = {}
    outputs: dict[int, str] = {}
    for _ in range(args.runs):
        for jobs, times in ((1, serial), (args.jobs, forked)):
            elapsed, out, seen = run([*base, "--jobs", str(jobs)], sample=jobs > 1)
            times.append(elapsed)
            outputs[jobs] = out
            for key, value in seen.items():
                peaks[key] = max(peaks.get(key, 0), value)
    same = _without_timing(json.loads(outputs[1])) == _without_timing(
        json.loads(outputs[args.jobs])
    )
    one, many = statistics.median(serial), statistics.median(forked)
    print(f"{args.schema}: --jobs 1 {one:.2f} s {[round(t, 2) for t in serial]}")
    print(f"{args.schema}: --jobs {args.jobs} {many:.2f} s {[round(t, 2) for t in forked]}")
    print(f"ratio ×{many / one:.2f}; outputs identical (timing aside): {same}")
    print(
        f"per worker, peak: private {peaks['worker_private_kib'] / 1024:.0f} MiB, "
        f"PSS {peaks['worker_pss_kib'] / 1024:.0f} MiB; the parent's private memory "
        f"{peaks['parent_private_kib'] / 1024:.0f} MiB"
    )
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
