"""The `schemanav` command line: parse flags, call the library, render its records.

Every command takes its options from flags, `SCHEMANAV_…` environment variables and
`schemanav.toml` (in that order of precedence): the flags are `Settings` fields, and
`_settings` passes on only those the user gave (Click's parameter source), so an unset flag
never hides the environment or the file. Help texts and defaults come from
`schemanav.defaults`, where `Settings` takes them too. Backend-specific knobs are
`-o KEY VALUE`, validated by the chosen backend's options model.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand

from schemanav.defaults import SETTING_HELP

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

_OPTION_FLAGS = ("-o", "--option")
_PAIR_SEPARATOR = "\x1f"


class _Command(TyperCommand):
    """Reads `-o KEY VALUE` as one repeatable option of two values (Typer cannot declare a
    repeatable pair), by joining each pair into one value before Click parses the line."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        joined: list[str] = []
        position = 0
        while position < len(args):
            token = args[position]
            if token == "--":
                joined.extend(args[position:])
                break
            if token in _OPTION_FLAGS and position + 2 < len(args):
                key, value = args[position + 1], args[position + 2]
                joined.extend([token, f"{key}{_PAIR_SEPARATOR}{value}"])
                position += 3
                continue
            joined.append(token)
            position += 1
        result: list[str] = super().parse_args(ctx, joined)
        return result


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


def _flag(name: str, *declarations: str, **extra: Any) -> Any:
    """The flag of setting `name` (`--name-with-dashes`), its help text from the settings."""
    return typer.Option(
        *(declarations or (f"--{name.replace('_', '-')}",)),
        help=SETTING_HELP[name],
        show_default=False,
        **extra,
    )


# Every option below is a field of `Settings` under the parameter's own name.
SchemaOption = Annotated[str | None, _flag("schema")]
HeaderOption = Annotated[list[str] | None, _flag("header")]
TimeoutOption = Annotated[float | None, _flag("timeout")]
CacheDirOption = Annotated[str | None, _flag("cache_dir")]
BackendOption = Annotated[str | None, _flag("backend")]
FormatOption = Annotated[str | None, _flag("format")]
KOption = Annotated[int | None, _flag("k")]
BudgetOption = Annotated[int | None, _flag("budget")]
MaxPathsOption = Annotated[int | None, _flag("max_paths")]
OptionsOption = Annotated[list[str] | None, _flag("options", *_OPTION_FLAGS, metavar="KEY VALUE")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]


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


