"""Time and memory of `search` on generated schemas where one interface has n implementations.

Each of the n types implements `Node` and has a field returning `Node` (and a list of the
`Thing` union of all n types): a graph with an edge per field and possible type would hold
2·n² edges. Every command is a fresh `python -m schemanav` process; the table gives its wall
and CPU seconds and peak memory, and the growth per doubling of n (1.0 would be linear).

    python scripts/measure_wide_interfaces.py [--sizes 1250,2500,5000,10000]
        [--src OTHER/src] [--timeout 300]

`--src` runs another checkout's code (the code before a change, say); a command that runs past
`--timeout` seconds is stopped and shown as such.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "label 7 of type number 7"


def wide_schema(implementations: int) -> str:
    things = " | ".join(f"T{i}" for i in range(implementations))
    types = "".join(
        f'"""Type number {i}."""\ntype T{i} implements Node {{\n  id: ID!\n  other: Node\n'
        f"  label{i}: String\n  things: [Thing!]!\n}}\n"
        for i in range(implementations)
    )
    return (
        "interface Node {\n  id: ID!\n  other: Node\n}\n"
        f"union Thing = {things}\n"
        "type Query {\n  node(id: ID!): Node\n  things: [Thing!]!\n}\n" + types
    )


def run(args: list[str], src: Path, cache: Path, timeout: float) -> str:
    """'wall s · CPU s · peak MB' of one process, or how it failed."""
    env = {**os.environ, "SCHEMANAV_CACHE_DIR": str(cache), "PYTHONPATH": str(src)}
    command = [sys.executable, "-m", "schemanav", *args, "--quiet"]
    started = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT
    )
    deadline = started + timeout
    while (waited := os.wait4(process.pid, os.WNOHANG))[0] == 0:
        if time.perf_counter() > deadline:
            process.kill()
            os.wait4(process.pid, 0)
            return f"stopped after {timeout:.0f} s"
        time.sleep(0.02)
    wall = time.perf_counter() - started
    _, status, usage = waited
    if os.waitstatus_to_exitcode(status) != 0:
        return f"failed ({os.waitstatus_to_exitcode(status)})"
    cpu = usage.ru_utime + usage.ru_stime
    return f"{wall:.2f} · {cpu:.2f} · {usage.ru_maxrss / 1024:.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1250,2500,5000,10000", help="implementation counts")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the code to run")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per command")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print("wall s · CPU s · peak MB of one process (o200k_base token counting included)")
    print()
    print("| implementations | schema lines | search --slice (cold) | search (warm) |")
    print("|---|---|---|---|")
    folder = Path(tempfile.mkdtemp(prefix="schemanav-wide-"))
    try:
        for size in sizes:
            schema = folder / f"wide{size}.graphqls"
            text = wide_schema(size)
            schema.write_text(text, encoding="utf-8")
            search = ["search", QUESTION, "--schema", str(schema)]
            cache = folder / f"cache{size}"
            cold = run([*search, "--slice"], args.src, cache, args.timeout)
            warm = run(search, args.src, cache, args.timeout)
            print(f"| {size:,} | {text.count(chr(10)):,} | {cold} | {warm} |", flush=True)
            shutil.rmtree(cache, ignore_errors=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
