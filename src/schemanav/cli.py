"""The `schemanav` command line: parse flags, call the library, render its records.

Every command takes its options from flags, `SCHEMANAV_…` environment variables and
`schemanav.toml` (in that order of precedence); only flags the user gave are passed on.
"""

from __future__ import annotations

import gc
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


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"schemanav {version('schemanav')}")
        raise typer.Exit()


@app.callback()
def _main(
    show_version: Annotated[
        bool | None,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = None,
) -> None:
    """Measure how well, and how cheaply, an agent can navigate a GraphQL schema.
    Token counts are o200k_base."""


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

# Retrieval options shared by search, bench and agent (each also SCHEMANAV_<NAME> and a key
# of schemanav.toml; the defaults live in schemanav.settings).
CacheDirOption = Annotated[
    str | None,
    typer.Option("--cache-dir", help="Corpus, index and vector caches [default: user cache dir]"),
]
TokenizerOption = Annotated[
    str | None,
    typer.Option("--tokenizer", help="BM25 tokenizer: default, en_stem, camel_stem [en_stem]"),
]
MaxPathsOption = Annotated[
    int | None, typer.Option("--max-paths", help="Paths to root shown per hit [default: 2]")
]
OllamaHostOption = Annotated[
    str | None,
    typer.Option("--ollama-host", help="Ollama URL [default: $OLLAMA_HOST or 127.0.0.1:11434]"),
]
EmbeddingModelOption = Annotated[
    str | None,
    typer.Option(
        "--embedding-model", help="Ollama embedding model [default: qwen3-graphql-embedder]"
    ),
]
EmbeddingBatchOption = Annotated[
    int | None,
    typer.Option("--embedding-batch-size", help="Texts per /api/embed call [default: 32]"),
]
EmbeddingTimeoutOption = Annotated[
    float | None,
    typer.Option("--embedding-timeout", help="Seconds per embedding request [default: 120]"),
]
QueryPrefixOption = Annotated[
    str | None,
    typer.Option(
        "--query-prefix", help="Prepended to questions [default: the Qwen3-Embedding instruction]"
    ),
]
DocumentPrefixOption = Annotated[
    str | None,
    typer.Option("--document-prefix", help="Prepended to corpus entries [default: none]"),
]
LocalModelOption = Annotated[
    str | None,
    typer.Option(
        "--local-model", help="sentence-transformers model or path [default: all-MiniLM-L6-v2]"
    ),
]


def _stderr() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


def _stdout() -> Console:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True, emoji=False)


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
        from schemanav.corpus import Format
        from schemanav.navigator import Navigator

        settings = _settings(schema=schema, header=header, timeout=timeout)
        navigator = Navigator(settings, _Reporter())
        price = navigator.price()
        the_corpus = navigator.corpus
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
        str | None, typer.Option("--backend", help="Retrieval backend [default: structural]")
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
    tokenizer: TokenizerOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    ollama_host: OllamaHostOption = None,
    embedding_model: EmbeddingModelOption = None,
    embedding_batch_size: EmbeddingBatchOption = None,
    embedding_timeout: EmbeddingTimeoutOption = None,
    query_prefix: QueryPrefixOption = None,
    document_prefix: DocumentPrefixOption = None,
    local_model: LocalModelOption = None,
    as_json: JsonOption = False,
) -> None:
    """Ask one question; print the ranked coordinates with the token cost of every hit."""
    with _user_errors():
        from schemanav.navigator import Navigator

        settings = _settings(
            schema=schema,
            header=header,
            timeout=timeout,
            backend=backend,
            format=fmt,
            k=k,
            budget=budget,
            bm25_tokenizer=tokenizer,
            cache_dir=cache_dir,
            max_paths=max_paths,
            ollama_host=ollama_host,
            embedding_model=embedding_model,
            embedding_batch_size=embedding_batch_size,
            embedding_timeout=embedding_timeout,
            query_prefix=query_prefix,
            document_prefix=document_prefix,
            local_model=local_model,
        )
        result = Navigator(settings, _Reporter()).search(question)
        if as_json:
            if not result.hits:
                _stderr().print(result.empty_reason or "no hits", markup=False)
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
    # Coordinates are never elided; a long path from the root wraps instead.
    widest = max(len(hit.coordinate) for hit in result.hits)
    table.add_column("rank", justify="right", no_wrap=True)
    table.add_column("coordinate", no_wrap=True, min_width=widest)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("tokens", justify="right", no_wrap=True)
    table.add_column("via (path from the root)", overflow="fold")
    for hit in result.hits:
        path = ""
        if hit.paths_to_root:
            path = " → ".join(hit.paths_to_root[0][:-1]) or "(root field)"
        table.add_row(str(hit.rank), hit.coordinate, f"{hit.score:.3f}", str(hit.tokens), path)
    out.print(table)
    budget = f" (budget {result.budget:,})" if result.budget else ""
    out.print(
        f"{len(result.hits)} hits, {result.total_tokens:,} tokens ({result.encoding}){budget}"
    )


