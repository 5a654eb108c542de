"""The `schemanav` command line: parse flags, call the library, render its records.

Every command takes its options from flags, `SCHEMANAV_…` environment variables and
`schemanav.toml` (in that order of precedence): the flags are `Settings` fields, declared once
in `cli_options` and named by each command in help order (`with_options`), and
`cli_support.settings_from` passes on only those the user gave, so an unset flag never hides
the environment or the file. Help texts and defaults come from `schemanav.defaults`, where
`Settings` takes them too. Backend-specific knobs are `-o KEY VALUE`, validated by the chosen
backend's options model. Tables are drawn by `render` (and the benchmarks' report modules);
stderr is `console.Reporter`'s.
"""

import sys
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from schemanav.cli_options import BackendsOption, FormatsOption, flag, with_options
from schemanav.cli_support import (
    Command,
    Group,
    check_outputs,
    finish_comparison,
    one_backend,
    one_shot,
    open_navigator,
    settings_from,
    user_errors,
)
from schemanav.console import Reporter, print_json, stderr, stdout, write_json
from schemanav.defaults import (
    COMMAND_EXAMPLES,
    COMMAND_HELP,
    SERVER_SETTING_HELP,
    SETTINGS_EPILOG,
)
from schemanav.text import strip_control

app = typer.Typer(
    name="schemanav",
    cls=Group,
    help="Measure how well, and how cheaply, an agent can navigate a GraphQL schema. "
    "Token counts are o200k_base.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)

_F = TypeVar("_F", bound=Callable[..., Any])


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


def _command(summary: str, options: str, name: str | None = None) -> Callable[[_F], _F]:
    """A subcommand with the `options` named (in help order; see `with_options`): `-o` pairs,
    one-line usage errors, a short `summary` in the command list and, under its help, where
    settings come from."""

    def decorate(function: _F) -> _F:
        command = name or function.__name__
        examples = "\n".join(f"  $ {line}" for line in COMMAND_EXAMPLES[command])
        # `\b` keeps Click from rewrapping the examples into one paragraph.
        epilog = f"{SETTINGS_EPILOG}\n\n\b\nExamples:\n{examples}"
        register = app.command(name, cls=Command, short_help=summary, epilog=epilog)
        register(with_options(options, COMMAND_HELP.get(command))(function))
        return function

    return decorate


def _path_option(flag_name: str, help: str) -> Any:
    """An input or output file of one command (`--baseline FILE`)."""
    return typer.Option(flag_name, metavar="FILE", show_default=False, help=help)


@_command(
    "Price a schema in tokens, in every form an agent could be handed.",
    "schema header timeout cache_dir show quiet as_json baseline max_growth markdown",
)
def corpus(
    ctx: typer.Context,
    show: int = 0,
    as_json: bool = False,
    baseline: Annotated[
        str | None,
        _path_option(
            "--baseline",
            "Compare with an earlier `corpus --json` result: each form's change in tokens.",
        ),
    ] = None,
    max_growth: float | None = None,
    markdown: Annotated[
        str | None,
        _path_option(
            "--markdown",
            "With --baseline, also write a comment-sized markdown summary to this file.",
        ),
    ] = None,
) -> None:
    """Price a schema: its coordinates, and the tokens of the corpus in each format, of the SDL
    text and of the introspection JSON; with --baseline, what changed since that result."""
    with one_shot(), user_errors():
        from schemanav.compare.baseline import Baseline
        from schemanav.corpus import Format
        from schemanav.render import render_price

        navigator = open_navigator(ctx)
        check = Baseline.open("corpus", baseline, markdown=markdown, max_growth=max_growth)
        check_outputs(markdown, None)
        price = navigator.price()
        the_corpus = navigator.corpus
        shown = {fmt.value: the_corpus.texts(fmt)[:show] for fmt in Format} if show else {}
        comparison = check.costs(price.as_dict()) if check else None
        if as_json:
            payload = price.as_dict()
            if show:
                payload["shown"] = shown
            if comparison is not None:
                payload["baseline"] = comparison.as_dict()
            print_json(payload)
        else:
            render_price(stdout(), price, shown)
        if comparison is not None:
            from schemanav.compare.report import cost_table

            finish_comparison(
                "schemanav corpus", list(comparison.findings()), [cost_table(comparison)],
                regressed=bool(comparison.regressions), show_tables=not as_json,
                markdown=markdown, quiet=navigator.settings.quiet,
            )  # fmt: skip


@_command(
    "Ask one question; print the ranked hits and what they cost.",
    "schema header timeout backend format k budget options cache_dir max_paths as_slice quiet "
    "as_json",
)
def search(
    ctx: typer.Context,
    question: Annotated[
        str, typer.Argument(help="The question, in any words.", metavar="QUESTION")
    ],
    as_slice: bool = False,
    as_json: bool = False,
) -> None:
    """Ask one question; print the ranked coordinates with the score, the token cost and the
    path from the root of every hit."""
    with one_shot(), user_errors():
        from schemanav.errors import InputError
        from schemanav.navigator import EMPTY_QUESTION
        from schemanav.render import render_search, render_slice
        from schemanav.retrieval import has_words

        navigator = open_navigator(ctx)
        one_backend(navigator.settings, "search")
        if not has_words(question):
            raise InputError(f"{EMPTY_QUESTION}: ask in words, e.g. 'movies with a high rating'")
        if as_slice:
            piece = navigator.slice(question)
            if as_json:
                print_json(piece.as_dict())
            else:
                render_slice(stdout(), piece)
            return
        result = navigator.search(question)
        if as_json:
            print_json(result.as_dict())
        else:
            render_search(stdout(), result)
        if result.over_budget:
            raise InputError(result.empty_reason or "no hit fits --budget")
        if not result.hits:
            stderr().print(result.empty_reason or "no hits", markup=False)


@_command(
    "Score labelled questions per backend × format × output: recall, completeness.",
    "schema header timeout bench_file backend format ks budgets output jobs options cache_dir "
    "max_paths strict quiet as_json markdown plot baseline max_drop",
)
def bench(
    ctx: typer.Context,
    backend: BackendsOption = None,
    format: FormatsOption = None,
    as_json: Annotated[
        bool,
        typer.Option("-j", "--json", help="Print one JSON object (with per-question results)."),
    ] = False,
    markdown: str | None = None,
    plot: str | None = None,
    baseline: Annotated[
        str | None,
        _path_option(
            "--baseline",
            "Compare with an earlier `bench --json` result of the same questions, rows, ks and "
            "budgets: each measure's change per row; --markdown then writes a comment-sized "
            "summary of the changes instead of the tables.",
        ),
    ] = None,
    max_drop: float | None = None,
) -> None:
    """Score labelled questions: recall@k, MRR, token cost, budget sweeps and completeness
    (every expected coordinate shown) per backend × format × output."""
    with one_shot(), user_errors():
        from pathlib import Path

        from schemanav.bench.report import print_tables, write_markdown
        from schemanav.bench.runner import run_bench

        settings = settings_from(ctx)
        check_outputs(markdown, plot)  # before the work, not after it
        check = None
        if baseline is not None or max_drop is not None:
            # The comparisons (and their imports) only for a run that asks for one.
            from schemanav.compare.baseline import Baseline

            check = Baseline.open("bench", baseline, max_drop=max_drop)
        if check:
            check.check_settings(settings)
        reporter = Reporter(quiet=settings.quiet)
        report = run_bench(settings, reporter)
        comparison = check.quality(report.as_dict()) if check else None
        # The results first: a file that still cannot be written loses nothing.
        if as_json:
            payload = report.as_dict()
            if comparison is not None:
                payload["baseline"] = comparison.as_dict()
            print_json(payload)
        else:
            print_tables(stdout(), report)
        if markdown is not None and comparison is None:
            write_markdown(report, Path(markdown))
            reporter.note(f"wrote {markdown}")
        if plot is not None:
            from schemanav.bench.plot import write_plots

            for path in write_plots(report, Path(plot)):
                reporter.note(f"wrote {path}")
        if comparison is not None:
            from schemanav.compare.report import bench_tables

            finish_comparison(
                "schemanav bench", list(comparison.findings()), bench_tables(comparison),
                regressed=bool(comparison.regressions), show_tables=not as_json,
                markdown=markdown, quiet=settings.quiet,
            )  # fmt: skip


@_command(
    "Let a model (Ollama or OpenAI-compatible) answer a task by navigating the schema.",
    "schema header timeout model ollama_host chat_api chat_url chat_key_env temperature seed "
    "backend format k budget options inline max_calls num_ctx endpoint allow_mutations "
    "response_token_cap max_depth max_aliases max_nodes cache_dir max_paths chat_timeout "
    "transcript receipt_json quiet",
)
def agent(
    ctx: typer.Context,
    task: Annotated[
        str,
        typer.Argument(help="What the agent should find out, in any words.", metavar="TASK"),
    ],
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", metavar="N", help="Seed sent with every model call.", show_default=False
        ),
    ] = None,
    inline: bool = False,
    transcript: str | None = None,
    receipt_json: str | None = None,
) -> None:
    """Let a model (Ollama, or any server of the OpenAI chat-completions API with --chat-api
    openai) answer TASK with searchSchema / introspectType / listFields / buildQuery /
    executeGraphql (or with the whole schema inline, executeGraphql only), and print the
    context receipt of the run."""
    with user_errors():
        from schemanav.agent import run_agent
        from schemanav.errors import SchemanavError
        from schemanav.outputs import check_output_target
        from schemanav.render import render_receipt

        settings = settings_from(ctx)
        one_backend(settings, "agent")
        for flag_name, path in (("--transcript", transcript), ("--receipt-json", receipt_json)):
            if path is not None:
                check_output_target(flag_name, path)  # before the run, not after it
        run = run_agent(
            task, settings, inline=inline, events=Reporter(quiet=settings.quiet), seed=seed
        )
        if transcript is not None:
            write_json(transcript, run.transcript)
        if receipt_json is not None:
            write_json(receipt_json, run.receipt.as_dict())
        render_receipt(stdout(), run.receipt)
        if run.receipt.error is not None:
            raise SchemanavError(run.receipt.error)


