"""Rich tables for the records every front end gets from the library.

Each function takes the same frozen record that `--json` prints (`SchemaPrice`,
`SearchResult`, `Receipt`, `Definition`s) and a console to print on; nothing here computes a
figure. The benchmark's tables are built beside its runner (`schemanav.bench.report`,
`schemanav.agentbench.report`) and printed from here or there.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from schemanav.text import strip_control
from schemanav.wording import counted

if TYPE_CHECKING:
    from rich.console import Console

    from schemanav.agent.receipt import Receipt
    from schemanav.agentbench.report import AgentBenchReport
    from schemanav.build import BuildResult
    from schemanav.corpus import SchemaPrice
    from schemanav.navigator import SearchResult, SliceResult
    from schemanav.schema.define import Definition


def render_price(out: Console, price: SchemaPrice, shown: Mapping[str, Sequence[str]]) -> None:
    """The token table of `schemanav corpus`, then the entries `--show` asked for."""
    from rich.table import Table

    out.print(f"schema: {strip_control(price.schema)}", markup=False)
    out.print(f"coordinates: {price.coordinates:,} (fields of object and interface types)")
    title = f"Tokens ({price.encoding})"
    rows = [(f"corpus {fmt}", f"{tokens:,}") for fmt, tokens in price.corpus_tokens.items()]
    rows.append(("schema as SDL text", f"{price.sdl_tokens:,}"))
    rows.append(("schema as introspection JSON", f"{price.introspection_tokens:,}"))
    if not out.is_terminal:
        _plain_columns(out, title, [("what", "tokens"), *rows], right_aligned={1})
    else:
        table = Table(title=title, title_justify="left")
        table.add_column("what")
        table.add_column("tokens", justify="right")
        for row in rows:
            table.add_row(*row)
        out.print(table)
    for fmt, texts in shown.items():
        out.print(f"\nfirst {len(texts)} entries, {fmt}:")
        for text in texts:
            out.print(strip_control(text), markup=False)


def render_slice(out: Console, piece: SliceResult) -> None:
    """The slice's SDL as it is, then one comment line with what it costs and holds."""
    if piece.sdl:
        _print_sdl(out, strip_control(piece.sdl).rstrip("\n"))
    summary = (
        f"# slice: {piece.tokens:,} of {piece.budget:,} tokens ({piece.encoding}), "
        f"{piece.hits} hits, {len(piece.fields)} fields, {len(piece.arguments)} arguments, "
        f"{len(piece.types)} types"
    )
    # A comment stays a comment when a terminal's width wraps it: every line starts with `#`.
    width = out.width if out.is_terminal else len(summary)
    for line in textwrap.wrap(summary, width=max(width, 20), subsequent_indent="# "):
        out.print(line, markup=False, soft_wrap=True)


def render_search(out: Console, result: SearchResult) -> None:
    """The ranked hits with their token cost and path from the root (nothing when no hits).

    Nothing is ever dropped or elided: on a terminal the path gets its own column when the
    table fits the width, else it goes under its coordinate; a pipe or a file gets plain
    aligned columns, one line per hit, however long.
    """
    if not result.hits:
        return
    title = strip_control(f"{result.backend} · {result.format} · tokens in {result.encoding}")
    header = ("rank", "coordinate", "score", "tokens", "via (path from the root)")
    rows = [
        (
            str(hit.rank),
            strip_control(hit.coordinate),
            f"{hit.score:.3f}",
            str(hit.tokens),
            _via(hit.paths_to_root),
        )
        for hit in result.hits
    ]
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(5)]
    if not out.is_terminal:
        _plain_columns(out, title, [header, *rows], right_aligned={0, 2, 3})
        _search_footer(out, result)
        return
    from rich.table import Table

    # The coordinate column of the stacked table: what the terminal leaves the other columns.
    room = out.width - (widths[0] + widths[2] + widths[3] + 3 * 4 + 1) - 2
    longest = max(len(name) for row in rows for name in (row[1], *row[4].split(" → ")))
    if sum(widths) + 3 * len(widths) + 1 > out.width and longest > room:
        _search_records(out, title, rows)  # a table would cut an identifier: one hit a block
    else:
        # A boxed table needs 3 characters per column and 1 more for its right edge.
        side_by_side = sum(widths) + 3 * len(widths) + 1 <= out.width
        table = Table(title=title, title_justify="left")
        table.add_column("rank", justify="right", no_wrap=True)
        table.add_column(
            "coordinate" if side_by_side else "coordinate / via (path from the root)",
            overflow="fold",
        )
        table.add_column("score", justify="right", no_wrap=True)
        table.add_column("tokens", justify="right", no_wrap=True)
        if side_by_side:
            table.add_column(header[4], overflow="fold")
        for rank, coordinate, score, tokens, via in rows:
            if side_by_side:
                table.add_row(rank, coordinate, score, tokens, via)
            else:
                table.add_row(
                    rank, f"{coordinate}\n  via {via}" if via else coordinate, score, tokens
                )
        out.print(table)
    _search_footer(out, result)


