"""The `schemanav` command line: parse flags, call the library, render its records.

Every command takes its options from flags, `SCHEMANAV_…` environment variables and
`schemanav.toml` (in that order of precedence): the flags are `Settings` fields, and
`_settings` passes on only those the user gave (Click's parameter source), so an unset flag
never hides the environment or the file. Help texts and defaults come from
`schemanav.defaults`, where `Settings` takes them too. Backend-specific knobs are
`-o KEY VALUE`, validated by the chosen backend's options model.
"""

import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError  # Typer's vendored Click
from typer.core import TyperArgument, TyperCommand, TyperGroup

from schemanav.defaults import (
    LIST_SETTING_HELP,
    SERVER_SETTING_HELP,
    SETTING_HELP,
    SETTINGS_EPILOG,
)
from schemanav.text import strip_control

if TYPE_CHECKING:
    from rich.console import Console

    from schemanav.bench.report import TextTable
    from schemanav.compare import Finding
    from schemanav.settings import Settings


class _Group(TyperGroup):
    """The command list: a mistyped command or a flag before it is one `error: …` line with
    the nearest commands, like every other bad input (not Click's usage block)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            parsed: list[str] = super().parse_args(ctx, args)
        except NoArgsIsHelpError:
            raise  # no command at all: the help, as it is
        except UsageError as err:
            raise _OneLineUsageError(err.format_message(), ctx) from None
        return parsed

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            from schemanav.wording import closest

            nearest = closest(name, self.list_commands(ctx))
            hint = f": did you mean {', '.join(nearest)}?" if nearest else ""
            raise _OneLineUsageError(f"no such command {name!r}{hint}", ctx)
        return super().resolve_command(ctx, args)


app = typer.Typer(
    name="schemanav",
    cls=_Group,
    help="Measure how well, and how cheaply, an agent can navigate a GraphQL schema. "
    "Token counts are o200k_base.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)

_F = TypeVar("_F", bound=Callable[..., Any])
_OPTION_FLAGS = ("-o", "--option")
_PAIR_SEPARATOR = "\x1f"
_TYPED_ARGS = "schemanav.typed_args"
_CLICK_RANGE = re.compile(r"(?:\n +| {2})\[(?:-?\d+<=?)?x(?:<=?-?\d+|>=?-?\d+)?\]")


class _Command(TyperCommand):
    """Reads `-o KEY VALUE` as one repeatable option of two values (Typer cannot declare a
    repeatable pair), by joining each pair into one value before Click parses the line."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta[_TYPED_ARGS] = tuple(args)  # so an error can name a flag as it was typed
        try:
            return self._parse_pairs(ctx, args)
        except UsageError as err:
            if isinstance(err, _OneLineUsageError):
                raise
            raise _OneLineUsageError(err.format_message(), ctx) from None

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """`QUESTION`, not Typer's `{QUESTION}`, on the usage line."""
        pieces: list[str] = super().collect_usage_pieces(ctx)
        return [_unbraced(piece) for piece in pieces]

    def get_help(self, ctx: Any) -> str:
        """Arguments are named by their metavar alone (`QUESTION`, not `QUESTION <str>`); the
        backends listed include the installed plugins'."""
        _name_plugin_backends(self.params)
        text: str = super().get_help(ctx)
        for param in self.params:
            if isinstance(param, TyperArgument) and param.metavar:
                shown = f"{param.metavar} {param.display_type_rich(ctx)}"
                text = text.replace(shown, param.metavar + " " * (len(shown) - len(param.metavar)))
                text = text.replace(f"{{{param.metavar}}}", param.metavar)
        # Click's range notation (`[x>=1]`): the help text says the range in words.
        return _CLICK_RANGE.sub("", text)

    def _parse_pairs(self, ctx: Any, args: list[str]) -> list[str]:
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


def _name_plugin_backends(params: list[Any]) -> None:
    """`--backend`'s help lists the backends of installed plugins after the built-in ones
    (looked up only when help is printed)."""
    from schemanav.defaults import BUILTIN_BACKEND_LIST
    from schemanav.retrieval.registry import backend_names

    names = ", ".join(backend_names())
    for param in params:
        if param.name == "backend" and param.help and names not in param.help:
            param.help = param.help.replace(BUILTIN_BACKEND_LIST, names)


class _OneLineUsageError(UsageError):
    """A flag Click could not parse, as one `error: …` line like every other bad input."""

    def show(self, file: Any = None) -> None:
        message = self.format_message()
        message = message[:1].lower() + message[1:].rstrip(".")
        command = self.ctx.command_path if self.ctx is not None else "schemanav"
        _stderr().print(f"error: {message} (see `{command} --help`)", markup=False)


def _unbraced(piece: str) -> str:
    return piece[1:-1] if piece.startswith("{") and piece.endswith("}") else piece


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