@_command(
    "Print the SDL of schema coordinates (the RFC's __definitions).",
    "schema header timeout cache_dir quiet as_json",
)
def define(
    ctx: typer.Context,
    coordinates: Annotated[
        list[str],
        typer.Argument(
            help="Schema coordinates: Type, Type.field, Type.field(arg:), Enum.VALUE, @directive",
            metavar="COORD",
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("-j", "--json", help="Introspection-shaped records instead of SDL.")
    ] = False,
) -> None:
    """Print the definitions of schema coordinates, in the order given (__definitions of the
    semantic introspection RFC); an unknown coordinate is bad input (exit 2)."""
    with one_shot(), user_errors():
        from schemanav.render import render_definitions, unknown_definition_errors

        definitions = open_navigator(ctx).define(coordinates)
        if as_json:
            print_json([definition.as_dict() for definition in definitions])
        else:
            render_definitions(stdout(), definitions)
        errors = unknown_definition_errors(definitions)
        for line in errors:
            stderr().print(strip_control(line), markup=False)
        if errors:
            raise typer.Exit(2)


@_command(
    "Write one valid operation from field coordinates (a path from the root).",
    "schema header timeout cache_dir leaf_fields quiet as_json",
)
def build(
    ctx: typer.Context,
    coordinates: Annotated[
        list[str],
        typer.Argument(
            help="Field coordinates: a path from the root (Query.a A.b B.c, or 'A > B > C') "
            "or any set of them; Type.field(arg:) also declares that optional argument",
            metavar="COORD",
        ),
    ],
    leaf_fields: int = 3,
    as_json: bool = False,
) -> None:
    """Write one operation containing the coordinates, with typed variables and leaf fields,
    and validate it against the schema."""
    with one_shot(), user_errors():
        from schemanav.build import build_operation
        from schemanav.render import render_build

        loaded = open_navigator(ctx).loaded
        result = build_operation(loaded.schema, coordinates, leaf_fields=leaf_fields)
        if as_json:
            print_json(result.as_dict())
        else:
            render_build(stdout(), stderr(), result)
        if not result.complete:
            raise typer.Exit(1)


@_command(
    "Run the agent on every task in each mode and compare the modes.",
    "mode results limit seed schema header timeout model ollama_host chat_api chat_url "
    "chat_key_env temperature slice_budget backend format k budget options max_calls num_ctx "
    "cache_dir max_paths chat_timeout quiet as_json markdown",
    name="agent-bench",
)
def agent_bench(
    ctx: typer.Context,
    tasks: Annotated[
        str,
        typer.Argument(
            help="Task file: labelled TSV, question<TAB>Type.field[,Type.field…]",
            metavar="TASKS",
        ),
    ],
    mode: str = "inline,navigate,slice,oracle",
    results: str = "agent-bench.jsonl",
    limit: int | None = None,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            metavar="N",
            help="Seed sent with every model call [default: 0]",
            show_default=False,
        ),
    ] = 0,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object (with every task's result).")
    ] = False,
    markdown: str | None = None,
) -> None:
    """Run the agent on every task in each mode (inline, navigate, slice, oracle), score each run
    without a live API, and compare the modes."""
    with user_errors():
        from pathlib import Path

        from schemanav.agentbench.report import report_markdown, summarise
        from schemanav.agentbench.runner import parse_modes, run_agent_bench
        from schemanav.outputs import check_output_target, write_output_file
        from schemanav.render import render_agent_bench

        modes = parse_modes(mode)
        settings = settings_from(ctx)
        check_output_target("--results", results)  # before the runs, not after them
        if markdown is not None:
            check_output_target("--markdown", markdown)
        reporter = Reporter(quiet=settings.quiet)
        run = run_agent_bench(
            settings, tasks, modes, results, seed=seed, limit=limit, events=reporter
        )
        report = summarise(run)
        if markdown is not None:
            write_output_file(Path(markdown), report_markdown(report).encode("utf-8"))
            reporter.note(f"wrote {markdown}")
        if as_json:
            print_json(report.as_dict())
            return
        render_agent_bench(stdout(), report)


