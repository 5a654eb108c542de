"""The `schemanav` command line: parse flags, call the library, render its records.

Every command takes its options from flags, `SCHEMANAV_…` environment variables and
`schemanav.toml` (in that order of precedence); only flags the user gave are passed on.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from schemanav.settings import Settings

app = typer.Typer(
    name="schemanav",
    help="Measure how well, and how cheaply, an agent can navigate a GraphQL schema. "
    "Token counts are o200k_base.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

SchemaOption = Annotated[
    str | None,
    typer.Option(
        "--schema",
        help="SDL file, introspection JSON file or http(s) URL [default: bundled Movie DB]",
        show_default=False,
    ),
]
HeaderOption = Annotated[
    list[str] | None,
    typer.Option(
        "--header",
        help="'Name: value' sent with live introspection (repeatable; never printed)",
        show_default=False,
    ),
]
TimeoutOption = Annotated[
    float | None, typer.Option("--timeout", help="HTTP timeout in seconds [default: 30]")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]


def _stderr() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def _stdout() -> Console:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


@contextmanager
def _user_errors() -> Iterator[None]:
    """A `SchemanavError` becomes `error: …` on stderr and its exit code, never a traceback."""
    from schemanav.errors import SchemanavError

    try:
        yield
    except SchemanavError as err:
        _stderr().print(f"error: {err.message}", markup=False)
        raise typer.Exit(err.exit_code) from None
    except KeyboardInterrupt:
        _stderr().print("interrupted", markup=False)
        raise typer.Exit(130) from None


def _settings(**flags: Any) -> Settings:
    from schemanav.settings import load_settings

    return load_settings(**flags)


def _warn(message: str) -> None:
    _stderr().print(f"warning: {message}", markup=False)


def _warn_violations(violations: tuple[str, ...]) -> None:
    from schemanav.schema import describe_violations

    if violations:
        _warn(describe_violations(violations))


def _print_json(payload: object) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


@app.command()
def corpus(
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    show: Annotated[
        int, typer.Option("--show", min=0, help="Also print the first N entries of each format.")
    ] = 0,
    as_json: JsonOption = False,
) -> None:
    """Price a schema: coordinates, and tokens of the corpus in each format, of SDL and JSON."""
    with _user_errors():
        from schemanav.corpus import Format, build_corpus
        from schemanav.pricing import price_schema
        from schemanav.workspace import open_schema, schema_label

        settings = _settings(schema=schema, header=header, timeout=timeout)
        loaded = open_schema(settings)
        _warn_violations(loaded.violations)
        the_corpus = build_corpus(loaded.schema)
        price = price_schema(schema_label(settings), loaded, the_corpus)
        shown = {fmt.value: the_corpus.texts(fmt)[:show] for fmt in Format} if show else {}
        if as_json:
            payload = price.as_dict()
            if show:
                payload["shown"] = shown
            _print_json(payload)
            return
        _render_price(price, shown)


def _render_price(price: Any, shown: dict[str, list[str]]) -> None:
    from rich.table import Table

    out = _stdout()
    out.print(f"schema: {price.schema}", markup=False)
    out.print(f"coordinates: {price.coordinates:,} (fields of object and interface types)")
    table = Table(title=f"Tokens ({price.encoding})", title_justify="left")
    table.add_column("what")
    table.add_column("tokens", justify="right")
    for fmt, tokens in price.corpus_tokens.items():
        table.add_row(f"corpus {fmt}", f"{tokens:,}")
    table.add_row("schema as SDL text", f"{price.sdl_tokens:,}")
    table.add_row("schema as introspection JSON", f"{price.introspection_tokens:,}")
    out.print(table)
    for fmt, texts in shown.items():
        out.print(f"\nfirst {len(texts)} entries, {fmt}:")
        for text in texts:
            out.print(text, markup=False)


@app.command()
def search(
    question: Annotated[str, typer.Argument(help="The question, in any words.")],
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    backend: Annotated[
        str | None, typer.Option("--backend", help="Retrieval backend [default: bm25]")
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option("--format", help="Corpus rendering [default: DOT_PLUS_GLOSS]"),
    ] = None,
    k: Annotated[int | None, typer.Option("--k", help="Number of hits [default: 10]")] = None,
    budget: Annotated[
        int | None,
        typer.Option("--budget", help="Keep hits until the next would exceed this many tokens."),
    ] = None,
    tokenizer: Annotated[
        str | None, typer.Option("--tokenizer", help="BM25 tokenizer [default: en_stem]")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Ask one question; print the ranked coordinates with the token cost of every hit."""
    with _user_errors():
        from schemanav.search import run_search

        settings = _settings(
            schema=schema,
            header=header,
            timeout=timeout,
            backend=backend,
            format=fmt,
            k=k,
            budget=budget,
            bm25_tokenizer=tokenizer,
        )
        result = run_search(question, settings, on_event=_Reporter())
        if as_json:
            _print_json(result.as_dict())
            return
        _render_search(result)


class _Reporter:
    """Library events (warnings, notes, indexing progress) rendered on stderr."""

    def __init__(self) -> None:
        self._progress: Any = None
        self._task: Any = None

    def warning(self, message: str) -> None:
        _warn(message)

    def note(self, message: str) -> None:
        _stderr().print(message, markup=False)

    def progress(self, description: str, done: int, total: int) -> None:
        from rich.progress import Progress

        if self._progress is None:
            self._progress = Progress(console=_stderr(), transient=True)
            self._progress.start()
            self._task = self._progress.add_task(description, total=total)
        self._progress.update(self._task, completed=done, total=total, description=description)
        if done >= total:
            self._progress.stop()
            self._progress = None


def _render_search(result: Any) -> None:
    from rich.table import Table

    out = _stdout()
    if not result.hits:
        _stderr().print(result.empty_reason or "no hits", markup=False)
        return
    table = Table(
        title=f"{result.backend} · {result.format} · tokens in {result.encoding}",
        title_justify="left",
    )
    table.add_column("rank", justify="right")
    table.add_column("coordinate")
    table.add_column("score", justify="right")
    table.add_column("tokens", justify="right")
    for hit in result.hits:
        table.add_row(str(hit.rank), hit.coordinate, f"{hit.score:.3f}", str(hit.tokens))
    out.print(table)
    budget = f" (budget {result.budget:,})" if result.budget else ""
    out.print(
        f"{len(result.hits)} hits, {result.total_tokens:,} tokens ({result.encoding}){budget}"
    )


def main() -> None:
    app()