def _flag(
    name: str,
    *declarations: str,
    metavar: str | None = None,
    help: str | None = None,
    **extra: Any,
) -> Any:
    """The flag of setting `name` (`--name-with-dashes`, plus any short `declarations`), its
    help text from the settings unless a command means it its own way (`help`); value flags
    take a `metavar` (`N`, `TEXT`, …)."""
    return typer.Option(
        *declarations,
        f"--{name.replace('_', '-')}",
        help=help or SETTING_HELP[name],
        show_default=False,
        metavar=metavar,
        **extra,
    )


# Every option below is a field of `Settings` under the parameter's own name.
SchemaOption = Annotated[str | None, _flag("schema", "-s", metavar="FILE|URL")]
HeaderOption = Annotated[list[str] | None, _flag("header", metavar="HEADER")]
TimeoutOption = Annotated[float | None, _flag("timeout", metavar="SECONDS")]
CacheDirOption = Annotated[str | None, _flag("cache_dir", metavar="DIR")]
BackendOption = Annotated[str | None, _flag("backend", metavar="NAME")]
FormatOption = Annotated[str | None, _flag("format", metavar="NAME")]
KOption = Annotated[int | None, _flag("k", "-k", metavar="N")]
BudgetOption = Annotated[int | None, _flag("budget", "-b", metavar="N")]
MaxPathsOption = Annotated[int | None, _flag("max_paths", metavar="N")]
MaxDepthOption = Annotated[int | None, _flag("max_depth", metavar="N")]
MaxAliasesOption = Annotated[int | None, _flag("max_aliases", metavar="N")]
MaxNodesOption = Annotated[int | None, _flag("max_nodes", metavar="N")]
OptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        *_OPTION_FLAGS, help=SETTING_HELP["options"], show_default=False, metavar="KEY VALUE"
    ),
]
QuietOption = Annotated[bool, _flag("quiet", "-q")]
ChatApiOption = Annotated[str | None, _flag("chat_api", metavar="ollama|openai")]
ChatUrlOption = Annotated[str | None, _flag("chat_url", metavar="URL")]
ChatKeyEnvOption = Annotated[str | None, _flag("chat_key_env", metavar="NAME")]
TemperatureOption = Annotated[float | None, _flag("temperature", metavar="T")]
JsonOption = Annotated[bool, typer.Option("-j", "--json", help="Print one JSON object on stdout.")]
# The labelled questions and what they are scored at: `bench`, and `diff` with --bench-file.
BenchFileOption = Annotated[str | None, _flag("bench_file", metavar="FILE")]
KsOption = Annotated[str | None, _flag("ks", metavar="N,N…")]
BudgetsOption = Annotated[str | None, _flag("budgets", metavar="N,N…")]
OutputOption = Annotated[str | None, _flag("output", metavar="list,slice")]
MaxDropOption = Annotated[
    float | None,
    typer.Option(
        "--max-drop",
        metavar="X",
        show_default=False,
        help="Exit 1 when complete-within-budget, recall@k or MRR of any row falls by more "
        "than X (a share, 0 to 1) [default: never].",
    ),
]
MaxGrowthOption = Annotated[
    float | None,
    typer.Option(
        "--max-growth",
        metavar="PCT",
        show_default=False,
        help="Exit 1 when the tokens of the corpus (any format), the SDL text or the "
        "introspection JSON grow by more than PCT percent [default: never].",
    ),
]
BackendsOption = Annotated[
    str | None, _flag("backend", metavar="NAME,…", help=LIST_SETTING_HELP["backend"])
]
FormatsOption = Annotated[
    str | None, _flag("format", metavar="NAME,…", help=LIST_SETTING_HELP["format"])
]
ModelOption = Annotated[str | None, _flag("model", metavar="NAME")]
OllamaHostOption = Annotated[str | None, _flag("ollama_host", metavar="URL")]
MaxCallsOption = Annotated[int | None, _flag("max_calls", metavar="N")]
NumCtxOption = Annotated[int | None, _flag("num_ctx", metavar="N")]
ChatTimeoutOption = Annotated[float | None, _flag("chat_timeout", metavar="SECONDS")]
EndpointOption = Annotated[str | None, _flag("endpoint", metavar="URL")]
MarkdownOption = Annotated[
    str | None,
    typer.Option(
        "--markdown",
        metavar="FILE",
        show_default=False,
        help="Also write the tables as markdown to this file (its folder must exist).",
    ),
]


def _stderr() -> "Console":
    from rich.console import Console

    # markup=False: user and server text (a path with `[/x]`, `[redacted]`) is never markup,
    # in prints, table titles and cells alike.
    return _wrapping_on_a_terminal(Console(stderr=True, highlight=False, emoji=False, markup=False))


def _stdout() -> "Console":
    from rich.console import Console

    return _wrapping_on_a_terminal(Console(highlight=False, emoji=False, markup=False))