@_command(
    "Serve search, define, validate and execute as MCP tools.",
    "schema header timeout endpoint allow_mutations backend format options cache_dir max_paths "
    "http refresh forward_header max_depth max_aliases max_nodes operations quiet",
)
def mcp(
    ctx: typer.Context,
    allow_mutations: Annotated[
        bool, flag("allow_mutations", help=SERVER_SETTING_HELP["mcp.allow_mutations"])
    ] = False,
    http: str | None = None,
    refresh: float | None = None,
    forward_header: list[str] | None = None,
    operations: str | None = None,
) -> None:
    """Serve search_schema / define / validate / execute as MCP tools (stdio by default)."""
    with user_errors():
        from schemanav.servers.mcp_server import parse_host_port, run_mcp

        address = parse_host_port(http) if http is not None else None
        navigator = open_navigator(ctx)
        run_mcp(
            navigator,
            http=address,
            events=navigator.events,
            refresh=refresh,
            forward_headers=tuple(forward_header or ()),
            operations=operations,
        )


@_command(
    "Serve the schema over GraphQL with __search and __definitions.",
    "schema header timeout upstream allow_mutations backend options cache_dir max_paths host "
    "port workers refresh forward_header access_log max_depth max_aliases max_nodes quiet",
)
def serve(
    ctx: typer.Context,
    upstream: str | None = None,
    allow_mutations: Annotated[
        bool, flag("allow_mutations", help=SERVER_SETTING_HELP["serve.allow_mutations"])
    ] = False,
    host: str = "127.0.0.1",
    port: int = 8000,
    refresh: float | None = None,
    forward_header: list[str] | None = None,
    workers: int = 1,
    access_log: str = "off",
) -> None:
    """Serve the schema over GraphQL with __search and __definitions on the query root, and
    GET /healthz, /readyz (200 once the schema is loaded) and /metrics (Prometheus)."""
    with user_errors():
        from schemanav.servers.replicas import run_serve

        navigator = open_navigator(ctx)
        run_serve(
            navigator,
            upstream=upstream,
            host=host,
            port=port,
            events=navigator.events,
            refresh=refresh,
            forward_headers=tuple(forward_header or ()),
            workers=workers,
            access_log=access_log,
        )


