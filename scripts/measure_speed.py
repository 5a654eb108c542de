"""Whole-process timings against issue 15's targets: medians of repeated runs of real commands.

Every case is a fresh `python -m schemanav …` process. Cold runs start from an empty cache
directory; warm runs reuse one filled by a run beforehand. Then the scaling check: cold
structural `search` on GitHub and on GitHub copied to ×2 and ×4 its size
(`scripts/synthetic_large_schema.py --copies`), whose time should grow linearly (at most ×2.2
per doubling), and warm `search` on the same three (≤ 0.35 s on every schema; ×2 is about
GitLab's size). Last, the CPU time of one structural query, in process: a `search` at its depth
(hits built), and a bench's list at its depth on GitHub's DOT_PLUS_GLOSS rendering (the bare
ranking `bench` reads, `ranking_of`: no hits built).

Each command's CPU seconds (user + system of the process) are shown beside its wall time: on a
busy machine the wall time also counts waiting for a core, the CPU time does not.

Every source measured runs from compiled bytecode, as an installed package does (pip compiles
it; a checkout run with PYTHONDONTWRITEBYTECODE=1 would compile every module of `src` in every
process, about 0.1 s): the sources are compiled once, beforehand, into a scratch
PYTHONPYCACHEPREFIX. `--no-bytecode` measures without (PYTHONDONTWRITEBYTECODE=1, no cache).

With `--against SRC` every case also runs with another checkout's `src` directory on
PYTHONPATH (the code before a change, say); its runs interleave with this checkout's, so both
see the same machine load, and each table shows both medians and their ratio side by side.

Run after `bash scripts/fetch-wg-benchmark.sh --from ../shared/wg`:

    python scripts/measure_speed.py [--runs 5] [--against /tmp/before/src] [--skip-scaling]
        [--no-bytecode] [--only slices] [--skip-commands] [--warm-scaling-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
GITHUB = ROOT / "schemas" / "github-wg.graphqls"
GITHUB_TSV = ROOT / "benchmarks" / "github-wg.tsv"
GITLAB = ROOT / "schemas" / "gitlab-wg.graphqls"
GITLAB_TSV = ROOT / "benchmarks" / "gitlab-wg.tsv"
QUESTION = "which pull requests are open in a repository"
COORDINATES = ["Repository.pullRequests", "PullRequest", "Query.repository(owner:)"]
FRESH_COORDINATES = (
    "Issue.title", "Label", "User.login", "Commit.message", "Team.members(first:)",
    "Organization.teams", "Release.tagName", "Gist.files", "Topic.name", "Milestone.dueOn",
)  # fmt: skip
MAX_GROWTH_PER_DOUBLING = 2.2
WARM_SEARCH = 0.35  # issue 15: on every schema (issue 43: ×1 and ×4 below)

PER_QUERY = r"""
import sys, time
from functools import partial
from pathlib import Path
from schemanav.bench.labelled import load_labelled
from schemanav.bench.runner import list_depth
from schemanav.corpus import Format
from schemanav.navigator import Navigator
from schemanav.retrieval import ranking_of

schema, tsv, cache = sys.argv[1:4]
questions = [q.question for q in load_labelled(Path(tsv))]
for label, max_paths in (("search", 2), ("bench", 0)):
    nav = Navigator.open(schema, cache_dir=cache, max_paths=max_paths)
    searcher = nav.searcher("structural", "DOT_PLUS_GLOSS")
    # A search builds its hits; a bench's list reads the bare ranking (`ranking_of`).
    query = searcher.search if label == "search" else partial(ranking_of, searcher)
    depth = 10
    if label == "bench":
        counts = nav.corpus.token_counts(Format.DOT_PLUS_GLOSS)
        depth = list_depth(counts, nav.settings.ks, nav.settings.budgets)
    query(questions[0], depth)
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        for question in questions:
            query(question, depth)
        best = min(best, (time.process_time() - started) / len(questions))
    print(label, depth, best * 1000)
