#!/usr/bin/env python3
"""Retrieval and slice quality on every development schema, side by side, as Markdown.

Runs `schemanav bench --json --output list,slice` for each schema and label set and prints,
first, the summary table of docs/quality.md's "Where the Working Group's schemas stand", then one
section per schema, each table under the command that printed its figures:

- GitHub and GitLab: the GraphQL AI Working Group's questions, written by
  `bash scripts/fetch-wg-benchmark.sh --from ../shared/wg --schema NAME [--labels full]`;
  `fields` labels are the `Type.field` coordinates, `full` every `mustInclude` entry (the
  Working Group's "perfect": fields, arguments and types);
- the bundled Movie DB and its questions (field labels only).

Usage: `python scripts/quality_tables.py [--schemas github,gitlab,moviedb]`. docs/quality.md
holds its whole output in a marked block: `python scripts/check_docs.py docs/quality.md`
compares it, and with `--update` writes it anew (nothing outside the block is touched).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BUDGETS = (500, 1000, 2000, 4000, 8000, 16000)
KS = (1, 5, 10, 20, 50)
TITLES = {"github": "GitHub", "gitlab": "GitLab", "moviedb": "Movie DB"}


def runs(schema: str) -> list[tuple[str, list[str]]]:
    """(label set, the bench arguments) for one schema."""
    if schema == "moviedb":
        return [("fields", [])]
    found = []
    for labels, suffix in (("fields", ""), ("full", "-full")):
        tsv = ROOT / "benchmarks" / f"{schema}-wg{suffix}.tsv"
        if labels == "fields" and not tsv.exists():
            # The headline needs the full labels only (the README fetches those); the
            # sections of docs/quality.md compare both label sets when both are there.
            print(
                f"quality_tables: {tsv.relative_to(ROOT)} not fetched, so {schema}'s section "
                f"shows full labels only (bash scripts/fetch-wg-benchmark.sh --from "
                f"../shared/wg --schema {schema} adds the field labels)",
                file=sys.stderr,
            )
            continue
        found.append(
            (
                labels,
                [
                    "--schema",
                    f"schemas/{schema}-wg.graphqls",
                    "--bench-file",
                    f"benchmarks/{schema}-wg{suffix}.tsv",
                ],
            )
        )
    return found


def bench(arguments: list[str]) -> dict[str, Any]:
    command = [
        sys.executable,
        "-m",
        "schemanav",
        "bench",
        "-q",
        "--json",
        "--output",
        "list,slice",
        "--budgets",
        ",".join(map(str, BUDGETS)),
        *arguments,
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"quality_tables: {' '.join(command[2:])} failed: {done.stderr.strip()}")
    payload: dict[str, Any] = json.loads(done.stdout)
    return payload


def shown(arguments: list[str]) -> str:
    budgets = ",".join(map(str, BUDGETS))
    return f"schemanav bench --output list,slice --budgets {budgets} {' '.join(arguments)}"


def _score(value: float | None) -> str:
    """A score to three places; a slice has no rank, so no MRR or recall@k ("–")."""
    return "–" if value is None else f"{value:.3f}"


def table(results: list[tuple[str, list[str], dict[str, Any]]]) -> list[str]:
    head = " | ".join(f"≤{b:,}" for b in BUDGETS)
    lines = [
        f"| labels · output | MRR | R@50 | complete {head} |",
        "|---|---|---|" + "---|" * len(BUDGETS),
    ]
    for labels, _, payload in results:
        for row in payload["rows"]:
            complete = " | ".join(f"{row['budget_complete'][str(b)]:.3f}" for b in BUDGETS)
            lines.append(
                f"| {labels} · {row['output']} | {_score(row['mrr'])} | "
                f"{_score(row['recall']['50'])} | {complete} |"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schemas", default="github,gitlab,moviedb")
    args = parser.parse_args(argv)
    chosen = [name.strip() for name in args.schemas.split(",") if name.strip()]
    summary: list[str] = []
    sections: list[str] = []
    for schema in chosen:
        results = [(labels, arguments, bench(arguments)) for labels, arguments in runs(schema)]
        sections += [f"## {TITLES[schema]}", ""]
        for labels, arguments, payload in results:
            sections.append(
                f"`{shown(arguments)}` ({payload['questions']} questions, {labels} labels: "
                f"{payload['targets']:,} targets)"
            )
            sections.append("")
        sections += [*table(results), ""]
        labels, _, payload = results[-1]  # full labels where a schema has them
        rows = {row["output"]: row for row in payload["rows"]}
        cells = " | ".join(
            f"{rows['slice']['budget_complete'][str(b)]:.3f}" for b in BUDGETS
        )
        summary.append(f"| {TITLES[schema]} ({labels}) | {cells} | {rows['list']['mrr']:.3f} |")
    head = " | ".join(f"≤{b:,}" for b in BUDGETS)
    print(f"| schema (labels) | slice complete {head} | list MRR |")
    print("|---|" + "---|" * len(BUDGETS) + "---|")
    print("\n".join(summary))
    print()
    print("\n".join(sections))
    return 0


if __name__ == "__main__":
    sys.exit(main())