@app.command()
def bench(
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    bench_file: Annotated[
        str | None,
        typer.Option(
            "--bench-file",
            help="Labelled TSV: question<TAB>Type.field[,Type.field…] "
            "[default: bundled Movie DB questions]",
            show_default=False,
        ),
    ] = None,
    backend: Annotated[
        str | None,
        typer.Option("--backend", help="Backend(s), comma-separated [default: structural]"),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format", help="Corpus rendering(s), comma-separated [default: DOT_PLUS_GLOSS]"
        ),
    ] = None,
    ks: Annotated[
        str | None, typer.Option("--ks", help="Recall cutoffs k [default: 1,5,10,20,50]")
    ] = None,
    budgets: Annotated[
        str | None,
        typer.Option("--budgets", help="Token budgets [default: 125,250,500,1000,2000]"),
    ] = None,
    tokenizer: TokenizerOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    ollama_host: OllamaHostOption = None,
    embedding_model: EmbeddingModelOption = None,
    embedding_batch_size: EmbeddingBatchOption = None,
    embedding_timeout: EmbeddingTimeoutOption = None,
    query_prefix: QueryPrefixOption = None,
    document_prefix: DocumentPrefixOption = None,
    local_model: LocalModelOption = None,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="Refuse expected coordinates the schema does not have."),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print one JSON object (with per-question results)."),
    ] = False,
    markdown: Annotated[
        str | None,
        typer.Option("--markdown", help="Also write the tables as markdown to this file."),
    ] = None,
    plot: Annotated[
        str | None,
        typer.Option("--plot", help="Also draw recall charts (SVG) into this folder."),
    ] = None,
) -> None:
    """Score labelled questions: recall@k, MRR, token cost and budget sweeps per
    backend × format."""
    with _user_errors():
        from pathlib import Path

        from schemanav.bench.report import print_tables, write_markdown
        from schemanav.bench.runner import parse_formats, run_bench, split_list

        settings = _settings(
            schema=schema,
            header=header,
            timeout=timeout,
            bench_file=bench_file,
            backend=backend,
            format=fmt,
            ks=ks,
            budgets=budgets,
            bm25_tokenizer=tokenizer,
            strict=strict or None,
            cache_dir=cache_dir,
            max_paths=max_paths,
            ollama_host=ollama_host,
            embedding_model=embedding_model,
            embedding_batch_size=embedding_batch_size,
            embedding_timeout=embedding_timeout,
            query_prefix=query_prefix,
            document_prefix=document_prefix,
            local_model=local_model,
        )
        reporter = _Reporter()
        report = run_bench(
            settings,
            backends=split_list(settings.backend),
            formats=parse_formats(settings.format),
            events=reporter,
        )
        if markdown is not None:
            write_markdown(report, Path(markdown))
            reporter.note(f"wrote {markdown}")
        if plot is not None:
            from schemanav.bench.plot import write_plots

            for path in write_plots(report, Path(plot)):
                reporter.note(f"wrote {path}")
        if as_json:
            _print_json(report.as_dict())
            return
        print_tables(_stdout(), report)