def _search_footer(out: Console, result: SearchResult) -> None:
    """How many hits, what they cost, and what the answer amounts to."""
    budget = f" (budget {result.budget:,})" if result.budget else ""
    out.print(
        f"{counted(len(result.hits), 'hit')}, {counted(result.total_tokens, 'token')} "
        f"({result.encoding}){budget}",
        markup=False,
    )
    if result.disposition is not None:
        out.print(f"disposition: {result.disposition}", markup=False)


def _search_records(out: Console, title: str, rows: Sequence[Sequence[str]]) -> None:
    """Hits as stacked records for a terminal too narrow for their identifiers: the rank and
    the coordinate on a line, its score and cost under it, then its path, wrapped between
    hops only, so no identifier is ever split."""
    from rich.text import Text

    out.print(title, markup=False)
    indent = " " * (len(rows[-1][0]) + 2)
    for rank, coordinate, score, tokens, via in rows:
        out.print(Text(f"{rank.rjust(len(indent) - 2)}  {coordinate}"), soft_wrap=True)
        out.print(f"{indent}score {score}, {tokens} tokens", markup=False)
        if via:
            out.print(Text(f"{indent}via {via}", overflow="ignore"), markup=False)


def _plain_columns(
    out: Console, title: str, rows: Sequence[Sequence[str]], *, right_aligned: set[int]
) -> None:
    """A table for a pipe or a file: the title, then aligned columns two spaces apart, one line
    per row, never wrapped or cut (every cell reaches the reader whole)."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    out.print(title, markup=False, soft_wrap=True)
    for row in rows:
        cells = [
            cell.rjust(width) if column in right_aligned else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        out.print("  ".join(cells).rstrip(), markup=False, soft_wrap=True)


def _via(paths_to_root: Sequence[Sequence[str]]) -> str:
    if not paths_to_root:
        return ""
    return strip_control(" → ".join(paths_to_root[0][:-1])) or "(root field)"


def render_receipt(out: Console, receipt: Receipt) -> None:
    """The answer, the context receipt, the tool calls and how the run ended."""

    if receipt.answer is not None:
        out.print("answer:", markup=False)
        out.print(strip_control(receipt.answer), markup=False)
        out.print()
    from schemanav.bench.report import TextTable, print_table

    rows = [
        ("model calls", f"{receipt.model_calls:,}"),
        ("prompt tokens (provider, summed over calls)", f"{receipt.prompt_tokens:,}"),
        ("completion tokens (provider)", f"{receipt.completion_tokens:,}"),
        ("tool payload tokens (o200k_base)", f"{receipt.tool_payload_tokens:,}"),
        (
            "whole DOT_PLUS_GLOSS corpus, per call if handed over",
            f"{receipt.whole_corpus_tokens:,}",
        ),
    ]
    if receipt.mode != "navigate":
        rows.append(
            ("schema SDL in the prompt, every call", f"{receipt.schema_in_prompt_tokens:,}")
        )
    title = strip_control(
        f"Context receipt · {receipt.mode} · {receipt.model} ({receipt.chat_api}) · "
        f"num_ctx {_window(receipt.num_ctx)}"
    )
    print_table(out, TextTable(title, ("what", "tokens"), (False, True), tuple(rows)))
    if receipt.tool_calls:
        calls = []
        for number, call in enumerate(receipt.tool_calls, start=1):
            arguments = (
                call.arguments
                if isinstance(call.arguments, str)
                else json.dumps(call.arguments, ensure_ascii=False)
            )
            calls.append(
                (
                    str(number),
                    strip_control(call.name),
                    strip_control(arguments),
                    f"{call.payload_tokens:,}",
                    "yes" if call.ok else "no",
                )
            )
        print_table(
            out,
            TextTable(
                "Tool calls",
                ("#", "tool", "arguments", "tokens", "ok"),
                (True, False, False, True, False),
                tuple(calls),
            ),
        )
    endings = {
        "answered": "the model answered",
        "max_calls": f"stopped at the call limit ({receipt.model_calls} calls) without an answer",
        "error": "stopped by an error",
        "refused": "the server refused the prompt as longer than the model's window",
    }
    warned = len(receipt.truncation_warnings)
    suffix = f"; {counted(warned, 'truncation warning')}" if warned else ""
    out.print(f"ended: {endings[receipt.stopped]}{suffix}", markup=False)


def render_definitions(out: Console, definitions: Sequence[Definition]) -> None:
    """The SDL of every known coordinate, in order, each under a `# coordinate` line."""
    for number, definition in enumerate(definitions):
        if definition.sdl is not None:
            if number:
                out.print()
            out.print(f"# {strip_control(definition.coordinate)}", markup=False, soft_wrap=True)
            _print_sdl(out, strip_control(definition.sdl))


def _print_sdl(out: Console, sdl: str) -> None:
    """SDL as it is; on a terminal, a line wider than it is broken between two tokens and
    continued two spaces further in, which is still the same SDL (whitespace and commas
    separate tokens alike). A line holding a string, or inside a block string (a description),
    is left whole: a break inside a string would change it."""
    if not out.is_terminal:
        out.print(sdl, markup=False, highlight=False, soft_wrap=True)
        return
    width = max(out.width, 20)
    in_block_string = False
    for line in sdl.split("\n"):
        pieces = [line]
        opens_or_closes = line.count('"""') % 2 == 1
        if len(line) > width and '"' not in line and not in_block_string:
            indent = " " * (len(line) - len(line.lstrip()) + 2)
            pieces = textwrap.wrap(
                line,
                width=width,
                subsequent_indent=indent,
                break_long_words=False,
                break_on_hyphens=False,
            )
        in_block_string ^= opens_or_closes
        for piece in pieces:
            out.print(piece, markup=False, highlight=False, soft_wrap=True)


