"""Every figure the README and docs/ quote, printed again by the command beside it.

A quoted figure sits in a marked block: an HTML comment (invisible on GitHub) holding the
command, right before the output it printed, as cog does for simonw/llm's docs:

    <!-- check: schemanav define Movie.title -->
    ```
    # Movie.title
    ...
    ```

- The block after the marker (a fenced block, a markdown table, or the lines between a
  `<!-- generated … -->` and a `<!-- end of the generated … -->` line) must be what the
  command prints on stdout, line for line. A line that starts with `…` (`…`, `…the cost
  lines…`; a table row never) stands for any lines (an excerpt); a table is compared cell by
  cell, its header and separator included when the command prints them (else its rows alone),
  a column headed `s`, `ms` or `time` skipped.
- A marker with `expect:` lines checks figures quoted in prose instead: each text must appear
  in the command's output.

      <!-- check: schemanav corpus --json
      expect: "sdl_tokens": 1929 -->

- A marker whose command is `$` (`<!-- check fast: $ -->`, or `$ SET-UP COMMAND`) replays a
  transcript: every `$ ` line of the fenced block is run in one bash session and must be
  followed by what it printed (stdout and stderr); the set-up runs first, silently.
- `check fast:` marks a command that takes seconds (the Movie DB, define, build, diff,
  validate, help); `--fast` runs only those (what `.ci/run` runs). The full run is what to
  run before quoting a figure.
- Timings are never compared: `0.25 s`, `12 ms`, `3.1 seconds` match any other timing.

Commands run with bash in the repository root, this Python's folder first on PATH, output
piped (so plain columns, 80 columns wide). `--update` writes each fenced block or table anew
from its command's output; it touches nothing outside a marked block, so hand-written text is
never deleted (an excerpt, with `…`, is left for a person to shorten again).

    python scripts/check_docs.py [--fast] [--update] [--list] [FILE…]

Exit 0 when every block matches, 1 when one differs (each difference printed), 2 on a
marker without a block.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^<!-- check( fast)?:\s*(.*?)\s*(-->)?$")
EXPECT = re.compile(r"^\s*expect:\s*(.*?)\s*(-->)?$")
TIMING = re.compile(r"\d[\d,]*(?:\.\d+)?\s?(?:ms|s|seconds|sec)\b")
TIME_HEADER = re.compile(r"^(?:s|ms|time|seconds|wall s)$")
ELLIPSIS = "…"


@dataclass
class Block:
    """One marked block: where it is, its command and what it must print."""

    path: Path
    line: int  # 1-based line of the marker
    command: str
    fast: bool
    expects: list[str]
    start: int = 0  # 0-based index of the block's first content line (after its fence)
    end: int = 0  # 0-based index one past its last content line
    kind: str = "expect"  # "fenced", "table" or "expect"

    @property
    def where(self) -> str:
        shown = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{shown}:{self.line}"


def documents() -> list[Path]:
    return [
        ROOT / "README.md",
        *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "benchmarks").glob("*.md")),
    ]


def parse(path: Path, lines: Sequence[str]) -> Iterator[Block]:
    """The marked blocks of one document, in order."""
    number = 0
    while number < len(lines):
        found = MARKER.match(lines[number])
        if not found:
            number += 1
            continue
        block = Block(path, number + 1, found.group(2), bool(found.group(1)), [])
        closed = bool(found.group(3))
        while not closed:
            number += 1
            if number >= len(lines):
                raise SystemExit(f"{block.where}: the marker is never closed with -->")
            expect = EXPECT.match(lines[number])
            if expect is None:
                raise SystemExit(f"{block.where}: a marker line is neither `expect:` nor -->")
            if expect.group(1):
                block.expects.append(expect.group(1))
            closed = bool(expect.group(2))
        number += 1
        if block.expects:
            yield block
            continue
        while number < len(lines) and not lines[number].strip():
            number += 1
        if number < len(lines) and lines[number].startswith("```"):
            block.kind, block.start = "fenced", number + 1
            end = block.start
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            block.end = end
        elif number < len(lines) and lines[number].startswith("<!-- generated"):
            block.kind, block.start = "region", number + 1
            end = block.start
            while end < len(lines) and not lines[end].startswith("<!-- end of the generated"):
                end += 1
            block.end = end
        elif number < len(lines) and lines[number].startswith("|"):
            block.kind, block.start = "table", number
            end = number
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            block.end = end
        else:
            print(f"{block.where}: no block follows the marker", file=sys.stderr)
            raise SystemExit(2)
        number = block.end
        yield block


def transcript(block: Block, lines: Sequence[str]) -> str:
    """The bash script that replays a transcript block: each `$ ` line (with its `\\`
    continuations) printed as it stands, then run with its stderr on stdout. The marker's
    command after `$` is run first, silently (a set-up; jobs it starts end with the script)."""
    import shlex

    script = ["trap 'kill $(jobs -p) 2>/dev/null' EXIT"]
    setup = block.command[1:].strip()
    if setup:
        script.append(f"{{ {setup} ; }} >/dev/null 2>&1")
    shown = list(lines[block.start : block.end])
    number = 0
    while number < len(shown):
        line = shown[number]
        if not line.startswith("$ "):
            number += 1
            continue
        typed = [line]
        while typed[-1].endswith("\\") and number + 1 < len(shown):
            number += 1
            typed.append(shown[number])
        text = "\n".join(typed)
        script.append(f"printf '%s\\n' {shlex.quote(text)}")
        script.append(f"{{ {text[2:]}\n}} 2>&1")
        number += 1
    return "\n".join(script)


def run(command: str) -> tuple[int, str]:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": "80",
        "NO_COLOR": "1",
        "TERM": "dumb",
    }
    done = subprocess.run(
        ["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout


def _untimed(line: str) -> str:
    return TIMING.sub("<time>", line.rstrip())


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def matches(expected: Sequence[str], printed: Sequence[str]) -> bool:
    """Line for line, a `…` line standing for any lines (none included). Linear in both: the
    positions of the output each prefix of the block can reach, one line at a time."""
    reach = {0}
    for line in expected:
        if line == ELLIPSIS:
            reach = set(range(min(reach), len(printed) + 1))
        else:
            reach = {at + 1 for at in reach if at < len(printed) and printed[at] == line}
        if not reach:
            return False
    return len(printed) in reach


def compare(block: Block, lines: Sequence[str], output: str) -> list[str]:
    """What differs between the block and the command's output (nothing when they match)."""
    printed = output.rstrip("\n").split("\n") if output.strip() else []
    if block.kind == "expect":
        missing = [text for text in block.expects if text not in output]
        return [f"the output does not hold {text!r}" for text in missing]
    shown = list(lines[block.start : block.end])
    if block.kind == "table":
        header = _cells(shown[0])
        timed = {i for i, name in enumerate(header) if TIME_HEADER.match(name)}
        if not _has_separator(printed):
            shown = shown[2:]  # the command prints the rows only
        expected = [_blank(_cells(row), timed) for row in shown]
        got = [_blank(_cells(row), timed) for row in printed]
    else:
        expected, got = _normalised(shown, excerpt=True), _normalised(printed)
    if matches(expected, got):
        return []
    return _difference(expected, got)