@app.command()
def agent(
    task: Annotated[str, typer.Argument(help="What the agent should find out, in any words.")],
    schema: SchemaOption = None,
    header: Annotated[
        list[str] | None,
        typer.Option(
            "--header",
            help="'Name: value' sent with introspection and --endpoint requests "
            "(repeatable; never printed)",
            show_default=False,
        ),
    ] = None,
    timeout: TimeoutOption = None,
    model: Annotated[
        str | None, typer.Option("--model", help="Ollama chat model [default: qwen3:8b]")
    ] = None,
    backend: Annotated[
        str | None, typer.Option("--backend", help="Backend of searchSchema [default: structural]")
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format", help="Corpus rendering searchSchema shows [default: DOT_PLUS_GLOSS]"
        ),
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option("--budget", help="Tokens of hits per searchSchema call [default: 500]"),
    ] = None,
    inline: Annotated[
        bool,
        typer.Option(
            "--inline", help="Put the whole schema SDL in the system message; offer only execution."
        ),
    ] = False,
    max_calls: Annotated[
        int | None, typer.Option("--max-calls", help="Most model calls per run [default: 12]")
    ] = None,
    num_ctx: Annotated[
        int | None,
        typer.Option("--num-ctx", help="Context window sent to Ollama [default: the model's]"),
    ] = None,
    endpoint: Annotated[
        str | None,
        typer.Option("--endpoint", help="GraphQL URL that runs valid operations [default: none]"),
    ] = None,
    allow_mutations: Annotated[
        bool, typer.Option("--allow-mutations", help="Let executeGraphql run mutations.")
    ] = False,
    response_token_cap: Annotated[
        int | None,
        typer.Option("--response-token-cap", help="Tokens of an endpoint response [default: 2000]"),
    ] = None,
    tokenizer: TokenizerOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    ollama_host: OllamaHostOption = None,
    embedding_model: EmbeddingModelOption = None,
    embedding_batch_size: EmbeddingBatchOption = None,
    embedding_timeout: EmbeddingTimeoutOption = None,
    query_prefix: QueryPrefixOption = None,
    document_prefix: DocumentPrefixOption = None,
    local_model: LocalModelOption = None,
    chat_timeout: Annotated[
        float | None,
        typer.Option("--chat-timeout", help="Seconds per model call [default: 600]"),
    ] = None,
    transcript: Annotated[
        str | None,
        typer.Option(
            "--transcript", help="Write the whole conversation as JSON here.", show_default=False
        ),
    ] = None,
    receipt_json: Annotated[
        str | None,
        typer.Option(
            "--receipt-json", help="Write the context receipt as JSON here.", show_default=False
        ),
    ] = None,
) -> None:
    """Let a local Ollama model answer TASK with searchSchema / introspectType / executeGraphql
    (or with the whole schema inline), and print the context receipt of the run."""
    with _user_errors():
        from schemanav.agent import run_agent
        from schemanav.errors import SchemanavError

        settings = _settings(
            schema=schema,
            header=header,
            timeout=timeout,
            model=model,
            backend=backend,
            format=fmt,
            budget=budget,
            max_calls=max_calls,
            num_ctx=num_ctx,
            endpoint=endpoint,
            allow_mutations=allow_mutations or None,
            response_token_cap=response_token_cap,
            bm25_tokenizer=tokenizer,
            chat_timeout=chat_timeout,
            cache_dir=cache_dir,
            max_paths=max_paths,
            ollama_host=ollama_host,
            embedding_model=embedding_model,
            embedding_batch_size=embedding_batch_size,
            embedding_timeout=embedding_timeout,
            query_prefix=query_prefix,
            document_prefix=document_prefix,
            local_model=local_model,
        )
        run = run_agent(task, settings, inline=inline, events=_Reporter())
        if transcript is not None:
            _write_json(transcript, run.transcript)
        if receipt_json is not None:
            _write_json(receipt_json, run.receipt.as_dict())
        _render_receipt(run.receipt)
        if run.receipt.error is not None:
            raise SchemanavError(run.receipt.error)