def _wrapping_on_a_terminal(console: "Console") -> "Console":
    """On a terminal, prose (notes, start-up lines, captions, errors) is wrapped between words
    at its width, never broken mid-word by the terminal; a pipe or a file gets every line
    whole. Code (SDL, an operation) is printed unwrapped either way."""
    console.soft_wrap = not console.is_terminal
    return console


_EXITS_AFTER_COMMAND = False
"""Set by `main`: this process ends as soon as its command is done."""


@contextmanager
def _one_shot() -> Iterator[None]:
    """A command that answers once and exits runs with the cyclic garbage collector off.

    It loads hundreds of thousands of long-lived objects (imports, the corpus, indexes, the
    graph) and makes next to no garbage cycles, so the collections those allocations trigger
    walk them again and again and find nothing (a tenth of a warm `search`); the process then
    exits without teardown (`main`). The servers and the agent keep the collector; so does a
    process that runs commands in a row (the collector is back once the command is done).
    The `schemanav` executable leaves it off: turned back on, its first allocation would
    walk every object the command made once more (some 0.04 s after a warm bench) just
    before exit.
    """
    import gc

    from schemanav.schema.loading import no_cyclic_gc

    if _EXITS_AFTER_COMMAND:
        gc.disable()
        yield
        return
    with no_cyclic_gc():
        yield


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


def _settings(ctx: typer.Context) -> "Settings":
    """Settings from the flags the user gave on this command line, over env, file, defaults."""
    from schemanav.settings import Settings, load_typed_settings

    given: dict[str, Any] = {
        name: value
        for name, value in ctx.params.items()
        if name in Settings.model_fields and _given(ctx, name)
    }
    if "options" in given:
        given["options"] = _option_pairs(given["options"])
    return load_typed_settings(given, {name: _typed_flag(ctx, name) for name in given})


def _typed_flag(ctx: typer.Context, name: str) -> str:
    """The flag of parameter `name` as the user last typed it (`-k`, not `--k`), so an invalid
    value is reported under that spelling; its long form when it cannot be told."""
    param = next(param for param in ctx.command.params if param.name == name)
    spelled = param.opts[-1]
    for token in ctx.meta.get(_TYPED_ARGS, ()):
        if token == "--":
            break
        for flag in param.opts:
            if (
                token == flag
                or token.startswith(f"{flag}=")
                or (len(flag) == 2 and not token.startswith("--") and token.startswith(flag))
            ):
                spelled = flag
    return str(spelled)


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


def _command(summary: str) -> Callable[[_F], _F]:
    """A subcommand: `-o` pairs, one-line usage errors, a short `summary` in the command list
    and, under its help, where settings come from."""
    decorator: Callable[[_F], _F] = app.command(
        cls=_Command, short_help=summary, epilog=SETTINGS_EPILOG
    )
    return decorator


@_command("Price a schema in tokens, in every form an agent could be handed.")
def corpus(
    ctx: typer.Context,
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    cache_dir: CacheDirOption = None,
    show: Annotated[
        int,
        typer.Option(
            "--show",
            min=0,
            metavar="N",
            show_default=False,
            help="Also print the first N entries of each format [default: 0]",
        ),
    ] = 0,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
    baseline: Annotated[
        str | None,
        typer.Option(
            "--baseline",
            metavar="FILE",
            show_default=False,
            help="Compare with an earlier `corpus --json` result: each form's change in tokens.",
        ),
    ] = None,
    max_growth: MaxGrowthOption = None,
    markdown: Annotated[
        str | None,
        typer.Option(
            "--markdown",
            metavar="FILE",
            show_default=False,
            help="With --baseline, also write a comment-sized markdown summary to this file.",
        ),
    ] = None,
) -> None:
    """Price a schema: its coordinates, and the tokens of the corpus in each format, of the SDL
    text and of the introspection JSON; with --baseline, what changed since that result."""
    with _one_shot(), _user_errors():
        from schemanav.compare.baseline import Baseline
        from schemanav.corpus import Format
        from schemanav.navigator import Navigator
        from schemanav.render import render_price

        settings = _settings(ctx)
        check = Baseline.open("corpus", baseline, markdown=markdown, max_growth=max_growth)
        _check_outputs(markdown, None)
        navigator = Navigator(settings, _Reporter(quiet=settings.quiet))
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
            _print_json(payload)
        else:
            render_price(_stdout(), price, shown)
        if comparison is not None:
            from schemanav.compare.report import cost_table

            _finish_comparison(
                "schemanav corpus", list(comparison.findings()), [cost_table(comparison)],
                regressed=bool(comparison.regressions), show_tables=not as_json,
                markdown=markdown, quiet=settings.quiet,
            )  # fmt: skip