"""


@dataclass(frozen=True)
class Case:
    label: str
    args: list[str]
    cold: bool
    target: float | None = None  # seconds, from issue 15
    # Warm runs that each ask for something not asked before: run N appends item N.
    fresh: tuple[str, ...] = ()
    # Run `python -c code` instead of `python -m schemanav args`: a floor, not a command.
    code: str | None = None


# What any command imports before it does anything: the CLI framework (its pydantic
# adapters are not built: `cli_support.plain_values`); its settings need no pydantic when
# they are plain and its lines to a pipe no Rich (issue 43), as every command here runs; a
# search adds numpy (the structural scores) and tantivy (the analyzer). No command can be
# faster than these.
# The imports every command makes, in the environment `schemanav.cli.main` sets up for them
# (no pydantic plugin scan, one OpenBLAS thread).
COMMAND_FLOOR = (
    "import os; os.environ.setdefault('PYDANTIC_DISABLE_PLUGINS', '__all__'); "
    "os.environ.setdefault('OPENBLAS_NUM_THREADS', '1'); "
    "import typer"
)
SEARCH_FLOOR = COMMAND_FLOOR + ", numpy, tantivy"
# Issue 43's warm targets: a search and a slice on GitHub, and a search on GitHub ×4.
WARM_SEARCH_X1 = 0.20
WARM_SLICE = 0.30
WARM_SEARCH_X4 = 0.25


def cases() -> list[Case]:
    github = ["--schema", str(GITHUB)]
    search = ["search", QUESTION, *github]
    define = ["define", *COORDINATES, *github]
    bench = ["bench", *github, "--bench-file", str(GITHUB_TSV)]
    return [
        Case("import floor of a command (typer)", [], False, code=COMMAND_FLOOR),
        Case("import floor of a search (the above, numpy, tantivy)", [], False, code=SEARCH_FLOOR),
        Case("schemanav --help", ["--help"], cold=False),
        Case("corpus GitHub (cold)", ["corpus", *github], cold=True),
        Case("corpus GitHub (warm)", ["corpus", *github], cold=False, target=0.5),
        Case("define 3 coordinates on GitHub (cold)", define, cold=True),
        Case("define 3 coordinates on GitHub (warm)", define, cold=False, target=0.5),
        Case(
            "define 1 coordinate not defined before on GitHub (warm)",
            ["define", *github],
            cold=False,
            target=0.5,
            fresh=FRESH_COORDINATES,
        ),
        Case("search structural GitHub (cold)", search, cold=True, target=3.5),
        Case("search structural GitHub (warm)", search, cold=False, target=WARM_SEARCH_X1),
        Case("search bm25 GitHub (cold)", [*search, "--backend", "bm25"], cold=True),
        Case(
            "search bm25 GitHub (warm)",
            [*search, "--backend", "bm25"],
            cold=False,
            target=WARM_SEARCH,
        ),
        Case("bench GitHub 200 questions, structural (cold)", bench, cold=True),
        Case("bench GitHub 200 questions, structural (warm)", bench, cold=False, target=1.5),
        Case("search --slice GitHub (warm)", [*search, "--slice"], cold=False, target=WARM_SLICE),
        Case(
            "bench GitHub 200 slices at 2,000 tokens (warm; issues 10, 23)",
            [*bench, "--output", "slice", "--budgets", "2000"],
            cold=False,
            target=2.5,
        ),
        *gitlab_cases(),
    ]


def gitlab_cases() -> list[Case]:
    """GitLab's slice case (issue 23), when its files are there (`fetch-wg-benchmark.sh
    --schema gitlab`)."""
    if not (GITLAB.exists() and GITLAB_TSV.exists()):
        return []
    bench = ["bench", "--schema", str(GITLAB), "--bench-file", str(GITLAB_TSV)]
    return [
        Case(
            "bench GitLab 200 slices at 4,000 tokens (warm; issue 23)",
            [*bench, "--output", "slice", "--budgets", "4000"],
            cold=False,
            target=5.0,
        )
    ]


BYTECODE: dict[str, str] = {}
"""Environment for every measured process: where compiled bytecode is (see `compile_sources`)."""


def compile_sources(sources: list[Path], folder: Path | None) -> None:
    """Compile every source into `folder` (a PYTHONPYCACHEPREFIX) so that no measured process
    compiles; with None, no process reads or writes bytecode of `src` at all."""
    if folder is None:
        BYTECODE.update(PYTHONDONTWRITEBYTECODE="1")
        return
    BYTECODE.update(PYTHONPYCACHEPREFIX=str(folder))
    for src in sources:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(src)],
            env=_environment(src),
            check=True,
            capture_output=True,
        )


def _environment(src: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **BYTECODE, "PYTHONPATH": str(src), **extra}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(args: list[str], src: Path, cache: Path, code: str | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one `python -m schemanav` process (or `python -c code`); a
    failure stops the script."""
    env = _environment(src, SCHEMANAV_CACHE_DIR=str(cache))
    command = ["-c", code] if code is not None else ["-m", "schemanav", *args]
    cpu = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *command], env=env, capture_output=True, cwd=ROOT)
    elapsed = time.perf_counter() - started, _children_cpu() - cpu
    if done.returncode not in (0, 1):  # define and bench may exit 1 on purpose; not 2+
        sys.exit(f"schemanav {' '.join(args)} failed ({done.returncode}): {done.stderr[-500:]!r}")
    return elapsed


@contextmanager
def scratch(prefix: str) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def medians(
    args: list[str],
    sources: list[Path],
    runs: int,
    *,
    cold: bool,
    fresh: tuple[str, ...] = (),
    code: str | None = None,
) -> tuple[list[float], list[float]]:
    """Median wall and CPU seconds per source; runs alternate between sources. With `fresh`,
    the cache is filled with its first item and run N asks for item N + 1."""
    samples: list[list[tuple[float, float]]] = [[] for _ in sources]
    if fresh and len(fresh) <= runs:
        sys.exit(f"{len(fresh)} fresh items cannot serve {runs} runs")
    with scratch("schemanav-speed-") as base:
        warm = [base / f"warm{number}" for number in range(len(sources))]
        if not cold:
            for src, cache in zip(sources, warm, strict=True):
                run([*args, *fresh[:1]], src, cache, code)  # fill the cache once
        for attempt in range(runs):
            for number, src in enumerate(sources):
                cache = base / f"cold{number}-{attempt}" if cold else warm[number]
                asked = [*args, *fresh[attempt + 1 : attempt + 2]]
                samples[number].append(run(asked, src, cache, code))
                if cold:
                    shutil.rmtree(cache, ignore_errors=True)
    wall = [statistics.median(wall for wall, _ in times) for times in samples]
    cpu = [statistics.median(cpu for _, cpu in times) for times in samples]
    return wall, cpu


def cells(values: list[float], digits: int = 2) -> str:
    shown = [f"{value:.{digits}f}" for value in values]
    if len(values) == 2 and values[1]:
        shown.append(f"×{values[0] / values[1]:.2f}")
    return " | ".join(shown)


def header(columns: list[str], against: bool, measures: tuple[str, ...] = ("",)) -> None:
    names = columns[:1]
    for measure in measures:
        names += [f"{measure}this checkout", *([f"{measure}--against", "ratio"] if against else [])]
    names += columns[1:]
    print("| " + " | ".join(names) + " |")
    print("|" + "---|" * len(names))


def command_table(sources: list[Path], runs: int, only: str = "") -> None:
    print(f"Whole process, median seconds of {runs} runs (wall, then CPU)")
    print()
    header(["command", "target", "met (wall / CPU)"], len(sources) > 1, ("wall ", "CPU "))
    for case in cases():
        if only not in case.label:
            continue
        wall, cpu = medians(
            case.args, sources, runs, cold=case.cold, fresh=case.fresh, code=case.code
        )
        target, met = "", ""
        if case.target is not None:
            target = f"≤ {case.target}"
            met = " / ".join("yes" if value <= case.target else "no" for value in (wall[0], cpu[0]))
        print(f"| `{case.label}` | {cells(wall)} | {cells(cpu)} | {target} | {met} |", flush=True)


def cold_scaling(schemas: dict[int, Path], sources: list[Path], runs: int) -> None:
    print()
    print(f"Cold `search` (structural) on GitHub copied ×1/×2/×4, median of {runs} runs (CPU s)")
    print()
    times: dict[int, list[float]] = {}
    header(["schema", "growth per doubling (this checkout)"], len(sources) > 1)
    for size, schema in schemas.items():
        args = ["search", QUESTION, "--schema", str(schema)]
        times[size] = medians(args, sources, runs, cold=True)[1]
        growth = ""
        if size > 1:
            ratio = times[size][0] / times[size // 2][0]
            verdict = "ok" if ratio <= MAX_GROWTH_PER_DOUBLING else "too steep"
            growth = f"×{ratio:.2f} ({verdict}, ≤ ×{MAX_GROWTH_PER_DOUBLING})"
        print(f"| GitHub ×{size} | {cells(times[size])} | {growth} |", flush=True)


def scaling_table(sources: list[Path], runs: int, *, cold: bool = True) -> None:
    with scratch("schemanav-scale-") as folder:
        schemas = {1: GITHUB}
        for size, copies in ((2, 1), (4, 3)):
            schemas[size] = folder / f"github-x{size}.graphqls"
            subprocess.run(
                [
                    sys.executable,
                    str(ROOT / "scripts" / "synthetic_large_schema.py"),
                    str(schemas[size]),
                    "--copies",
                    str(copies),
                ],
                check=True,
                capture_output=True,
                env={**os.environ, "PYTHONPATH": str(SRC)},
            )
        if cold:
            cold_scaling(schemas, sources, runs)
        print()
        print(f"Warm `search` (structural) on the same schemas, median of {runs} runs (s)")
        print()
        header(["schema", "target", "met (wall / CPU)"], len(sources) > 1, ("wall ", "CPU "))
        targets = {1: WARM_SEARCH_X1, 2: WARM_SEARCH, 4: WARM_SEARCH_X4}
        for size, schema in schemas.items():
            args = ["search", QUESTION, "--schema", str(schema)]
            wall, cpu = medians(args, sources, runs, cold=False)
            target = targets[size]
            met = " / ".join("yes" if value <= target else "no" for value in (wall[0], cpu[0]))
            print(
                f"| GitHub ×{size} | {cells(wall)} | {cells(cpu)} | ≤ {target} | {met} |",
                flush=True,
            )


def per_query_table(sources: list[Path]) -> None:
    print()
    print("CPU per structural query on GitHub, in process (best of 3 passes over 200 questions)")
    print()
    results: list[dict[str, tuple[str, float]]] = []
    with scratch("schemanav-query-") as cache:
        for src in sources:
            # Each source reads a warm cache: one that parsed the schema in the measuring
            # process would keep the parsed schema alive, and every collection would walk it.
            run(["search", QUESTION, "--schema", str(GITHUB)], src, cache)
            env = _environment(src)
            out = subprocess.run(
                [sys.executable, "-c", PER_QUERY, str(GITHUB), str(GITHUB_TSV), str(cache)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
            ).stdout
            results.append(
                {
                    line.split()[0]: (line.split()[1], float(line.split()[2]))
                    for line in out.splitlines()
                }
            )
    header(["query", "target (ms)"], len(sources) > 1)
    for label in ("search", "bench"):
        depth = results[0][label][0]
        values = [result[label][1] for result in results]
        print(f"| {label}, depth {depth} | {cells(values)} | ≤ 2 |")


EMBED_QUERY = r"""
import statistics, sys, time
from pathlib import Path
from schemanav.bench.labelled import load_labelled
from schemanav.retrieval.embedders import SentenceTransformerEmbedder

questions = [q.question for q in load_labelled(Path(sys.argv[1]))][:40]
embedder = SentenceTransformerEmbedder()
embedder.embed_query(questions[0])
ways = {
    "query": embedder.embed_query,  # what a search does
    "pool": lambda text: embedder._encode([text], embedder.query_prompt_name),  # torch's threads
}
times = {name: [] for name in ways}
for question in questions:
    for name, embed in ways.items():
        started = time.perf_counter()
        embed(question)
        times[name].append(time.perf_counter() - started)
for name, samples in times.items():
    print(name, statistics.median(samples) * 1000)
"""


def embedding_table() -> None:
    """Wall ms of embedding one question in process (embedding-local's default model), as a
    search does it and on torch's default thread pool; skipped without the `local` extra."""
    done = subprocess.run(
        [sys.executable, "-c", EMBED_QUERY, str(GITHUB_TSV)],
        env=_environment(SRC),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode:
        print(f"\n(embedding-local not measured: {done.stderr.strip().splitlines()[-1:]})")
        return
    medians = {line.split()[0]: float(line.split()[1]) for line in done.stdout.splitlines()}
    print()
    print("Embedding one question in process, all-MiniLM-L6-v2 (median wall ms of 40)")
    print()
    print("| as a search does (one torch thread) | on torch's default threads | ratio |")
    print("|---|---|---|")
    one, pool = medians["query"], medians["pool"]
    print(f"| {one:.1f} | {pool:.1f} | ×{one / pool:.2f} |")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="runs per case (default 5)")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="SRC",
        help="another checkout's src/ directory, measured in the same run for comparison",
    )
    parser.add_argument("--skip-scaling", action="store_true", help="skip the ×1/×2/×4 check")
    parser.add_argument(
        "--warm-scaling-only",
        action="store_true",
        help="of the ×1/×2/×4 check, only the warm searches (issue 43's targets)",
    )
    parser.add_argument("--skip-commands", action="store_true", help="skip the command table")
    parser.add_argument(
        "--only", default="", metavar="TEXT", help="only the commands whose label holds TEXT"
    )
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="run every process without compiled bytecode of src (PYTHONDONTWRITEBYTECODE=1)",
    )
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    for needed in (GITHUB, GITHUB_TSV):
        if not needed.exists():
            parser.error(f"{needed} is missing: run bash scripts/fetch-wg-benchmark.sh first")
    sources = [SRC]
    if args.against is not None:
        if not (args.against / "schemanav" / "__init__.py").exists():
            parser.error(f"--against {args.against}: no schemanav package there")
        sources.append(args.against.resolve())
    with scratch("schemanav-bytecode-") as bytecode:
        compile_sources(sources, None if args.no_bytecode else bytecode)
        print(
            "Bytecode: " + ("none (PYTHONDONTWRITEBYTECODE=1)" if args.no_bytecode else "compiled")
        )
        print()
        if not args.skip_commands:
            command_table(sources, args.runs, args.only)
        if not args.skip_scaling:
            scaling_table(sources, args.runs, cold=not args.warm_scaling_only)
        per_query_table(sources)
        embedding_table()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