def _write_json(path: str, payload: object) -> None:
    from pathlib import Path

    from schemanav.errors import InputError

    try:
        Path(path).write_text(
            json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    except OSError as err:
        raise InputError(f"cannot write {path}: {err.strerror}") from None


def _render_receipt(receipt: Any) -> None:
    from rich.table import Table

    out = _stdout()
    if receipt.answer is not None:
        out.print("answer:", markup=False)
        out.print(receipt.answer, markup=False)
        out.print()
    table = Table(
        title=f"Context receipt · {receipt.mode} · {receipt.model} · num_ctx {receipt.num_ctx:,}",
        title_justify="left",
    )
    table.add_column("what")
    table.add_column("tokens", justify="right")
    table.add_row("model calls", f"{receipt.model_calls:,}")
    table.add_row("prompt tokens (provider, summed over calls)", f"{receipt.prompt_tokens:,}")
    table.add_row("completion tokens (provider)", f"{receipt.completion_tokens:,}")
    table.add_row("tool payload tokens (o200k_base)", f"{receipt.tool_payload_tokens:,}")
    table.add_row(
        "whole DOT_PLUS_GLOSS corpus, per call if handed over", f"{receipt.whole_corpus_tokens:,}"
    )
    if receipt.mode == "inline":
        table.add_row(
            "schema SDL in the prompt, every call", f"{receipt.schema_in_prompt_tokens:,}"
        )
    out.print(table)
    if receipt.tool_calls:
        calls = Table(title="Tool calls", title_justify="left")
        calls.add_column("#", justify="right")
        calls.add_column("tool")
        calls.add_column("arguments", overflow="fold")
        calls.add_column("tokens", justify="right")
        calls.add_column("ok")
        for number, call in enumerate(receipt.tool_calls, start=1):
            arguments = (
                call.arguments
                if isinstance(call.arguments, str)
                else json.dumps(call.arguments, ensure_ascii=False)
            )
            calls.add_row(
                str(number),
                call.name,
                arguments,
                f"{call.payload_tokens:,}",
                "yes" if call.ok else "no",
            )
        out.print(calls)
    endings = {
        "answered": "the model answered",
        "max_calls": f"stopped at the call limit ({receipt.model_calls} calls) without an answer",
        "error": "stopped by an error",
    }
    warned = len(receipt.truncation_warnings)
    suffix = f"; {warned} truncation warning(s)" if warned else ""
    out.print(f"ended: {endings[receipt.stopped]}{suffix}", markup=False)


@app.command()
def define(
    coordinates: Annotated[
        list[str],
        typer.Argument(
            help="Schema coordinates: Type, Type.field, Type.field(arg:), Enum.VALUE, @directive"
        ),
    ],
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Introspection-shaped records instead of SDL.")
    ] = False,
) -> None:
    """Print the definitions of schema coordinates, in the order given (RFC __definitions)."""
    with _user_errors():
        from schemanav.navigator import Navigator

        settings = _settings(schema=schema, header=header, timeout=timeout)
        definitions = Navigator(settings, _Reporter()).define(coordinates)
        if as_json:
            _print_json([definition.as_dict() for definition in definitions])
        else:
            out = _stdout()
            for number, definition in enumerate(definitions):
                if definition.sdl is not None:
                    if number:
                        out.print()
                    out.print(f"# {definition.coordinate}", markup=False)
                    out.print(definition.sdl, markup=False)
        unknown = [d for d in definitions if d.error]
        for definition in unknown:
            hint = (
                f" (did you mean {', '.join(definition.did_you_mean)}?)"
                if definition.did_you_mean
                else ""
            )
            _stderr().print(
                f"error: {definition.coordinate}: {definition.error}{hint}", markup=False
            )
        if unknown:
            raise typer.Exit(1)


def main() -> None:
    try:
        app()
    finally:
        # Nothing is left to free: spare the interpreter's full collection at exit (seconds
        # once a large schema has been loaded).
        gc.freeze()