@_command("Ask one question; print the ranked hits and what they cost.")
def search(
    ctx: typer.Context,
    question: Annotated[
        str, typer.Argument(help="The question, in any words.", metavar="QUESTION")
    ],
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
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Ask one question; print the ranked coordinates with the score, the token cost and the
    path from the root of every hit."""
    with _one_shot(), _user_errors():
        from schemanav.errors import InputError
        from schemanav.navigator import EMPTY_QUESTION, Navigator
        from schemanav.render import render_search, render_slice
        from schemanav.retrieval import has_words

        settings = _settings(ctx)
        _one_backend(settings, "search")
        if not has_words(question):
            raise InputError(f"{EMPTY_QUESTION}: ask in words, e.g. 'movies with a high rating'")
        navigator = Navigator(settings, _Reporter(quiet=settings.quiet))
        if as_slice:
            piece = navigator.slice(question)
            if as_json:
                _print_json(piece.as_dict())
            else:
                render_slice(_stdout(), piece)
            return
        result = navigator.search(question)
        if as_json:
            _print_json(result.as_dict())
        else:
            render_search(_stdout(), result)
        if result.over_budget:
            raise InputError(result.empty_reason or "no hit fits --budget")
        if not result.hits:
            _stderr().print(result.empty_reason or "no hits", markup=False)


def _one_backend(settings: "Settings", command: str) -> None:
    """`search` and `agent` use one backend and one format; a list is for `bench`."""
    from schemanav.errors import InputError

    for flag, values in (("--backend", settings.backend), ("--format", settings.format)):
        if len(values) > 1:
            value = ",".join(values)
            raise InputError(
                f"{command} takes one {flag.lstrip('-')}, not a list ({flag} {value}): pick one, "
                f"or compare them all with `schemanav bench {flag} {value}`"
            )


class _Reporter:
    """Library events (warnings, notes, slow phases, progress) rendered on stderr.

    Progress and phases are transient Rich displays, shown only on an interactive terminal (a
    pipe, a file or a dumb terminal gets no blank lines from them); `quiet` drops everything
    but errors.
    """

    def __init__(self, *, quiet: bool = False) -> None:
        self._quiet = quiet
        self._console = _stderr()
        # A terminal that cannot move its cursor (TERM=dumb) would keep every frame.
        self._live = not quiet and self._console.is_interactive
        self._progress: Any = None
        self._tasks: dict[str, Any] = {}
        self._printed: set[str] = set()

    def warning(self, message: str) -> None:
        self._once(f"warning: {message}")

    def note(self, message: str) -> None:
        self._once(message)

    def security(self, message: str) -> None:
        """Where a secret goes: printed even under -q."""
        line = f"warning: {message}"
        if line not in self._printed:
            self._printed.add(line)
            self._console.print(strip_control(line), markup=False)

    def _once(self, line: str) -> None:
        """Print `line` unless quiet or already printed: a bench run indexes the same model for
        several backends and formats (`embedding-local`, and again inside `hybrid-local`), and
        each announces it."""
        if not self._quiet and line not in self._printed:
            self._printed.add(line)
            self._console.print(strip_control(line), markup=False)

    def progress(self, description: str, done: int, total: int) -> None:
        if not self._live:
            return
        task = self._start(description, total)
        self._progress.update(task, completed=done, total=total)
        if done >= total:
            self._finish(description)

    @contextmanager
    def phase(self, description: str) -> Iterator[None]:
        """A spinner while slow work with no count runs (parsing, token counting, indexing)."""
        if not self._live:
            yield
            return
        self._start(description, None)
        try:
            yield
        finally:
            self._finish(description)

    def _start(self, description: str, total: int | None) -> Any:
        from rich.progress import BarColumn, Progress, SpinnerColumn, TaskProgressColumn, TextColumn

        if self._progress is None:
            self._progress = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                BarColumn(),
                TaskProgressColumn(),
                console=self._console,
                transient=True,
            )
            self._progress.start()
        if description not in self._tasks:
            self._tasks[description] = self._progress.add_task(description, total=total)
        return self._tasks[description]

    def _finish(self, description: str) -> None:
        task = self._tasks.pop(description, None)
        if task is not None:
            self._progress.remove_task(task)
        if not self._tasks and self._progress is not None:
            self._progress.stop()
            self._progress = None


@_command("Score labelled questions per backend × format × output: recall, completeness.")
def bench(
    ctx: typer.Context,
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    bench_file: BenchFileOption = None,
    backend: BackendsOption = None,
    format: FormatsOption = None,
    ks: KsOption = None,
    budgets: BudgetsOption = None,
    output: OutputOption = None,
    options: OptionsOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    strict: Annotated[bool, _flag("strict")] = False,
    quiet: QuietOption = False,
    as_json: Annotated[
        bool,
        typer.Option("-j", "--json", help="Print one JSON object (with per-question results)."),
    ] = False,
    markdown: MarkdownOption = None,
    plot: Annotated[
        str | None,
        typer.Option(
            "--plot",
            metavar="DIR",
            help="Also draw recall and completeness charts (SVG) into this folder.",
        ),
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(
            "--baseline",
            metavar="FILE",
            show_default=False,
            help="Compare with an earlier `bench --json` result of the same questions, rows, "
            "ks and budgets: each measure's change per row; --markdown then writes a "
            "comment-sized summary of the changes instead of the tables.",
        ),
    ] = None,
    max_drop: MaxDropOption = None,
) -> None:
    """Score labelled questions: recall@k, MRR, token cost, budget sweeps and completeness
    (every expected coordinate shown) per backend × format × output."""
    with _one_shot(), _user_errors():
        from pathlib import Path

        from schemanav.bench.report import print_tables, write_markdown
        from schemanav.bench.runner import run_bench
        from schemanav.compare.baseline import Baseline

        settings = _settings(ctx)
        _check_outputs(markdown, plot)  # before the work, not after it
        check = Baseline.open("bench", baseline, max_drop=max_drop)
        if check:
            check.check_settings(settings)
        reporter = _Reporter(quiet=settings.quiet)
        report = run_bench(settings, reporter)
        comparison = check.quality(report.as_dict()) if check else None
        # The results first: a file that still cannot be written loses nothing.
        if as_json:
            payload = report.as_dict()
            if comparison is not None:
                payload["baseline"] = comparison.as_dict()
            _print_json(payload)
        else:
            print_tables(_stdout(), report)
        if markdown is not None and comparison is None:
            write_markdown(report, Path(markdown))
            reporter.note(f"wrote {markdown}")
        if plot is not None:
            from schemanav.bench.plot import write_plots

            for path in write_plots(report, Path(plot)):
                reporter.note(f"wrote {path}")
        if comparison is not None:
            from schemanav.compare.report import bench_tables

            _finish_comparison(
                "schemanav bench", list(comparison.findings()), bench_tables(comparison),
                regressed=bool(comparison.regressions), show_tables=not as_json,
                markdown=markdown, quiet=settings.quiet,
            )  # fmt: skip


def _finish_comparison(
    title: str,
    findings: "list[Finding]",
    tables: "Sequence[TextTable]",
    *,
    regressed: bool,
    show_tables: bool,
    markdown: str | None,
    quiet: bool,
    below_output: bool = True,
) -> None:
    """Print a comparison's tables and verdict (`below_output`: under the command's own
    tables, a blank line apart), write its summary, exit 1 on a regression."""
    from pathlib import Path

    from schemanav.compare.findings import Severity
    from schemanav.compare.report import print_text_tables, summary_markdown, verdict
    from schemanav.outputs import write_output_file

    if show_tables:
        out = _stdout()
        if below_output:
            out.print()
        print_text_tables(out, tables)
        out.print()
        out.print(f"{title}: {verdict(regressed)}", markup=False)
    for finding in findings:
        if finding.severity is Severity.REGRESSION:
            _stderr().print(f"regression: {strip_control(finding.text)}", markup=False)
    if markdown is not None:
        write_output_file(Path(markdown), summary_markdown(title, regressed, findings, tables))
        if not quiet:
            _stderr().print(f"wrote {markdown}", markup=False)
    if regressed:
        raise typer.Exit(1)


def _check_outputs(markdown: str | None, plot: str | None) -> None:
    """Refuse an output path that cannot be written (or a missing matplotlib for --plot)."""
    from schemanav.errors import SchemanavError, install_extra
    from schemanav.outputs import check_output_target

    if plot is not None:
        try:
            import matplotlib.figure  # noqa: F401
        except ImportError:
            raise SchemanavError(f"--plot needs matplotlib: {install_extra('plot')}") from None
        check_output_target("--plot", plot, folder=True)
    if markdown is not None:
        check_output_target("--markdown", markdown)


@_command("Let a model (Ollama or OpenAI-compatible) answer a task by navigating the schema.")
def agent(
    ctx: typer.Context,
    task: Annotated[
        str,
        typer.Argument(help="What the agent should find out, in any words.", metavar="TASK"),
    ],
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    model: ModelOption = None,
    ollama_host: OllamaHostOption = None,
    chat_api: ChatApiOption = None,
    chat_url: ChatUrlOption = None,
    chat_key_env: ChatKeyEnvOption = None,
    temperature: TemperatureOption = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", metavar="N", help="Seed sent with every model call.", show_default=False
        ),
    ] = None,
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
    max_calls: MaxCallsOption = None,
    num_ctx: NumCtxOption = None,
    endpoint: EndpointOption = None,
    allow_mutations: Annotated[bool, _flag("allow_mutations")] = False,
    response_token_cap: Annotated[int | None, _flag("response_token_cap", metavar="N")] = None,
    max_depth: MaxDepthOption = None,
    max_aliases: MaxAliasesOption = None,
    max_nodes: MaxNodesOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    chat_timeout: ChatTimeoutOption = None,
    transcript: Annotated[
        str | None,
        typer.Option(
            "--transcript",
            metavar="FILE",
            help="Write the whole conversation as JSON here.",
            show_default=False,
        ),
    ] = None,
    receipt_json: Annotated[
        str | None,
        typer.Option(
            "--receipt-json",
            metavar="FILE",
            help="Write the context receipt as JSON here.",
            show_default=False,
        ),
    ] = None,
    quiet: QuietOption = False,
) -> None:
    """Let a model (Ollama, or any server of the OpenAI chat-completions API with --chat-api
    openai) answer TASK with searchSchema / introspectType / executeGraphql
    (or with the whole schema inline), and print the context receipt of the run."""
    with _user_errors():
        from schemanav.agent import run_agent
        from schemanav.errors import SchemanavError
        from schemanav.outputs import check_output_target
        from schemanav.render import render_receipt

        settings = _settings(ctx)
        _one_backend(settings, "agent")
        for flag, path in (("--transcript", transcript), ("--receipt-json", receipt_json)):
            if path is not None:
                check_output_target(flag, path)  # before the run, not after it
        run = run_agent(
            task, settings, inline=inline, events=_Reporter(quiet=settings.quiet), seed=seed
        )
        if transcript is not None:
            _write_json(transcript, run.transcript)
        if receipt_json is not None:
            _write_json(receipt_json, run.receipt.as_dict())
        render_receipt(_stdout(), run.receipt)
        if run.receipt.error is not None:
            raise SchemanavError(run.receipt.error)


def _write_json(path: str, payload: object) -> None:
    """A regular file or a new path only (never a device, FIFO or symlink), mode kept."""
    from schemanav.outputs import write_output_file

    write_output_file(path, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


@_command("Print the SDL of schema coordinates (the RFC's __definitions).")
def define(
    ctx: typer.Context,
    coordinates: Annotated[
        list[str],
        typer.Argument(
            help="Schema coordinates: Type, Type.field, Type.field(arg:), Enum.VALUE, @directive",
            metavar="COORD",
        ),
    ],
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    cache_dir: CacheDirOption = None,
    quiet: QuietOption = False,
    as_json: Annotated[
        bool, typer.Option("-j", "--json", help="Introspection-shaped records instead of SDL.")
    ] = False,
) -> None:
    """Print the definitions of schema coordinates, in the order given (__definitions of the
    semantic introspection RFC); an unknown coordinate is bad input (exit 2)."""
    with _one_shot(), _user_errors():
        from schemanav.navigator import Navigator
        from schemanav.render import render_definitions, unknown_definition_errors

        settings = _settings(ctx)
        definitions = Navigator(settings, _Reporter(quiet=settings.quiet)).define(coordinates)
        if as_json:
            _print_json([definition.as_dict() for definition in definitions])
        else:
            render_definitions(_stdout(), definitions)
        errors = unknown_definition_errors(definitions)
        for line in errors:
            _stderr().print(strip_control(line), markup=False)
        if errors:
            raise typer.Exit(2)


# build and agent-bench (issue 12) -----------------------------------------------------------


@_command("Write one valid operation from field coordinates (a path from the root).")
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
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    cache_dir: CacheDirOption = None,
    leaf_fields: Annotated[
        int,
        typer.Option(
            "--leaf-fields",
            min=1,
            metavar="N",
            help="Leaf fields selected under an object end [default: 3]",
            show_default=False,
        ),
    ] = 3,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Write one operation containing the coordinates, with typed variables and leaf fields,
    and validate it against the schema."""
    with _one_shot(), _user_errors():
        from schemanav.build import build_operation
        from schemanav.navigator import Navigator

        settings = _settings(ctx)
        loaded = Navigator(settings, _Reporter(quiet=settings.quiet)).loaded
        result = build_operation(loaded.schema, coordinates, leaf_fields=leaf_fields)
        if as_json:
            _print_json(result.as_dict())
        else:
            _stdout().print(result.operation, markup=False, soft_wrap=True)
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