def unknown_definition_errors(definitions: Sequence[Definition]) -> list[str]:
    """One `error: …` line per unknown coordinate, with its "did you mean"."""
    lines = []
    for definition in definitions:
        if definition.error:
            hint = (
                f" (did you mean {', '.join(definition.did_you_mean)}?)"
                if definition.did_you_mean
                else ""
            )
            lines.append(f"error: {definition.coordinate}: {definition.error}{hint}")
    return lines


def _window(num_ctx: int | None) -> str:
    return "not reported" if num_ctx is None else f"{num_ctx:,}"


def render_build(out: Console, err: Console, result: BuildResult) -> None:
    """`schemanav build`: the operation on stdout (unwrapped, it is code), on stderr its
    variables, the fixes and connections made, and what is wrong or missing."""
    out.print(result.operation, markup=False, soft_wrap=True)
    for variable in result.variables:
        line = f"variable ${variable.name}: {variable.type}  ({variable.argument})"
        for carried in variable.carries:
            line += f"\n  ${carried.at(variable.name)}  ({carried.coordinate})"
        err.print(line, markup=False)
    for fix in result.auto_fixes:
        err.print(f"auto-fix: {fix.coordinate} → {fix.replacement} ({fix.reason})", markup=False)
    if result.added:
        err.print("added to connect: " + ", ".join(result.added), markup=False)
    for warning in result.warnings:
        err.print(f"warning: {warning}", markup=False)
    for error in result.errors:
        err.print(f"error: {error}", markup=False)
    if result.missing:
        err.print("error: not in the operation: " + ", ".join(result.missing), markup=False)


def render_agent_bench(out: Console, report: AgentBenchReport) -> None:
    """`schemanav agent-bench`'s tables, a blank line apart: boxed when they fit the
    terminal, stacked records when they do not, plain columns on a pipe; never a figure or
    a name cut."""
    from schemanav.agentbench.report import tables
    from schemanav.bench.report import print_table

    for number, table in enumerate(tables(report)):
        if number:
            out.print()
        print_table(out, table)