def _settings(ctx: typer.Context) -> Settings:
    """Settings from the flags the user gave on this command line, over env, file, defaults."""
    from schemanav.settings import Settings, load_settings

    given: dict[str, Any] = {
        name: value
        for name, value in ctx.params.items()
        if name in Settings.model_fields and _given(ctx, name)
    }
    if "options" in given:
        given["options"] = _option_pairs(given["options"])
    return load_settings(**given)


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the user wrote this option (not Click's default for it)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _option_pairs(values: Sequence[str]) -> dict[str, str]:
    from schemanav.errors import InputError

    pairs: dict[str, str] = {}
    for value in values:
        key, separator, setting = value.partition(_PAIR_SEPARATOR)
        if not separator:
            raise InputError(
                f"-o {key} has no value: write -o KEY VALUE, e.g. -o tokenizer camel_stem"
            )
        pairs[key] = setting
    return pairs


def _print_json(payload: object) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


@app.command(cls=_Command)
def corpus(
    ctx: typer.Context,
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    cache_dir: CacheDirOption = None,
    show: Annotated[
        int, typer.Option("--show", min=0, help="Also print the first N entries of each format.")
    ] = 0,
    as_json: JsonOption = False,
) -> None:
    """Price a schema: coordinates, and tokens of the corpus in each format, of SDL and JSON."""
    with _user_errors():
        from schemanav.corpus import Format
        from schemanav.navigator import Navigator
        from schemanav.render import render_price

        navigator = Navigator(_settings(ctx), _Reporter())
        price = navigator.price()
        the_corpus = navigator.corpus
        shown = {fmt.value: the_corpus.texts(fmt)[:show] for fmt in Format} if show else {}
        if as_json:
            payload = price.as_dict()
            if show:
                payload["shown"] = shown
            _print_json(payload)
            return
        render_price(_stdout(), price, shown)


@app.command(cls=_Command)
def search(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(help="The question, in any words.")],
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    backend: BackendOption = None,
    format: FormatOption = None,
    k: KOption = None,
    budget: BudgetOption = None,
    options: OptionsOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    as_slice: Annotated[
        bool,
        typer.Option(
            "--slice",
            help="Answer with a schema slice: valid SDL holding the ranked hits with their "
            "paths from the root, arguments and argument types, grown to --budget tokens "
            "[default budget: 2000].",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Ask one question; print the ranked coordinates with the token cost of every hit."""
    with _user_errors():
        from schemanav.navigator import Navigator
        from schemanav.render import render_search, render_slice

        navigator = Navigator(_settings(ctx), _Reporter())
        if as_slice:
            piece = navigator.slice(question)
            if as_json:
                _print_json(piece.as_dict())
            else:
                render_slice(_stdout(), piece)
            return
        result = navigator.search(question)
        if not result.hits:
            _stderr().print(result.empty_reason or "no hits", markup=False)
        if as_json:
            _print_json(result.as_dict())
            return
        render_search(_stdout(), result)


class _Reporter:
    """Library events (warnings, notes, indexing progress) rendered on stderr."""

    def __init__(self) -> None:
        self._progress: Any = None
        self._task: Any = None

    def warning(self, message: str) -> None:
        _stderr().print(f"warning: {message}", markup=False)

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


@app.command(cls=_Command)
def bench(
    ctx: typer.Context,
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    bench_file: Annotated[str | None, _flag("bench_file")] = None,
    backend: BackendOption = None,
    format: FormatOption = None,
    ks: Annotated[str | None, _flag("ks")] = None,
    budgets: Annotated[str | None, _flag("budgets")] = None,
    output: Annotated[str | None, _flag("output")] = None,
    options: OptionsOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    strict: Annotated[bool, _flag("strict")] = False,
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
        typer.Option(
            "--plot", help="Also draw recall and completeness charts (SVG) into this folder."
        ),
    ] = None,
) -> None:
    """Score labelled questions: recall@k, MRR, token cost, budget sweeps and completeness
    (every expected coordinate shown) per backend × format × output."""
    with _user_errors():
        from pathlib import Path

        from schemanav.bench.report import print_tables, write_markdown
        from schemanav.bench.runner import parse_formats, parse_outputs, run_bench, split_list

        settings = _settings(ctx)
        reporter = _Reporter()
        report = run_bench(
            settings,
            backends=split_list(settings.backend),
            formats=parse_formats(settings.format),
            events=reporter,
            outputs=parse_outputs(settings.output),
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


@app.command(cls=_Command)
def agent(
    ctx: typer.Context,
    task: Annotated[str, typer.Argument(help="What the agent should find out, in any words.")],
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    model: Annotated[str | None, _flag("model")] = None,
    ollama_host: Annotated[str | None, _flag("ollama_host")] = None,
    backend: BackendOption = None,
    format: FormatOption = None,
    k: KOption = None,
    budget: BudgetOption = None,
    options: OptionsOption = None,
    inline: Annotated[
        bool,
        typer.Option(
            "--inline", help="Put the whole schema SDL in the system message; offer only execution."
        ),
    ] = False,
    max_calls: Annotated[int | None, _flag("max_calls")] = None,
    num_ctx: Annotated[int | None, _flag("num_ctx")] = None,
    endpoint: Annotated[str | None, _flag("endpoint")] = None,
    allow_mutations: Annotated[bool, _flag("allow_mutations")] = False,
    response_token_cap: Annotated[int | None, _flag("response_token_cap")] = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    chat_timeout: Annotated[float | None, _flag("chat_timeout")] = None,
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
        from schemanav.render import render_receipt

        run = run_agent(task, _settings(ctx), inline=inline, events=_Reporter())
        if transcript is not None:
            _write_json(transcript, run.transcript)
        if receipt_json is not None:
            _write_json(receipt_json, run.receipt.as_dict())
        render_receipt(_stdout(), run.receipt)
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


@app.command(cls=_Command)
def define(
    ctx: typer.Context,
    coordinates: Annotated[
        list[str],
        typer.Argument(
            help="Schema coordinates: Type, Type.field, Type.field(arg:), Enum.VALUE, @directive"
        ),
    ],
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    cache_dir: CacheDirOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Introspection-shaped records instead of SDL.")
    ] = False,
) -> None:
    """Print the definitions of schema coordinates, in the order given (RFC __definitions)."""
    with _user_errors():
        from schemanav.navigator import Navigator
        from schemanav.render import render_definitions, unknown_definition_errors

        definitions = Navigator(_settings(ctx), _Reporter()).define(coordinates)
        if as_json:
            _print_json([definition.as_dict() for definition in definitions])
        else:
            render_definitions(_stdout(), definitions)
        errors = unknown_definition_errors(definitions)
        for line in errors:
            _stderr().print(line, markup=False)
        if errors:
            raise typer.Exit(1)


# build and agent-bench (issue 12) -----------------------------------------------------------


@app.command(cls=_Command)
def build(
    ctx: typer.Context,
    coordinates: Annotated[
        list[str],
        typer.Argument(
            help="Field coordinates: a path from the root (Query.a A.b B.c, or 'A > B > C') "
            "or any set of them; Type.field(arg:) also declares that optional argument"
        ),
    ],
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    cache_dir: CacheDirOption = None,
    leaf_fields: Annotated[
        int,
        typer.Option("--leaf-fields", min=1, help="Leaf fields selected under an object end."),
    ] = 3,
    as_json: JsonOption = False,
) -> None:
    """Write one operation containing the coordinates, with typed variables and leaf fields,
    and validate it against the schema."""
    with _user_errors():
        from schemanav.build import build_operation
        from schemanav.navigator import Navigator

        loaded = Navigator(_settings(ctx), _Reporter()).loaded
        result = build_operation(loaded.schema, coordinates, leaf_fields=leaf_fields)
        if as_json:
            _print_json(result.as_dict())
        else:
            _stdout().print(result.operation, markup=False)
            err = _stderr()
            for variable in result.variables:
                err.print(
                    f"variable ${variable.name}: {variable.type}  ({variable.argument})",
                    markup=False,
                )
            for fix in result.auto_fixes:
                err.print(
                    f"auto-fix: {fix.coordinate} → {fix.replacement} ({fix.reason})", markup=False
                )
            if result.added:
                err.print("added to connect: " + ", ".join(result.added), markup=False)
            for warning in result.warnings:
                err.print(f"warning: {warning}", markup=False)
            for error in result.errors:
                err.print(f"error: {error}", markup=False)
            if result.missing:
                err.print("error: not in the operation: " + ", ".join(result.missing), markup=False)
        if not result.complete:
            raise typer.Exit(1)


@app.command("agent-bench", cls=_Command)
def agent_bench(
    ctx: typer.Context,
    tasks: Annotated[
        str,
        typer.Argument(help="Task file: labelled TSV, question<TAB>Type.field[,Type.field…]"),
    ],
    mode: Annotated[
        str,
        typer.Option("--mode", help="Modes, comma-separated: inline, navigate, oracle"),
    ] = "inline,navigate,oracle",
    results: Annotated[
        str,
        typer.Option(
            "--results", help="JSONL file results are appended to; a rerun skips finished tasks"
        ),
    ] = "agent-bench.jsonl",
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only the first N tasks.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed sent with every model call.")] = 0,
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    model: Annotated[str | None, _flag("model")] = None,
    ollama_host: Annotated[str | None, _flag("ollama_host")] = None,
    backend: BackendOption = None,
    format: FormatOption = None,
    k: KOption = None,
    budget: BudgetOption = None,
    options: OptionsOption = None,
    max_calls: Annotated[int | None, _flag("max_calls")] = None,
    num_ctx: Annotated[int | None, _flag("num_ctx")] = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    chat_timeout: Annotated[float | None, _flag("chat_timeout")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object (with every task's result).")
    ] = False,
    markdown: Annotated[
        str | None,
        typer.Option("--markdown", help="Also write the tables as markdown to this file."),
    ] = None,
) -> None:
    """Run the agent on every task in each mode (inline, navigate, oracle), score each run
    without a live API, and compare the modes."""
    with _user_errors():
        from pathlib import Path

        from schemanav.agentbench.report import report_markdown, summarise, tables
        from schemanav.agentbench.runner import parse_modes, run_agent_bench
        from schemanav.bench.report import to_rich, write_output_file

        modes = parse_modes(mode)
        reporter = _Reporter()
        run = run_agent_bench(
            _settings(ctx), tasks, modes, results, seed=seed, limit=limit, events=reporter
        )
        report = summarise(run)
        if markdown is not None:
            write_output_file(Path(markdown), report_markdown(report).encode("utf-8"))
            reporter.note(f"wrote {markdown}")
        if as_json:
            _print_json(report.as_dict())
            return
        from rich.measure import Measurement

        out = _stdout()
        for number, table in enumerate(tables(report)):
            rich_table = to_rich(table)
            # Never squeezed: an elided figure is worse than a wide line (as in `bench`).
            rich_table.caption = None
            wide = out.options.update(width=10_000, max_width=10_000)
            out.width = max(out.width, Measurement.get(out, wide, rich_table).maximum)
            rich_table.caption = table.caption or None
            if number:
                out.print()
            out.print(rich_table)


@app.command(cls=_Command)
def mcp(
    ctx: typer.Context,
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    endpoint: Annotated[str | None, _flag("endpoint")] = None,
    allow_mutations: Annotated[bool, _flag("allow_mutations")] = False,
    backend: BackendOption = None,
    format: FormatOption = None,
    options: OptionsOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    http: Annotated[
        str | None,
        typer.Option(
            "--http", help="Serve streamable HTTP on HOST:PORT (path /mcp) instead of stdio."
        ),
    ] = None,
) -> None:
    """Serve search_schema / define / validate / execute as MCP tools (stdio by default)."""
    with _user_errors():
        from schemanav.navigator import Navigator
        from schemanav.servers.mcp_server import parse_host_port, run_mcp

        address = parse_host_port(http) if http is not None else None
        reporter = _Reporter()
        run_mcp(Navigator(_settings(ctx), reporter), http=address, events=reporter)


@app.command(cls=_Command)
def serve(
    ctx: typer.Context,
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    upstream: Annotated[
        str | None,
        typer.Option("--upstream", help="GraphQL URL that runs every other operation"),
    ] = None,
    allow_mutations: Annotated[bool, _flag("allow_mutations")] = False,
    backend: BackendOption = None,
    options: OptionsOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port (0: a free one).")] = 8000,
) -> None:
    """Serve the schema over GraphQL with __search and __definitions on the query root."""
    with _user_errors():
        from schemanav.navigator import Navigator
        from schemanav.servers.graphql_endpoint import run_serve

        reporter = _Reporter()
        navigator = Navigator(_settings(ctx), reporter)
        run_serve(navigator, upstream=upstream, host=host, port=port, events=reporter)


def main() -> None:
    try:
        app()
    finally:
        # Nothing is left to free: spare the interpreter's full collection at exit (seconds
        # once a large schema has been loaded).
        gc.freeze()