@app.command(
    "agent-bench",
    cls=_Command,
    short_help="Run the agent on every task in each mode and compare the modes.",
    epilog=SETTINGS_EPILOG,
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
    mode: Annotated[
        str,
        typer.Option(
            "--mode",
            metavar="MODE,…",
            help="Modes, comma-separated: inline, navigate, slice, oracle [default: all four]",
            show_default=False,
        ),
    ] = "inline,navigate,slice,oracle",
    results: Annotated[
        str,
        typer.Option(
            "--results",
            metavar="FILE",
            help="JSONL file results are appended to; a rerun skips finished tasks "
            "[default: agent-bench.jsonl]",
            show_default=False,
        ),
    ] = "agent-bench.jsonl",
    limit: Annotated[
        int | None,
        typer.Option("--limit", min=1, metavar="N", help="Only the first N tasks."),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            metavar="N",
            help="Seed sent with every model call [default: 0]",
            show_default=False,
        ),
    ] = 0,
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    model: ModelOption = None,
    ollama_host: OllamaHostOption = None,
    chat_api: ChatApiOption = None,
    chat_url: ChatUrlOption = None,
    chat_key_env: ChatKeyEnvOption = None,
    temperature: TemperatureOption = None,
    slice_budget: Annotated[int | None, _flag("slice_budget", metavar="N")] = None,
    backend: BackendOption = None,
    format: FormatOption = None,
    k: KOption = None,
    budget: BudgetOption = None,
    options: OptionsOption = None,
    max_calls: MaxCallsOption = None,
    num_ctx: NumCtxOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    chat_timeout: ChatTimeoutOption = None,
    quiet: QuietOption = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object (with every task's result).")
    ] = False,
    markdown: MarkdownOption = None,
) -> None:
    """Run the agent on every task in each mode (inline, navigate, slice, oracle), score each run
    without a live API, and compare the modes."""
    with _user_errors():
        from pathlib import Path

        from schemanav.agentbench.report import report_markdown, summarise, tables
        from schemanav.agentbench.runner import parse_modes, run_agent_bench
        from schemanav.bench.report import to_rich, write_output_file
        from schemanav.outputs import check_output_target

        modes = parse_modes(mode)
        settings = _settings(ctx)
        check_output_target("--results", results)  # before the runs, not after them
        if markdown is not None:
            check_output_target("--markdown", markdown)
        reporter = _Reporter(quiet=settings.quiet)
        run = run_agent_bench(
            settings, tasks, modes, results, seed=seed, limit=limit, events=reporter
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


RefreshOption = Annotated[
    float | None,
    typer.Option(
        "--refresh",
        help="Re-read the schema every SECONDS (a URL schema; a file is re-read when it "
        "changes, and SIGHUP re-reads either).",
        metavar="SECONDS",
    ),
]

ForwardHeaderOption = Annotated[
    list[str] | None,
    typer.Option(
        "--forward-header",
        help="Pass this header from the caller to the API (repeatable; never logged, "
        "redacted from every answer).",
        metavar="NAME",
    ),
]


@_command("Serve search, define, validate and execute as MCP tools.")
def mcp(
    ctx: typer.Context,
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    endpoint: EndpointOption = None,
    allow_mutations: Annotated[
        bool, _flag("allow_mutations", help=SERVER_SETTING_HELP["mcp.allow_mutations"])
    ] = False,
    backend: BackendOption = None,
    format: FormatOption = None,
    options: OptionsOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    http: Annotated[
        str | None,
        typer.Option(
            "--http",
            metavar="HOST:PORT",
            help="Serve streamable HTTP on HOST:PORT (path /mcp) instead of stdio.",
        ),
    ] = None,
    refresh: RefreshOption = None,
    forward_header: ForwardHeaderOption = None,
    max_depth: MaxDepthOption = None,
    max_aliases: MaxAliasesOption = None,
    max_nodes: MaxNodesOption = None,
    operations: Annotated[
        str | None,
        typer.Option(
            "--operations",
            help="Offer each named operation in DIR/*.graphql as a tool of its own.",
            metavar="DIR",
        ),
    ] = None,
    quiet: QuietOption = False,
) -> None:
    """Serve search_schema / define / validate / execute as MCP tools (stdio by default)."""
    with _user_errors():
        from schemanav.navigator import Navigator
        from schemanav.servers.mcp_server import parse_host_port, run_mcp

        address = parse_host_port(http) if http is not None else None
        settings = _settings(ctx)
        reporter = _Reporter(quiet=settings.quiet)
        run_mcp(
            Navigator(settings, reporter),
            http=address,
            events=reporter,
            refresh=refresh,
            forward_headers=tuple(forward_header or ()),
            operations=operations,
        )


@_command("Serve the schema over GraphQL with __search and __definitions.")
def serve(
    ctx: typer.Context,
    schema: SchemaOption = None,
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    upstream: Annotated[
        str | None,
        typer.Option(
            "--upstream", metavar="URL", help="GraphQL URL that runs every other operation"
        ),
    ] = None,
    allow_mutations: Annotated[
        bool, _flag("allow_mutations", help=SERVER_SETTING_HELP["serve.allow_mutations"])
    ] = False,
    backend: BackendOption = None,
    options: OptionsOption = None,
    cache_dir: CacheDirOption = None,
    max_paths: MaxPathsOption = None,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="HOST",
            help="Address to listen on [default: 127.0.0.1]",
            show_default=False,
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            "--port",
            min=0,
            max=65535,
            metavar="PORT",
            help="Port, 0-65535 (0: a free one) [default: 8000]",
            show_default=False,
        ),
    ] = 8000,
    refresh: RefreshOption = None,
    forward_header: ForwardHeaderOption = None,
    max_depth: MaxDepthOption = None,
    max_aliases: MaxAliasesOption = None,
    max_nodes: MaxNodesOption = None,
    quiet: QuietOption = False,
) -> None:
    """Serve the schema over GraphQL with __search and __definitions on the query root."""
    with _user_errors():
        from schemanav.navigator import Navigator
        from schemanav.servers.graphql_endpoint import run_serve

        settings = _settings(ctx)
        reporter = _Reporter(quiet=settings.quiet)
        navigator = Navigator(settings, reporter)
        run_serve(
            navigator,
            upstream=upstream,
            host=host,
            port=port,
            events=reporter,
            refresh=refresh,
            forward_headers=tuple(forward_header or ()),
        )