@_command(
    "What a schema change did: coordinates, token costs and labelled questions.",
    "header timeout bench_file backend format ks budgets output options cache_dir max_drop "
    "max_growth allow_breaking quiet as_json markdown",
)
def diff(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(help="The schema before (file or URL).", metavar="OLD")],
    new: Annotated[str, typer.Argument(help="The schema after (file or URL).", metavar="NEW")],
    max_drop: float | None = None,
    max_growth: float | None = None,
    allow_breaking: bool = False,
    as_json: bool = False,
    markdown: Annotated[
        str | None,
        _path_option(
            "--markdown",
            "Also write a comment-sized markdown summary (worst three changes first).",
        ),
    ] = None,
) -> None:
    """Compare schema OLD with NEW: coordinates added, removed and changed (type, arguments,
    deprecation, description), graphql-core's breaking and dangerous changes, the tokens of
    every form; with --bench-file, the questions whose labels name a removed or changed
    coordinate and the questions whose completeness changed (no questions without it).
    Exit 1 on a breaking change (unless --allow-breaking) or past --max-drop / --max-growth."""
    with one_shot(), user_errors():
        from schemanav.compare import diff_schema_versions
        from schemanav.compare.findings import check_max_drop, check_max_growth
        from schemanav.compare.report import diff_tables
        from schemanav.errors import InputError

        settings = settings_from(ctx)
        check_max_drop(max_drop)
        check_max_growth(max_growth)
        if max_drop is not None and not settings.bench_file:
            raise InputError(
                "--max-drop needs --bench-file TSV: the questions whose drop it limits"
            )
        check_outputs(markdown, None)
        result = diff_schema_versions(
            settings,
            old,
            new,
            max_drop=max_drop,
            max_growth=max_growth,
            allow_breaking=allow_breaking,
            events=Reporter(quiet=settings.quiet),
        )
        if as_json:
            print_json(result.as_dict())
        finish_comparison(
            f"schemanav diff {result.old} → {result.new}", list(result.findings()),
            diff_tables(result), regressed=result.regressed, show_tables=not as_json,
            markdown=markdown, quiet=settings.quiet, below_output=False,
        )  # fmt: skip