def _normalised(lines: Sequence[str], *, excerpt: bool = False) -> list[str]:
    """Timings blanked: in prose (`0.25 s`) and in the timing columns of any table. In the
    block (`excerpt`), a line that starts with `…` and is not a table row (`| …paths | 0.1 |`
    is compared) stands for any lines: it becomes `…` itself (`…the cost lines…` says which)."""
    found: list[str] = []
    timed: set[int] = set()
    for number, line in enumerate(lines):
        if excerpt and line.lstrip().startswith(ELLIPSIS):
            found.append(ELLIPSIS)
        elif line.startswith("|"):
            if number == 0 or not lines[number - 1].startswith("|"):
                timed = {i for i, name in enumerate(_cells(line)) if TIME_HEADER.match(name)}
            found.append(_blank(_cells(line), timed))
        else:
            found.append(_untimed(line))
    return found


def _has_separator(lines: Sequence[str]) -> bool:
    """Whether these lines hold a table's header (its `|---|` line second)."""
    return len(lines) > 1 and set(lines[1]) <= set("|-: ")


def _blank(cells: list[str], timed: set[int]) -> str:
    return " | ".join("<time>" if i in timed else c for i, c in enumerate(cells))


def _difference(expected: Sequence[str], got: Sequence[str]) -> list[str]:
    import difflib

    return list(
        difflib.unified_diff(expected, got, "the document", "the command", lineterm="", n=1)
    )[:40]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="documents (default: all)")
    parser.add_argument("--fast", action="store_true", help="only the blocks marked fast")
    parser.add_argument("--update", action="store_true", help="write blocks from the output")
    parser.add_argument("--list", action="store_true", help="list the blocks, run nothing")
    args = parser.parse_args(argv)
    paths = [path.resolve() for path in args.files] or documents()
    failed = checked = 0
    for path in paths:
        lines = path.read_text(encoding="utf-8").split("\n")
        blocks = [block for block in parse(path, lines) if block.fast or not args.fast]
        changed = False
        for block in reversed(blocks):  # from the end, so an update keeps earlier positions
            if args.list:
                print(f"{block.where}: {'fast ' if block.fast else ''}{block.command}")
                continue
            started = time.perf_counter()
            is_transcript = block.command.startswith("$") and block.kind == "fenced"
            code, output = run(transcript(block, lines) if is_transcript else block.command)
            checked += 1
            problems = compare(block, lines, output)
            took = time.perf_counter() - started
            if not problems:
                print(f"ok      {block.where} ({took:.1f} s): {block.command}")
                continue
            if args.update and block.kind != "expect":
                printed = output.rstrip("\n").split("\n")
                start = block.start
                if block.kind == "table" and not _has_separator(printed):
                    start += 2  # the command prints the rows only: the header stays
                lines[start : block.end] = printed
                changed = True
                print(f"updated {block.where}: {block.command}")
                continue
            failed += 1
            print(f"DIFFERS {block.where} (exit {code}): {block.command}")
            for line in problems:
                print(f"    {line}")
        if changed:
            path.write_text("\n".join(lines), encoding="utf-8")
    if not args.list:
        print(f"{checked} blocks checked, {failed} differ")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