@_command("What a schema change did: coordinates, token costs and labelled questions.")
def diff(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(help="The schema before (file or URL).", metavar="OLD")],
    new: Annotated[str, typer.Argument(help="The schema after (file or URL).", metavar="NEW")],
    header: HeaderOption = None,
    timeout: TimeoutOption = None,
    bench_file: BenchFileOption = None,  # the setting's own help; without it, no questions
    backend: BackendOption = None,
    format: FormatOption = None,
    ks: KsOption = None,
    budgets: BudgetsOption = None,
    output: OutputOption = None,
    options: OptionsOption = None,
    cache_dir: CacheDirOption = None,
    max_drop: MaxDropOption = None,
    max_growth: MaxGrowthOption = None,
    allow_breaking: Annotated[
        bool,
        typer.Option(
            "--allow-breaking",
            help="Report breaking changes (graphql-core's) without failing the check.",
        ),
    ] = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
    markdown: Annotated[
        str | None,
        typer.Option(
            "--markdown",
            metavar="FILE",
            show_default=False,
            help="Also write a comment-sized markdown summary (worst three changes first).",
        ),
    ] = None,
) -> None:
    """Compare schema OLD with NEW: coordinates added, removed and changed (type, arguments,
    deprecation, description), graphql-core's breaking and dangerous changes, the tokens of
    every form; with --bench-file, the questions whose labels name a removed or changed
    coordinate and the questions whose completeness changed (no questions without it).
    Exit 1 on a breaking change (unless --allow-breaking) or past --max-drop / --max-growth."""
    with _one_shot(), _user_errors():
        from schemanav.compare import diff_schema_versions
        from schemanav.compare.findings import check_max_drop, check_max_growth
        from schemanav.compare.report import diff_tables
        from schemanav.errors import InputError

        settings = _settings(ctx)
        check_max_drop(max_drop)
        check_max_growth(max_growth)
        if max_drop is not None and not settings.bench_file:
            raise InputError(
                "--max-drop needs --bench-file TSV: the questions whose drop it limits"
            )
        _check_outputs(markdown, None)
        result = diff_schema_versions(
            settings,
            old,
            new,
            max_drop=max_drop,
            max_growth=max_growth,
            allow_breaking=allow_breaking,
            events=_Reporter(quiet=settings.quiet),
        )
        if as_json:
            _print_json(result.as_dict())
        _finish_comparison(
            f"schemanav diff {result.old} → {result.new}", list(result.findings()),
            diff_tables(result), regressed=result.regressed, show_tables=not as_json,
            markdown=markdown, quiet=settings.quiet, below_output=False,
        )  # fmt: skip


def main() -> None:
    """The `schemanav` executable: run the command, then leave at once.

    A run over a large schema leaves millions of objects (parsed schema, corpus, indexes);
    the interpreter's shutdown would spend 1-3 s garbage-collecting and freeing them after
    the output is printed. Every file was written (atomically) and every stream is flushed
    here, so the process exits without that teardown, as mypy does.
    """
    import os

    # pydantic reads only schemanav's own settings and typer's parameters here: skip its
    # plugin discovery, a scan of every installed package's entry points (15-20 ms of every
    # command). A value the user set is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # numpy's OpenBLAS starts a spinning thread per core as it loads: 0.05-0.08 s of CPU in
    # every command that searches, for matrix products that are never large enough here to
    # share out (a few questions against some thousands of vectors). Kept if the user set it.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    global _EXITS_AFTER_COMMAND
    _EXITS_AFTER_COMMAND = True
    code: int | str | None = 0
    try:
        app()
    except SystemExit as done:
        code = done.code
    if isinstance(code, str):
        sys.stderr.write(code + "\n")
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a closed pipe (`| head`): nothing more can be said
        code = code or 1
    os._exit(code or 0)