# validate and execute (issue 25): the logic and rendering are in schemanav.operation_report.

OperationArgument = Annotated[
    str, typer.Argument(help="The operation: a .graphql file, or - for stdin.", metavar="FILE")
]


@_command(
    "Check an operation: graphql-core errors, depth, aliases and estimated size.",
    "schema header timeout cache_dir variables allow_mutations max_depth max_aliases max_nodes "
    "quiet as_json",
)
def validate(
    ctx: typer.Context,
    operation: OperationArgument,
    variables: str | None = None,
    allow_mutations: Annotated[
        bool, flag("allow_mutations", help="Accept a mutation (refused otherwise).")
    ] = False,
    as_json: bool = False,
) -> None:
    """Validate an operation against the schema and measure it against the cost limits; an
    invalid operation, or one over a limit, exits 2 (nothing is sent anywhere)."""
    _check_or_run(ctx, operation, variables, as_json, executing=False)


@_command(
    "Validate an operation, check its cost, then run it at --endpoint.",
    "schema endpoint header timeout cache_dir variables allow_mutations max_depth max_aliases "
    "max_nodes response_token_cap quiet as_json",
)
def execute(
    ctx: typer.Context,
    operation: OperationArgument,
    variables: str | None = None,
    allow_mutations: Annotated[
        bool, flag("allow_mutations", help="Run a mutation (refused otherwise).")
    ] = False,
    as_json: bool = False,
) -> None:
    """Validate an operation and check its cost as `validate` does, then POST it to
    --endpoint with the --header values and print the answer (exit 1 when it has errors)."""
    _check_or_run(ctx, operation, variables, as_json, executing=True)


def _check_or_run(
    ctx: typer.Context, operation: str, variables: str | None, as_json: bool, *, executing: bool
) -> None:
    with one_shot(), user_errors():
        from schemanav.operation_report import (
            check_operation,
            execute_operation,
            json_exit,
            render_report,
        )

        navigator = open_navigator(ctx)
        report = (execute_operation if executing else check_operation)(
            navigator, operation, variables
        )
        if as_json:
            print_json(report.as_dict())
            code = json_exit(stderr(), report)
        else:
            code = render_report(stdout(), stderr(), report, executing=executing)
        if code:
            raise typer.Exit(code)


def _only_the_command_named(first: list[str]) -> None:
    """Typer builds the Click command of every registered command (their parameters, help,
    defaults) before it parses a command line; one whose first word names a command runs
    only that one, so only it is built (about 6 ms of the 12)."""
    from typer.main import get_command_name

    chosen = [
        info
        for info in app.registered_commands
        if info.callback is not None
        and first == [info.name or get_command_name(info.callback.__name__)]
    ]
    if chosen:
        app.registered_commands = chosen


def main() -> None:
    """The `schemanav` executable: run the command, then leave at once.

    A run over a large schema leaves millions of objects (parsed schema, corpus, indexes);
    the interpreter's shutdown would spend 1-3 s garbage-collecting and freeing them after
    the output is printed. Every file was written (atomically) and every stream is flushed
    here, so the process exits without that teardown, as mypy does.
    """
    import os

    from schemanav.cli_support import exits_after_command

    # pydantic reads only schemanav's own settings and typer's parameters here: skip its
    # plugin discovery, a scan of every installed package's entry points (15-20 ms of every
    # command). A value the user set is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # numpy's OpenBLAS starts a spinning thread per core as it loads: 0.05-0.08 s of CPU in
    # every command that searches, for matrix products that are never large enough here to
    # share out (a few questions against some thousands of vectors). Kept if the user set it.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    exits_after_command()
    _only_the_command_named(sys.argv[1:2])
    code: int | str | None = 0
    try:
        app()
    except SystemExit as done:
        code = done.code
    if isinstance(code, str):
        sys.stderr.write(code + "\n")
        code = 1
    if (tokens := sys.modules.get("schemanav.tokens")) is not None:
        tokens.keep_counts()  # the exit below runs no teardown
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a closed pipe (`| head`): nothing more can be said
        code = code or 1
    os._exit(code or 0)
